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
)

// A figure the host's processors limited measures the host, not the
// drive. The runner watches the machine over every I/O step, whatever the
// engine: the whole machine's utilisation from /proc/stat, and the
// busiest thread of drivebench and the processes it started (fio) from
// /proc/<pid>/task/<tid>/stat.

// hostBusyPct and threadBusyPct are the utilisations from which a figure
// counts as limited by the host.
const (
	hostBusyPct   = 90
	threadBusyPct = 90
)

// clockTicks is the kernel's USER_HZ, the unit of /proc's CPU times; it is
// 100 on every Linux architecture Go supports.
const clockTicks = 100

// hostWatch samples the machine while a step runs.
type hostWatch struct {
	start    time.Time
	cpuStart cpuTimes
	stop     chan struct{}
	done     sync.WaitGroup
	mu       sync.Mutex
	first    map[string]uint64 // thread -> ticks when first seen
	last     map[string]uint64
	names    map[string]string
	// sampled is set after the first sample: threads seen later started
	// during the step.
	sampled bool
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
	h := &hostWatch{start: time.Now(), stop: make(chan struct{}), first: map[string]uint64{}, last: map[string]uint64{}, names: map[string]string{}}
	h.cpuStart, _ = readCPUTimes()
	h.sampleThreads()
	h.done.Go(func() {
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-tick.C:
				h.sampleThreads()
			}
		}
	})
	return h
}

// sampleThreads reads the CPU time of every thread of this process and
// of the processes it started.
func (h *hostWatch) sampleThreads() {
	pids := []int{os.Getpid()}
	if h.sampled {
		pids = descendants(os.Getpid()) // engines' processes start after the first sample
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	defer func() { h.sampled = true }()
	for _, pid := range pids {
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", pid))
		for _, path := range tasks {
			name, ticks, ok := threadTicks(path)
			if !ok {
				continue
			}
			key := strings.TrimSuffix(strings.TrimPrefix(path, "/proc/"), "/stat")
			if _, seen := h.first[key]; !seen {
				h.first[key] = 0 // a thread started during the step
				if !h.sampled {
					h.first[key] = ticks
				}
			}
			h.last[key], h.names[key] = ticks, name
		}
	}
}

// threadTicks reads a thread's name and user plus system ticks from its
// stat file.
func threadTicks(path string) (string, uint64, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", 0, false
	}
	s := string(data)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return "", 0, false
	}
	f := strings.Fields(s[end+1:])
	if len(f) < 13 {
		return "", 0, false
	}
	user, _ := strconv.ParseUint(f[11], 10, 64)
	sys, _ := strconv.ParseUint(f[12], 10, 64)
	return s[open+1 : end], user + sys, true
}

// descendants lists pid and every process below it.
func descendants(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	children := map[int][]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(data)
		end := strings.LastIndexByte(s, ')')
		if end < 0 {
			continue
		}
		f := strings.Fields(s[end+1:])
		if len(f) < 2 {
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

// finish stops sampling and works out the step's host load.
func (h *hostWatch) finish() *results.HostLoad {
	h.sampleThreads()
	close(h.stop)
	h.done.Wait()
	elapsed := time.Since(h.start).Seconds()
	end, err := readCPUTimes()
	if err != nil || elapsed <= 0 {
		return nil
	}
	load := &results.HostLoad{CPUs: end.cpus}
	if dt := end.total - h.cpuStart.total; dt > 0 {
		load.BusyPct = 100 * float64(end.busy-h.cpuStart.busy) / float64(dt)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	var ours float64
	for key, last := range h.last {
		pct := 100 * float64(last-h.first[key]) / clockTicks / elapsed
		ours += pct
		if pct > load.BusiestThreadPct {
			load.BusiestThreadPct, load.BusiestThread = pct, h.names[key]
		}
	}
	if load.CPUs > 0 {
		load.EnginePct = min(ours/float64(load.CPUs), load.BusyPct)
	}
	return load
}

// hostWarnings say when the host, not the drive, may have limited a
// step's figures.
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
	return out
}
