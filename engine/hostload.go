package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/drivebench/drivebench/results"
	"golang.org/x/sys/unix"
)

// A figure the host's processors limited measures the host, not the
// drive. The runner watches the machine over every I/O step, whatever the
// engine: the whole machine's utilisation from /proc/stat, the CPU time of
// drivebench and the processes it started (fio) from /proc/self/stat,
// their busiest thread from /proc/<pid>/task/<tid>/stat, the times the
// whole machine was held (hoststall.go), and how long drivebench's own
// process was held during the measured phase (held.go).
//
// Reading the threads competes for the processors the I/O runs on: on a
// 2-CPU host, a reading every 250 ms that scanned every process of the
// machine for drivebench's descendants raised the p99.9 latency of a QD32
// step 2.5-fold. So the watch reads only drivebench's own threads and the
// processes below it (found through the children files), once a second
// after a first reading a quarter of a second in, and judges each thread over the time it was seen: a thread that ends
// between readings (fio's job processes end with the step) keeps its
// utilisation, though not its last ticks. The engine's own threads live
// on to the last reading. The step's total comes from the process's own and
// its waited-for children's times, which lose nothing.

// hostBusyPct and threadBusyPct are the utilisations from which a figure
// counts as limited by the host.
const (
	hostBusyPct   = 90
	threadBusyPct = 90
)

// clockTicks is the kernel's USER_HZ, the unit of /proc's CPU times; it is
// 100 on every Linux architecture Go supports.
const clockTicks = 100

// hostSampleEvery is how often the watch reads the threads, the first
// time hostFirstSample into the step, so that the processes an engine
// starts for a step of under a second (fio's) are seen at least once;
// minThreadSpan is the shortest time a thread must be seen over for its
// utilisation to count, as a tick is 10 ms.
const (
	hostFirstSample = 250 * time.Millisecond
	hostSampleEvery = time.Second
	minThreadSpan   = 200 * time.Millisecond
)

// hostWatch samples the machine while a step runs.
type hostWatch struct {
	start    time.Time
	boot     time.Duration // start as time since boot
	cpuStart cpuTimes
	ownStart uint64 // ticks of this process and its waited-for children
	stop     chan struct{}
	done     sync.WaitGroup
	mu       sync.Mutex
	threads  map[string]*threadSpan // by "pid/task/tid"
	// sampled is set after the first sample: threads seen later started
	// during the step.
	sampled bool
	// stalls is the probe of the times the machine was held (hoststall.go).
	stalls *stallWatch
}

// threadSpan is what the watch saw of one thread: its ticks when first
// and last seen, and when.
type threadSpan struct {
	name        string
	own         bool // a thread of this process, not of a descendant
	first, last uint64
	from, to    time.Duration // since the watch started
}

// cpuTimes are the busy and total ticks of all processors.
type cpuTimes struct {
	busy, total uint64
	cpus        int
}

// readCPUTimes reads the first line and the per-processor lines of
// /proc/stat.
func readCPUTimes() (cpuTimes, error) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return cpuTimes{}, err
	}
	var c cpuTimes
	for line := range strings.SplitSeq(string(data), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) > 4 && f[0] == "cpu":
			for i, v := range f[1:] {
				n, _ := strconv.ParseUint(v, 10, 64)
				if i >= 8 { // guest time is counted in user time already
					break
				}
				c.total += n
				if i != 3 && i != 4 { // idle and iowait
					c.busy += n
				}
			}
		case len(f) > 0 && strings.HasPrefix(f[0], "cpu"):
			c.cpus++
		}
	}
	return c, nil
}

// watchHost starts sampling.
func watchHost() *hostWatch {
	h := &hostWatch{start: time.Now(), boot: sinceBoot(), stop: make(chan struct{}), threads: map[string]*threadSpan{}}
	h.cpuStart, _ = readCPUTimes()
	h.ownStart = ownTicks()
	h.sampleThreads()
	h.stalls = watchStalls()
	h.done.Go(func() {
		next := time.NewTimer(hostFirstSample)
		defer next.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-next.C:
				h.sampleThreads()
				next.Reset(hostSampleEvery)
			}
		}
	})
	return h
}

// sampleThreads reads the CPU time of every thread of this process and
// of the processes it started, and returns when, since the watch started.
func (h *hostWatch) sampleThreads() time.Duration {
	self := os.Getpid()
	pids := []int{self}
	if h.sampled {
		pids = descendants(self) // engines' processes start after the first sample
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	defer func() { h.sampled = true }()
	now := time.Since(h.start)
	for _, pid := range pids {
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", pid))
		for _, path := range tasks {
			st, ok := readThreadStat(path)
			if !ok {
				continue
			}
			key := strings.TrimSuffix(strings.TrimPrefix(path, "/proc/"), "/stat")
			t := h.threads[key]
			if t == nil {
				t = &threadSpan{own: pid == self, first: st.ticks}
				if h.sampled { // started during the step: all its ticks are the step's
					t.first, t.from = 0, max(0, st.started-h.boot)
				}
				h.threads[key] = t
			}
			t.name, t.last, t.to = st.name, st.ticks, now
		}
	}
	return now
}

// threadStat is what the watch reads of a thread's stat file.
type threadStat struct {
	name    string
	ticks   uint64        // user plus system
	started time.Duration // since boot
}

// readThreadStat reads a thread's name, user plus system ticks and start
// time from its stat file.
func readThreadStat(path string) (threadStat, bool) {
	name, f, ok := readStat(path, 20)
	if !ok {
		return threadStat{}, false
	}
	user, _ := strconv.ParseUint(f[11], 10, 64)
	sys, _ := strconv.ParseUint(f[12], 10, 64)
	started, _ := strconv.ParseUint(f[19], 10, 64)
	return threadStat{name: name, ticks: user + sys, started: time.Duration(started) * time.Second / clockTicks}, true
}

// ownTicks is the user plus system ticks of this process, with those of
// the children it has waited for.
func ownTicks() uint64 {
	_, f, ok := readStat("/proc/self/stat", 15)
	if !ok {
		return 0
	}
	var sum uint64
	for _, v := range f[11:15] { // utime, stime, cutime, cstime
		n, _ := strconv.ParseUint(v, 10, 64)
		sum += n
	}
	return sum
}

// readStat reads a /proc stat file: the name in its parentheses and the
// fields after them (the first is the state, field 3 of proc(5)); false
// when it cannot be read or has fewer than fields of them.
func readStat(path string, fields int) (name string, f []string, ok bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", nil, false
	}
	s := string(data)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return "", nil, false
	}
	f = strings.Fields(s[end+1:])
	return s[open+1 : end], f, len(f) >= fields
}

// sinceBoot is the time since the machine booted, the clock of a stat
// file's start time.
func sinceBoot() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// descendants lists pid and every process below it, through each
// thread's children file; where the kernel has none, by the parent of
// every process on the machine.
func descendants(pid int) []int {
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		kids, ok := childrenOf(out[i])
		if !ok {
			return descendantsByScan(pid)
		}
		out = append(out, kids...)
	}
	return out
}

// childrenOf lists the processes pid's threads started; false when the
// kernel does not say (no CONFIG_PROC_CHILDREN).
func childrenOf(pid int) ([]int, bool) {
	files, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	if len(files) == 0 {
		_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
		return nil, err != nil // a process that ended has no children to list
	}
	var kids []int
	for _, f := range files {
		data, _ := os.ReadFile(f)
		for field := range strings.FieldsSeq(string(data)) {
			if k, err := strconv.Atoi(field); err == nil {
				kids = append(kids, k)
			}
		}
	}
	return kids, true
}

// descendantsByScan lists pid and every process below it from the parent
// of every process on the machine.
func descendantsByScan(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	children := map[int][]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		_, f, ok := readStat("/proc/"+e.Name()+"/stat", 2)
		if !ok {
			continue
		}
		parent, _ := strconv.Atoi(f[1])
		children[parent] = append(children[parent], p)
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// end stops sampling and works out the step's host load.
func (h *hostWatch) end() *results.HostLoad {
	last := h.sampleThreads()
	close(h.stop)
	h.done.Wait()
	stalls := h.stalls.finish()
	elapsed := time.Since(h.start)
	end, err := readCPUTimes()
	if err != nil || elapsed <= 0 {
		return nil
	}
	load := &results.HostLoad{CPUs: end.cpus, Stalls: stalls}
	if dt := end.total - h.cpuStart.total; dt > 0 {
		load.BusyPct = 100 * float64(end.busy-h.cpuStart.busy) / float64(dt)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	ours := ownTicks() - h.ownStart
	for _, t := range h.threads {
		if !t.own && t.to == last { // a process not yet waited for
			ours += t.last - t.first
		}
	}
	load.BusiestThreadPct, load.BusiestThread = h.busiest()
	if load.CPUs > 0 {
		load.EnginePct = min(100*float64(ours)/clockTicks/elapsed.Seconds()/float64(load.CPUs), load.BusyPct)
	}
	return load
}

// hostLoadWatcher measures the host's load over every I/O step, and the
// times the whole machine was held.
type hostLoadWatcher struct{}

func (hostLoadWatcher) start(*watchedStep) watching { return watchHost() }

// finish records the host's load and the warnings it calls for, and
// leaves the stall probe's wake-ups for the held watch (held.go).
func (h *hostWatch) finish(s *watchedStep) {
	s.rec.Host = h.end()
	s.wakes = h.stalls.wakeUps()
	s.rec.Warnings = append(s.rec.Warnings, hostWarnings(s.rec.Host)...)
}

// busiest finds the thread that kept a processor busiest over the time it
// was seen, of those seen long enough to tell.
func (h *hostWatch) busiest() (pct float64, name string) {
	for _, t := range h.threads {
		span := t.to - t.from
		if span < minThreadSpan {
			continue
		}
		if p := 100 * float64(t.last-t.first) / clockTicks / span.Seconds(); p > pct {
			pct, name = p, t.name
		}
	}
	return pct, name
}

// hostWarnings say when the host, not the drive, may have limited a
// step's figures or held its I/Os.
func hostWarnings(l *results.HostLoad) []results.Warning {
	if l == nil {
		return nil
	}
	var out []results.Warning
	switch {
	case l.BusyPct >= hostBusyPct && l.EnginePct >= l.BusyPct/2:
		out = append(out, results.Warning{Kind: results.WarnHostCPU, Message: fmt.Sprintf(
			"The host's processors were %.0f %% busy over the step (all %d of them; drivebench and its engine %.0f %%): the machine, not the drive, may have set these figures. Run fewer jobs, or use a faster host.", l.BusyPct, l.CPUs, l.EnginePct)})
	case l.BusyPct >= hostBusyPct:
		out = append(out, results.Warning{Kind: results.WarnHostCPU, Message: fmt.Sprintf(
			"The host's processors were %.0f %% busy over the step (all %d of them), mostly with other programs (drivebench and its engine %.0f %%): the test did not run on a quiet host, and these figures may be lower than the drive's. Run it with nothing else beside it.", l.BusyPct, l.CPUs, l.EnginePct)})
	}
	if l.BusiestThreadPct >= threadBusyPct {
		out = append(out, results.Warning{Kind: results.WarnHostCPU, Message: fmt.Sprintf(
			"The engine's busiest thread (%s) kept a processor %.0f %% busy: one thread could not issue I/Os faster, so these figures may be the engine's limit, not the drive's. Spread the load over more jobs.", l.BusiestThread, l.BusiestThreadPct)})
	}
	if w := stallWarning(l.Stalls); w != nil {
		out = append(out, *w)
	}
	return out
}
