package native

import (
	"context"
	"errors"
	"github.com/drivebench/drivebench/engine/driver"
	"sync"
	"sync/atomic"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"golang.org/x/sys/unix"
)

// Engine runs workloads with the built-in I/O engine. The zero value is
// ready to use.
type Engine struct{}

// Run executes w against t and returns what it measured.
//
// live, when not nil, is called from a single goroutine with each
// interval's sample, about once a second, and once more with the final
// partial interval.
//
// On ctx cancellation the run stops within a second (once the I/Os in
// flight complete) and Run returns the partial result together with
// ctx.Err(); when ctx is done before the run starts, Run issues no I/O and
// returns a nil result with ctx.Err(). A failed or short transfer stops
// the run too: Run returns the partial result and an *IOError. A workload
// the engine cannot run gives a nil result and a *WorkloadError (several,
// joined, when several attributes are wrong).
func (Engine) Run(ctx context.Context, t driver.Target, w plan.Workload, live func(metrics.Sample)) (*metrics.Result, error) {
	return execute(ctx, t, w, live, unixSyscalls{})
}

// execute is Run over an injectable system interface.
func execute(ctx context.Context, t driver.Target, w plan.Workload, live func(metrics.Sample), sys syscalls) (*metrics.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r, err := prepare(t, w, sys)
	if err != nil {
		return nil, err
	}
	res, runErr := r.supervise(ctx, w, live)
	if err := r.close(); err != nil && runErr == nil {
		runErr = err
	}
	return res, runErr
}

// run is the state of one Run that its goroutines share.
type run struct {
	sys     syscalls
	fd      int
	path    string
	direct  bool
	method  ioMethod
	buffers *arena
	jobs    []*job

	// stop tells the slots to issue no further I/O.
	stop atomic.Bool
	// measuring is set when the measured phase begins; completions before
	// it (the ramp) are not recorded.
	measuring atomic.Bool

	errMu sync.Mutex
	err   error
}

// prepare validates w against t, opens the target and sets up the jobs
// and their slots.
func prepare(t driver.Target, w plan.Workload, sys syscalls) (*run, error) {
	if err := validate(w); err != nil {
		return nil, err
	}
	l, err := planLayout(t, w)
	if err != nil {
		return nil, err
	}
	if w.Direct {
		if err := checkDirect(t, w, l.region); err != nil {
			return nil, err
		}
	}
	buffers, err := mapArena(w.NumJobs*w.IODepth*l.buffersPerSlot(), int(w.BS))
	if err != nil {
		return nil, err
	}
	fd, err := openTarget(sys, t.Path, l.writes(), w.Direct)
	if err != nil {
		_ = buffers.release()
		return nil, err
	}
	r := &run{sys: sys, fd: fd, path: t.Path, direct: w.Direct, method: ioMethods[w.IOEngine], buffers: buffers}
	r.jobs = buildJobs(w, l, buffers)
	return r, nil
}

// buildJobs creates the jobs and their slots.
func buildJobs(w plan.Workload, l layout, buffers *arena) []*job {
	jobs := make([]*job, w.NumJobs)
	for j := range jobs {
		jobs[j] = &job{limit: l.limits[j], slots: make([]*slot, w.IODepth)}
		for i := range jobs[j].slots {
			jobs[j].slots[i] = newSlot(jobs[j], j, j*w.IODepth+i, w.Seed, l, buffers)
		}
	}
	return jobs
}

// newSlot sets up the slot with the given index in the run, of job
// number jobIndex: its buffers, recorders and random streams, for the
// directions the layout issues.
func newSlot(jb *job, jobIndex, index int, seed uint64, l layout, buffers *arena) *slot {
	s := &slot{job: jb, ops: opMix{readPct: l.readPct, rng: slotRNG(seed, index, streamOps)}}
	if l.pattern.random {
		s.offsets = randomOffsets{region: l.region, bs: l.bs, rng: slotRNG(seed, index, streamOffsets)}
	} else {
		s.offsets = sequentialOffsets{slice: l.slices[jobIndex], bs: l.bs}
	}
	buf := index * l.buffersPerSlot()
	if l.reads() {
		s.readBuf = buffers.buffer(buf)
		s.rec[opRead] = new(metrics.Recorder)
		buf++
	}
	if l.writes() {
		s.writes = newRandomData(buffers.buffer(buf), slotRNG(seed, index, streamData))
		s.rec[opWrite] = new(metrics.Recorder)
	}
	return s
}

// launch starts every job on the I/O method; the returned channel closes
// when all have stopped.
func (r *run) launch() <-chan struct{} {
	var wg sync.WaitGroup
	for _, j := range r.jobs {
		wg.Go(func() { r.method.runJob(r, j) })
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	return done
}

// fail records the first error and stops the run.
func (r *run) fail(err error) {
	r.errMu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.errMu.Unlock()
	r.stop.Store(true)
}

func (r *run) firstError() error {
	r.errMu.Lock()
	defer r.errMu.Unlock()
	return r.err
}

// close releases the target and the buffers once every slot has stopped.
func (r *run) close() error {
	return errors.Join(r.sys.close(r.fd), r.buffers.release())
}

// recorders returns every slot's recorder of direction o; none when the
// workload never issues o.
func (r *run) recorders(o op) []*metrics.Recorder {
	var recs []*metrics.Recorder
	for _, j := range r.jobs {
		for _, s := range j.slots {
			if s.rec[o] != nil {
				recs = append(recs, s.rec[o])
			}
		}
	}
	return recs
}

// summary merges the slots' histograms of direction o; nil when there
// were no such I/Os.
func (r *run) summary(o op, runtime time.Duration) *metrics.DirStats {
	var merged metrics.Histogram
	var bytes uint64
	for _, rec := range r.recorders(o) {
		merged.Merge(rec.Histogram())
		_, n, _ := rec.Totals()
		bytes += n
	}
	return metrics.Summarize(&merged, bytes, runtime)
}

// cpuTime is the processor time the process has used so far.
func cpuTime() metrics.CPU {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return metrics.CPU{}
	}
	return metrics.CPU{UserSec: timevalSeconds(ru.Utime), SysSec: timevalSeconds(ru.Stime)}
}

func timevalSeconds(tv unix.Timeval) float64 {
	return float64(tv.Sec) + float64(tv.Usec)/1e6
}
