package native

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/trace"
	"github.com/drivebench/drivebench/workload"
)

// A replay issues the I/Os of a captured trace (workload.Replay) open
// loop: one dispatcher goroutine reads the trace as it goes (the trace
// package holds a read-ahead buffer, nothing grows with the trace),
// sleeps until each I/O's time in the trace scaled by the speed, and hands
// the I/O to a free slot among iodepth psync slots. When every slot has an
// I/O in flight the dispatcher waits for one, and that wait is the lag the
// replay reports: the drive, at that cap, did not keep up. An I/O's
// latency counts from its scheduled time, so a late issue is charged to
// the drive; its service time (submission to completion) is kept beside.
// The dispatcher also records the lag itself, issue time minus scheduled
// time, in a histogram and a series over the schedule; and every read and
// write is binned by its time in the trace as well (replay_bins.go).

// sectorSize is the unit a folded offset is aligned to on a buffered
// target; block traces address sectors.
const sectorSize = 512

// replayState is a replay's own part of a run.
type replayState struct {
	spec    workload.Replay
	survey  traceSurvey
	region  region
	granule int64
	// interval is the length of one lag sample, in ns of the schedule.
	interval int64
	// What the dispatcher did, written by it alone.
	counts replayCounts
	waits  int64
	lag    metrics.Histogram
	window metrics.Histogram
	// windowEnd is the schedule time the current lag sample ends at.
	windowEnd int64
	series    []metrics.LagSample
	// bins are the replay's reads and writes over trace time.
	bins *traceBins
}

// replayCounts counts what a replay does with a trace's I/Os.
type replayCounts struct {
	ios, bytes, reads, writes int64
	skipped, converted        int64
	flushes, discards         int64
}

// traceSurvey is what a first pass over the trace finds of the I/Os a
// replay selects, before any I/O: one pass's counts, the largest
// transfer, the end of the furthest, the alignment every offset and size
// shares, and the length of the window in trace time.
type traceSurvey struct {
	counts  replayCounts
	largest int64
	end     int64
	align   int64
	window  time.Duration
}

// replayRequest is what a replay does with one I/O of the trace.
type replayRequest int

const (
	replayIO replayRequest = iota
	replayFlush
	replayDrop
)

// classify says what the replay does with x, in which direction it
// issues it, and counts it in c.
func classify(spec *workload.Replay, x trace.IO, c *replayCounts) (replayRequest, op) {
	switch x.Op {
	case trace.Read:
		c.add(x.Size, false)
		return replayIO, opRead
	case trace.Write:
		switch spec.Writes {
		case "skip":
			c.skipped++
			return replayDrop, opRead
		case "read":
			c.converted++
			c.add(x.Size, false)
			return replayIO, opRead
		}
		c.add(x.Size, true)
		return replayIO, opWrite
	case trace.Flush:
		if spec.ReadOnly() {
			return replayDrop, opRead
		}
		c.flushes++
		return replayFlush, opWrite
	}
	c.discards++
	return replayDrop, opRead
}

// add counts one read or write of size bytes the replay issues.
func (c *replayCounts) add(size int64, write bool) {
	c.ios++
	c.bytes += size
	if write {
		c.writes++
	} else {
		c.reads++
	}
}

// selects says whether the replay takes x (its window and disk), and
// whether x lies past the window, where the pass ends.
func selects(spec *workload.Replay, x trace.IO) (in, past bool) {
	in, past = spec.InWindow(x.At)
	return in && spec.OnDevice(x.Device), past
}

// surveyTrace reads the trace once, before the replay, for what sizes its
// buffers and checks it against the target.
func surveyTrace(spec *workload.Replay) (traceSurvey, error) {
	var sv traceSurvey
	var last time.Duration
	err := eachIO(spec.Path, func(x trace.IO) bool {
		in, past := selects(spec, x)
		if past || !in {
			return !past
		}
		if kind, _ := classify(spec, x, &sv.counts); kind == replayIO {
			sv.largest = max(sv.largest, x.Size)
			sv.end = max(sv.end, x.End())
			sv.align = sharedAlignment(sv.align, x.Offset, x.Size)
		}
		last = x.At
		return true
	})
	sv.window = spec.Duration
	if sv.window == 0 && sv.counts.ios > 0 {
		span := last - spec.Skip
		sv.window = span + span/time.Duration(sv.counts.ios) // one mean gap before the next pass
	}
	return sv, err
}

// eachIO calls fn with every I/O of the trace at path until fn returns
// false.
func eachIO(path string, fn func(trace.IO) bool) error {
	t, err := trace.Open(path)
	if err != nil {
		return err
	}
	defer t.Close()
	for {
		x, err := t.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if !fn(x) {
			return nil
		}
	}
}

// sharedAlignment is the largest power of two, up to 1 MiB, that divides
// align (0 before the first I/O), offset and size.
func sharedAlignment(align, offset, size int64) int64 {
	if align == 0 {
		align = 1 << 20
	}
	for align > 1 && (offset%align != 0 || size%align != 0) {
		align /= 2
	}
	return align
}

// executeReplay is execute for a replay.
func executeReplay(ctx context.Context, t driver.Target, w workload.Workload, live func(metrics.Sample), sys syscalls, interval time.Duration) (*metrics.Result, error) {
	r, err := prepareReplay(t, w, sys, interval)
	if err != nil {
		return nil, err
	}
	res, runErr := r.supervise(ctx, w, live, r.replay.sampleInterval(interval))
	if res != nil {
		res.Replay = r.replay.stats(res, w)
		res.Replay.Trace = traceStat(&r.replay.spec)
	}
	if err := r.close(); err != nil && runErr == nil {
		runErr = err
	}
	return res, runErr
}

// prepareReplay surveys the trace, checks it against the target and sets
// up one job of iodepth slots with buffers for the largest transfer.
func prepareReplay(t driver.Target, w workload.Workload, sys syscalls, interval time.Duration) (*run, error) {
	if err := validateReplay(w); err != nil {
		return nil, err
	}
	spec := *w.Replay
	sv, err := surveyTrace(&spec)
	if err != nil {
		return nil, workloadErrorf("replay", "reading the trace %s: %v", spec.File, err)
	}
	if sv.counts.ios == 0 {
		return nil, workloadErrorf("replay", "the window of the trace %s holds no read or write to replay", spec.File)
	}
	granule := int64(sectorSize)
	if w.Direct {
		granule = int64(t.LogicalBlockSize())
	}
	reg, err := resolveRegion(t, w, granule)
	if err != nil {
		return nil, err
	}
	rp := &replayState{spec: spec, survey: sv, region: reg, granule: granule, interval: int64(interval),
		bins: newTraceBins(spec.Skip, sv.window, spec.LoopCount(), interval)}
	rp.windowEnd = rp.interval
	if err := rp.checkFit(t, w); err != nil {
		return nil, err
	}
	l := layout{region: reg, readPct: replayReadShare(sv.counts), sizes: sizeMix{sizes: []int64{sv.largest}}, granule: granule}
	r := &run{sys: sys, path: t.Path, direct: w.Direct, method: replayer{}, layout: l, base: nanotime(), paced: true, replay: rp}
	if err := r.allocate(w); err != nil {
		return nil, err
	}
	if r.fd, err = openTarget(sys, t.Path, l.writes(), w.Direct); err != nil {
		_ = r.buffers.release()
		return nil, err
	}
	j := &job{slots: make([]*slot, w.IODepth), fd: r.fd}
	buf := 0
	for i := range j.slots {
		s := r.newSlot(j, i, w.Seed, &buf)
		s.rec = newRecorder(l, true)
		r.coll.recorders = append(r.coll.recorders, s.rec)
		j.slots[i] = s
	}
	r.jobs = []*job{j}
	return r, nil
}

// validateReplay checks what a replay takes of a workload's fields.
func validateReplay(w workload.Workload) error {
	var c checker
	c.check(w.IODepth >= 1 && w.IODepth <= maxPsyncOutstanding, "iodepth",
		"iodepth = %d: a replay's cap on I/Os in flight must be from 1 to %d", w.IODepth, maxPsyncOutstanding)
	c.check(w.IOEngine == "" || w.IOEngine == "psync", "ioengine",
		"ioengine = %q: a replay issues its I/Os from psync slots, one per I/O in flight; leave ioengine out or set it to \"psync\"", w.IOEngine)
	c.check(w.Replay.Speed >= 0, "speed", "speed = %g: must be 0 (as fast as allowed) or more", w.Replay.Speed)
	return errors.Join(c.errs...)
}

// replayReadShare is the layout's read share for the directions a
// replay issues: 100 for reads only, 0 for writes only, 50 for both.
func replayReadShare(c replayCounts) int {
	switch {
	case c.writes == 0:
		return 100
	case c.reads == 0:
		return 0
	}
	return 50
}

// checkFit refuses, before any I/O, a trace that addresses more than the
// region holds (unless folded) and one O_DIRECT cannot issue.
func (rp *replayState) checkFit(t driver.Target, w workload.Workload) error {
	sv := &rp.survey
	switch {
	case sv.largest > rp.region.length:
		return workloadErrorf("size", "the trace %s has I/Os of %d bytes, more than the %d-byte region; enlarge the region", rp.spec.File, sv.largest, rp.region.length)
	case !rp.spec.Fold && sv.end > rp.region.length:
		return workloadErrorf("fold", "the trace %s addresses bytes up to %d, past the end of the %d-byte region; set fold = true or enlarge the region",
			rp.spec.File, sv.end, rp.region.length)
	}
	if lbs := int64(t.LogicalBlockSize()); w.Direct && sv.align%lbs != 0 {
		return workloadErrorf("direct", "%s", plan.DirectMisfit("the trace's offsets and sizes", sv.align, lbs, t.Path))
	}
	return nil
}

// place maps an offset of the trace into the region: as it is, or folded
// (modulo the region's length, aligned down to the granule, moved back so
// the I/O ends inside the region).
func (rp *replayState) place(offset, size int64) int64 {
	if !rp.spec.Fold {
		return rp.region.start + offset
	}
	o := offset % rp.region.length
	if o+size > rp.region.length {
		o = rp.region.length - size
	}
	return rp.region.start + o - o%rp.granule
}

// due is the scheduled time on the run's clock of an I/O at trace time at
// of the pass that starts at trace time passStart (skip excluded).
func (rp *replayState) due(at, passStart time.Duration) int64 {
	return int64(float64(at-rp.spec.Skip+passStart) / rp.spec.Speed)
}

// Samples a replay's series holds at least, where the engine's interval
// allows: a trace of a few seconds is charted over its own time, not in
// two points.
const (
	replaySamples     = 200
	minReplayInterval = 10 * time.Millisecond
)

// sampleInterval is the interval of the replay's series and lag
// samples: the engine's, or shorter for a short schedule, so that the
// series has replaySamples samples, but no shorter than
// minReplayInterval.
func (rp *replayState) sampleInterval(interval time.Duration) time.Duration {
	schedule := time.Duration(float64(rp.survey.window) * float64(rp.spec.LoopCount()) / max(rp.spec.Speed, 1e-9))
	if rp.spec.Speed == 0 {
		return interval
	}
	d := min(interval, max(minReplayInterval, schedule/replaySamples))
	rp.interval, rp.windowEnd = int64(d), int64(d)
	return d
}

// traceStat is the trace's own statistics, of the replayed disk; nil
// when the trace cannot be read again.
func traceStat(spec *workload.Replay) *metrics.TraceStat {
	f, err := trace.Open(spec.Path)
	if err != nil {
		return nil
	}
	defer f.Close()
	st, err := trace.Characterize(f, spec.Device)
	if err != nil {
		return nil
	}
	ts := &metrics.TraceStat{IOs: st.Reads + st.Writes, Bytes: st.Bytes, DurationNs: st.DurationNS, ReadPct: st.ReadPct, SequentialPct: st.SequentialPct}
	if st.QueueDepth != nil {
		ts.QueueDepthP99 = st.QueueDepth.P99
	}
	return ts
}

// replayer is the I/O method of a replay: a dispatcher feeding psync
// slots.
type replayer struct{}

func (replayer) sharedRecorder() bool { return false }

func (replayer) waiters(r *run) int { return psync{}.waiters(r) }

func (replayer) grant(r *run, n int) { psync{}.grant(r, n) }

// runJob starts the slots, dispatches the trace to them and waits for
// the last I/O.
func (replayer) runJob(r *run, j *job) {
	in := make(chan ioRequest)
	var wg sync.WaitGroup
	for _, s := range j.slots {
		wg.Go(func() { r.replaySlot(s, in) })
	}
	r.replay.dispatch(r, in)
	close(in)
	wg.Wait()
}

// dispatch runs the replay's passes over the trace.
func (rp *replayState) dispatch(r *run, in chan<- ioRequest) {
	defer pace()()
	var start time.Duration
	for range rp.spec.LoopCount() {
		err := eachIO(rp.spec.Path, func(x trace.IO) bool {
			return rp.issue(r, in, x, start)
		})
		if err != nil {
			r.fail(workloadErrorf("replay", "reading the trace %s: %v", rp.spec.File, err))
		}
		if r.stop.Load() {
			break
		}
		start += rp.survey.window
	}
	rp.closeLagSample()
}

// issue hands x to a slot at its time; false once the pass or the run is
// over.
func (rp *replayState) issue(r *run, in chan<- ioRequest, x trace.IO, passStart time.Duration) bool {
	if r.stop.Load() {
		return false
	}
	sel, past := selects(&rp.spec, x)
	if !sel {
		return !past
	}
	kind, o := classify(&rp.spec, x, &rp.counts)
	if kind == replayDrop {
		return true
	}
	req := ioRequest{op: o, flush: kind == replayFlush, size: x.Size}
	if kind == replayIO {
		req.offset = rp.place(x.Offset, x.Size)
		req.bin = rp.bins.bin(x.At, passStart)
	}
	if rp.spec.Speed > 0 {
		req.due = rp.due(x.At, passStart)
		if !r.sleepUntil(req.due) {
			return false
		}
	}
	rp.send(r, in, req)
	return true
}

// send hands req to the first free slot, waiting for one when every slot
// is busy, and records the lag of its issue, a read's or write's in its
// trace-time bin too.
func (rp *replayState) send(r *run, in chan<- ioRequest, req ioRequest) {
	if !req.flush {
		rp.bins.dispatched(req.bin)
	}
	if rp.spec.Speed == 0 {
		in <- req // as fast as allowed: req.due is set by the slot, no lag
		return
	}
	select {
	case in <- req:
	default:
		rp.waits++
		in <- req
	}
	lag := r.clock() - req.due
	rp.recordLag(req.due, lag)
	if !req.flush {
		rp.bins.lagged(req.bin, lag)
	}
}

// recordLag adds the lag of an I/O scheduled at due.
func (rp *replayState) recordLag(due, lag int64) {
	for due >= rp.windowEnd {
		rp.closeLagSample()
	}
	rp.lag.Record(uint64(max(lag, 0)))
	rp.window.Record(uint64(max(lag, 0)))
}

// closeLagSample ends the current lag sample; an interval without I/Os
// has no sample.
func (rp *replayState) closeLagSample() {
	if n := rp.window.Count(); n > 0 {
		p := rp.window.Percentiles([]float64{50, 99})
		rp.series = append(rp.series, metrics.LagSample{T: float64(rp.windowEnd) / 1e9, IOs: int64(n), P50Ns: p[0], P99Ns: p[1], MaxNs: rp.window.Max()})
		rp.window.Reset()
	}
	rp.windowEnd += rp.interval
}

// replaySlot issues the I/Os the dispatcher hands it until the dispatcher
// is done. After the run fails it takes and drops them, so the dispatcher
// never waits for a slot that is gone.
func (r *run) replaySlot(s *slot, in <-chan ioRequest) {
	bins := r.replay.bins
	for req := range in {
		if r.stop.Load() && r.firstError() != nil {
			if !req.flush {
				bins.abandoned(req.bin)
			}
			continue
		}
		if req.flush {
			if err := r.sys.fsync(s.job.fd); err != nil {
				r.fail(&IOError{Path: r.path, Op: "fsync", Err: err})
			}
			continue
		}
		s.arm(r, &req)
		s.issued = r.clock()
		if r.replay.spec.Speed == 0 {
			req.due = s.issued
		}
		n, err := r.transfer(s.job.fd, &req, s.holdP)
		service := r.clock() - s.issued
		if s.complete(r, &req, n, service, err) {
			bins.completed(req.bin, req.op, s.latency(r, &req, service), n)
		} else {
			bins.abandoned(req.bin)
		}
	}
}

// stats is what the replay measured beside res: the trace's counts (one
// pass's times the loops) against the completions res holds, and the lag.
func (rp *replayState) stats(res *metrics.Result, w workload.Workload) *metrics.ReplayStats {
	loops := int64(rp.spec.LoopCount())
	c := rp.survey.counts
	st := &metrics.ReplayStats{
		TraceIOs: c.ios * loops, TraceBytes: c.bytes * loops, TraceReads: c.reads * loops, TraceWrites: c.writes * loops,
		WritesSkipped: rp.counts.skipped, WritesRead: rp.counts.converted, Flushes: rp.counts.flushes, Discards: rp.counts.discards,
		TraceNs: int64(rp.survey.window) * loops, Speed: rp.spec.Speed, IODepth: w.IODepth, SlotWaits: rp.waits,
		Lag: rp.lag.Summary(metrics.DefaultPercentiles), LagSeries: rp.series,
		TraceSeries: rp.bins.series(), TraceBinNs: rp.bins.width,
	}
	if rp.lag.Count() > 0 {
		h := rp.lag
		st.LagHist = &h
	}
	if rp.spec.Speed > 0 {
		st.ScheduleNs = int64(float64(st.TraceNs) / rp.spec.Speed)
	}
	for _, d := range []*metrics.DirStats{res.Read, res.Write} {
		if d != nil {
			st.IssuedIOs += int64(d.IOs)
			st.IssuedBytes += int64(d.Bytes)
		}
	}
	return st
}
