package native

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/workload"
	"golang.org/x/sys/unix"
)

// traceIO is one I/O of a test trace.
type traceIO struct {
	at     time.Duration
	action string // read, write, sync, trim
	offset int64
	size   int64
}

// testTrace is n I/Os every gap, 4 KiB to 64 KiB at offsets below span,
// one in three a write, with a sync after every 500th and a trim after
// the 700th: fixed, so a failure repeats.
func testTrace(n int, gap time.Duration, span int64) []traceIO {
	var ios []traceIO
	for i := range n {
		at := time.Duration(i) * gap
		size := int64(4096 << (i % 5))
		offset := (int64(i) * 7919 * 4096) % (span - size)
		offset -= offset % 4096
		action := "read"
		if i%3 == 0 {
			action = "write"
		}
		ios = append(ios, traceIO{at, action, offset, size})
		if i%500 == 499 {
			ios = append(ios, traceIO{at, "sync", 0, 0})
		}
		if i == 700 {
			ios = append(ios, traceIO{at, "trim", 0, 4096})
		}
	}
	return ios
}

// writeIolog writes ios as fio writes an iolog version 3 and returns its
// path.
func writeIolog(t *testing.T, ios []traceIO) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("fio version 3 iolog\n0 /dev/vdb add\n0 /dev/vdb open\n")
	for _, x := range ios {
		if x.action == "sync" {
			fmt.Fprintf(&b, "%d /dev/vdb sync 0 0\n", x.at.Microseconds())
			continue
		}
		fmt.Fprintf(&b, "%d /dev/vdb %s %d %d\n", x.at.Microseconds(), x.action, x.offset, x.size)
	}
	path := filepath.Join(t.TempDir(), "trace.iolog")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// replayWorkload replays the trace at path at iodepth.
func replayWorkload(path string, iodepth int, r workload.Replay) workload.Workload {
	r.Path, r.File = path, filepath.Base(path)
	return workload.Workload{IODepth: iodepth, NumJobs: 1, Replay: &r}
}

// want is the (op, offset, size) of each read and write the replay of ios
// issues, in trace order, with writes as writes says.
func want(ios []traceIO, writes string, place func(int64) int64) []transfer {
	var out []transfer
	for _, x := range ios {
		switch {
		case x.action == "read", x.action == "write" && writes == "read":
			out = append(out, transfer{op: opRead, offset: place(x.offset), length: int(x.size)})
		case x.action == "write" && writes == "":
			out = append(out, transfer{op: opWrite, offset: place(x.offset), length: int(x.size)})
		}
	}
	return out
}

// issued is what sys saw, without the fields want does not know.
func issued(sys *recordingSys) []transfer {
	log := sys.transfers()
	for i := range log {
		log[i].aligned, log[i].fd = false, 0
	}
	return log
}

// byPlace orders transfers by offset, then size and direction, to compare
// what a replay with several I/Os in flight issued, whose order the
// slots decide.
func byPlace(ts []transfer) []transfer {
	ts = slices.Clone(ts)
	slices.SortFunc(ts, func(a, b transfer) int {
		if a.offset != b.offset {
			return int(a.offset - b.offset)
		}
		if a.length != b.length {
			return a.length - b.length
		}
		return int(a.op - b.op)
	})
	return ts
}

// TestReplayIssuesTheTrace replays a 2,000-I/O trace and checks that the
// target saw exactly its reads and writes (and its flushes as fsync), and
// that the result says so: issued I/Os and bytes equal the trace's, and
// the lag is measured.
func TestReplayIssuesTheTrace(t *testing.T) {
	const span = 8 << 20
	ios := testTrace(2000, 50*time.Microsecond, span)
	trace := writeIolog(t, ios)
	path, _ := patternFile(t, t.TempDir(), span)
	sys := &recordingSys{}
	res, err := execute(context.Background(), driver.Target{Path: path, Capacity: span}, replayWorkload(trace, 8, workload.Replay{Speed: 1}), nil, sys, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	wantIOs := want(ios, "", func(o int64) int64 { return o })
	if got := byPlace(issued(sys)); !slices.Equal(got, byPlace(wantIOs)) {
		t.Fatalf("the target saw %d transfers, the trace has %d reads and writes, or they differ", len(got), len(wantIOs))
	}
	rp := res.Replay
	var bytes int64
	for _, x := range wantIOs {
		bytes += int64(x.length)
	}
	if rp.TraceIOs != 2000 || rp.IssuedIOs != 2000 || rp.TraceBytes != bytes || rp.IssuedBytes != bytes {
		t.Errorf("trace %d I/Os %d bytes, issued %d I/Os %d bytes; want 2000 and %d each", rp.TraceIOs, rp.TraceBytes, rp.IssuedIOs, rp.IssuedBytes, bytes)
	}
	if rp.TraceWrites != 667 || rp.TraceReads != 1333 || rp.Flushes != 4 || rp.Discards != 1 || len(sys.synced) != 4 {
		t.Errorf("reads %d writes %d flushes %d (fsync %d) discards %d; want 1333, 667, 4 (4), 1", rp.TraceReads, rp.TraceWrites, rp.Flushes, len(sys.synced), rp.Discards)
	}
	if rp.Lag.Max < rp.Lag.Min || len(rp.Lag.Percentiles) == 0 || len(rp.LagSeries) == 0 {
		t.Errorf("no lag measured: %+v, %d samples", rp.Lag, len(rp.LagSeries))
	}
	var sampled int64
	for _, s := range rp.LagSeries {
		sampled += s.IOs
	}
	if sampled != 2004 {
		t.Errorf("the lag series counts %d I/Os, want the 2,000 reads and writes and 4 flushes", sampled)
	}
	if ts := rp.Trace; ts == nil || ts.IOs != 2000 || ts.Bytes != bytes || ts.ReadPct < 66.6 || ts.ReadPct > 66.7 {
		t.Errorf("trace stat %+v; want the trace's 2,000 reads and writes, %d bytes, 66.65 %% reads", ts, bytes)
	}
	if len(res.Series) < 5 {
		t.Errorf("%d samples over a 100 ms replay: want a series in 10 ms intervals", len(res.Series))
	}
	if want := int64(1999 * 50 * time.Microsecond); rp.TraceNs < want {
		t.Errorf("trace time %d ns, want at least the trace's %d", rp.TraceNs, want)
	}
}

// TestReplayOptions checks the replay's options on one small trace: one
// I/O in flight keeps the trace's order; read-only replays skip or read
// the writes; fold maps the offsets into a small region; a window takes
// its part of the trace; loops repeat it.
func TestReplayOptions(t *testing.T) {
	const span = 4 << 20
	ios := testTrace(300, 0, span)
	trace := writeIolog(t, ios)
	same := func(o int64) int64 { return o }
	cases := []struct {
		name     string
		replay   workload.Replay
		size     int64
		want     []transfer
		inOrder  bool
		traceIOs int64
	}{
		{name: "in order", replay: workload.Replay{}, want: want(ios, "", same), inOrder: true, traceIOs: 300},
		{name: "skip writes", replay: workload.Replay{Writes: "skip"}, want: want(ios, "skip", same), inOrder: true, traceIOs: 200},
		{name: "writes read", replay: workload.Replay{Writes: "read"}, want: want(ios, "read", same), inOrder: true, traceIOs: 300},
		{name: "fold", replay: workload.Replay{Fold: true}, size: 1 << 20, inOrder: true, traceIOs: 300,
			want: want(ios, "", func(o int64) int64 { return o % (1 << 20) })},
		{name: "loops", replay: workload.Replay{Loops: 2}, want: append(want(ios, "", same), want(ios, "", same)...), inOrder: true, traceIOs: 600},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path, _ := patternFile(t, t.TempDir(), span)
			sys := &recordingSys{}
			w := replayWorkload(trace, 1, c.replay)
			w.Size = c.size
			res, err := execute(context.Background(), driver.Target{Path: path, Capacity: span}, w, nil, sys, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			got := issued(sys)
			if c.replay.Fold {
				for i := range c.want {
					if end := c.want[i].offset + int64(c.want[i].length); end > c.size {
						c.want[i].offset = c.size - int64(c.want[i].length)
					}
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("issued %d transfers, want %d in the trace's order", len(got), len(c.want))
			}
			if res.Replay.TraceIOs != c.traceIOs || res.Replay.IssuedIOs != c.traceIOs {
				t.Errorf("trace %d, issued %d I/Os; want %d", res.Replay.TraceIOs, res.Replay.IssuedIOs, c.traceIOs)
			}
			if readOnly := sys.openFlags&unix.O_ACCMODE == unix.O_RDONLY; readOnly != (c.replay.Writes != "") {
				t.Errorf("the target was opened read-only: %v; want read-only exactly when the replay writes nothing (writes = %q)", readOnly, c.replay.Writes)
			}
		})
	}
}

// TestReplayWindow replays the middle of a timed trace: skip and
// duration select the I/Os from 10 ms to 20 ms, which are scheduled from
// the start of the replay.
func TestReplayWindow(t *testing.T) {
	const span = 4 << 20
	ios := testTrace(300, 100*time.Microsecond, span) // 0 to 29.9 ms
	trace := writeIolog(t, ios)
	path, _ := patternFile(t, t.TempDir(), span)
	sys := &recordingSys{}
	w := replayWorkload(trace, 1, workload.Replay{Speed: 4, Skip: 10 * time.Millisecond, Duration: 10 * time.Millisecond})
	res, err := execute(context.Background(), driver.Target{Path: path, Capacity: span}, w, nil, sys, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var window []traceIO
	for _, x := range ios {
		if x.at >= 10*time.Millisecond && x.at < 20*time.Millisecond {
			window = append(window, x)
		}
	}
	if got, want := issued(sys), want(window, "", func(o int64) int64 { return o }); !slices.Equal(got, want) {
		t.Errorf("issued %d transfers, want the window's %d", len(got), len(want))
	}
	if rp := res.Replay; rp.TraceNs != int64(10*time.Millisecond) || rp.ScheduleNs != int64(2500*time.Microsecond) {
		t.Errorf("trace time %d ns, schedule %d ns; want 10 ms and 2.5 ms at speed 4", rp.TraceNs, rp.ScheduleNs)
	}
}

// TestReplayRefusedBeforeAnyIO checks that a trace that does not fit the
// region, or that O_DIRECT cannot issue, is refused before the first I/O.
func TestReplayRefusedBeforeAnyIO(t *testing.T) {
	ios := []traceIO{{0, "read", 0, 4096}, {10, "write", 8 << 20, 4096}, {20, "read", 512, 1024}}
	trace := writeIolog(t, ios)
	path, _ := patternFile(t, t.TempDir(), 1<<20)
	cases := []struct {
		name   string
		w      workload.Workload
		field  string
		phrase string
	}{
		{"past the region", replayWorkload(trace, 1, workload.Replay{Speed: 1}), "fold", "set fold = true"},
		{"unaligned", func() workload.Workload {
			w := replayWorkload(trace, 1, workload.Replay{Speed: 1, Fold: true})
			w.Direct = true
			return w
		}(), "direct", "512"},
		{"io_uring", func() workload.Workload {
			w := replayWorkload(trace, 1, workload.Replay{Speed: 1, Fold: true})
			w.IOEngine = "io_uring"
			return w
		}(), "ioengine", "psync"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sys := &recordingSys{}
			_, err := execute(context.Background(), driver.Target{Path: path, Capacity: 1 << 20, BlockSize: 4096}, c.w, nil, sys, time.Second)
			var we *WorkloadError
			if !errors.As(err, &we) || we.Field != c.field || !strings.Contains(err.Error(), c.phrase) {
				t.Fatalf("got %v, want a workload error on %s saying %q", err, c.field, c.phrase)
			}
			if n := len(sys.transfers()); n != 0 {
				t.Errorf("%d transfers issued before the refusal", n)
			}
		})
	}
}

// TestReplayDevice replays one disk of a trace of two: only its I/Os
// are issued.
func TestReplayDevice(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "two.iolog")
	if err := os.WriteFile(trace, []byte("fio version 3 iolog\n0 /dev/sda add\n0 /dev/sdb add\n"+
		"10 /dev/sda read 0 4096\n20 /dev/sdb write 4096 8192\n30 /dev/sda read 8192 4096\n40 /dev/sdb read 0 512\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	path, _ := patternFile(t, t.TempDir(), 1<<20)
	sys := &recordingSys{}
	res, err := execute(context.Background(), driver.Target{Path: path, Capacity: 1 << 20}, replayWorkload(trace, 4, workload.Replay{Speed: 1, Device: "/dev/sdb"}), nil, sys, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	got := byPlace(issued(sys))
	want := []transfer{{op: opRead, offset: 0, length: 512}, {op: opWrite, offset: 4096, length: 8192}}
	if !slices.Equal(got, want) || res.Replay.TraceIOs != 2 || res.Replay.IssuedBytes != 8704 {
		t.Errorf("issued %v (%d I/Os, %d bytes); want /dev/sdb's %v", got, res.Replay.IssuedIOs, res.Replay.IssuedBytes, want)
	}
}

// TestReplayStreams replays traces of 100,000 and 1,000,000 I/Os as fast
// as the cap allows and checks, collecting the garbage every 50 ms
// meanwhile, that the live heap's peak does not grow with the trace: the
// dispatcher reads the trace as it goes and keeps counts, histograms and
// a lag sample an interval. A replay that kept 40 bytes an I/O would hold
// 36 MB more for the larger trace. (The trace reader allocates about 150
// bytes a line, which the collector frees; what the dispatcher allocates
// while a collection marks counts as live until the next: 3 MB on a quiet
// machine, up to 8.6 MB seen with other test binaries running, as a
// loaded machine marks slower. The bound, 16 MB, is under half of what
// keeping the trace costs. The engine holds the collector back during a
// run, so the test collects itself.)
func TestReplayStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 1,100,000 I/Os (-short)")
	}
	small, large := replayPeakLive(t, 100_000), replayPeakLive(t, 1_000_000)
	t.Logf("the live heap grew by at most %d bytes over a replay of 100,000 I/Os, %d over 1,000,000", small, large)
	if large-small > 16<<20 {
		t.Errorf("the live heap's peak grew by %d bytes with four times the trace: the replay holds the trace", large-small)
	}
}

// replayPeakLive replays a trace of n 512-byte reads at speed 0 and
// returns the live heap's largest growth while it ran, read after a
// collection every 50 ms.
func replayPeakLive(t *testing.T, n int) int64 {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "big.iolog"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "fio version 3 iolog\n0 /dev/vdb add\n")
	for i := range n {
		fmt.Fprintf(w, "%d /dev/vdb read %d 512\n", i, int64(i)*7919%2048*512)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	path, _ := patternFile(t, dir, 1<<20)
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	base, peak := int64(m.HeapAlloc), int64(0)
	done, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			select {
			case <-done:
				return
			case <-time.After(50 * time.Millisecond):
				runtime.GC()
				runtime.ReadMemStats(&m)
				peak = max(peak, int64(m.HeapAlloc)-base)
			}
		}
	}()
	res, err := execute(context.Background(), driver.Target{Path: path, Capacity: 1 << 20},
		replayWorkload(f.Name(), 4, workload.Replay{Speed: 0}), nil, unixSyscalls{}, time.Second)
	close(done)
	<-sampled
	if err != nil {
		t.Fatal(err)
	}
	if res.Replay.IssuedIOs != int64(n) || res.Replay.TraceIOs != int64(n) {
		t.Fatalf("issued %d of %d I/Os", res.Replay.IssuedIOs, res.Replay.TraceIOs)
	}
	return peak
}
