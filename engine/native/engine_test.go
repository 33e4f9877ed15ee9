package native

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/workload"

	"github.com/drivebench/drivebench/metrics"
	"golang.org/x/sys/unix"
)

func TestSequentialFillWritesExactlyTheRegion(t *testing.T) {
	const (
		fileSize  = 1 << 20
		regionOff = 64 << 10
		regionLen = 640 << 10
		bs        = 4096
	)
	tests := []struct {
		loops, numjobs, iodepth int
	}{
		{loops: 1, numjobs: 1, iodepth: 1},
		{loops: 3, numjobs: 1, iodepth: 1},
		{loops: 1, numjobs: 3, iodepth: 4},
		{loops: 3, numjobs: 3, iodepth: 4},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("loops=%d,numjobs=%d,iodepth=%d", tt.loops, tt.numjobs, tt.iodepth), func(t *testing.T) {
			path, before := patternFile(t, t.TempDir(), fileSize)
			w := workload.Workload{RW: "write", BS: bs, IODepth: tt.iodepth, NumJobs: tt.numjobs,
				Offset: regionOff, Size: regionLen + 1000, Loops: tt.loops}
			sys := &recordingSys{}
			res, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: fileSize}, w, nil, sys)
			if err != nil {
				t.Fatal(err)
			}
			wantBytes := uint64(tt.loops * regionLen)
			if res.Write == nil || res.Write.Bytes != wantBytes || res.Write.IOs != wantBytes/bs || res.Read != nil {
				t.Fatalf("result: read %+v, write %+v; want %d bytes written in %d I/Os, no reads", res.Read, res.Write, wantBytes, wantBytes/bs)
			}
			after := readFile(t, path)
			if len(after) != fileSize {
				t.Fatalf("file is %d bytes after the fill, want %d", len(after), fileSize)
			}
			if !bytes.Equal(after[:regionOff], before[:regionOff]) || !bytes.Equal(after[regionOff+regionLen:], before[regionOff+regionLen:]) {
				t.Error("bytes outside the region changed")
			}
			for off := regionOff; off < regionOff+regionLen; off += bs {
				if bytes.Equal(after[off:off+bs], before[off:off+bs]) {
					t.Errorf("block at %d was not written", off)
				}
			}
			writesPerBlock := map[int64]int{}
			for _, tr := range sys.transfers() {
				writesPerBlock[tr.offset]++
			}
			for off := int64(regionOff); off < regionOff+regionLen; off += bs {
				if writesPerBlock[off] != tt.loops {
					t.Errorf("block at %d written %d times, want %d", off, writesPerBlock[off], tt.loops)
				}
			}
		})
	}
}

func TestRandRWReadShare(t *testing.T) {
	const ios = 40000
	path, _ := patternFile(t, t.TempDir(), 1<<20)
	w := workload.Workload{RW: "randrw", ReadPct: 70, BS: 4096, IODepth: 2, NumJobs: 2, Bytes: ios * 4096, Seed: 7}
	sys := &recordingSys{}
	res, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: 1 << 20}, w, nil, sys)
	if err != nil {
		t.Fatal(err)
	}
	reads, writes := countOps(sys.transfers())
	if reads+writes != ios {
		t.Fatalf("issued %d I/Os, want %d", reads+writes, ios)
	}
	if share := float64(reads) / ios; math.Abs(share-0.70) > 0.01 {
		t.Errorf("read share %.4f, want 0.70 ± 0.01", share)
	}
	if res.Read.IOs != uint64(reads) || res.Write.IOs != uint64(writes) {
		t.Errorf("recorded %d reads and %d writes, issued %d and %d", res.Read.IOs, res.Write.IOs, reads, writes)
	}
}

func TestOffsetsStayInsideTheRegionAligned(t *testing.T) {
	const (
		bs        = 4096
		regionOff = 12288
		loops     = 2
	)
	reg := region{start: regionOff, length: 73 * bs} // size 300000 rounds down to 73 blocks
	tests := []struct {
		rw             string
		reads, writes  bool
		eachBlockLoops bool // sequential: every block covered loops times
	}{
		{rw: "read", reads: true, eachBlockLoops: true},
		{rw: "write", writes: true, eachBlockLoops: true},
		{rw: "rw", reads: true, writes: true, eachBlockLoops: true},
		{rw: "randread", reads: true},
		{rw: "randwrite", writes: true},
		{rw: "randrw", reads: true, writes: true},
	}
	for _, tt := range tests {
		t.Run(tt.rw, func(t *testing.T) {
			path, _ := patternFile(t, t.TempDir(), 512<<10)
			w := workload.Workload{RW: tt.rw, ReadPct: 50, BS: bs, IODepth: 3, NumJobs: 2,
				Offset: regionOff, Size: 300000, Loops: loops, Seed: 3}
			sys := &recordingSys{}
			res, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: 512 << 10}, w, nil, sys)
			if err != nil {
				t.Fatal(err)
			}
			log := sys.transfers()
			if len(log) != loops*73 {
				t.Errorf("issued %d I/Os, want %d", len(log), loops*73)
			}
			perBlock := map[int64]int{}
			for _, tr := range log {
				if tr.offset < reg.start || tr.offset+int64(tr.length) > reg.end() || (tr.offset-reg.start)%bs != 0 || tr.length != bs {
					t.Fatalf("%s of %d bytes at %d: outside region [%d, %d) or off the %d-byte grid", tr.op.syscall(), tr.length, tr.offset, reg.start, reg.end(), bs)
				}
				if (tr.op == opRead && !tt.reads) || (tr.op == opWrite && !tt.writes) {
					t.Fatalf("%s issued by rw = %s", tr.op.syscall(), tt.rw)
				}
				perBlock[tr.offset]++
			}
			for off := reg.start; tt.eachBlockLoops && off < reg.end(); off += bs {
				if perBlock[off] != loops {
					t.Errorf("block at %d covered %d times, want %d", off, perBlock[off], loops)
				}
			}
			reads, writes := countOps(log)
			if got := recordedIOs(res.Read) + recordedIOs(res.Write); got != uint64(reads+writes) {
				t.Errorf("recorded %d I/Os, issued %d", got, reads+writes)
			}
		})
	}
}

func recordedIOs(d *metrics.DirStats) uint64 {
	if d == nil {
		return 0
	}
	return d.IOs
}

func TestBytesLimitsTheTransfer(t *testing.T) {
	path, _ := patternFile(t, t.TempDir(), 256<<10)
	w := workload.Workload{RW: "write", BS: 4096, IODepth: 4, NumJobs: 3, Bytes: 10 * 4096, Loops: 5}
	sys := &recordingSys{}
	res, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: 256 << 10}, w, nil, sys)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(sys.transfers()); n != 10 || res.Write.Bytes != 10*4096 {
		t.Errorf("issued %d I/Os writing %d bytes, want 10 I/Os and %d bytes", n, res.Write.Bytes, 10*4096)
	}
}

// TestEveryJobHasItsOwnOpenFile: each job transfers through an open file
// of its own, as fio's jobs do, and every one is closed at the end.
func TestEveryJobHasItsOwnOpenFile(t *testing.T) {
	path, _ := patternFile(t, t.TempDir(), 256<<10)
	w := workload.Workload{RW: "randread", BS: 4096, IODepth: 2, NumJobs: 3, Bytes: 3 * 64 * 4096}
	sys := &recordingSys{}
	if _, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: 256 << 10}, w, nil, sys); err != nil {
		t.Fatal(err)
	}
	used := map[int]int{}
	for _, tr := range sys.transfers() {
		used[tr.fd]++
	}
	opened, closed := slices.Sorted(slices.Values(sys.opened)), slices.Sorted(slices.Values(sys.closed))
	if len(opened) != 3 || len(used) != 3 || !slices.Equal(opened, closed) {
		t.Fatalf("opened %v, closed %v, transfers by file %v; want 3 files, each used and closed", opened, closed, used)
	}
	for _, fd := range opened {
		if used[fd] != 64 {
			t.Errorf("file %d carried %d transfers, want its job's 64 (transfers by file %v)", fd, used[fd], used)
		}
	}
}

// TestAJobFileRefusedClosesTheOthers: when the kernel refuses a job's
// file, the run says which job and what to do, and closes what it opened.
func TestAJobFileRefusedClosesTheOthers(t *testing.T) {
	path, _ := patternFile(t, t.TempDir(), 256<<10)
	w := workload.Workload{RW: "randread", BS: 4096, IODepth: 1, NumJobs: 3, Bytes: 3 * 4096}
	sys := &recordingSys{openLimit: 2}
	_, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: 256 << 10}, w, nil, sys)
	if err == nil || !strings.Contains(err.Error(), "job 3 of 3") || !strings.Contains(err.Error(), "lower numjobs") {
		t.Errorf("error %v, want one naming job 3 of 3 and saying to lower numjobs", err)
	}
	if opened, closed := slices.Sorted(slices.Values(sys.opened)), slices.Sorted(slices.Values(sys.closed)); len(opened) != 2 || !slices.Equal(opened, closed) {
		t.Errorf("opened %v, closed %v; want both closed", opened, closed)
	}
}

func TestSeedRepeatsOffsets(t *testing.T) {
	path, _ := patternFile(t, t.TempDir(), 256<<10)
	offsets := func(seed uint64) []transfer {
		w := workload.Workload{RW: "randrw", ReadPct: 50, BS: 4096, IODepth: 1, NumJobs: 1, Bytes: 200 * 4096, Seed: seed}
		sys := &recordingSys{}
		if _, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: 256 << 10}, w, nil, sys); err != nil {
			t.Fatal(err)
		}
		log := sys.transfers()
		for i := range log {
			log[i].fd = 0 // the file's number is the kernel's choice
		}
		return log
	}
	first := offsets(1)
	if again := offsets(1); !reflect.DeepEqual(first, again) {
		t.Error("the same seed gave different I/Os")
	}
	if other := offsets(2); reflect.DeepEqual(first, other) {
		t.Error("different seeds gave the same I/Os")
	}
}

func TestTimeBasedRunExcludesRamp(t *testing.T) {
	path, _ := patternFile(t, t.TempDir(), 1<<20)
	w := workload.Workload{RW: "randread", BS: 4096, IODepth: 2, NumJobs: 1, Runtime: time.Second, Ramp: 300 * time.Millisecond}
	sys := &recordingSys{}
	var live []metrics.Sample
	before := time.Now()
	res, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: 1 << 20}, w, func(s metrics.Sample) { live = append(live, s) }, sys)
	if err != nil {
		t.Fatal(err)
	}
	issued := len(sys.transfers())
	if res.Read == nil || res.Read.IOs == 0 || res.Read.IOs >= uint64(issued) {
		t.Fatalf("recorded %d I/Os of %d issued; want some, fewer than issued (ramp)", recordedIOs(res.Read), issued)
	}
	if res.Write != nil {
		t.Errorf("randread recorded writes: %+v", res.Write)
	}
	if res.Start.Before(before.Add(w.Ramp)) || res.RuntimeNs < w.Runtime.Nanoseconds() {
		t.Errorf("measured phase starts %v after the call and lasts %v; want after the %v ramp, at least %v",
			res.Start.Sub(before), time.Duration(res.RuntimeNs), w.Ramp, w.Runtime)
	}
	if want := float64(res.Read.IOs) / (float64(res.RuntimeNs) / 1e9); math.Abs(res.Read.IOPS-want) > 1e-9*want {
		t.Errorf("IOPS %f, want ios/runtime = %f", res.Read.IOPS, want)
	}
	checkSeries(t, res, live)
}

// checkSeries checks that the series covers the measured phase: increasing
// times, the samples shown live, and I/O counts that add up to the
// recorded total, so no ramp I/O is in it.
func checkSeries(t *testing.T, res *metrics.Result, live []metrics.Sample) {
	t.Helper()
	if len(res.Series) == 0 {
		t.Fatal("no samples in the series")
	}
	// the run's drain, folded into the last interval, shows that
	// interval again, ending later
	n := len(res.Series)
	if len(live) != n && len(live) != n+1 || !reflect.DeepEqual(live[:n-1], res.Series[:n-1]) || live[len(live)-1] != res.Series[n-1] {
		t.Errorf("live saw %d samples, the series holds %d; want the same samples, the last maybe shown twice", len(live), n)
	}
	prev, total := 0.0, 0.0
	for _, s := range res.Series {
		if s.T <= prev {
			t.Fatalf("sample times not increasing: %v after %v", s.T, prev)
		}
		total += math.Round(s.ReadIOPS * (s.T - prev))
		prev = s.T
	}
	if last := res.Series[len(res.Series)-1].T; math.Abs(last-float64(res.RuntimeNs)/1e9) > 1e-6 {
		t.Errorf("series ends at %vs, the runtime is %v", last, time.Duration(res.RuntimeNs))
	}
	if uint64(total) != res.Read.IOs {
		t.Errorf("series adds up to %v reads, the result has %d", total, res.Read.IOs)
	}
}

func TestCancelStopsTheRun(t *testing.T) {
	tests := []struct {
		name     string
		ramp     time.Duration
		measured bool
	}{
		{name: "measuring", measured: true},
		{name: "ramping", ramp: time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, _ := patternFile(t, t.TempDir(), 1<<20)
			w := workload.Workload{RW: "randread", BS: 4096, IODepth: 2, NumJobs: 2, Runtime: time.Minute, Ramp: tt.ramp}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			sys := &recordingSys{after: func(n int) {
				if n == 5000 {
					cancel()
				}
			}}
			start := time.Now()
			res, err := execPsync(ctx, driver.Target{Path: path, Capacity: 1 << 20}, w, nil, sys)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v, want context.Canceled", err)
			}
			if elapsed := time.Since(start); elapsed > 30*time.Second {
				t.Fatalf("run went on for %v after cancellation", elapsed)
			}
			if res == nil {
				t.Fatal("no partial result")
			}
			if got := recordedIOs(res.Read) > 0; got != tt.measured {
				t.Errorf("partial result has reads %+v; want measured I/Os: %v", res.Read, tt.measured)
			}
		})
	}
}

func TestIOErrorStopsTheRun(t *testing.T) {
	const failAt = 40960
	tests := []struct {
		numjobs, iodepth int
		exactIOs         uint64 // 0: just some I/Os before the failure
	}{
		{numjobs: 1, iodepth: 1, exactIOs: failAt / 4096},
		{numjobs: 2, iodepth: 4},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("numjobs=%d,iodepth=%d", tt.numjobs, tt.iodepth), func(t *testing.T) {
			path, _ := patternFile(t, t.TempDir(), 256<<10)
			w := workload.Workload{RW: "write", BS: 4096, IODepth: tt.iodepth, NumJobs: tt.numjobs, Loops: 100}
			sys := &recordingSys{inject: func(tr transfer) (int, error, bool) {
				return 0, unix.EIO, tr.offset == failAt
			}}
			res, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: 256 << 10}, w, nil, sys)
			var ioErr *IOError
			if !errors.As(err, &ioErr) || ioErr.Offset != failAt || ioErr.Op != "pwrite" || !errors.Is(err, unix.EIO) {
				t.Fatalf("error %v, want a pwrite *IOError at offset %d with EIO", err, failAt)
			}
			if want := fmt.Sprintf("pwrite %s at offset %d: input/output error", path, failAt); err.Error() != want {
				t.Errorf("message %q, want %q", err, want)
			}
			if res == nil || res.Write == nil {
				t.Fatalf("partial result %+v, want the writes before the failure", res)
			}
			if tt.exactIOs != 0 && res.Write.IOs != tt.exactIOs {
				t.Errorf("partial result has %d writes, want %d", res.Write.IOs, tt.exactIOs)
			}
		})
	}
}

func TestShortTransferIsAnError(t *testing.T) {
	t.Run("read past the end of the file", func(t *testing.T) {
		path, _ := patternFile(t, t.TempDir(), 64<<10)
		w := workload.Workload{RW: "read", BS: 4096, IODepth: 1, NumJobs: 1, Offset: 64 << 10}
		_, err := Engine{}.Run(context.Background(), driver.Target{Path: path, Capacity: 128 << 10}, w, nil)
		want := fmt.Sprintf("pread %s at offset %d: short transfer: 0 of 4096 bytes", path, 64<<10)
		if err == nil || err.Error() != want {
			t.Errorf("error %v, want %q", err, want)
		}
	})
	t.Run("partial write", func(t *testing.T) {
		path, _ := patternFile(t, t.TempDir(), 64<<10)
		w := workload.Workload{RW: "write", BS: 4096, IODepth: 1, NumJobs: 1}
		sys := &recordingSys{inject: func(tr transfer) (int, error, bool) { return 100, nil, tr.offset == 8192 }}
		_, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: 64 << 10}, w, nil, sys)
		var ioErr *IOError
		if !errors.As(err, &ioErr) || ioErr.Offset != 8192 || ioErr.Err.Error() != "short transfer: 100 of 4096 bytes" {
			t.Errorf("error %v, want a short transfer of 100 of 4096 bytes at 8192", err)
		}
	})
}

func TestOpenFailure(t *testing.T) {
	w := baseWorkload()
	_, err := Engine{}.Run(context.Background(), driver.Target{Path: "/nonexistent/target", Capacity: 1 << 20}, w, nil)
	if !errors.Is(err, unix.ENOENT) || err.Error() != "open /nonexistent/target: no such file or directory" {
		t.Errorf("error %v, want the open failure with its path", err)
	}
}

func TestReadOnlyWorkloadOpensReadOnly(t *testing.T) {
	path, _ := patternFile(t, t.TempDir(), 64<<10)
	for _, rw := range []string{"read", "randread", "randrw"} {
		w := baseWorkload()
		w.RW, w.ReadPct, w.Bytes = rw, 100, 16*4096
		sys := &recordingSys{}
		if _, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: 64 << 10}, w, nil, sys); err != nil {
			t.Fatal(err)
		}
		if sys.openFlags&unix.O_ACCMODE != unix.O_RDONLY {
			t.Errorf("rw = %s with read_pct 100 opened with flags %#x, want read-only", rw, sys.openFlags)
		}
	}
}

// BenchmarkRandRead4KPageCache measures the engine's cost per I/O on
// reads the page cache serves; run with -benchmem: the hot path does not
// allocate, so allocs/op tends to zero as b.N grows.
func BenchmarkRandRead4KPageCache(b *testing.B) {
	for _, bc := range []struct {
		engine string
		depth  int
	}{{"psync", 1}, {"io_uring", 32}} {
		b.Run(fmt.Sprintf("%s,iodepth=%d", bc.engine, bc.depth), func(b *testing.B) {
			if bc.engine == "io_uring" {
				requireUring(b)
			}
			path, _ := patternFile(b, b.TempDir(), 4<<20)
			w := workload.Workload{RW: "randread", BS: 4096, IODepth: bc.depth, NumJobs: 1, IOEngine: bc.engine, Bytes: int64(max(b.N, bc.depth)) * 4096}
			b.ReportAllocs()
			b.ResetTimer()
			res, err := Engine{}.Run(context.Background(), driver.Target{Path: path, Capacity: 4 << 20}, w, nil)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(res.Read.IOPS, "IOPS")
			b.ReportMetric(float64(res.Read.Quantile(99)), "p99-ns")
		})
	}
}
