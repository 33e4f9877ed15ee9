package native

import (
	"sync/atomic"
	_ "unsafe" // for go:linkname
)

// clock is the time in ns since the run's clock started. It reads the
// runtime's monotonic clock (the one time.Now reads) and calls no
// function that can be preempted. So the end of an I/O is read as its
// system call returns: read after a preemption point, it would carry
// the time a preempted goroutine waits to run again, and the scheduler
// preempts any goroutine that has run 10 ms without yielding, which a
// slot or ring that waits in raw system calls always has. The compiler
// inlines it, a call being a preemption point; TestClockIsInlined keeps
// it within the inlining budget. On the virtual clock, the run's clock
// is the virtual time.
func (r *run) clock() int64 {
	if r.virtual == nil {
		return nanotime() - r.base
	}
	return r.virtual.Load()
}

// clockAt is the run's clock at t, a reading of nanotime just taken; on
// the virtual clock, its time now.
func (r *run) clockAt(t int64) int64 {
	if v := r.virtual; v != nil {
		return v.Load()
	}
	return t - r.base
}

// virtualClock stands in for the run's clock in the tests of the pacer,
// where a loaded machine must not decide whether the rate is met: it
// starts at 0 and stands still but for the pacer's sleeps, each of which
// moves it on at once to the time slept until. On it a run's I/Os are
// issued when the pacer lets them, to the ns, however slowly the machine
// runs them.
type virtualClock struct{ atomic.Int64 }

// advance moves the clock on to t, unless it is already past.
func (v *virtualClock) advance(t int64) {
	for {
		now := v.Load()
		if now >= t || v.CompareAndSwap(now, t) {
			return
		}
	}
}

// nanotime is the runtime's monotonic clock in ns. It is nosplit: a
// goroutine cannot be preempted in it.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64
