package native

import (
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The jobs of a run start together, as the ranks of a checkpoint do
// behind MPI's barrier: each job's goroutine is started and brought to a
// gate, and only once every one is there does the run's clock start and
// the gate open. Started one after another straight into their I/O, a
// job that the machine started late began its I/O after the others had
// been writing for a while, and every job's seconds, counted from a
// start taken before the first goroutine was made, held the change of
// GOMAXPROCS and the making of the goroutines. Behind the gate, what
// spread is left between the jobs' first operations is the CPUs' run
// queue: 8 ranks of a checkpoint copying their writes into the page cache
// on 2 CPUs take turns, the last first running some 20 ms after the gate
// opens, as fio's jobs do (bench/ai-compare.sh).
//
// A job the run gave a P of its own (procs.go) waits at the gate in a
// raw futex wait, which keeps its P and thread, so that one FUTEX_WAKE
// sets every such job running at once; the others park on a channel. The
// raw wait times out every millisecond, so that a stop-the-world (a
// collection, another run's change of GOMAXPROCS) waits for it no longer
// than that.

// The futex operations, on a word private to the process.
const (
	futexWaitPrivate = 0 | 128
	futexWakePrivate = 1 | 128
	// gatePoll bounds one raw wait at the gate.
	gatePoll = time.Millisecond
)

// gate holds a run's jobs until all of them have reached it.
type gate struct {
	arrived sync.WaitGroup
	// opened is 1 once the gate is open: the futex word.
	opened atomic.Uint32
	open   chan struct{}
}

func newGate(jobs int) *gate {
	g := &gate{open: make(chan struct{})}
	g.arrived.Add(jobs)
	return g
}

// wait brings a job to the gate and returns once it opens; raw says
// the job has a P of its own to wait on.
func (g *gate) wait(raw bool) {
	g.arrived.Done()
	if !raw {
		<-g.open
		return
	}
	ts := unix.NsecToTimespec(int64(gatePoll))
	for g.opened.Load() == 0 {
		_, _, _ = unix.RawSyscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(&g.opened)), futexWaitPrivate, 0, uintptr(unsafe.Pointer(&ts)), 0, 0)
	}
}

// release waits for every job to reach the gate, calls start (the run's
// clock starts there) and opens the gate.
func (g *gate) release(start func()) {
	g.arrived.Wait()
	start()
	g.opened.Store(1)
	_, _, _ = unix.RawSyscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(&g.opened)), futexWakePrivate, uintptr(1<<31-1), 0, 0, 0)
	close(g.open)
}
