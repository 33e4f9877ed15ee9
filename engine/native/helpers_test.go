package native

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
	"golang.org/x/sys/unix"
)

// transfer is one pread or pwrite the engine issued.
type transfer struct {
	op      op
	offset  int64
	length  int
	aligned bool // the buffer starts on a 4096-byte boundary
	fd      int
}

// recordingSys is the real system interface with a log of every transfer
// and hooks to fail or count them.
type recordingSys struct {
	unixSyscalls
	// openErr, when set, is returned by open instead of opening; after
	// openLimit files (when more than 0), EMFILE is.
	openErr   error
	openLimit int
	// inject, when set, may replace a transfer's outcome: ok = true reports
	// n and err instead of issuing the call.
	inject func(t transfer) (n int, err error, ok bool)
	// after, when set, is called with the number of transfers so far.
	after func(count int)
	// write, when set, carries out every pwrite instead of the kernel.
	write func(fd int, buf []byte, off int64) (int, error)

	mu             sync.Mutex
	openFlags      int
	opened, closed []int
	log            []transfer
	// synced holds the file of every fsync, in order.
	synced []int
}

func (s *recordingSys) fsync(fd int) error {
	s.mu.Lock()
	s.synced = append(s.synced, fd)
	s.mu.Unlock()
	return s.unixSyscalls.fsync(fd)
}

func (s *recordingSys) open(path string, flags int) (int, error) {
	s.mu.Lock()
	s.openFlags = flags
	s.mu.Unlock()
	if s.openErr != nil {
		return -1, s.openErr
	}
	if s.openLimit > 0 && len(s.opened) >= s.openLimit {
		return -1, unix.EMFILE
	}
	fd, err := s.unixSyscalls.open(path, flags)
	if err == nil {
		s.mu.Lock()
		s.opened = append(s.opened, fd)
		s.mu.Unlock()
	}
	return fd, err
}

func (s *recordingSys) close(fd int) error {
	s.mu.Lock()
	s.closed = append(s.closed, fd)
	s.mu.Unlock()
	return s.unixSyscalls.close(fd)
}

func (s *recordingSys) pread(fd int, buf []byte, off int64, holdP bool) (int, error) {
	return s.do(fd, opRead, buf, off, func() (int, error) { return s.unixSyscalls.pread(fd, buf, off, holdP) })
}

func (s *recordingSys) pwrite(fd int, buf []byte, off int64, holdP bool) (int, error) {
	return s.do(fd, opWrite, buf, off, func() (int, error) {
		if s.write != nil {
			return s.write(fd, buf, off)
		}
		return s.unixSyscalls.pwrite(fd, buf, off, holdP)
	})
}

// tryPread and tryPwrite decline, so every transfer goes through the
// logged pread and pwrite.
func (s *recordingSys) tryPread(int, []byte, int64) (int, error, bool)  { return 0, nil, false }
func (s *recordingSys) tryPwrite(int, []byte, int64) (int, error, bool) { return 0, nil, false }

func (s *recordingSys) do(fd int, o op, buf []byte, off int64, call func() (int, error)) (int, error) {
	t := transfer{fd: fd, op: o, offset: off, length: len(buf), aligned: uintptr(unsafe.Pointer(&buf[0]))%4096 == 0}
	s.mu.Lock()
	s.log = append(s.log, t)
	count := len(s.log)
	s.mu.Unlock()
	if s.after != nil {
		s.after(count)
	}
	if s.inject != nil {
		if n, err, ok := s.inject(t); ok {
			return n, err
		}
	}
	return call()
}

func (s *recordingSys) transfers() []transfer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]transfer(nil), s.log...)
}

// countOps counts the logged transfers by direction.
func countOps(log []transfer) (reads, writes int) {
	for _, t := range log {
		if t.op == opRead {
			reads++
		} else {
			writes++
		}
	}
	return reads, writes
}

// patternFile creates a file of size bytes in dir, filled with a known
// byte pattern, and returns its path and content.
func patternFile(t testing.TB, dir string, size int) (string, []byte) {
	t.Helper()
	content := make([]byte, size)
	for i := range content {
		content[i] = byte(i*7 + i/4096)
	}
	path := filepath.Join(dir, "target")
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, content
}

// baseWorkload is a small valid workload that tests adjust.
func baseWorkload() workload.Workload {
	return workload.Workload{RW: "randread", BS: 4096, IODepth: 1, NumJobs: 1, Seed: 42}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// execPsync runs w through sys with one-second intervals, on psync unless
// w names another ioengine: only psync's transfers pass through sys.
func execPsync(ctx context.Context, t driver.Target, w workload.Workload, live func(metrics.Sample), sys syscalls) (*metrics.Result, error) {
	if w.IOEngine == "" {
		w.IOEngine = "psync"
	}
	return execute(ctx, t, w, live, sys, time.Second)
}
