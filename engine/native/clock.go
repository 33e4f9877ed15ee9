package native

import _ "unsafe" // for go:linkname

// clock is the time in ns since the run's clock started. It reads the
// runtime's monotonic clock (the one time.Now reads) and calls no
// function that can be preempted. So the end of an I/O is read as its
// system call returns: read after a preemption point, it would carry
// the time a preempted goroutine waits to run again, and the scheduler
// preempts any goroutine that has run 10 ms without yielding, which a
// slot or ring that waits in raw system calls always has.
func (r *run) clock() int64 { return nanotime() - r.base }

// nanotime is the runtime's monotonic clock in ns. It is nosplit: a
// goroutine cannot be preempted in it.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64
