package reports

import (
	"encoding/json"
	"testing"

	"github.com/drivebench/drivebench/metrics"
)

// TestSeriesSentence compares a run's first and last tenth by time: a
// stored stub of the drain reads folded into the interval before it, and
// an interval half as long again as the others weighs half as much again.
func TestSeriesSentence(t *testing.T) {
	steady := func(n int, iops float64) []metrics.Sample {
		var out []metrics.Sample
		for i := 1; i <= n; i++ {
			out = append(out, metrics.Sample{T: float64(i), ReadIOPS: iops})
		}
		return out
	}
	tests := []struct {
		name   string
		series []metrics.Sample
		want   string
	}{
		{"quickstart's drain stub", // iodepth=16: 124,838 IOPS, then 1 ms at 38,187
			append(steady(12, 124838), metrics.Sample{T: 12.001, ReadIOPS: 38187}),
			"Over 12.0 s, IOPS held near 124,838 (first tenth of the run) to 124,751 (last tenth)."},
		{"a long last interval weighs more",
			append(steady(19, 100), metrics.Sample{T: 20.5, ReadIOPS: 40}),
			"Over 20.5 s, IOPS fell from 100 (first tenth of the run) to 64 (last tenth)."},
		{"too short to say", steady(9, 100), ""},
	}
	for _, tt := range tests {
		stored, err := json.Marshal(metrics.Result{Series: tt.series})
		if err != nil {
			t.Fatal(err)
		}
		var res metrics.Result
		if err := json.Unmarshal(stored, &res); err != nil {
			t.Fatal(err)
		}
		table := ProfileResult{Series: seriesSamples(res.Series)}
		if got := seriesSentence(&table); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
