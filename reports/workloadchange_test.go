package reports

import (
	"reflect"
	"testing"
	"time"

	"github.com/drivebench/drivebench/workload"
)

// TestWorkloadDiff: every parameter that changes what a step measures is
// named with its two values; duration and seed are not.
func TestWorkloadDiff(t *testing.T) {
	base := func() *workload.Workload {
		return &workload.Workload{RW: "randread", ReadPct: 100, BS: 4096, IODepth: 16, NumJobs: 4, Direct: true,
			Engine: "native", Runtime: time.Minute, Seed: 1}
	}
	tests := []struct {
		name   string
		change func(w *workload.Workload)
		want   []ParamChange
	}{
		{"same", func(*workload.Workload) {}, nil},
		{"runtime, ramp and seed", func(w *workload.Workload) { w.Runtime, w.Ramp, w.Seed = time.Second, time.Second, 7 }, nil},
		{"block size", func(w *workload.Workload) { w.BS = 16384 }, []ParamChange{{"bs", "4KiB", "16KiB"}}},
		{"a split", func(w *workload.Workload) {
			w.BSSplit = []workload.SizeWeight{{Size: 4096, Weight: 10}, {Size: 8192, Weight: 90}}
		}, []ParamChange{{"bs", "4KiB", "—"}, {"bs_split", "—", "4KiB 10%, 8KiB 90%"}}},
		{"pattern and its data", func(w *workload.Workload) { w.RW, w.ReadPct = "randwrite", 0 }, []ParamChange{{"rw", "randread", "randwrite"}, {"data", "—", "random"}}},
		{"mix", func(w *workload.Workload) { w.RW, w.ReadPct = "randrw", 70 }, []ParamChange{{"rw", "randread", "randrw"}, {"read_pct", "—", "70"}, {"data", "—", "random"}}},
		{"random share", func(w *workload.Workload) { w.SeqPct = 10 }, []ParamChange{{"random_pct", "100", "90"}}},
		{"skew", func(w *workload.Workload) {
			w.Zones = []workload.Zone{{AccessPct: 80, RegionPct: 20}, {AccessPct: 20, RegionPct: 80}}
		},
			[]ParamChange{{"zones", "uniform", "80% of I/Os in 20% of the region, 20% of I/Os in 80% of the region"}}},
		{"depth and jobs", func(w *workload.Workload) { w.IODepth, w.NumJobs = 1, 1 }, []ParamChange{{"iodepth", "16", "1"}, {"numjobs", "4", "1"}}},
		{"page cache", func(w *workload.Workload) { w.Direct = false }, []ParamChange{{"direct", "true", "false"}}},
		{"engine", func(w *workload.Workload) { w.Engine, w.IOEngine = "fio", "libaio" }, []ParamChange{{"engine", "native", "fio"}, {"ioengine", "—", "libaio"}}},
		{"region", func(w *workload.Workload) { w.SizePct = 25 }, []ParamChange{{"size", "to the end of the drive", "25% of the drive"}}},
		{"fixed cap", func(w *workload.Workload) { w.RateIOPS = 5000 }, []ParamChange{{"rate_iops", "no limit", "5000"}}},
		{"a curve's cap follows its maximum", func(w *workload.Workload) { w.RatePct, w.RateIOPS = 50, 123456 }, []ParamChange{{"rate_iops", "no limit", "50% of the maximum"}}},
		{"verify", func(w *workload.Workload) { w.RW, w.ReadPct, w.Verify = "randwrite", 0, true }, []ParamChange{{"rw", "randread", "randwrite"}, {"data", "—", "random"}, {"verify", "false", "true"}}},
		{"poisson arrivals", func(w *workload.Workload) { w.RateIOPS, w.Arrival = 5000, "poisson" }, []ParamChange{{"rate_iops", "no limit", "5000"}, {"arrival", "uniform", "poisson"}}},
		{"compressible data", func(w *workload.Workload) {
			w.RW, w.ReadPct, w.Data, w.CompressPct = "randwrite", 0, "compressible", 50
		},
			[]ParamChange{{"rw", "randread", "randwrite"}, {"data", "—", "compressible"}, {"compress_pct", "—", "50"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next := base()
			tt.change(next)
			if got := workloadDiff(base(), next); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("workloadDiff = %+v, want %+v", got, tt.want)
			}
		})
	}
	if got := workloadDiff(base(), nil); got != nil {
		t.Errorf("a point without a record differs: %+v", got)
	}
}

// TestCompareCurveCaps: the points of two rate curves ran at caps taken
// from each run's own maximum; the same share of it is the same workload.
func TestCompareCurveCaps(t *testing.T) {
	run := func(capIOPS float64) *Summary {
		w := &workload.Workload{RW: "randread", BS: 4096, RatePct: 50, RateIOPS: capIOPS, Engine: "native"}
		return &Summary{Results: []ProfileResult{{Profile: "p", Drive: "d", Rows: []Row{{
			Point: "50% rate", Status: "ok", Total: &Figures{IOPS: capIOPS}, workload: w,
		}}}}}
	}
	c := Compare(run(1000), run(1100), Thresholds{Default: 5})
	if err := c.Refusal(false); err != nil || len(c.WorkloadChanges) != 0 {
		t.Errorf("refused: %v, %+v", err, c.WorkloadChanges)
	}
}
