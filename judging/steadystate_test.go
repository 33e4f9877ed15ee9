package judging

import (
	"strings"
	"testing"

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
	}
	for _, tt := range tests {
		v := steady.Verdict{Steady: true, Window: &steady.Window{First: 2, Last: 6, Average: tt.average}}
		s := SteadyRecord(tt.metric, []float64{1, 2, 3, 4, 5, 6}, v, steady.Rule{Window: 5, ExcursionPct: 20, SlopePct: 10})
		if !strings.Contains(s.Message, tt.want) {
			t.Errorf("%s: %q, want %q", tt.metric, s.Message, tt.want)
		}
	}
}
