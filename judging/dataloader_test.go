package judging

import (
	"maps"
	"testing"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// TestAUVerdict: a dataloader's utilisation is held against its target
// as data (code, measured and claimed in percent), and the expectation
// machinery finds it among the step's verdicts.
func TestAUVerdict(t *testing.T) {
	n := &plan.Node{Name: "d / train", Drive: "d", Source: "train", Dataloader: &plan.Dataloader{AUTarget: 0.9}}
	cases := []struct {
		au           float64
		status, code string
		message      string
	}{
		{0.95, results.VerdictPass, results.CodeAUReached, "train: accelerator utilisation 95.0% reached the 90% target"},
		{0.9, results.VerdictPass, results.CodeAUReached, "train: accelerator utilisation 90.0% reached the 90% target"},
		// 4 batches that waited 100 ms each of a 1 s run: 40% waiting
		// for samples, 18.8% idle otherwise (a compute time overslept)
		{0.412, results.VerdictFail, results.CodeAUShort, "train: accelerator utilisation 41.2%, short of the 90% target: the accelerator was idle 58.8% of the run, its batches waiting for their samples 40.0%"},
	}
	for _, c := range cases {
		dl := &metrics.Dataloader{AU: c.au, Batches: 4, BatchWait: metrics.LatencySummary{Mean: 100e6}}
		rec := &results.Record{Status: results.StatusOK, Result: &metrics.Result{RuntimeNs: 1e9, Dataloader: dl}}
		vs := Expect(n, rec, nil)
		if len(vs) != 1 {
			t.Fatalf("AU %v: verdicts %+v", c.au, vs)
		}
		v := vs[0]
		if v.Status != c.status || v.Code != c.code || v.Message != c.message || v.Subject != "train: accelerator utilisation >= 90%" || !IsExpectVerdict(v) {
			t.Errorf("AU %v: verdict %+v", c.au, v)
		}
		if f := v.Figure; f == nil || f.Metric != "au" || f.Claimed != 90 || *f.Measured != c.au*100 || f.Unit != "%" || f.Better != "higher" {
			t.Errorf("AU %v: figure %+v", c.au, v.Figure)
		}
	}
	if v := AU(&plan.Node{Name: "d / p"}, &results.Record{Result: &metrics.Result{}}); v != nil {
		t.Errorf("a profile got an AU verdict %+v", v)
	}
}

// TestDataloaderMeasured: an expectation sees every figure the registry
// gives a dataloader, batch waits in µs, and no dataloader of a profile.
func TestDataloaderMeasured(t *testing.T) {
	d := &metrics.Dataloader{AU: 0.8, SamplesPerSec: 50, BatchWait: metrics.LatencySummary{Mean: 3000, Max: 9000,
		Percentiles: []metrics.Percentile{{P: 50, Ns: 2000}, {P: 99, Ns: 8000}}}}
	got := Measured(&metrics.Result{Dataloader: d}).Dataloader
	want := map[string]float64{"au": 0.8, "samples_per_s": 50, "batch_wait_mean_us": 3, "batch_wait_p50_us": 2, "batch_wait_p99_us": 8, "batch_wait_max_us": 9}
	if !maps.Equal(got, want) {
		t.Errorf("result.dataloader = %v, want %v", got, want)
	}
	if m := Measured(&metrics.Result{}); m.Dataloader != nil {
		t.Errorf("a profile's result.dataloader = %v", m.Dataloader)
	}
}
