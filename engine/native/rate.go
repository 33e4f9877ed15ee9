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
	// next is the intended time of the job's next I/O, in 1/1024 ns
	// since the run's clock started.
	next atomic.Uint64
	// perIO and perByte are the mean gaps in 1/1024 ns after each I/O
	// and after each byte; one of them is zero.
	perIO, perByte float64
	poisson        bool
	seed           uint64
}

// fixedPoint is the number of fraction bits of schedule times.
const fixedPoint = 10

// newSchedule paces a job at iops I/Os or bw bytes per second (one of
// them zero); nil when both are zero. Jobs start staggered by phase, a
// fraction of one gap, so uniform jobs interleave.
func newSchedule(iops, bw float64, poisson bool, seed uint64, phase float64) *schedule {
	if iops <= 0 && bw <= 0 {
		return nil
	}
	s := &schedule{poisson: poisson, seed: seed}
	if iops > 0 {
		s.perIO = 1e9 * (1 << fixedPoint) / iops
	} else {
		s.perByte = 1e9 * (1 << fixedPoint) / bw
	}
	if !poisson {
		s.next.Store(uint64(phase * (s.perIO + s.perByte)))
	}
	return s
}

// take reserves the next arrival for an I/O of size bytes and returns its
// intended time in ns on the run's clock. Concurrent slots of a job take
// arrivals in turn; the sequence of times does not depend on which slot
// takes which.
func (s *schedule) take(size int64) int64 {
	for {
		old := s.next.Load()
		if s.next.CompareAndSwap(old, old+s.gap(old, size)) {
			return int64(old >> fixedPoint)
		}
	}
}

// gap is the time from the arrival at t to the next: the mean gap, or
// for Poisson arrivals an exponential draw with that mean, derived from
// t itself so that the sequence repeats for a seed (never zero, so t
// always moves on).
func (s *schedule) gap(t uint64, size int64) uint64 {
	mean := s.perIO + s.perByte*float64(size)
	if !s.poisson {
		return uint64(math.Round(mean))
	}
	u := float64(splitmix64(s.seed^t)>>11) / (1 << 53) // [0, 1)
	return max(1, uint64(math.Round(-math.Log1p(-u)*mean)))
}

// longestNap bounds one sleep of a paced slot, so that a stopped run is
// noticed promptly even at a few I/Os a second.
const longestNap = 50 * time.Millisecond

// pace prepares the calling goroutine's thread for precise sleeps: it
// locks the goroutine to its thread and sets the thread's timer slack to
// 1 ns (the default, 50 µs, makes every wake-up late by that much).
func pace() {
	runtime.LockOSThread()
	_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0)
}

// sleepUntil blocks until the run's clock reaches due; false when the run
// stops first.
func (r *run) sleepUntil(due int64) bool {
	for !r.stop.Load() {
		wait := due - r.clock()
		if wait <= 0 {
			return true
		}
		ts := unix.NsecToTimespec(min(wait, int64(longestNap)))
		_ = unix.Nanosleep(&ts, nil)
	}
	return false
}
