package native

import (
	"context"
	"errors"
	"github.com/drivebench/drivebench/engine/driver"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/plan"
)

func TestInvalidWorkloads(t *testing.T) {
	tests := []struct {
		name   string
		change func(w *plan.Workload)
		field  string
		says   string
	}{
		{"unknown rw", func(w *plan.Workload) { w.RW = "trim" }, "rw", "use one of randread, randrw, randwrite, read, rw, write"},
		{"empty rw", func(w *plan.Workload) { w.RW = "" }, "rw", `rw = ""`},
		{"zero bs", func(w *plan.Workload) { w.BS = 0 }, "bs", "bs = 0"},
		{"negative bs", func(w *plan.Workload) { w.BS = -4096 }, "bs", "positive"},
		{"zero iodepth", func(w *plan.Workload) { w.IODepth = 0 }, "iodepth", "at least 1"},
		{"too many outstanding I/Os", func(w *plan.Workload) { w.NumJobs, w.IODepth = 1<<40, 1<<40 }, "iodepth", "more than 65536 outstanding I/Os"},
		{"zero numjobs", func(w *plan.Workload) { w.NumJobs = 0 }, "numjobs", "at least 1"},
		{"read_pct over 100", func(w *plan.Workload) { w.ReadPct = 101 }, "read_pct", "between 0 and 100"},
		{"negative read_pct", func(w *plan.Workload) { w.ReadPct = -1 }, "read_pct", "between 0 and 100"},
		{"negative runtime", func(w *plan.Workload) { w.Runtime = -time.Second }, "runtime", "negative"},
		{"negative ramp", func(w *plan.Workload) { w.Ramp = -time.Second }, "ramp", "negative"},
		{"negative bytes", func(w *plan.Workload) { w.Bytes = -1 }, "bytes", "negative"},
		{"bytes not whole blocks", func(w *plan.Workload) { w.Bytes = 6000 }, "bytes", "not a multiple of bs = 4096"},
		{"negative loops", func(w *plan.Workload) { w.Loops = -2 }, "loops", "negative"},
		{"negative offset", func(w *plan.Workload) { w.Offset = -4096 }, "offset", "negative"},
		{"negative size", func(w *plan.Workload) { w.Size = -1 }, "size", "negative"},
		{"size_pct over 100", func(w *plan.Workload) { w.SizePct = 150 }, "size_pct", "between 0 and 100"},
		{"unknown ioengine", func(w *plan.Workload) { w.IOEngine = "libaio" }, "ioengine", "use psync"},
		{"offset past the end", func(w *plan.Workload) { w.Offset = 1 << 20 }, "offset", "capacity 1048576"},
		{"size past the end", func(w *plan.Workload) { w.Offset, w.Size = 512<<10, 768<<10 }, "size", "= 1310720 bytes reaches past the end"},
		{"size_pct past the end", func(w *plan.Workload) { w.Offset, w.SizePct = 512<<10, 75 }, "size_pct", "reaches past the end"},
		{"region under one block", func(w *plan.Workload) { w.Size = 4000 }, "size", "no whole block of bs = 4096"},
		{"more sequential jobs than blocks", func(w *plan.Workload) { w.RW, w.Size, w.NumJobs = "write", 8192, 3 }, "numjobs", "exceeds the 2 blocks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := baseWorkload()
			tt.change(&w)
			res, err := Engine{}.Run(context.Background(), driver.Target{Path: "/nonexistent", Capacity: 1 << 20}, w, nil)
			var we *WorkloadError
			if !errors.As(err, &we) || we.Field != tt.field || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("error %v, want a %s error saying %q", err, tt.field, tt.says)
			}
			if res != nil {
				t.Errorf("result %+v for an invalid workload", res)
			}
		})
	}
}

func TestInvalidWorkloadReportsEveryProblem(t *testing.T) {
	w := plan.Workload{RW: "randread", BS: 0, IODepth: 0, NumJobs: 1}
	err := validate(w)
	for _, want := range []string{"workload bs", "workload iodepth"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not mention %q", err, want)
		}
	}
}
