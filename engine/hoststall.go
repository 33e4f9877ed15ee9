package engine

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/drivebench/drivebench/results"
	"golang.org/x/sys/unix"
)

// A latency is the drive's only while the machine that issued the I/O
// runs. A virtual machine's host can hold all of the machine's CPUs at
// once, and every I/O in flight then completes late, whichever engine
// issued it: on a 2-CPU guest under many-job O_DIRECT reads, 12 to 17 ms
// of every 100 ms (a CPU quota spent before its period ended), 4 to 24 %
// of the time, with the kernel's steal time at 0; that decided the
// p99.9 of fio and drivebench alike (bench/host-stall.sh).
//
// So over every I/O step a thread of real-time priority wakes now and
// then and notes whether it woke more than stallThreshold late: nothing
// in the machine delays such a thread that long but the machine being
// held. Each wake-up is a sample of the step's time, taken at a random
// moment (the sleeps vary, so that they do not fall into step with a
// periodic hold), and the share of late ones is the share of the time
// the machine was held. Sampling keeps the probe cheap: on that guest a
// wake-up of an idle CPU cost about 0.2 ms, and a probe waking every
// 2 ms took a tenth of a CPU and 10 % of a QD1 step's IOPS; 20 wake-ups a
// second cost about 0.5 % of one CPU. A step with late wake-ups says so
// beside its latencies. Raising a thread to real-time priority needs
// CAP_SYS_NICE; without it the stalls are not measured (a thread of
// ordinary priority would count the machine's own CPU contention as
// well) and the record says nothing of them.

// stallNapMin and stallNapMax bound the probe's sleeps; stallThreshold is
// how late a wake-up must be to count as held; stallWarnHeld how many
// held wake-ups make the step warn (one could be chance); stallPriority
// the probe's SCHED_FIFO priority, the lowest: it needs only to run
// before every thread of ordinary priority.
const (
	stallNapMin    = 25 * time.Millisecond
	stallNapMax    = 75 * time.Millisecond
	stallThreshold = 2 * time.Millisecond
	stallWarnHeld  = 2
	stallPriority  = 1
)

// stallWatch is the probe of one step.
type stallWatch struct {
	stop  chan struct{}
	start time.Time
	// sleep sleeps for a nap: nanosleep, or in tests a sleep made late
	// as a held machine makes it.
	sleep func(nap time.Duration)
	mu    sync.Mutex
	// wakes are the wake-ups, each with how late it was.
	wakes []wake
}

// watchStalls starts the probe, or returns nil when this process may not
// raise a thread to real-time priority.
func watchStalls() *stallWatch {
	return startStallWatch(nanosleep)
}

// nanosleep sleeps for d; a signal may end it early.
func nanosleep(d time.Duration) {
	ts := unix.NsecToTimespec(d.Nanoseconds())
	_ = unix.Nanosleep(&ts, nil) // EINTR only ends a sleep early
}

// startStallWatch starts a probe whose naps are taken by sleep.
func startStallWatch(sleep func(time.Duration)) *stallWatch {
	s := &stallWatch{stop: make(chan struct{}), start: time.Now(), sleep: sleep}
	ready := make(chan bool)
	go s.probe(ready)
	if !<-ready {
		return nil
	}
	return s
}

// probe runs on a thread of its own at real-time priority until stop.
// The thread goes back to ordinary priority and to the Go scheduler
// after; if it cannot, it ends with the goroutine.
func (s *stallWatch) probe(ready chan<- bool) {
	runtime.LockOSThread()
	if err := unix.SchedSetAttr(0, &unix.SchedAttr{Policy: unix.SCHED_FIFO, Priority: stallPriority}, 0); err != nil {
		runtime.UnlockOSThread()
		ready <- false
		return
	}
	defer func() {
		if unix.SchedSetAttr(0, &unix.SchedAttr{Policy: unix.SCHED_NORMAL}, 0) == nil {
			runtime.UnlockOSThread()
		}
	}()
	ready <- true
	for {
		nap := stallNapMin + rand.N(stallNapMax-stallNapMin)
		t := time.Now()
		s.sleep(nap)
		now := time.Now()
		late := max(now.Sub(t)-nap, 0)
		select {
		case <-s.stop:
			return
		default:
		}
		s.mu.Lock()
		s.wakes = append(s.wakes, wake{at: now, late: late})
		s.mu.Unlock()
	}
}

// finish stops the probe and sums up its wake-ups, without waiting for
// the sleep under way; nil when there was no probe.
func (s *stallWatch) finish() *results.HostStalls {
	if s == nil {
		return nil
	}
	close(s.stop)
	return summarizeStalls(s.wakeUps(), time.Since(s.start))
}

// wakeUps are the probe's wake-ups so far; none without a probe.
func (s *stallWatch) wakeUps() []wake {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.wakes)
}

// summarizeStalls sums up how late each wake-up was, over a probe that
// watched for span.
func summarizeStalls(wakes []wake, span time.Duration) *results.HostStalls {
	st := &results.HostStalls{Samples: len(wakes)}
	var held time.Duration
	for _, wk := range wakes {
		if wk.late > stallThreshold {
			st.Held++
			held += wk.late
			st.MaxLateMs = max(st.MaxLateMs, float64(wk.late)/1e6)
		}
	}
	st.HeldMs = float64(held) / 1e6
	if st.Samples > 0 {
		st.HeldPct = 100 * float64(st.Held) / float64(st.Samples)
	}
	if span > 0 {
		st.HeldPct = max(st.HeldPct, min(100*held.Seconds()/span.Seconds(), 100))
	}
	return st
}

// stallWarning says when the machine was held during the step.
func stallWarning(st *results.HostStalls) *results.Warning {
	if st == nil || st.Held < stallWarnHeld {
		return nil
	}
	return &results.Warning{Kind: results.WarnHostStall, Message: fmt.Sprintf(
		"The whole machine was held, none of its programs running, for about %s of the step: %d of %d wake-ups of a real-time thread came more than %d ms late, one by %.1f ms, as when the host of a virtual machine holds it. I/Os in flight then completed late whatever the drive did, so latencies of milliseconds may be the host's, not the drive's. Run on a machine its host does not hold (bare metal, or dedicated CPUs), or read only the percentiles below the stalls.",
		formatShare(st.HeldPct), st.Held, st.Samples, stallThreshold.Milliseconds(), st.MaxLateMs)}
}
