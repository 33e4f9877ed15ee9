package native

import (
	"runtime/debug"
	rtmetrics "runtime/metrics"
	"sync"
)

// A garbage collection stops the world to begin and to end its mark
// phase: every goroutine must reach a safe point, the slots and rings
// waiting in raw system calls included, so each I/O in flight then is
// dated late by the pause, and the mark workers take CPU from the slots
// meanwhile. drivebench's heap is a few MiB, and the collector's default
// goal, twice the live heap but at least 4 MiB, is reached every few
// seconds by what the rest of the program allocates while a step runs
// (its progress lines, the live series, the host's load): measured
// through `drivebench run`, a 5 s step saw two collections, each pausing
// the run for 2 to 4 ms, and its p99.9 latency was 3x that of the engine
// driven alone.
//
// So while a run lasts, the collector is held back: it runs only when the
// program's memory has grown gcHeadroom past what it was when the run
// began (a memory limit, with GOGC off), which at the megabyte or so a
// second the program allocates during a step is every few minutes, and
// as before once the run ends. A lower memory limit the user set
// (GOMEMLIMIT) stays in force.

// gcHeadroom is how far the program's memory may grow during a run before
// the collector runs.
const gcHeadroom = 256 << 20

// gcHold counts the runs holding the collector back and keeps the
// settings to restore after the last.
var gcHold struct {
	mu      sync.Mutex
	runs    int
	percent int
	limit   int64
}

// holdGC holds the collector back until the returned function is called.
func holdGC() (release func()) {
	g := &gcHold
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.runs == 0 {
		g.limit = debug.SetMemoryLimit(-1)
		debug.SetMemoryLimit(min(g.limit, int64(memoryInUse())+gcHeadroom))
		g.percent = debug.SetGCPercent(-1)
	}
	g.runs++
	var once sync.Once
	return func() { once.Do(releaseGC) }
}

func releaseGC() {
	g := &gcHold
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.runs--; g.runs == 0 {
		debug.SetGCPercent(g.percent)
		debug.SetMemoryLimit(g.limit)
	}
}

// memoryInUse is the memory the Go runtime holds, as the memory limit
// counts it.
func memoryInUse() uint64 {
	s := []rtmetrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	rtmetrics.Read(s)
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}
