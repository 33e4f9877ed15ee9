package native

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/workload"

	"golang.org/x/sys/unix"
)

func TestDirectIO(t *testing.T) {
	tests := []struct {
		name string
		dir  func(t *testing.T) string
		// mayRefuse: the filesystem may not support O_DIRECT.
		mayRefuse bool
	}{
		{name: "tmp", dir: func(t *testing.T) string { return t.TempDir() }},
		{name: "shm", dir: shmDir, mayRefuse: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, _ := patternFile(t, tt.dir(t), 256<<10)
			w := workload.Workload{RW: "randrw", ReadPct: 50, BS: 8192, IODepth: 2, NumJobs: 2, Direct: true, Offset: 4096, Bytes: 64 * 8192}
			sys := &recordingSys{}
			res, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: 256 << 10, BlockSize: 4096}, w, nil, sys)
			if tt.mayRefuse && errors.Is(err, ErrDirectRefused) {
				testenv.Require(t, "O_DIRECT", "%s refuses it: %v", path, err)
			}
			if err != nil {
				t.Fatal(err)
			}
			if sys.openFlags&unix.O_DIRECT == 0 {
				t.Errorf("opened with flags %#x, want O_DIRECT", sys.openFlags)
			}
			for _, tr := range sys.transfers() {
				if !tr.aligned || tr.offset%4096 != 0 {
					t.Fatalf("%s at %d: buffer aligned %v, offset not a multiple of 4096", tr.op.syscall(), tr.offset, tr.aligned)
				}
			}
			if got := recordedIOs(res.Read) + recordedIOs(res.Write); got != 64 {
				t.Errorf("recorded %d I/Os, want 64", got)
			}
		})
	}
}

// shmDir is a fresh folder on /dev/shm (tmpfs), removed after the test.
func shmDir(t *testing.T) string {
	dir, err := os.MkdirTemp("/dev/shm", "native-test")
	if err != nil {
		testenv.Require(t, "/dev/shm", "%v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func TestDirectRequiresAlignment(t *testing.T) {
	tests := []struct {
		name      string
		bs        int64
		offset    int64
		blockSize int
		field     string
	}{
		{name: "bs", bs: 4096 + 512, blockSize: 4096, field: "bs"},
		{name: "offset", bs: 4096, offset: 512, blockSize: 4096, field: "offset"},
		{name: "default block size", bs: 2048, blockSize: 0, field: "bs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := workload.Workload{RW: "randread", BS: tt.bs, IODepth: 1, NumJobs: 1, Direct: true, Offset: tt.offset}
			_, err := Engine{}.Run(context.Background(), driver.Target{Path: "/nonexistent", Capacity: 1 << 20, BlockSize: tt.blockSize}, w, nil)
			var we *WorkloadError
			if !errors.As(err, &we) || we.Field != tt.field || !strings.Contains(err.Error(), "direct = false") {
				t.Errorf("error %v, want a %s error that suggests direct = false", err, tt.field)
			}
		})
	}
}

func TestDirectRefused(t *testing.T) {
	path, _ := patternFile(t, t.TempDir(), 64<<10)
	w := workload.Workload{RW: "randread", BS: 4096, IODepth: 1, NumJobs: 1, Direct: true}
	target := driver.Target{Path: path, Capacity: 64 << 10, BlockSize: 4096}

	t.Run("at open", func(t *testing.T) {
		_, err := execPsync(context.Background(), target, w, nil, &recordingSys{openErr: unix.EINVAL})
		if !errors.Is(err, ErrDirectRefused) || !strings.Contains(err.Error(), "set direct = false") || !strings.Contains(err.Error(), path) {
			t.Errorf("error %v, want ErrDirectRefused naming %s and suggesting direct = false", err, path)
		}
	})
	t.Run("at the first read", func(t *testing.T) {
		sys := &recordingSys{inject: func(transfer) (int, error, bool) { return -1, unix.EINVAL, true }}
		_, err := execPsync(context.Background(), target, w, nil, sys)
		var ioErr *IOError
		if !errors.Is(err, ErrDirectRefused) || !errors.As(err, &ioErr) || !strings.Contains(err.Error(), "set direct = false") {
			t.Errorf("error %v, want ErrDirectRefused around the pread's *IOError", err)
		}
	})
}
