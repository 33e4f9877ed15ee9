package trace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/drivebench/drivebench/metrics"
)

// Tracefs is where the kernel's tracing file system is mounted, or is
// mounted by StartCapture when it is not.
const Tracefs = "/sys/kernel/tracing"

// captureEvents are the block events StartCapture enables: a request handed to
// the driver, and its completion.
var captureEvents = []string{"block/block_rq_issue", "block/block_rq_complete"}

// instancePrefix names StartCapture's tracefs instances, followed by the pid.
const instancePrefix = "drivebench-capture-"

// CaptureResult is what a capture recorded.
type CaptureResult struct {
	Device string
	// IOs are the requests issued to the device, by kind, and their
	// bytes (reads and writes).
	IOs, Reads, Writes, Flushes, Discards, Bytes int64
	// Completed counts the completions seen; Latency is issue to
	// completion, in nanoseconds (microsecond resolution).
	Completed int64
	Latency   *Distribution
	// Lost counts the events the kernel dropped because its buffer was
	// full: then the capture misses I/Os.
	Lost int64
	// Duration is from the start of the capture to its end.
	Duration time.Duration
}

// ErrNotRoot is StartCapture run without root.
var ErrNotRoot = errors.New("capturing block events needs root: tracefs's event files are root's (run drivebench trace capture as root)")

// Capturing is a capture under way.
type Capturing struct {
	stop func()
	done chan struct{}
	res  *CaptureResult
	err  error
}

// StartCapture starts recording the requests the block layer issues to
// the block device dev, from tracefs's block_rq_issue and
// block_rq_complete events filtered to its device number, written to w
// as fio iolog v3 (its times from the first I/O) as they come. For a
// partition, the events are its disk's, and only the requests within
// the partition are recorded, at offsets from its start. When it
// returns, the events are on: every request after it is recorded.
//
// It works in a tracefs instance of its own, so the system's tracing
// settings and any other tracer are left as they are; Stop removes the
// instance (one left by a process killed outright is removed by the next
// capture). The kernel's blktrace interface is not used: this kernel
// refuses its relay files (EPERM on /sys/kernel/debug/block/DEV/trace0),
// and tracefs needs no tool.
func StartCapture(dev string, w io.Writer) (*Capturing, error) {
	if os.Geteuid() != 0 {
		return nil, ErrNotRoot
	}
	target, err := resolveTarget(dev)
	if err != nil {
		return nil, err
	}
	root, unmount, err := mountTracefs()
	if err != nil {
		return nil, err
	}
	inst, err := newInstance(root, target.disk)
	if err != nil {
		unmount()
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &Capturing{stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		defer unmount()
		defer inst.remove()
		c.res, c.err = inst.capture(ctx, target, w)
	}()
	return c, nil
}

// Stop ends the capture: it turns the events off, writes what they left
// in the buffer and the iolog's last line, and removes the instance.
func (c *Capturing) Stop() (*CaptureResult, error) {
	c.stop()
	<-c.done
	return c.res, c.err
}

// capture reads the instance's events until ctx ends.
func (in *instance) capture(ctx context.Context, target captureTarget, w io.Writer) (*CaptureResult, error) {
	start := time.Now()
	c := &capture{target: target, res: CaptureResult{Device: target.path}, log: NewIologWriter(w, target.path), pending: map[uint64]int64{}}
	if err := in.read(ctx, c.line); err != nil {
		return nil, err
	}
	c.res.Lost = in.overruns()
	c.res.Duration = time.Since(start)
	if c.latency.Count() > 0 {
		c.res.Latency = distribution(&c.latency)
	}
	if err := c.log.Close(); err != nil {
		return nil, err
	}
	return &c.res, c.err
}

// captureTarget is what a capture records: the requests of a disk (its
// device number as the events' dev field holds it, major<<20 | minor),
// and for a partition only those within its sectors, whose events carry
// the disk's number and the disk's sectors.
type captureTarget struct {
	path        string
	disk        uint64
	start, size uint64 // the partition's sectors; size 0 for a whole disk
}

// sysBlock is the kernel's folder of block devices by number.
const sysBlock = "/sys/dev/block"

func resolveTarget(dev string) (captureTarget, error) {
	var st unix.Stat_t
	if err := unix.Stat(dev, &st); err != nil {
		return captureTarget{}, fmt.Errorf("%s: %w", dev, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFBLK {
		return captureTarget{}, fmt.Errorf("%s is not a block device: capture records the requests of a disk, such as /dev/nvme0n1 or /dev/loop0", dev)
	}
	t := captureTarget{path: dev, disk: kernelDev(unix.Major(st.Rdev), unix.Minor(st.Rdev))}
	sys, err := filepath.EvalSymlinks(filepath.Join(sysBlock, fmt.Sprintf("%d:%d", unix.Major(st.Rdev), unix.Minor(st.Rdev))))
	if err != nil {
		return t, nil // no sysfs entry: taken as a whole disk
	}
	if _, err := os.Stat(filepath.Join(sys, "partition")); err != nil {
		return t, nil
	}
	start, err1 := readSysUint(filepath.Join(sys, "start"))
	size, err2 := readSysUint(filepath.Join(sys, "size"))
	disk, err3 := os.ReadFile(filepath.Join(filepath.Dir(sys), "dev"))
	var major, minor uint32
	_, err4 := fmt.Sscanf(string(disk), "%d:%d", &major, &minor)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		return captureTarget{}, fmt.Errorf("%s is a partition whose disk and sectors sysfs does not say (%s): %w", dev, sys, err)
	}
	t.disk, t.start, t.size = kernelDev(major, minor), start, size
	return t, nil
}

func kernelDev(major, minor uint32) uint64 { return uint64(major)<<20 | uint64(minor) }

func readSysUint(path string) (uint64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
}

// holds reports whether the target holds a request at sector of n
// sectors (a flush, of none, is the whole disk's), and the sector within
// the target.
func (t captureTarget) holds(sector, n uint64) (uint64, bool) {
	switch {
	case t.size == 0 || n == 0 && sector == 0:
		return sector, true
	case sector < t.start || sector+n > t.start+t.size:
		return 0, false
	}
	return sector - t.start, true
}

// mountTracefs finds tracefs at Tracefs, mounting it there when it is
// not; unmount undoes what it did.
func mountTracefs() (root string, unmount func(), err error) {
	if _, err := os.Stat(filepath.Join(Tracefs, "instances")); err == nil {
		return Tracefs, func() {}, nil
	}
	if err := unix.Mount("nodev", Tracefs, "tracefs", 0, ""); err != nil {
		return "", nil, fmt.Errorf("tracefs is not mounted at %s and mounting it failed (%v): the kernel needs tracing (CONFIG_FTRACE); mount it with mount -t tracefs nodev %s", Tracefs, err, Tracefs)
	}
	return Tracefs, func() { unix.Unmount(Tracefs, 0) }, nil
}

// instance is a tracefs instance: a trace buffer and event switches of
// its own.
type instance struct{ dir string }

func newInstance(root string, rdev uint64) (*instance, error) {
	removeStaleInstances(root)
	for _, ev := range captureEvents {
		if _, err := os.Stat(filepath.Join(root, "events", ev)); err != nil {
			return nil, fmt.Errorf("this kernel has no %s event in %s: it needs block tracing (CONFIG_BLK_DEV_IO_TRACE)", strings.Replace(ev, "/", ":", 1), root)
		}
	}
	in := &instance{dir: filepath.Join(root, "instances", instancePrefix+strconv.Itoa(os.Getpid()))}
	if err := os.Mkdir(in.dir, 0o755); err != nil {
		return nil, fmt.Errorf("make a tracefs instance: %w", err)
	}
	settings := [][2]string{{"buffer_size_kb", strconv.Itoa(bufferKBPerCPU(runtime.NumCPU()))}}
	for _, ev := range captureEvents {
		settings = append(settings, [2]string{"events/" + ev + "/filter", fmt.Sprintf("dev == %d", rdev)}, [2]string{"events/" + ev + "/enable", "1"})
	}
	for _, s := range settings {
		if err := os.WriteFile(filepath.Join(in.dir, s[0]), []byte(s[1]), 0); err != nil {
			in.remove()
			return nil, fmt.Errorf("tracefs: set %s: %w", s[0], err)
		}
	}
	return in, nil
}

// bufferKBPerCPU sizes the instance's ring buffer, which the kernel
// holds for each CPU: 8 MiB a CPU (about 80,000 events before the reader
// must catch up), 64 MiB in all at most, 1 MiB a CPU at least.
func bufferKBPerCPU(cpus int) int { return max(1024, min(8192, 65536/max(cpus, 1))) }

// removeStaleInstances removes the instances of captures whose process
// is gone, killed before it could remove its own.
func removeStaleInstances(root string) {
	dirs, _ := filepath.Glob(filepath.Join(root, "instances", instancePrefix+"*"))
	for _, d := range dirs {
		pid, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(d), instancePrefix))
		if err == nil && syscall.Kill(pid, 0) == syscall.ESRCH {
			os.Remove(d)
		}
	}
}

// stop disables the instance's events.
func (in *instance) stop() {
	for _, ev := range captureEvents {
		os.WriteFile(filepath.Join(in.dir, "events", ev, "enable"), []byte("0"), 0)
	}
}

// remove stops the events and removes the instance with its buffer.
func (in *instance) remove() {
	in.stop()
	os.Remove(in.dir)
}

// pollEvery is how often an empty trace pipe is read again.
const pollEvery = 20 * time.Millisecond

// read passes each line of the instance's trace pipe to fn until ctx
// ends; then it stops the events and reads what they left in the buffer.
func (in *instance) read(ctx context.Context, fn func([]byte)) error {
	fd, err := unix.Open(filepath.Join(in.dir, "trace_pipe"), unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("tracefs: open trace_pipe: %w", err)
	}
	defer unix.Close(fd)
	buf := make([]byte, 256<<10)
	var partial []byte
	stopping := false
	for {
		n, err := unix.Read(fd, buf)
		switch {
		case n > 0:
			partial = eachLine(append(partial, buf[:n]...), fn)
			continue
		case err != nil && err != unix.EAGAIN && err != unix.EINTR:
			return fmt.Errorf("tracefs: read trace_pipe: %w", err)
		case stopping:
			return nil
		}
		select {
		case <-ctx.Done():
			in.stop()
			stopping = true
		case <-time.After(pollEvery):
		}
	}
}

// eachLine passes each whole line of b to fn and returns the rest.
func eachLine(b []byte, fn func([]byte)) []byte {
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return append(b[:0:0], b...)
		}
		fn(b[:i])
		b = b[i+1:]
	}
}

// overruns sums the events each CPU's buffer dropped.
func (in *instance) overruns() int64 {
	files, _ := filepath.Glob(filepath.Join(in.dir, "per_cpu", "cpu*", "stats"))
	var n int64
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "overrun: "); ok {
				x, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				n += x
			}
		}
	}
	return n
}

// capture turns trace pipe lines into iolog lines.
type capture struct {
	target  captureTarget
	res     CaptureResult
	log     *IologWriter
	origin  int64 // the first issue's time, µs
	started bool
	pending map[uint64]int64 // sector -> issue time (µs) of requests in flight
	latency metrics.Histogram
	err     error
}

// maxCapturePending bounds the requests followed for their latency.
const maxCapturePending = 1 << 16

func (c *capture) line(b []byte) {
	ev, ok := parseBlockEvent(b)
	if ok {
		ev.sector, ok = c.target.holds(ev.sector, ev.sectors)
	}
	if !ok || c.err != nil {
		return
	}
	if ev.complete {
		c.res.Completed++
		if t, ok := c.pending[ev.sector]; ok {
			delete(c.pending, ev.sector)
			c.latency.Record(uint64(max(ev.us-t, 0)) * 1000)
		}
		return
	}
	if !c.started {
		c.origin, c.started = ev.us, true
	}
	if len(c.pending) < maxCapturePending {
		c.pending[ev.sector] = ev.us
	}
	x := IO{At: time.Duration(max(ev.us-c.origin, 0)) * time.Microsecond, Op: ev.op, Offset: int64(ev.sector) * 512, Size: int64(ev.sectors) * 512}
	if x.Op == Flush {
		x.Offset, x.Size = 0, 0
	}
	c.count(x)
	c.err = c.log.Write(x)
}

func (c *capture) count(x IO) {
	r := &c.res
	r.IOs++
	switch x.Op {
	case Read:
		r.Reads++
		r.Bytes += x.Size
	case Write:
		r.Writes++
		r.Bytes += x.Size
	case Flush:
		r.Flushes++
	case Discard:
		r.Discards++
	}
}

// blockEvent is a block_rq_issue or block_rq_complete line of trace_pipe:
//
//	dd-15455 [001] ..... 11836.292266: block_rq_issue: 7,3 WS 4096 () 0 + 8 be,0,4 [dd]
//	ksoftirqd/1-24 [001] ..s.. 11836.292399: block_rq_complete: 7,3 WS () 0 + 8 be,0,4 [0]
//
// (time in seconds since boot to the microsecond, device, rwbs, bytes
// for an issue, the command of a passthrough request in parentheses,
// sector + sectors).
type blockEvent struct {
	complete bool
	us       int64
	op       Op
	sector   uint64
	sectors  uint64
}

var (
	issueTag    = []byte(": block_rq_issue: ")
	completeTag = []byte(": block_rq_complete: ")
)

func parseBlockEvent(b []byte) (blockEvent, bool) {
	var ev blockEvent
	i := bytes.Index(b, issueTag)
	tag := issueTag
	if i < 0 {
		if i = bytes.Index(b, completeTag); i < 0 {
			return ev, false
		}
		ev.complete, tag = true, completeTag
	}
	us, ok := parseTraceTime(b[bytes.LastIndexByte(b[:i], ' ')+1 : i])
	rest := b[i+len(tag):]
	paren := bytes.LastIndex(rest, []byte(") "))
	_, afterDev, _ := cutField(rest)
	rwbs, _, _ := cutField(afterDev)
	if !ok || paren < 0 || len(rwbs) == 0 {
		return ev, false
	}
	sector, after, ok1 := cutUint(rest[paren+2:])
	plus, after, _ := cutField(after)
	sectors, _, ok2 := cutUint(after)
	if !ok1 || !ok2 || string(plus) != "+" || sector > 1<<54 {
		return ev, false
	}
	ev.us, ev.sector, ev.sectors = us, sector, sectors
	ev.op, ok = rwbsOp(rwbs, sectors)
	return ev, ok
}

// cutField returns the first space-separated field of b and what follows it.
func cutField(b []byte) (field, rest []byte, ok bool) {
	field, rest, _ = bytes.Cut(bytes.TrimLeft(b, " "), []byte(" "))
	return field, rest, len(field) > 0
}

// cutUint reads the first field of b as a whole number.
func cutUint(b []byte) (uint64, []byte, bool) {
	field, rest, ok := cutField(b)
	if !ok || len(field) > 19 {
		return 0, rest, false
	}
	var v uint64
	for _, c := range field {
		if c < '0' || c > '9' {
			return 0, rest, false
		}
		v = v*10 + uint64(c-'0')
	}
	return v, rest, true
}

// parseTraceTime reads a trace time, seconds with six decimals, in µs.
func parseTraceTime(b []byte) (int64, bool) {
	sec, frac, ok := bytes.Cut(b, []byte("."))
	if !ok || len(frac) != 6 || len(sec) > 12 {
		return 0, false
	}
	a, _, ok1 := cutUint(sec)
	f, _, ok2 := cutUint(frac)
	return int64(a)*1e6 + int64(f), ok1 && ok2
}

// rwbsOp reads the operation of a request from its rwbs letters (the
// kernel's blk_fill_rwbs): F first for a flush, then W, R, D (discard),
// N (none)...; a flush carries no data. A request of none of these (N,
// a zone command) is not one a replay can issue: ok is false.
func rwbsOp(rwbs []byte, sectors uint64) (op Op, ok bool) {
	switch {
	case rwbs[0] == 'F' && sectors == 0:
		return Flush, true
	case bytes.IndexByte(rwbs, 'D') >= 0:
		return Discard, true
	case bytes.IndexByte(rwbs, 'W') >= 0:
		return Write, true
	case bytes.IndexByte(rwbs, 'R') >= 0:
		return Read, true
	}
	return 0, false
}
