package native

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
)

// binEvent is one thing a replay tells its trace-time bins: an I/O at
// trace time at of the pass that starts at pass dispatched with lag, or
// the completion (latency lat, n bytes) or the abandonment of the I/O
// dispatched i-th.
type binEvent struct {
	kind     string // dispatch, complete, abandon
	at, pass time.Duration
	lag      int64
	i        int
	o        op
	lat      int64
	n        int
	wantOpen int // bins open after the event; -1 for any
}

func dispatch(at, pass time.Duration, lag int64) binEvent {
	return binEvent{kind: "dispatch", at: at, pass: pass, lag: lag, wantOpen: -1}
}

func complete(i int, o op, lat int64, n int) binEvent {
	return binEvent{kind: "complete", i: i, o: o, lat: lat, n: n, wantOpen: -1}
}

// open says how many bins are open after e.
func (e binEvent) open(n int) binEvent { e.wantOpen = n; return e }

// playBinEvents tells b the events in order, failing the test where the
// bins open after one are not as many as it wants.
func playBinEvents(t *testing.T, b *traceBins, events []binEvent) {
	t.Helper()
	var bins []int64
	for k, e := range events {
		switch e.kind {
		case "dispatch":
			i := b.bin(e.at, e.pass)
			bins = append(bins, i)
			b.dispatched(i)
			b.lagged(i, e.lag)
		case "complete":
			b.completed(bins[e.i], e.o, e.lat, e.n)
		case "abandon":
			b.abandoned(bins[e.i])
		}
		if e.wantOpen >= 0 && len(b.open) != e.wantOpen {
			t.Errorf("after event %d (%s): %d bins open, want %d", k, e.kind, len(b.open), e.wantOpen)
		}
	}
}

// TestTraceBins checks the binning by trace time: each I/O lands in the
// bin of its time in the trace, skip on the axis and loops running on
// after the window; a bin holds its due I/Os, completions, bytes,
// latency and lag; bins without I/Os are in the series; and a bin is
// reduced, its histograms freed, once the dispatcher has passed it and
// its last I/O completed, however the completions are ordered, so only
// bins with I/Os in flight and the dispatcher's are open.
func TestTraceBins(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		name         string
		skip, window time.Duration
		loops        int
		events       []binEvent
		want         []metrics.TraceBin
		width        int64
	}{
		{
			name: "one pass with a gap", window: 2 * time.Second, loops: 1, width: int64(10 * ms),
			events: []binEvent{
				dispatch(1*ms, 0, 100), dispatch(5*ms, 0, 300), complete(1, opWrite, 2000, 8192), complete(0, opRead, 1000, 4096),
				dispatch(35*ms, 0, 50).open(1), complete(2, opRead, 500, 4096).open(1),
			},
			want: []metrics.TraceBin{
				{T: 0, Loop: 1, Due: 2, Reads: 1, Writes: 1, Bytes: 12288, MeanLatNs: 1500, P99Ns: 2000, LagP99Ns: 300},
				{T: 0.01, Loop: 1}, {T: 0.02, Loop: 1},
				{T: 0.03, Loop: 1, Due: 1, Reads: 1, Bytes: 4096, MeanLatNs: 500, P99Ns: 500, LagP99Ns: 50},
			},
		},
		{
			name: "skip puts the axis at the trace's clock", skip: 1 * time.Second, window: 2 * time.Second, loops: 1, width: int64(10 * ms),
			events: []binEvent{dispatch(1005*ms, 0, 0), complete(0, opRead, 10, 512), dispatch(1012*ms, 0, 0), complete(1, opRead, 20, 512)},
			want:   []metrics.TraceBin{{T: 1.0, Loop: 1, Due: 1, Reads: 1, Bytes: 512, MeanLatNs: 10, P99Ns: 10}, {T: 1.01, Loop: 1, Due: 1, Reads: 1, Bytes: 512, MeanLatNs: 20, P99Ns: 20}},
		},
		{
			name: "loops run on past the window", skip: 0, window: 25 * ms, loops: 2, width: int64(10 * ms),
			events: []binEvent{
				dispatch(1*ms, 0, 0), complete(0, opRead, 1, 1), dispatch(21*ms, 0, 0), complete(1, opRead, 1, 1),
				dispatch(1*ms, 25*ms, 0), complete(2, opRead, 1, 1), dispatch(21*ms, 25*ms, 0), complete(3, opRead, 1, 1),
			},
			want: []metrics.TraceBin{
				{T: 0, Loop: 1, Due: 1, Reads: 1, Bytes: 1, MeanLatNs: 1, P99Ns: 1}, {T: 0.01, Loop: 1},
				{T: 0.02, Loop: 1, Due: 2, Reads: 2, Bytes: 2, MeanLatNs: 1, P99Ns: 1},
				{T: 0.03, Loop: 2}, {T: 0.04, Loop: 2, Due: 1, Reads: 1, Bytes: 1, MeanLatNs: 1, P99Ns: 1},
			},
		},
		{
			name: "a slow I/O keeps its own bin open, not those after it", window: 2 * time.Second, loops: 1, width: int64(10 * ms),
			events: []binEvent{
				dispatch(1*ms, 0, 0), dispatch(11*ms, 0, 0).open(2), complete(1, opRead, 5, 1).open(2),
				dispatch(21*ms, 0, 0).open(2), complete(2, opRead, 5, 1).open(2),
				dispatch(31*ms, 0, 0).open(2), complete(0, opRead, 30_000_000, 1).open(1), complete(3, opRead, 5, 1).open(1),
				dispatch(41*ms, 0, 0).open(1), {kind: "abandon", i: 4, wantOpen: 1},
			},
			want: []metrics.TraceBin{
				{T: 0, Loop: 1, Due: 1, Reads: 1, Bytes: 1, MeanLatNs: 30_000_000, P99Ns: 30_000_000},
				{T: 0.01, Loop: 1, Due: 1, Reads: 1, Bytes: 1, MeanLatNs: 5, P99Ns: 5},
				{T: 0.02, Loop: 1, Due: 1, Reads: 1, Bytes: 1, MeanLatNs: 5, P99Ns: 5},
				{T: 0.03, Loop: 1, Due: 1, Reads: 1, Bytes: 1, MeanLatNs: 5, P99Ns: 5},
				{T: 0.04, Loop: 1, Due: 1},
			},
		},
		{
			name: "a long trace has bins of at most the engine's interval", window: time.Hour, loops: 1, width: int64(time.Second),
			events: []binEvent{dispatch(2500*ms, 0, 0), complete(0, opRead, 1, 1)},
			want:   []metrics.TraceBin{{T: 0, Loop: 1}, {T: 1, Loop: 1}, {T: 2, Loop: 1, Due: 1, Reads: 1, Bytes: 1, MeanLatNs: 1, P99Ns: 1}},
		},
		{name: "nothing dispatched", window: time.Second, loops: 1, width: int64(10 * ms)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newTraceBins(c.skip, c.window, c.loops, time.Second)
			if b.width != c.width {
				t.Fatalf("bins of %d ns, want %d", b.width, c.width)
			}
			playBinEvents(t, b, c.events)
			got := b.series()
			for i := range got {
				got[i].T = float64(int64(got[i].T*1e6+0.5)) / 1e6
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("series\n got %+v\nwant %+v", got, c.want)
			}
			if len(b.open) != 0 {
				t.Errorf("%d bins left open after the series", len(b.open))
			}
		})
	}
}

// TestTraceBinsBounded: an hour's trace looped a thousand times, a
// thousand hours of trace time, has no more than maxTraceBins bins, its
// first and last I/O each in the bin of its time.
func TestTraceBinsBounded(t *testing.T) {
	b := newTraceBins(0, time.Hour, 1000, time.Second)
	for _, pass := range []time.Duration{0, 999 * time.Hour} {
		i := b.bin(30*time.Minute, pass)
		b.dispatched(i)
		b.completed(i, opRead, 1, 4096)
	}
	got := b.series()
	if len(got) > maxTraceBins {
		t.Fatalf("%d bins of %v, want at most %d", len(got), time.Duration(b.width), maxTraceBins)
	}
	var at []float64
	for _, s := range got {
		if s.Due > 0 {
			if end := s.T + float64(b.width)/1e9; s.T > 1800+999*3600 || end <= 1800 {
				t.Errorf("the bin from %g s to %g s holds an I/O", s.T, end)
			}
			at = append(at, float64(s.Loop))
		}
	}
	if !slices.Equal(at, []float64{1, 1000}) {
		t.Errorf("the I/Os are in bins of loops %v, want 1 and 1000", at)
	}
}

// TestReplayTraceSeriesAtSpeed1 replays a 200 ms trace on a file at speed
// 1, where trace time and run time are one clock: the trace-time series
// has the run-time series' bins, holds the same I/Os, bytes and
// latencies, and places them at the same time, but for each I/O's
// latency (the run-time series counts an I/O when it completes, the
// trace-time series at its time in the trace) and the width of a bin.
func TestReplayTraceSeriesAtSpeed1(t *testing.T) {
	const span = 8 << 20
	trace := writeIolog(t, testTrace(1000, 200*time.Microsecond, span))
	path, _ := patternFile(t, t.TempDir(), span)
	res, err := execute(context.Background(), driver.Target{Path: path, Capacity: span}, replayWorkload(trace, 8, workload.Replay{Speed: 1}), nil, &recordingSys{}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	rp := res.Replay
	if rp.TraceBinNs != int64(minReplayInterval) {
		t.Errorf("trace-time bins of %d ns; want the run-time series' %v", rp.TraceBinNs, minReplayInterval)
	}
	var due, ios, bytes int64
	var latSum, traceT float64
	for _, b := range rp.TraceSeries {
		n := b.Reads + b.Writes
		due, ios, bytes = due+b.Due, ios+n, bytes+b.Bytes
		latSum += b.MeanLatNs * float64(n)
		traceT += (b.T + float64(rp.TraceBinNs)/2e9) * float64(n)
	}
	if due != rp.TraceIOs || ios != rp.IssuedIOs || bytes != rp.IssuedBytes || ios != 1000 {
		t.Fatalf("the trace-time series holds %d due, %d I/Os of %d bytes; the replay %d, %d and %d", due, ios, bytes, rp.TraceIOs, rp.IssuedIOs, rp.IssuedBytes)
	}
	var runIOs, runT, longest float64
	for i, s := range res.Series {
		dt := metrics.Span(res.Series, i)
		n := (s.ReadIOPS + s.WriteIOPS) * dt
		runIOs += n
		runT += (s.T - dt/2) * n
		longest = max(longest, dt)
	}
	if math.Abs(runIOs-float64(ios)) > 0.5 {
		t.Errorf("the run-time series holds %.1f I/Os, the trace-time series %d", runIOs, ios)
	}
	mean := (res.Read.Lat.Mean*float64(res.Read.IOs) + res.Write.Lat.Mean*float64(res.Write.IOs)) / float64(res.Read.IOs+res.Write.IOs)
	if math.Abs(latSum/float64(ios)-mean) > 1e-6*mean {
		t.Errorf("mean latency over the trace-time bins %.0f ns, the replay's %.0f ns", latSum/float64(ios), mean)
	}
	traceT, runT = traceT/float64(ios), runT/runIOs
	if lat := mean / 1e9; math.Abs(traceT+lat-runT) > longest+float64(rp.TraceBinNs)/1e9 {
		t.Errorf("the I/Os lie at %.4f s of trace time on average (%.4f s with their latency), at %.4f s of run time: more than a bin apart", traceT, traceT+lat, runT)
	}
}

// TestReplayTraceSeriesOverTraceTime replays a window of a trace twice
// at speed 2 and at speed 0: whatever the speed, the series is over the
// trace's own clock (from the skip, running on into the second loop,
// which it marks), with every due I/O in the bin of its trace time.
func TestReplayTraceSeriesOverTraceTime(t *testing.T) {
	const span = 4 << 20
	trace := writeIolog(t, testTrace(300, 100*time.Microsecond, span)) // 0 to 29.9 ms
	for _, speed := range []float64{2, 0} {
		t.Run(fmt.Sprintf("speed %g", speed), func(t *testing.T) {
			path, _ := patternFile(t, t.TempDir(), span)
			w := replayWorkload(trace, 4, workload.Replay{Speed: speed, Skip: 10 * time.Millisecond, Loops: 2})
			res, err := execute(context.Background(), driver.Target{Path: path, Capacity: span}, w, nil, &recordingSys{}, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			rp := res.Replay
			// The window is 19.9 ms of I/Os and a mean gap, 99.5 µs: the
			// second loop starts at 29.9995 ms of trace time.
			var at, loops []float64
			var due, ios []int64
			for _, b := range rp.TraceSeries {
				at = append(at, math.Round(b.T*1e6)/1e3)
				loops = append(loops, float64(b.Loop))
				due, ios = append(due, b.Due), append(ios, b.Reads+b.Writes)
				if speed == 0 && b.LagP99Ns != 0 {
					t.Errorf("bin at %g s has a lag p99 of %d ns at speed 0, which follows no schedule", b.T, b.LagP99Ns)
				}
			}
			if !slices.Equal(at, []float64{10, 20, 30, 40}) || !slices.Equal(loops, []float64{1, 1, 2, 2}) {
				t.Errorf("bins at %v ms of trace time, in loops %v; want 10, 20, 30 and 40 ms, the last two in loop 2", at, loops)
			}
			if !slices.Equal(due, []int64{100, 101, 100, 99}) || !slices.Equal(ios, due) {
				t.Errorf("due %v, issued %v; want 100, 101, 100 and 99 each", due, ios)
			}
		})
	}
}

// BenchmarkTraceBins is the binning's cost per replayed I/O, on the
// dispatcher's and a slot's side together: dispatched, lagged and
// completed, a bin of 1,000 I/Os after another.
func BenchmarkTraceBins(b *testing.B) {
	bins := newTraceBins(0, time.Hour, 1, time.Second)
	for i := range b.N {
		bin := bins.bin(time.Duration(i)*time.Millisecond, 0)
		bins.dispatched(bin)
		bins.lagged(bin, 20_000)
		bins.completed(bin, opRead, 100_000, 4096)
	}
}
