package native

import (
	"context"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
)

// supervisor drives a run through its phases from one goroutine: the ramp
// (I/Os issued, their records discarded), the measured phase (sampled
// every interval) and the stop (deadline, budget spent, error or
// cancellation).
type supervisor struct {
	r        *run
	w        workload.Workload
	live     func(metrics.Sample)
	interval time.Duration

	began    time.Time // the run began
	started  time.Time // the measured phase began; zero while ramping
	lastT    float64   // end of the last sampled interval, seconds since started
	ticker   *time.Ticker
	deadline *time.Timer
	// cancelErr is the context's error once its cancellation stopped the
	// run.
	cancelErr error
}

// supervise runs the workload to its end and assembles the result.
func (r *run) supervise(ctx context.Context, w workload.Workload, live func(metrics.Sample), interval time.Duration) (*metrics.Result, error) {
	s := &supervisor{r: r, w: w, live: live, interval: interval, began: time.Now()}
	defer holdGC()()
	cpuStart := cpuTime()
	var rampEnd <-chan time.Time
	begin := s.beginMeasuring
	if w.Runtime > 0 && w.Ramp > 0 {
		ramp := time.NewTimer(w.Ramp)
		defer ramp.Stop()
		rampEnd, begin = ramp.C, nil
	}
	defer s.stopClocks()
	done := r.launch(begin)
	cancelled := ctx.Done()
	for {
		select {
		case <-done:
			res := s.result(time.Now())
			res.CPU = cpuSince(cpuStart)
			return res, s.err()
		case <-cancelled:
			r.stop.Store(true)
			s.cancelErr = ctx.Err()
			cancelled = nil
		case <-rampEnd:
			s.beginMeasuring()
			if r.files != nil {
				r.files.meta.reset()
			}
		case <-s.tick():
			s.sample(time.Now())
		case <-s.expiry():
			r.stop.Store(true)
		}
	}
}

// beginMeasuring starts the measured phase: it drops what the ramp
// recorded and starts sampling and, in a time-based run, the runtime
// deadline.
func (s *supervisor) beginMeasuring() {
	if s.r.stop.Load() {
		return
	}
	s.r.coll.discard()
	s.started = time.Now()
	s.ticker = time.NewTicker(s.interval)
	if s.w.Runtime > 0 {
		s.deadline = time.NewTimer(s.w.Runtime)
	}
}

func (s *supervisor) stopClocks() {
	if s.ticker != nil {
		s.ticker.Stop()
	}
	if s.deadline != nil {
		s.deadline.Stop()
	}
}

// tick is the sampling ticker's channel; nil (never ready) before the
// measured phase.
func (s *supervisor) tick() <-chan time.Time {
	if s.ticker == nil {
		return nil
	}
	return s.ticker.C
}

// expiry is the runtime deadline's channel; nil in a byte-count run.
func (s *supervisor) expiry() <-chan time.Time {
	if s.deadline == nil {
		return nil
	}
	return s.deadline.C
}

// sample closes the interval ending at now and shows it to live.
func (s *supervisor) sample(now time.Time) {
	t := now.Sub(s.started).Seconds()
	if t <= s.lastT {
		return
	}
	s.show(s.r.coll.sample(t, t-s.lastT), t)
}

// finish closes the run's last interval, ending at end: into the one
// before it when it is short beside the others (metrics.FoldStub).
func (s *supervisor) finish(end time.Time) {
	t := end.Sub(s.started).Seconds()
	c := &s.r.coll
	if len(c.series) == 0 || !metrics.Short(t-s.lastT, c.series) {
		s.sample(end)
		return
	}
	s.show(c.extend(t), t)
}

// show records that the series now ends at t and shows its last sample
// to live.
func (s *supervisor) show(smp metrics.Sample, t float64) {
	s.lastT = t
	if s.live != nil {
		s.live(smp)
	}
}

// result assembles what the measured phase recorded, ending at end; the
// final partial interval is sampled too (finish). A run stopped during its ramp
// measured nothing.
func (s *supervisor) result(end time.Time) *metrics.Result {
	if s.started.IsZero() {
		return &metrics.Result{Start: s.began}
	}
	if last := s.started.Add(time.Duration(s.lastT * 1e9)); !end.After(last) {
		end = last.Add(time.Nanosecond)
	}
	s.finish(end)
	runtime := end.Sub(s.started)
	return &metrics.Result{
		Start:     s.started,
		RuntimeNs: runtime.Nanoseconds(),
		Read:      s.r.coll.summary(opRead, runtime),
		Write:     s.r.coll.summary(opWrite, runtime),
		Series:    s.r.coll.series,
	}
}

// err is the error that ended the run: an I/O error first, then the
// cancellation of the context if the run stopped for it.
func (s *supervisor) err() error {
	if err := s.r.firstError(); err != nil {
		return err
	}
	return s.cancelErr
}

// cpuSince is the processor time used since start.
func cpuSince(start metrics.CPU) metrics.CPU {
	now := cpuTime()
	return metrics.CPU{UserSec: now.UserSec - start.UserSec, SysSec: now.SysSec - start.SysSec}
}
