package native

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/workload"
)

func TestInvalidWorkloads(t *testing.T) {
	tests := []struct {
		name   string
		change func(w *workload.Workload)
		field  string
		says   string
	}{
		{"unknown rw", func(w *workload.Workload) { w.RW = "trim" }, "rw", "use one of randread, randrw, randwrite, read, rw, write"},
		{"empty rw", func(w *workload.Workload) { w.RW = "" }, "rw", `rw = ""`},
		{"zero bs", func(w *workload.Workload) { w.BS = 0 }, "bs", "bs = 0"},
		{"negative bs", func(w *workload.Workload) { w.BS = -4096 }, "bs", "positive"},
		{"zero iodepth", func(w *workload.Workload) { w.IODepth = 0 }, "iodepth", "at least 1"},
		{"too many outstanding I/Os", func(w *workload.Workload) { w.NumJobs, w.IODepth = 1<<40, 1<<40 }, "iodepth", "more than 65536 outstanding I/Os"},
		{"zero numjobs", func(w *workload.Workload) { w.NumJobs = 0 }, "numjobs", "at least 1"},
		{"read_pct over 100", func(w *workload.Workload) { w.ReadPct = 101 }, "read_pct", "between 0 and 100"},
		{"negative read_pct", func(w *workload.Workload) { w.ReadPct = -1 }, "read_pct", "between 0 and 100"},
		{"negative runtime", func(w *workload.Workload) { w.Runtime = -time.Second }, "runtime", "negative"},
		{"negative ramp", func(w *workload.Workload) { w.Ramp = -time.Second }, "ramp", "negative"},
		{"negative bytes", func(w *workload.Workload) { w.Bytes = -1 }, "bytes", "negative"},
		{"bytes not whole blocks", func(w *workload.Workload) { w.Bytes = 6000 }, "bytes", "not a multiple of bs = 4096"},
		{"negative loops", func(w *workload.Workload) { w.Loops = -2 }, "loops", "negative"},
		{"negative offset", func(w *workload.Workload) { w.Offset = -4096 }, "offset", "negative"},
		{"negative size", func(w *workload.Workload) { w.Size = -1 }, "size", "negative"},
		{"size_pct over 100", func(w *workload.Workload) { w.SizePct = 150 }, "size_pct", "between 0 and 100"},
		{"unknown ioengine", func(w *workload.Workload) { w.IOEngine = "libaio" }, "ioengine", "use io_uring, psync"},
		{"psync with too many threads", func(w *workload.Workload) { w.IOEngine, w.NumJobs, w.IODepth = "psync", 8, 1024 }, "iodepth", `set ioengine = "io_uring"`},
		{"io_uring deeper than a ring", func(w *workload.Workload) { w.IOEngine, w.IODepth = "io_uring", 65536 }, "iodepth", "more than an io_uring holds"},
		{"negative bytes_pct", func(w *workload.Workload) { w.BytesPct = -1 }, "bytes_pct", "at least 0"},
		{"bytes and bytes_pct", func(w *workload.Workload) { w.Bytes, w.BytesPct = 4096, 100 }, "bytes_pct", "both set"},
		{"negative rate_iops", func(w *workload.Workload) { w.RateIOPS = -5 }, "rate_iops", "or 0 for no limit"},
		{"infinite rate_bw", func(w *workload.Workload) { w.RateBW = math.Inf(1) }, "rate_bw", "positive number of bytes"},
		{"two rate targets", func(w *workload.Workload) { w.RateIOPS, w.RateBW = 100, 1<<20 }, "rate_bw", "drop one"},
		{"unknown arrival", func(w *workload.Workload) { w.Arrival = "bursty" }, "arrival", `use "uniform" or "poisson"`},
		{"poisson without a rate", func(w *workload.Workload) { w.Arrival = "poisson" }, "arrival", "needs a rate target"},
		{"bs_split weights", func(w *workload.Workload) {
			w.BSSplit = []workload.SizeWeight{{Size: 4096, Weight: 60}, {Size: 8192, Weight: 30}}
		}, "bs_split", "add up to 90%"},
		{"bs_split size", func(w *workload.Workload) { w.BSSplit = []workload.SizeWeight{{Size: 0, Weight: 100}} }, "bs_split", "entry 1: size = 0"},
		{"bs_split larger than the region", func(w *workload.Workload) {
			w.Size, w.BSSplit = 8192, []workload.SizeWeight{{Size: 4096, Weight: 50}, {Size: 65536, Weight: 50}}
		}, "bs_split", "bigger than the 8192-byte region"},
		{"bytes off the bs_split grid", func(w *workload.Workload) {
			w.Bytes, w.BSSplit = 6144, []workload.SizeWeight{{Size: 4096, Weight: 50}, {Size: 8192, Weight: 50}}
		}, "bytes", "not a multiple of 4096 bytes (the largest size dividing every bs_split size)"},
		{"seq_pct over 100", func(w *workload.Workload) { w.SeqPct = 120 }, "seq_pct", "between 0 and 100"},
		{"seq_pct on a sequential pattern", func(w *workload.Workload) { w.RW, w.SeqPct = "read", 50 }, "seq_pct", "sequential already"},
		{"zones on a sequential pattern", func(w *workload.Workload) { w.RW, w.Zones = "write", []workload.Zone{{AccessPct: 100, RegionPct: 100}} }, "zones", "skew random offsets"},
		{"zones access", func(w *workload.Workload) {
			w.Zones = []workload.Zone{{AccessPct: 80, RegionPct: 50}, {AccessPct: 10, RegionPct: 50}}
		}, "zones", "access_pct add up to 90%"},
		{"zones region", func(w *workload.Workload) {
			w.Zones = []workload.Zone{{AccessPct: 50, RegionPct: 0}, {AccessPct: 50, RegionPct: 100}}
		}, "zones", "zone 1: region_pct = 0"},
		{"zone without a block", func(w *workload.Workload) {
			w.Size, w.Zones = 8*4096, []workload.Zone{{AccessPct: 50, RegionPct: 1}, {AccessPct: 50, RegionPct: 99}}
		}, "zones", "zone 1 (region_pct = 1) holds no whole block"},
		{"unknown data", func(w *workload.Workload) { w.Data = "ones" }, "data", `data = "ones"`},
		{"compress_pct without compressible", func(w *workload.Workload) { w.CompressPct = 50 }, "compress_pct", `data = "compressible"`},
		{"compress_pct over 100", func(w *workload.Workload) { w.Data, w.CompressPct = "compressible", 101 }, "compress_pct", "between 0 and 100"},
		{"dedupe_pct without dedupe", func(w *workload.Workload) { w.DedupePct = 50 }, "dedupe_pct", `data = "dedupe"`},
		{"verify without writes", func(w *workload.Workload) { w.Verify = true }, "verify", "does not write"},
		{"verify with dedupe", func(w *workload.Workload) { w.RW, w.Verify, w.Data = "randwrite", true, "dedupe" }, "verify", "defeats"},
		{"verify with tiny blocks", func(w *workload.Workload) { w.RW, w.Verify, w.BS = "randwrite", true, 32 }, "verify", "at least 64 bytes"},
		{"offset past the end", func(w *workload.Workload) { w.Offset = 1 << 20 }, "offset", "capacity 1048576"},
		{"size past the end", func(w *workload.Workload) { w.Offset, w.Size = 512<<10, 768<<10 }, "size", "= 1310720 bytes reaches past the end"},
		{"size_pct past the end", func(w *workload.Workload) { w.Offset, w.SizePct = 512<<10, 75 }, "size_pct", "reaches past the end"},
		{"region under one block", func(w *workload.Workload) { w.Size = 4000 }, "size", "no whole block of bs = 4096"},
		{"more sequential jobs than blocks", func(w *workload.Workload) { w.RW, w.Size, w.NumJobs = "write", 8192, 3 }, "numjobs", "exceeds the 2 blocks"},
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
	w := workload.Workload{RW: "randread", BS: 0, IODepth: 0, NumJobs: 1}
	err := validate(w)
	for _, want := range []string{"workload bs", "workload iodepth"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not mention %q", err, want)
		}
	}
}

func TestTargetDependentLimits(t *testing.T) {
	tests := []struct {
		name     string
		w        workload.Workload
		capacity int64
		field    string
		says     string
	}{
		{name: "verify table", w: workload.Workload{RW: "write", BS: 4096, IODepth: 1, NumJobs: 1, Verify: true}, capacity: 1 << 41,
			field: "verify", says: "verify keeps 4 bytes for each of the region's 536870912 blocks"},
		{name: "direct bs_split", w: workload.Workload{RW: "randread", IODepth: 1, NumJobs: 1, Direct: true,
			BSSplit: []workload.SizeWeight{{Size: 4096, Weight: 50}, {Size: 6144, Weight: 50}}}, capacity: 1 << 20,
			field: "bs_split", says: "bs_split = 6KiB is not a multiple of 4KiB, the logical block size of /nonexistent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Engine{}.Run(context.Background(), driver.Target{Path: "/nonexistent", Capacity: tt.capacity}, tt.w, nil)
			var we *WorkloadError
			if !errors.As(err, &we) || we.Field != tt.field || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("error %v, want a %s error saying %q", err, tt.field, tt.says)
			}
		})
	}
}
