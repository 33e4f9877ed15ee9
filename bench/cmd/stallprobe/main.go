// Command stallprobe measures how long the machine stops running anything:
// a thread of real-time priority sleeps a short time, over and over, and
// counts each wake-up that comes far later than asked. Nothing in the
// machine can delay such a thread that long but the machine itself being
// held: on a virtual machine, its host descheduling every virtual CPU at
// once (a CPU quota spent before the end of its period, say). I/O in
// flight then completes late for every tool alike, however it was issued,
// and a tail percentile that lands in those stalls measures them, not the
// tool. bench/host-stall.sh runs it beside fio and drivebench.
//
//	stallprobe -for 4s
//
// It prints one line of JSON; it needs root (or CAP_SYS_NICE) for its
// priority.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"time"

	"golang.org/x/sys/unix"
)

// report is the JSON line stallprobe prints.
type report struct {
	Seconds float64 `json:"seconds"`
	Sleeps  int     `json:"sleeps"`
	// Stalls are the wake-ups later than the threshold; StallMsPerSec
	// their whole lateness per second of the probe.
	Stalls        int     `json:"stalls"`
	StallMsPerSec float64 `json:"stall_ms_per_s"`
	MedianMs      float64 `json:"median_stall_ms"`
	MaxMs         float64 `json:"max_stall_ms"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "stallprobe:", err)
		os.Exit(1)
	}
}

func run() error {
	var length, nap, threshold time.Duration
	var priority int
	flag.DurationVar(&length, "for", 4*time.Second, "how long to probe")
	flag.DurationVar(&nap, "sleep", 500*time.Microsecond, "each sleep")
	flag.DurationVar(&threshold, "threshold", 2500*time.Microsecond, "a sleep that lasts this much longer than asked is a stall")
	flag.IntVar(&priority, "priority", 50, "SCHED_FIFO priority, 1-99")
	flag.Parse()
	runtime.LockOSThread()
	attr := unix.SchedAttr{Policy: unix.SCHED_FIFO, Priority: uint32(priority)}
	if err := unix.SchedSetAttr(0, &attr, 0); err != nil {
		return fmt.Errorf("real-time priority %d: %v (run as root)", priority, err)
	}
	late, err := probe(length, nap)
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(summarize(late, length, threshold))
}

// probe sleeps nap at a time for length and returns how much later than
// asked each sleep ended.
func probe(length, nap time.Duration) ([]time.Duration, error) {
	ts := unix.NsecToTimespec(nap.Nanoseconds())
	var late []time.Duration
	for start := time.Now(); time.Since(start) < length; {
		t := time.Now()
		if err := unix.Nanosleep(&ts, nil); err != nil && err != unix.EINTR {
			return nil, fmt.Errorf("nanosleep: %v", err)
		}
		late = append(late, time.Since(t)-nap)
	}
	return late, nil
}

// summarize counts the sleeps that ended more than threshold late.
func summarize(late []time.Duration, length, threshold time.Duration) report {
	var stalls []float64
	var total float64
	for _, d := range late {
		if d > threshold {
			ms := float64(d) / 1e6
			stalls = append(stalls, ms)
			total += ms
		}
	}
	rep := report{Seconds: length.Seconds(), Sleeps: len(late), Stalls: len(stalls)}
	if length > 0 {
		rep.StallMsPerSec = total / length.Seconds()
	}
	if len(stalls) > 0 {
		sort.Float64s(stalls)
		rep.MedianMs = stalls[len(stalls)/2]
		rep.MaxMs = stalls[len(stalls)-1]
	}
	return rep
}
