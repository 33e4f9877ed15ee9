package engine

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/drivebench/drivebench/internal/testenv"
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

// TestStallWatchMeasures runs the probe's loop in this process as root,
// who may give it its real-time priority, with every other nap made late by 10 ms, as a held
// machine makes it: each of those wake-ups must be counted held, at least
// 10 ms late. The other wake-ups are not asserted: whether the machine
// was held then is the host's doing.
func TestStallWatchMeasures(t *testing.T) {
	testenv.Root(t, "the stall probe needs real-time priority (CAP_SYS_NICE)")
	const held = 10 * time.Millisecond
	var naps atomic.Int64
	w := startStallWatch(func(due int64) {
		if naps.Add(1)%2 == 1 {
			sleepUntil(due)
			return
		}
		sleepUntil(due + int64(held))
	})
	if w == nil {
		t.Fatal("the probe was refused real-time priority as root")
	}
	var wakes []wake
	for deadline := time.Now().Add(time.Minute); len(wakes) < 6; time.Sleep(stallNapMax) {
		if time.Now().After(deadline) {
			w.finish()
			t.Fatalf("%d wake-ups in a minute, want 6", len(wakes))
		}
		wakes = w.wakeUps()
	}
	st := w.finish()
	for i := 1; i < len(wakes); i += 2 {
		if wakes[i].late < held {
			t.Errorf("wake-up %d came %v late, want at least the %v it was held", i+1, wakes[i].late, held)
		}
	}
	n := len(wakes) / 2
	if st.Samples < len(wakes) || st.Held < n || st.MaxLateMs < 10 || st.HeldMs < float64(10*n) {
		t.Errorf("stalls %+v, want at least %d of %d wake-ups held, for 10 ms or more each", *st, n, len(wakes))
	}
}

// TestStallProbeProcess starts the probe as a step does, in a process of
// its own (this test binary started again), as root: its wake-ups reach
// this process as times of this process's clock, within the watch, and
// finish ends the process.
func TestStallProbeProcess(t *testing.T) {
	testenv.Root(t, "the stall probe needs real-time priority (CAP_SYS_NICE)")
	w := watchStalls()
	if w == nil {
		t.Fatal("the probe process did not start, or was refused real-time priority as root")
	}
	var wakes []wake
	for deadline := time.Now().Add(time.Minute); len(wakes) < 3; time.Sleep(stallNapMax) {
		if time.Now().After(deadline) {
			w.finish()
			t.Fatalf("%d wake-ups in a minute, want 3", len(wakes))
		}
		wakes = w.wakeUps()
	}
	st := w.finish()
	end := time.Now()
	for i, wk := range wakes {
		if wk.at.Before(w.start.Add(stallNapMin)) || wk.at.After(end) || wk.late < 0 || wk.late > end.Sub(w.start) {
			t.Errorf("wake-up %d at %v late %v, want within the watch, from %v to %v", i+1, wk.at, wk.late, w.start, end)
		}
	}
	if st.Samples < len(wakes) {
		t.Errorf("stalls %+v, want at least the %d wake-ups seen", *st, len(wakes))
	}
}
