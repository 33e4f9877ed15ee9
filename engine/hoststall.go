package engine

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/drivebench/drivebench/format"
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

// The probe runs in a process of its own, this program started again
// (stallProbeEnv), because in this one it made the Go runtime's monitor
// thread (sysmon) wake 1,300 times a second: the monitor takes the P of a
// goroutine that has been in one system call for 10 ms (each of the
// probe's sleeps) and then, as if more such calls were coming, polls every
// 20 µs for a millisecond and more; against about 100 a second without the
// probe (/proc/PID/task/TID/status). Each wake-up can land on the CPU of
// an I/O: buffered 64 KiB sequential reads through `drivebench run` had a
// p99 of 35 µs with the probe and 19 µs without, the engine alone 18 µs
// and fio 17 µs (median of 5 alternating rounds). In the probe's process
// the sleep is a raw system call on the one P there is, with asynchronous
// preemption off, so its monitor finds nothing to take and wakes every
// 10 ms.
const stallProbeEnv = "DRIVEBENCH_STALL_PROBE"

// stallRecord is the size of one wake-up the probe process reports: when
// (ns on the monotonic clock, which both processes read) and how late
// (ns), little-endian.
const stallRecord = 16

// nanotime is the runtime's monotonic clock (CLOCK_MONOTONIC) in ns. The
// probe reads it as it wakes: it is nosplit, so the goroutine cannot be
// preempted before it reads the time. Its sleep of more than 10 ms always
// leaves a preemption pending, and on its thread, locked, a preemption
// waits for a thread of ordinary priority, which a busy machine delays.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

func init() {
	if os.Getenv(stallProbeEnv) == "1" {
		os.Exit(probeStalls(os.Stdout, sleepUntil))
	}
}

// probeStalls is the probe process: it raises its thread to real-time
// priority, writes "R" (ready), then one record a wake-up until out
// fails, when the step's process has gone or stopped it. Each nap is
// taken by sleep, until a due time on the monotonic clock: sleepUntil,
// or in tests a sleep made late as a held machine makes it. It returns 2
// when it may not have real-time priority.
func probeStalls(out io.Writer, sleep func(due int64)) int {
	runtime.LockOSThread()
	if err := unix.SchedSetAttr(0, &unix.SchedAttr{Policy: unix.SCHED_FIFO, Priority: stallPriority}, 0); err != nil {
		return 2
	}
	if _, err := out.Write([]byte("R")); err != nil {
		return 1
	}
	var rec [stallRecord]byte
	for {
		due := nanotime() + int64(stallNapMin+rand.N(stallNapMax-stallNapMin))
		sleep(due)
		now := nanotime()
		binary.LittleEndian.PutUint64(rec[:8], uint64(now))
		binary.LittleEndian.PutUint64(rec[8:], uint64(now-due))
		if _, err := out.Write(rec[:]); err != nil {
			return 0
		}
	}
}

// sleepUntil sleeps until due on the monotonic clock in a raw system
// call, which keeps the P: the monitor of the probe's process then finds
// no system call to take it from. A signal ends the sleep early (EINTR);
// it goes on to the same due time.
func sleepUntil(due int64) {
	ts := unix.NsecToTimespec(due)
	for nanotime() < due {
		unix.RawSyscall6(unix.SYS_CLOCK_NANOSLEEP, unix.CLOCK_MONOTONIC, unix.TIMER_ABSTIME, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
	}
}

// stallWatch is the probe of one step.
type stallWatch struct {
	// stop ends the probe: the probe process, or in tests the pipe its
	// loop writes to.
	stop  func()
	read  sync.WaitGroup
	start time.Time
	mono  int64 // start on the monotonic clock
	mu    sync.Mutex
	// wakes are the wake-ups, each with how late it was.
	wakes []wake
}

// watchStalls starts the probe, or returns nil when it cannot start or
// may not raise its thread to real-time priority.
func watchStalls() *stallWatch {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	cmd := exec.Command(exe)
	debug := "asyncpreemptoff=1"
	if d := os.Getenv("GODEBUG"); d != "" {
		debug = d + "," + debug
	}
	cmd.Env = append(os.Environ(), stallProbeEnv+"=1", "GOMAXPROCS=1", "GODEBUG="+debug)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil
	}
	s := &stallWatch{start: time.Now(), mono: nanotime()}
	if cmd.Start() != nil {
		return nil
	}
	s.stop = func() { _ = cmd.Process.Kill() }
	return s.begin(out, func() { _ = cmd.Wait() })
}

// startStallWatch runs the probe's loop in this process, its naps taken
// by sleep: the tests' probe.
func startStallWatch(sleep func(due int64)) *stallWatch {
	r, w := io.Pipe()
	s := &stallWatch{start: time.Now(), mono: nanotime(), stop: func() { r.Close() }}
	// its own goroutine: the thread it raises to real-time priority ends
	// with it, locked
	go func() { w.CloseWithError(fmt.Errorf("probe ended: %d", probeStalls(w, sleep))) }()
	return s.begin(r, func() {})
}

// begin waits for the probe to be ready and collects its wake-ups until
// out ends, then calls done; nil, the probe stopped, when it ended
// first.
func (s *stallWatch) begin(out io.Reader, done func()) *stallWatch {
	var ready [1]byte
	if _, err := io.ReadFull(out, ready[:]); err != nil || ready[0] != 'R' {
		s.stop()
		done()
		return nil
	}
	s.read.Go(func() {
		s.collect(out)
		done()
	})
	return s
}

// collect reads the probe's wake-ups until it ends.
func (s *stallWatch) collect(out io.Reader) {
	var rec [stallRecord]byte
	for {
		if _, err := io.ReadFull(out, rec[:]); err != nil {
			return
		}
		at := s.start.Add(time.Duration(int64(binary.LittleEndian.Uint64(rec[:8])) - s.mono))
		late := time.Duration(binary.LittleEndian.Uint64(rec[8:]))
		s.mu.Lock()
		s.wakes = append(s.wakes, wake{at: at, late: late})
		s.mu.Unlock()
	}
}

// finish stops the probe and sums up its wake-ups, without waiting for
// the sleep under way; nil when there was no probe.
func (s *stallWatch) finish() *results.HostStalls {
	if s == nil {
		return nil
	}
	s.stop()
	s.read.Wait()
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
		format.Share(st.HeldPct), st.Held, st.Samples, stallThreshold.Milliseconds(), st.MaxLateMs)}
}
