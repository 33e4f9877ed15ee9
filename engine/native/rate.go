package native

import (
	"math"
	"runtime"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// schedule is a job's open-loop arrival process under a rate target: the
// intended start time of each of its I/Os, uniform or Poisson, fixed in
// advance of the I/Os themselves, so a slow completion delays the I/Os
// behind it without moving their intended times.
type schedule struct {
	// taken counts what uniform arrivals have taken: I/Os, or bytes
	// under a bandwidth target. The n-th arrival is then exactly at
	// phase + n*perUnit, without rounding drift.
	taken atomic.Uint64
	// next is the time of the next Poisson arrival, in 1/1024 ns.
	next atomic.Uint64
	// perUnit is the mean gap in ns per I/O, or per byte when byBytes.
	perUnit float64
	byBytes bool
	phase   float64
	poisson bool
	seed    uint64
	_       [64]byte // keeps the next schedule off taken's cache line
}

// fixedPoint is the number of fraction bits of Poisson arrival times.
const fixedPoint = 10

// newSchedule paces a job at iops I/Os or bw bytes per second (one of
// them zero); nil when both are zero. Uniform jobs start staggered by
// phase, a fraction of one I/O's gap, so that jobs interleave.
func newSchedule(iops, bw float64, poisson bool, seed uint64, phase float64) *schedule {
	switch {
	case iops > 0:
		return &schedule{perUnit: 1e9 / iops, phase: phase * 1e9 / iops, poisson: poisson, seed: seed}
	case bw > 0:
		return &schedule{perUnit: 1e9 / bw, byBytes: true, poisson: poisson, seed: seed}
	}
	return nil
}

// take reserves the next arrival for an I/O of size bytes and returns its
// intended time in ns on the run's clock. Concurrent slots of a job take
// arrivals in turn; the sequence of times does not depend on which slot
// takes which.
func (s *schedule) take(size int64) int64 {
	units := uint64(1)
	if s.byBytes {
		units = uint64(size)
	}
	if !s.poisson {
		n := s.taken.Add(units) - units
		return int64(s.phase + float64(n)*s.perUnit)
	}
	for {
		old := s.next.Load()
		if s.next.CompareAndSwap(old, old+s.expGap(old, float64(units)*s.perUnit)) {
			return int64(old >> fixedPoint)
		}
	}
}

// expGap is the gap after the Poisson arrival at t (in 1/1024 ns): an
// exponential draw with the given mean in ns, derived from t itself so
// that the sequence repeats for a seed; never zero, so t always moves on.
func (s *schedule) expGap(t uint64, mean float64) uint64 {
	u := float64(splitmix64(s.seed^t)>>11) / (1 << 53) // [0, 1)
	return max(1, uint64(math.Round(-math.Log1p(-u)*mean*(1<<fixedPoint))))
}

// longestNap bounds one sleep of a paced slot, so that a stopped run is
// noticed promptly even at a few I/Os a second.
const longestNap = 50 * time.Millisecond

// pace prepares the calling goroutine's thread for precise sleeps: it
// locks the goroutine to its thread and sets the thread's timer slack to
// 1 ns (the default, 50 µs, makes every wake-up late by that much). The
// function it returns restores the default and unlocks the thread, which
// then lives on for the runtime to reuse, and for the runner's host watch
// to read its CPU time at the end of the step.
func pace() (unpace func()) {
	runtime.LockOSThread()
	_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0)
	return func() {
		_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 0, 0, 0, 0) // 0: the thread's default
		runtime.UnlockOSThread()
	}
}

// sleepUntil blocks until the run's clock reaches due; false when the run
// stops first.
func (r *run) sleepUntil(due int64) bool {
	for !r.stop.Load() {
		wait := due - r.clock()
		if wait <= 0 {
			return true
		}
		if r.virtual != nil {
			r.virtual.advance(due)
			continue
		}
		ts := unix.NsecToTimespec(min(wait, int64(longestNap)))
		_ = unix.Nanosleep(&ts, nil)
	}
	return false
}
