package engine

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/results"
)

func TestSummarizeStalls(t *testing.T) {
	ms := time.Millisecond
	wakes := func(lates ...time.Duration) []wake {
		out := make([]wake, len(lates))
		for i, l := range lates {
			out[i] = wake{at: time.Unix(100, 0).Add(time.Duration(i) * 50 * ms), late: l}
		}
		return out
	}
	tests := []struct {
		name  string
		wakes []wake
		span  time.Duration
		want  results.HostStalls
	}{
		{"no wake-ups", nil, 0, results.HostStalls{}},
		{"none late", wakes(0, 100*time.Microsecond, 2*ms), 150 * ms, results.HostStalls{Samples: 3}},
		{"one in four late", wakes(0, 12*ms, 100*time.Microsecond, 0), 200 * ms, results.HostStalls{Samples: 4, Held: 1, HeldMs: 12, HeldPct: 25, MaxLateMs: 12}},
		{"the latest counts", wakes(3*ms, 14*ms, 5*ms, 0, 0), 250 * ms, results.HostStalls{Samples: 5, Held: 3, HeldMs: 22, HeldPct: 60, MaxLateMs: 14}},
		// A process stopped for 20 s of 23: one wake-up in 62 came late,
		// by the whole stop; the share is the time's, not the wake-ups'.
		{"one long hold", append(wakes(make([]time.Duration, 61)...), wake{at: time.Unix(120, 0), late: 20 * time.Second}), 23 * time.Second,
			results.HostStalls{Samples: 62, Held: 1, HeldMs: 20000, HeldPct: 100 * 20.0 / 23, MaxLateMs: 20000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := summarizeStalls(tt.wakes, tt.span); *got != tt.want {
				t.Errorf("summarizeStalls = %+v, want %+v", *got, tt.want)
			}
		})
	}
}

func TestStallWarning(t *testing.T) {
	tests := []struct {
		stalls *results.HostStalls
		want   string
	}{
		{nil, ""},
		{&results.HostStalls{Samples: 100}, ""},
		{&results.HostStalls{Samples: 100, Held: 1, HeldPct: 1, MaxLateMs: 9}, ""},
		{&results.HostStalls{Samples: 200, Held: 14, HeldPct: 7, MaxLateMs: 16.2}, "The whole machine was held, none of its programs running, for about 7 % of the step: 14 of 200 wake-ups of a real-time thread came more than 2 ms late, one by 16.2 ms"},
		{&results.HostStalls{Samples: 1200, Held: 2, HeldPct: 0.1667, MaxLateMs: 4}, "The whole machine was held, none of its programs running, for about 0.17 % of the step: 2 of 1200"},
	}
	for _, tt := range tests {
		w := stallWarning(tt.stalls)
		switch {
		case tt.want == "" && w != nil:
			t.Errorf("%+v: warned %q", tt.stalls, w.Message)
		case tt.want != "" && (w == nil || w.Kind != results.WarnHostStall || !strings.HasPrefix(w.Message, tt.want)):
			t.Errorf("%+v: %+v, want a %s warning starting %q", tt.stalls, w, results.WarnHostStall, tt.want)
		}
	}
}

// TestStallWatchMeasures runs the probe as root, who may give it its
// real-time priority: it must start, wake over the time it runs, and
// give a share between 0 and 100. Whether the machine was held is not
// asserted: that is the host's doing.
func TestStallWatchMeasures(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the stall probe needs real-time priority (CAP_SYS_NICE): run as root")
	}
	w := watchStalls()
	if w == nil {
		t.Fatal("watchStalls refused real-time priority to root")
	}
	deadline := time.Now().Add(time.Minute)
	for {
		w.mu.Lock()
		n := len(w.wakes)
		w.mu.Unlock()
		if n >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(stallNapMax)
	}
	st := w.finish()
	if st == nil || st.Samples < 2 || st.HeldPct < 0 || st.HeldPct > 100 || st.Held > st.Samples {
		t.Errorf("stalls %+v, want at least two wake-ups in a minute", st)
	}
}
