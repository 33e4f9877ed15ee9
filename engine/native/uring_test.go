package native

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/workload"
	"golang.org/x/sys/unix"
)

// requireUring ends the test when the kernel refuses io_uring.
func requireUring(t testing.TB) {
	t.Helper()
	if !uringAvailable() {
		testenv.Require(t, "io_uring", "the kernel refuses it here (Linux 5.1 and later have it, unless io_uring_disabled is set)")
	}
}

func TestUringRunsEveryPattern(t *testing.T) {
	requireUring(t)
	const (
		capacity = 1 << 20
		bs       = 8192
	)
	for _, direct := range []bool{false, true} {
		for _, rw := range []string{"read", "write", "rw", "randread", "randwrite", "randrw"} {
			t.Run(fmt.Sprintf("%s,direct=%v", rw, direct), func(t *testing.T) {
				path, before := patternFile(t, t.TempDir(), capacity)
				w := workload.Workload{RW: rw, ReadPct: 50, BS: bs, IODepth: 16, NumJobs: 2, Direct: direct, Loops: 2, Seed: 1, IOEngine: "io_uring"}
				res, err := Engine{}.Run(context.Background(), driver.Target{Path: path, Capacity: capacity}, w, nil)
				if err != nil {
					t.Fatal(err)
				}
				if got := recordedIOs(res.Read) + recordedIOs(res.Write); got != 2*capacity/bs {
					t.Errorf("recorded %d I/Os, want %d", got, 2*capacity/bs)
				}
				if rw == "write" {
					after := readFile(t, path)
					for off := 0; off < capacity; off += bs {
						if bytes.Equal(after[off:off+bs], before[off:off+bs]) {
							t.Fatalf("block at %d was not written", off)
						}
					}
				}
			})
		}
	}
}

func TestUringRefusalSaysWhatToDo(t *testing.T) {
	tests := []struct {
		errno unix.Errno
		says  string
	}{
		{errno: unix.EPERM, says: "io_uring is disabled here"},
		{errno: unix.ENOSYS, says: "this kernel has no io_uring"},
	}
	for _, tt := range tests {
		t.Run(tt.errno.Error(), func(t *testing.T) {
			refuseUring(t, tt.errno)
			path, _ := patternFile(t, t.TempDir(), 64<<10)
			target := driver.Target{Path: path, Capacity: 64 << 10}
			w := workload.Workload{RW: "randread", BS: 4096, IODepth: 4, NumJobs: 1, Bytes: 64 * 4096, IOEngine: "io_uring"}
			_, err := Engine{}.Run(context.Background(), target, w, nil)
			if !errors.Is(err, ErrIOUringUnavailable) || !errors.Is(err, tt.errno) ||
				!strings.Contains(err.Error(), tt.says) || !strings.Contains(err.Error(), `set ioengine = "psync"`) {
				t.Errorf("error %v, want ErrIOUringUnavailable saying %q and suggesting psync", err, tt.says)
			}
			w.IOEngine = ""
			res, err := Engine{}.Run(context.Background(), target, w, nil)
			if err != nil || res.Read.IOs != 64 {
				t.Errorf("the default ioengine gave %v, %+v; want it to fall back to psync", err, res)
			}
		})
	}
}

// refuseUring makes io_uring_setup fail with errno until the test ends.
func refuseUring(t *testing.T, errno unix.Errno) {
	setup := uringSetup
	uringSetup = func(uint32, *uringParams) (int, error) { return -1, errno }
	uringProbe.once, uringProbe.ok = sync.Once{}, false
	t.Cleanup(func() {
		uringSetup = setup
		uringProbe.once, uringProbe.ok = sync.Once{}, false
	})
}

func TestUringCancelStopsTheRun(t *testing.T) {
	requireUring(t)
	path, _ := patternFile(t, t.TempDir(), 1<<20)
	w := workload.Workload{RW: "randrw", ReadPct: 50, BS: 4096, IODepth: 32, NumJobs: 2, Runtime: time.Minute, IOEngine: "io_uring"}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := Engine{}.Run(ctx, driver.Target{Path: path, Capacity: 1 << 20}, w, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want the context's", err)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("the run went on for %v", elapsed)
	}
	if res == nil || res.Read == nil || res.Write == nil {
		t.Errorf("partial result %+v, want reads and writes", res)
	}
}

func TestUringRegistersFileAndBuffers(t *testing.T) {
	requireUring(t)
	path, _ := patternFile(t, t.TempDir(), 64<<10)
	fd, err := unix.Open(path, unix.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	buffers, err := mapArena(4, 4096)
	if err != nil {
		t.Fatal(err)
	}
	defer buffers.release()
	rg, err := newRing(4)
	if err != nil {
		t.Fatal(err)
	}
	defer rg.close()
	bufs := [][]byte{buffers.buffer(0), buffers.buffer(1), buffers.buffer(2), buffers.buffer(3)}
	if !rg.registerFile(fd) || !rg.registerBuffers(bufs) {
		t.Fatalf("registered file %v, buffers %v; want both", rg.fixedFile, rg.fixedBuffers)
	}
	for i, b := range bufs {
		rg.queue(opRead, fd, b, int64(i)*8192, i, uint64(i))
	}
	if err := rg.submit(true, 0); err != nil {
		t.Fatal(err)
	}
	want := readFile(t, path)
	for done := 0; done < 4; {
		head, tail, _ := rg.ready()
		for p := head; p != tail; p++ {
			c := rg.cqe(p)
			off := int(c.userData) * 8192
			if c.res != 4096 || !bytes.Equal(bufs[c.userData], want[off:off+4096]) {
				t.Errorf("read %d returned %d and different bytes", c.userData, c.res)
			}
			done++
		}
		rg.consumed(tail)
		if done < 4 {
			if err := rg.submit(true, 0); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestUringReissuesCanceledIO: an I/O the kernel completes with ECANCELED
// goes back to be issued again, its request unchanged, up to maxReissues
// times in a row.
func TestUringReissuesCanceledIO(t *testing.T) {
	s := &slot{req: ioRequest{op: opRead, offset: 4096, size: 4096}, state: slotInFlight}
	rj := newRingJob(&run{}, &job{slots: []*slot{s}}, nil)
	for i := range maxReissues {
		if !rj.reissue(s, 0) || s.state != slotWaiting || s.req.offset != 4096 {
			t.Fatalf("cancel %d: slot %+v not put back with its request", i+1, s)
		}
	}
	if rj.reissue(s, 0) {
		t.Errorf("an I/O canceled %d times in a row was put back again", maxReissues+1)
	}
}

func TestRegisteredBuffersOnlyForTransfersOfAPage(t *testing.T) {
	for _, tc := range []struct {
		largest, page int64
		want          bool
	}{
		{512, 4096, true},
		{4096, 4096, true},
		{8192, 4096, false},
		{131072, 4096, false},
		{16384, 16384, true},
	} {
		if got := registeredBuffers(tc.largest, tc.page); got != tc.want {
			t.Errorf("registeredBuffers(%d, page %d) = %v; want %v", tc.largest, tc.page, got, tc.want)
		}
	}
}
