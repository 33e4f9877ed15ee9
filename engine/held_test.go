package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// TestMeasureHeld works out the time held from synthetic interval series
// and probe wake-ups on an injected clock: the measured phase starts at
// start and lasts phase.
func TestMeasureHeld(t *testing.T) {
	start := time.Unix(1000, 0)
	s := time.Second
	ms := time.Millisecond
	series := func(ends ...float64) []metrics.Sample {
		out := make([]metrics.Sample, len(ends))
		for i, e := range ends {
			out[i] = metrics.Sample{T: e}
		}
		return out
	}
	late := func(at, by time.Duration) wake { return wake{at: start.Add(at), late: by} }
	tests := []struct {
		name     string
		planned  time.Duration
		phase    time.Duration
		series   []metrics.Sample
		wakes    []wake
		held     time.Duration
		fails    bool
		warning  string // the start of the warning; "" for none
		recorded *results.HostLoad
	}{
		{name: "steady", planned: 5 * s, phase: 5 * s, series: series(1, 2, 3, 4, 5), wakes: []wake{late(s, 0), late(2*s, 15*ms)}},
		{name: "a loaded machine's late ticks", planned: 4 * s, phase: 4*s + 300*ms, series: series(1, 2.3, 3.2, 4.3)},
		{
			name: "an interval 3 s long", planned: 5 * s, phase: 8 * s, series: series(1, 2, 6, 7, 8), held: 3 * s, fails: true,
			warning:  "The process was held for 3.0 s of this 5.0 s step (38 % of its wall time): stopped (SIGSTOP, Ctrl-Z, a debugger) or its machine paused, none of its threads running, and the step's interval series shows it.",
			recorded: &results.HostLoad{HeldS: 3, HeldPct: 37.5},
		},
		{
			name: "a probe wake-up 3 s late", planned: 10 * s, phase: 10 * s, series: series(1, 2, 3), wakes: []wake{late(s, 10*ms), late(5*s, 3*s)}, held: 3 * s, fails: true,
			warning:  "The process was held for 3.0 s of this 10.0 s step (30 % of its wall time): stopped (SIGSTOP, Ctrl-Z, a debugger) or its machine paused, none of its threads running, and the stall probe, a thread woken every 25 to 75 ms, saw it.",
			recorded: &results.HostLoad{HeldS: 3, HeldPct: 30},
		},
		{
			name: "the issue's 20 s in a 10 s step", planned: 10 * s, phase: 30 * s, wakes: []wake{late(22*s, 20*s)}, held: 20 * s, fails: true,
			warning:  "The process was held for 20.0 s of this 10.0 s step (67 % of its wall time)",
			recorded: &results.HostLoad{HeldS: 20, HeldPct: 100 * 20.0 / 30},
		},
		{name: "held during the ramp only", planned: 10 * s, phase: 10 * s, wakes: []wake{late(-s, 2*s)}},
		{
			name: "held across the phase's start", planned: 10 * s, phase: 10 * s, wakes: []wake{late(1500*ms, 3*s)}, held: 1500 * ms, fails: true,
			warning: "The process was held for 1.5 s of this 10.0 s step (15 % of its wall time)",
		},
		{
			name: "a second held in a minute warns", planned: 60 * s, phase: 61 * s, wakes: []wake{late(30*s, 1200*ms)}, held: 1200 * ms,
			warning: "The process was held for 1.2 s of this 1 min 00 s step (2 % of its wall time)",
		},
		{name: "held briefly in a long step is only recorded", planned: 60 * s, phase: 60 * s, wakes: []wake{late(30*s, 300*ms)}, held: 300 * ms},
		{
			name: "held briefly in a short step warns", planned: 200 * ms, phase: 350 * ms, wakes: []wake{late(300*ms, 150*ms)}, held: 150 * ms,
			warning: "The process was held for 0.1 s of this 0.2 s step (43 % of its wall time)",
		},
		{name: "a short step's overrun", planned: 200 * ms, phase: 450 * ms, series: series(0.45)},
		{name: "a virtual machine's short stalls are host_stall's", planned: 2 * s, phase: 2 * s, wakes: []wake{late(s, 15*ms), late(1100*ms, 17*ms), late(1200*ms, 99*ms)}},
		{
			name: "the larger witness counts", planned: 10 * s, phase: 14 * s, series: series(1, 2, 7, 8, 14), wakes: []wake{late(7*s, 4500*ms)}, held: 9 * s, fails: true,
			warning: "The process was held for 9.0 s of this 10.0 s step (64 % of its wall time): stopped (SIGSTOP, Ctrl-Z, a debugger) or its machine paused, none of its threads running, and the step's interval series shows it.",
		},
		{
			name: "an overrun alone warns", planned: 10 * s, phase: 12 * s, series: series(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
			warning: "The measured phase lasted 12.0 s, 2.0 s longer than the step's 10.0 s runtime: the process may have been held",
		},
		{name: "an overrun within 10 %", planned: 10 * s, phase: 10900 * ms, series: series(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10.9)},
		{
			name: "a run bounded by bytes", phase: 6 * s, series: series(1, 2, 3, 5.5, 6), held: 1500 * ms, fails: true,
			warning: "The process was held for 1.5 s of this 6.0 s step (25 % of its wall time)",
		},
		{name: "no result"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var res *metrics.Result
			if tt.phase > 0 {
				res = &metrics.Result{Start: start, RuntimeNs: int64(tt.phase), Series: tt.series}
			}
			h := measureHeld(res, &workload.Workload{Runtime: tt.planned}, tt.wakes)
			if h.held != tt.held || h.fails() != tt.fails {
				t.Errorf("held %v (fails %v), want %v (%v)", h.held, h.fails(), tt.held, tt.fails)
			}
			w := h.warning()
			switch {
			case tt.warning == "" && w != nil:
				t.Errorf("warned %q", w.Message)
			case tt.warning != "" && (w == nil || w.Kind != results.WarnHeld || !strings.HasPrefix(w.Message, tt.warning)):
				t.Errorf("warning %+v\nwant a %s warning starting %q", w, results.WarnHeld, tt.warning)
			}
			if tt.recorded != nil {
				if got := h.record(nil); *got != *tt.recorded {
					t.Errorf("recorded %+v, want %+v", *got, *tt.recorded)
				}
			}
			if h.fails() && !strings.Contains(h.failure(), "so its figures do not describe the drive; run it again") {
				t.Errorf("failure %q", h.failure())
			}
		})
	}
}
