package engine

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// okRecord is a finished step whose reads all took latNs and ran at iops.
func okRecord(name string, iops float64, latNs ...uint64) *results.Record {
	var h metrics.Histogram
	for _, l := range latNs {
		h.Record(l)
	}
	d := metrics.Summarize(&h, uint64(len(latNs))*4096, time.Second)
	d.IOPS = iops
	return &results.Record{Name: name, Kind: string(plan.KindProfile), Status: results.StatusOK, Result: &metrics.Result{Read: d, RuntimeNs: int64(time.Second)}}
}

func TestResolveRate(t *testing.T) {
	r := &runner{records: map[string]*results.Record{"max": okRecord("max", 40_000, 1000)}}
	w := workload.Workload{RatePct: 25, RateBase: "max"}
	if err := r.resolveRate(&w); err != nil || w.RateIOPS != 10_000 {
		t.Errorf("25%% of 40,000 IOPS: %v, %v", w.RateIOPS, err)
	}
	w = workload.Workload{RatePct: 50, RateBase: "missing"}
	if err := r.resolveRate(&w); err == nil || !strings.Contains(err.Error(), "uncontrolled run") {
		t.Errorf("missing base: %v", err)
	}
}

func TestAggregateUsesLastRounds(t *testing.T) {
	r := &runner{records: map[string]*results.Record{}}
	n := &plan.Node{Aggregate: &workload.Aggregate{Use: "last", Keep: 2}}
	for i, iops := range []float64{100, 200, 300} {
		id := string(rune('a' + i))
		r.records[id] = okRecord(id, iops, uint64(1000*(i+1)))
		n.DependsOn = append(n.DependsOn, id)
	}
	rec := &results.Record{Status: results.StatusOK}
	r.runAggregate(n, rec)
	if rec.Status != results.StatusOK || rec.Result.Read.IOPS != 250 {
		t.Fatalf("aggregate of the last two rounds: %+v", rec)
	}
	if h := rec.Result.Read.Hist; h.Count() != 2 || h.Min() != 2000 || h.Max() != 3000 {
		t.Errorf("merged histogram: n=%d min=%d max=%d", h.Count(), h.Min(), h.Max())
	}
	if math.Abs(rec.Result.Read.Lat.Mean-2500) > 1e-9 {
		t.Errorf("mean latency %v, want 2500", rec.Result.Read.Lat.Mean)
	}
	n.Aggregate.Keep = 5
	rec = &results.Record{Status: results.StatusOK}
	r.runAggregate(n, rec)
	if rec.Status != results.StatusFailed {
		t.Errorf("aggregate with too few rounds: %+v", rec)
	}
}

func TestAggregateUsesBestRounds(t *testing.T) {
	r := &runner{records: map[string]*results.Record{}}
	n := &plan.Node{Aggregate: &workload.Aggregate{Use: "best", Keep: 2}}
	for i, iops := range []float64{300, 100, 200} {
		id := string(rune('a' + i))
		rec := okRecord(id, iops, 1000)
		rec.Result.Read.BW = iops * 4096
		r.records[id] = rec
		n.DependsOn = append(n.DependsOn, id)
	}
	rec := &results.Record{Status: results.StatusOK}
	r.runAggregate(n, rec)
	if rec.Result.Read.IOPS != 250 || !slices.Equal(rec.Uses, []string{"a", "c"}) {
		t.Errorf("best two of 300, 100, 200: IOPS %v, uses %v", rec.Result.Read.IOPS, rec.Uses)
	}
}

// TestRateAboveMax warns only when a rate step beats its curve's maximum
// by more than the maximum's noise, twice the standard error of its whole
// intervals' IOPS.
func TestRateAboveMax(t *testing.T) {
	// intervals of 9,000, 10,000 and 11,000 IOPS: mean 10,000, standard
	// deviation 1,000, noise 2 * 1,000 / sqrt(3) = 1,155; then the 4 ms
	// stub of the run's end at 2,000 IOPS, which is not one of them
	peak := okRecord("max", 10_000, 1000)
	for i, v := range []float64{9_000, 10_000, 11_000, 2_000} {
		end := float64(i + 1)
		if i == 3 {
			end = 3.004
		}
		peak.Result.Series = append(peak.Result.Series, metrics.Sample{T: end, ReadIOPS: v / 2, WriteIOPS: v / 2})
	}
	// a maximum of one interval, and its stub: the noise is unknown
	short := okRecord("short", 225_029, 1000)
	short.Result.Series = []metrics.Sample{{T: 1, ReadIOPS: 225_029}, {T: 1.003, ReadIOPS: 60_000}}
	r := &runner{records: map[string]*results.Record{"max": peak, "short": short}}
	cases := []struct {
		name string
		w    workload.Workload
		iops float64
		want string
		kind string
	}{
		{"below", workload.Workload{RatePct: 120, RateBase: "max"}, 9_500, "", ""},
		{"within noise", workload.Workload{RatePct: 120, RateBase: "max"}, 11_100, "", ""},
		{"above noise", workload.Workload{RatePct: 120, RateBase: "max"}, 11_200, "completed 11200 IOPS, 12.0% more than the curve's uncontrolled maximum of 10000 IOPS (noise ±11.5%)", ""},
		{"not a rate step", workload.Workload{}, 20_000, "", ""},
		{"above a maximum of one interval", workload.Workload{RatePct: 110, RateBase: "short"}, 225_097,
			"0.03% more than the curve's uncontrolled maximum of 225029 IOPS, but the maximum ran 1 whole interval, and its noise needs 3, so whether the maximum was the peak cannot be judged",
			results.WarnNoiseUnknown},
		{"below a maximum of one interval", workload.Workload{RatePct: 90, RateBase: "short"}, 202_000, "", ""},
		{"unknown base", workload.Workload{RatePct: 50, RateBase: "missing"}, 20_000, "", ""},
	}
	for _, tc := range cases {
		got := r.rateAboveMax(&tc.w, okRecord("step", tc.iops, 1000).Result)
		if tc.kind == "" {
			tc.kind = results.WarnRateAboveMax
		}
		switch {
		case tc.want == "" && got != nil:
			t.Errorf("%s: warned %q", tc.name, got.Message)
		case tc.want != "" && (got == nil || got.Kind != tc.kind || !strings.Contains(got.Message, tc.want)):
			t.Errorf("%s: %+v, want a %s warning saying %q", tc.name, got, tc.kind, tc.want)
		}
	}
}
