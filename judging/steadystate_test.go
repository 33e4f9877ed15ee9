package judging

import (
	"strings"
	"testing"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/steady"
)

// TestSteadyMessageUnits: the judgement writes the window's average in
// its unit, where it printed "(average 2.724e+09 bw)".
func TestSteadyMessageUnits(t *testing.T) {
	tests := []struct {
		metric  string
		average float64
		want    string
	}{
		{"bw", 2.724e9, "(average 2,724.0 MB/s)"},
		{"iops", 10540.4, "(average 10,540 IOPS)"},
		{"lat_mean", 1_518_000, "(average 1.52 ms mean latency)"},
		{"lat_p99", 95_500, "(average 95.5 µs p99 latency)"},
		{"mean", 1_518_000, "(average 1.52 ms mean latency)"},
		{"p99", 95_500, "(average 95.5 µs p99 latency)"},
		{"p99_9", 1_204_000, "(average 1.20 ms p99.9 latency)"},
	}
	for _, tt := range tests {
		v := steady.Verdict{Steady: true, Window: &steady.Window{First: 2, Last: 6, Average: tt.average}}
		s := SteadyRecord(tt.metric, []float64{1, 2, 3, 4, 5, 6}, v, steady.Rule{Window: 5, ExcursionPct: 20, SlopePct: 10})
		if !strings.Contains(s.Message, tt.want) {
			t.Errorf("%s: %q, want %q", tt.metric, s.Message, tt.want)
		}
	}
}

// TestTrackedFigure reads every steady_state figure, by its registry name
// and its old name, over both directions of a round.
func TestTrackedFigure(t *testing.T) {
	var rh, wh metrics.Histogram
	for i := uint64(1); i <= 100; i++ {
		rh.Record(i * 1000)
		wh.Record(i * 3000)
	}
	res := &metrics.Result{
		Read:  &metrics.DirStats{IOs: 100, IOPS: 1000, BW: 4e6, Hist: &rh, Lat: rh.Summary(metrics.DefaultPercentiles)},
		Write: &metrics.DirStats{IOs: 100, IOPS: 500, BW: 2e6, Hist: &wh, Lat: wh.Summary(metrics.DefaultPercentiles)},
	}
	both := CombinedHistogram(res)
	for _, tc := range []struct {
		metric string
		want   float64
	}{
		{"iops", 1500}, {"bw", 6e6}, {"mean", both.Mean()}, {"lat_mean", both.Mean()},
		{"p99", float64(both.Percentile(99))}, {"lat_p99", float64(both.Percentile(99))},
		{"p99_9", float64(both.Percentile(99.9))},
	} {
		if got := TrackedFigure(tc.metric, res); got != tc.want {
			t.Errorf("TrackedFigure(%q) = %v, want %v", tc.metric, got, tc.want)
		}
	}
	if got := TrackedFigure("p99", &metrics.Result{}); got != 0 {
		t.Errorf("TrackedFigure of a round without I/O = %v, want 0", got)
	}
}

// mib writes bandwidths in MiB/s, as a report of that unit does.
type mib struct{}

func (mib) Measured(v float64) string { return format.BandwidthMiB(v) }
func (mib) Claimed(v float64) string  { return format.BandwidthMiB(v) }

// TestSteadyMessage: each code of SNIA's rule in a sentence made from
// the record's figures, a bandwidth in the unit it is asked for; a plan's
// own rule has none, its message being its hook's.
func TestSteadyMessage(t *testing.T) {
	base := results.SteadyState{Variable: "bw", Rule: "snia", Rounds: []float64{1, 2, 3, 4, 5, 6}, Window: 5, WindowFirst: 2, WindowLast: 6,
		Average: 2.724e9, RangePct: 31.5, SlopePct: 4.2, RangeLimitPct: 20, SlopeLimitPct: 10}
	tests := []struct {
		code string
		bw   Bandwidths
		want string
	}{
		{results.SteadyReached, nil, "steady state reached over rounds 2-6 (average 2,724.0 MB/s): range 31.5% of the mean (limit 20%), slope 4.2% (limit 10%)"},
		{results.SteadyReached, mib{}, "steady state reached over rounds 2-6 (average 2,597.8 MiB/s): range 31.5% of the mean (limit 20%), slope 4.2% (limit 10%)"},
		{results.SteadyNotReached, nil, "steady state not reached in 6 rounds; the last window, rounds 2-6: range 31.5% of the mean (limit 20%), slope 4.2% (limit 10%)"},
		{results.SteadyTooFewRounds, nil, "6 rounds so far; a window needs 5"},
		{results.SteadyNotYet, nil, "not steady yet over rounds 2-6: range 31.5% of the mean (limit 20%), slope 4.2% (limit 10%) (range over the limit)"},
	}
	for _, tt := range tests {
		s := base
		s.Code = tt.code
		if got, ok := SteadyMessage(s, tt.bw); !ok || got != tt.want {
			t.Errorf("%s: %q, %v\nwant %q", tt.code, got, ok, tt.want)
		}
	}
	hook := base
	hook.Rule, hook.Code = "hook steady.star:within_band", results.SteadyReached
	if got, ok := SteadyMessage(hook, nil); ok {
		t.Errorf("a plan's own rule was phrased: %q", got)
	}
}
