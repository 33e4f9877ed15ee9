package native

import (
	"runtime"
	"sync"
)

// A goroutine that waits in the kernel with an ordinary system call gives
// its P (the scheduler's right to run Go code) back, and must win one
// again when the call returns. With many slots blocked at once and only
// as many Ps as CPUs, a completed I/O then waits in the run queue behind
// others, the runtime's monitor thread wakes every 20 µs to hand Ps
// around, and each hand-off costs two context switches: measured at 16
// psync jobs on two CPUs, that lost a third of fio's IOPS and put the
// Go scheduler into the tail latency.
//
// So a slot (psync) or a ring (io_uring) that may block waits in a raw
// system call, keeping its P, and the run raises GOMAXPROCS by one P for
// each of them for its duration: every blocked waiter holds a P of its
// own, the Ps that were there before stay free for the rest of the
// program, and no completion waits for a P. The Ps are not CPUs: a P
// held in the kernel uses none.

// maxRawWaiters bounds the Ps the engine adds, whatever the workload: a
// P costs memory (its caches), and past a thousand threads blocked at
// once the scheduler's hand-offs are no longer what limits a run. Slots
// beyond the bound wait with ordinary system calls.
const maxRawWaiters = 1024

// procBudget is the process's count of Ps added for raw waiters, shared
// by every run in the process.
var procBudget struct {
	mu sync.Mutex
	// base is GOMAXPROCS as it was before the first reservation.
	base     int
	reserved int
}

// reserveProcs adds up to n Ps for raw waiters and returns how many it
// added, and the function that gives them back once they stop waiting.
func reserveProcs(n int) (granted int, release func()) {
	b := &procBudget
	b.mu.Lock()
	defer b.mu.Unlock()
	granted = max(0, min(n, maxRawWaiters-b.reserved))
	if granted == 0 {
		return 0, func() {}
	}
	if b.reserved == 0 {
		b.base = runtime.GOMAXPROCS(0)
	}
	b.reserved += granted
	runtime.GOMAXPROCS(b.base + b.reserved)
	var once sync.Once
	return granted, func() { once.Do(func() { releaseProcs(granted) }) }
}

func releaseProcs(n int) {
	b := &procBudget
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reserved -= n
	runtime.GOMAXPROCS(b.base + b.reserved)
}
