package reports

import (
	"testing"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
)

// TestReplayFidelity checks the replay figures a row carries and the
// sentence that says whether the replay was faithful and kept up.
func TestReplayFidelity(t *testing.T) {
	w := &workload.Workload{IODepth: 8, Replay: &workload.Replay{File: "boot.iolog", Speed: 1}}
	lag := metrics.LatencySummary{Max: 900_000, Percentiles: []metrics.Percentile{{P: 50, Ns: 20_000}, {P: 99, Ns: 400_000}}}
	cases := []struct {
		name  string
		stats metrics.ReplayStats
		want  string
	}{
		{"faithful", metrics.ReplayStats{TraceIOs: 2000, TraceBytes: 8192000, IssuedIOs: 2000, IssuedBytes: 8192000, Lag: lag},
			"The replay issued the trace's 2,000 I/Os and 8,192,000 bytes, exactly; the drive kept up: every I/O found a free slot at its scheduled time."},
		{"short", metrics.ReplayStats{TraceIOs: 2000, TraceBytes: 8192000, IssuedIOs: 1990, IssuedBytes: 8151040, SlotWaits: 12, Lag: lag},
			"The replay issued 1,990 I/Os and 8,151,040 bytes where the trace holds 2,000 and 8,192,000: 10 I/Os and 40,960 bytes not replayed; the drive did not keep up: 12 I/Os were due while all 8 slots were busy."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := replayOf(w, &metrics.Result{Replay: &c.stats})
			if r.Faithful != (c.name == "faithful") || r.LagP50Ns != 20_000 || r.LagP99Ns != 400_000 || r.LagMaxNs != 900_000 || r.Writes != "replay" {
				t.Errorf("got %+v", r)
			}
			if got := replaySentence(r); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
	if replayOf(&workload.Workload{}, &metrics.Result{}) != nil {
		t.Error("a step that replayed nothing has replay figures")
	}
}
