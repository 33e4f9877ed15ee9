package addrspace

import (
	"os"
	"strconv"
	"syscall"
	"testing"

	"github.com/drivebench/drivebench/internal/testenv"
)

// TestMain restores what init held, as the script package's init does in
// drivebench, so the tests start from the process's own limit.
func TestMain(m *testing.M) {
	Release()
	os.Exit(m.Run())
}

// reserve maps what the Starlark package reserves at start, as it does,
// and says whether that succeeded.
func reserve(t *testing.T) bool {
	t.Helper()
	b, err := syscall.Mmap(-1, 0, Starlark, syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return false
	}
	if err := syscall.Munmap(b); err != nil {
		t.Fatal(err)
	}
	return true
}

func softLimit(t *testing.T) uint64 {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		t.Fatal(err)
	}
	return lim.Cur
}

// TestHold: outside a hook worker, and in a worker whose limit leaves no
// room beside the hook's memory, a reservation the size of Starlark's
// fails while held and succeeds again once restored, with the limit as
// it was. A worker with room keeps the limit and the reservation.
func TestHold(t *testing.T) {
	before := softLimit(t)
	if before != unlimited {
		testenv.Require(t, "no address-space limit", "this process runs under one (%d bytes); run the tests without ulimit -v", before)
	}
	if !reserve(t) {
		t.Fatal("a reservation of 4 GiB fails without any limit")
	}
	for _, tc := range []struct {
		name, worker string
		held         bool
	}{
		{"not a worker", "", true},
		{"worker with room", strconv.Itoa(512 << 20), false},
		{"worker, bad limit", "x", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			undo := hold(tc.worker)
			if got := reserve(t); got == tc.held {
				t.Errorf("reservation succeeded %v while held", got)
			}
			undo()
			if after := softLimit(t); after != before {
				t.Errorf("limit %d after restore, want %d", after, before)
			}
			if !reserve(t) {
				t.Error("reservation fails after restore")
			}
		})
	}
}

// TestWorkerWithoutRoom: a worker whose limit has room for the
// reservation but not beside the hook's memory runs without it.
func TestWorkerWithoutRoom(t *testing.T) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		t.Fatal(err)
	}
	mapped, err := Mapped()
	if err != nil {
		t.Fatal(err)
	}
	tight := lim
	tight.Cur = min(lim.Cur, uint64(mapped)+Starlark+WorkerHeadroom)
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &tight); err != nil {
		t.Fatal(err)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_AS, &lim)
	undo := hold(strconv.Itoa(512 << 20))
	defer undo()
	if reserve(t) {
		t.Error("the reservation succeeded in a worker without room for it beside 512 MiB")
	}
}
