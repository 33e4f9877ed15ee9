package native

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
	"golang.org/x/sys/unix"
)

// Engine runs workloads with the built-in I/O engine. The zero value is
// ready to use.
type Engine struct {
	// Interval is the length of one interval of the time series; zero
	// means one second.
	Interval time.Duration
}

// Run executes w against t and returns what it measured.
//
// live, when not nil, is called from a single goroutine with each
// interval's sample, about once an interval, and once more with the final
// partial interval.
//
// On ctx cancellation the run stops within a second (once the I/Os in
// flight complete) and Run returns the partial result together with
// ctx.Err(); when ctx is done before the run starts, Run issues no I/O and
// returns a nil result with ctx.Err(). A failed or short transfer stops
// the run too: Run returns the partial result and an *IOError. A workload
// the engine cannot run gives a nil result and a *WorkloadError (several,
// joined, when several attributes are wrong). With verify, a bad block
// gives the result and a *VerifyError.
func (e Engine) Run(ctx context.Context, t driver.Target, w workload.Workload, live func(metrics.Sample)) (*metrics.Result, error) {
	return execute(ctx, t, w, live, unixSyscalls{}, e.interval())
}

func (e Engine) interval() time.Duration {
	if e.Interval <= 0 {
		return time.Second
	}
	return e.Interval
}

// execute is Run over an injectable system interface.
func execute(ctx context.Context, t driver.Target, w workload.Workload, live func(metrics.Sample), sys syscalls, interval time.Duration) (*metrics.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if w.Replay != nil {
		return executeReplay(ctx, t, w, live, sys, interval)
	}
	if w.Dataloader() {
		return runDataloader(ctx, t, w, sys)
	}
	r, err := prepare(t, w, sys)
	if err != nil {
		return nil, err
	}
	var drop *metrics.CacheDrop
	if w.DropCache {
		if drop, err = r.dropCache(); err != nil {
			return nil, errors.Join(fmt.Errorf("drop_cache: %w", err), r.close())
		}
	}
	res, runErr := r.supervise(ctx, w, live, interval)
	res.CacheDrop = drop
	if runErr == nil && r.blocks != nil {
		runErr = r.verify(res)
	}
	if r.files != nil {
		if runErr == nil && w.Unlink {
			runErr = r.files.unlinkAll()
		}
		res.Files = r.files.stats(res.Start)
	}
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
	layout  layout
	buffers *arena
	data    *dataSpec
	// blocks tracks the generation of every block in a verify run; nil
	// otherwise.
	blocks *blockTable
	jobs   []*job
	// paced is set when a rate target schedules the I/Os.
	paced bool
	// fsync is how many writes of a job it flushes after (0: never).
	fsync int64
	// userSpaceFS is set when a process serves the target's file system
	// (FUSE).
	userSpaceFS bool
	// base is the origin of the run's clock, in nanotime's terms.
	base int64
	// virtual, when set, is the clock instead of nanotime (tests).
	virtual *virtualClock
	// arriving, when set, is called by each job before it reaches the
	// start gate (tests hold jobs back with it).
	arriving func(*job)
	// replay is set when the run replays a trace.
	replay *replayState
	// files is the file set of a file-set run; nil for a run on one
	// file or device (fd).
	files *fileSet

	// stop tells the slots to issue no further I/O.
	stop atomic.Bool
	coll collector

	errMu sync.Mutex
	err   error
}

// prepare validates w against t, opens the target and sets up the jobs
// and their slots.
func prepare(t driver.Target, w workload.Workload, sys syscalls) (*run, error) {
	if err := validate(w); err != nil {
		return nil, err
	}
	var files *fileSet
	if w.IsFileSet() {
		var err error
		if files, err = newFileSet(t, w); err != nil {
			return nil, err
		}
		t = files.target(t)
	}
	l, err := planFileLayout(t, w, files)
	if err != nil {
		return nil, err
	}
	if err := checkTarget(t, w, l); err != nil {
		return nil, err
	}
	method, err := chooseMethod(w)
	if err != nil {
		return nil, err
	}
	r := &run{sys: sys, path: t.Path, direct: w.Direct, method: method, layout: l, base: nanotime(),
		paced: w.RateIOPS > 0 || w.RateBW > 0, fsync: int64(w.Fsync), files: files, fd: -1}
	if err := r.allocate(w); err != nil {
		return nil, err
	}
	if files != nil {
		return r, r.prepareSet(w)
	}
	if r.fd, err = openTarget(sys, t.Path, l.writes(), w.Direct); err != nil {
		_ = r.buffers.release()
		return nil, err
	}
	r.userSpaceFS = servedByProcess(r.fd)
	if w.Verify {
		r.blocks = newBlockTable(l.region, l.granule, runNonce(w.Seed))
	}
	r.buildJobs(w)
	if err := r.openJobFiles(t.Path, l.writes(), w.Direct); err != nil {
		_ = r.close()
		return nil, err
	}
	return r, nil
}

// planFileLayout is planLayout, with a file set's files then given to
// the jobs (fileSet.assign).
func planFileLayout(t driver.Target, w workload.Workload, files *fileSet) (layout, error) {
	l, err := planLayout(t, w)
	if err != nil || files == nil {
		return l, err
	}
	if err := files.checkSizes(l.granule, w); err != nil {
		return layout{}, err
	}
	return l, files.assign(&l, w)
}

// prepareSet sets up the jobs of a file-set run and makes its files
// ready; a failure releases what prepare took.
func (r *run) prepareSet(w workload.Workload) error {
	r.buildJobs(w)
	if err := os.MkdirAll(r.files.dir, 0o755); err != nil {
		_ = r.close()
		return err
	}
	r.userSpaceFS = servedByProcessPath(r.files.dir)
	if err := r.files.prepareFiles(r, w); err != nil {
		_ = r.close()
		return err
	}
	return nil
}

// openJobFiles gives every job an open file of its own, as fio's jobs
// have. With one open file for all, every transfer's file lookup takes
// and drops a reference on the same counter, a cache line the CPUs pass
// between them: fdget and fput took 7 % of a 2-job buffered psync run's
// CPU time, twice their share with one job, and the run fell 7 % behind
// fio's. The first job keeps r.fd.
func (r *run) openJobFiles(path string, writes, direct bool) error {
	for i, j := range r.jobs {
		if i == 0 {
			j.fd = r.fd
			continue
		}
		fd, err := openTarget(r.sys, path, writes, direct)
		if err != nil {
			return fmt.Errorf("opening the target for job %d of %d: %w; lower numjobs", i+1, len(r.jobs), err)
		}
		j.fd = fd
	}
	return nil
}

// runNonce tells this run's blocks from those of every other run.
func runNonce(seed uint64) uint64 {
	return splitmix64(uint64(time.Now().UnixNano()) ^ splitmix64(seed))
}

// allocate maps the I/O buffers: one per direction per slot, of the
// largest transfer size, and the content deduplicated writes repeat.
func (r *run) allocate(w workload.Workload) error {
	l := r.layout
	count := w.NumJobs * w.IODepth * l.buffersPerSlot()
	r.data = newDataSpec(w)
	if r.data.kind == dataDedupe {
		count++
	}
	var err error
	if r.buffers, err = mapArena(count, int(l.sizes.largest())); err != nil {
		return err
	}
	if r.data.kind == dataDedupe {
		r.data.shared = r.buffers.buffer(count - 1)
		fillRandom(r.data.shared, rand.New(rand.NewPCG(w.Seed, streamKey(w.NumJobs*w.IODepth, streamData))))
	}
	return nil
}

// newDataSpec resolves the workload's data pattern.
func newDataSpec(w workload.Workload) *dataSpec {
	return &dataSpec{kind: dataKinds[w.Data], randomPerSector: sector * (100 - w.CompressPct) / 100, dedupePct: w.DedupePct}
}

// buildJobs creates the jobs and their slots.
func (r *run) buildJobs(w workload.Workload) {
	l := r.layout
	r.jobs = make([]*job, w.NumJobs)
	buf := 0
	for ji := range r.jobs {
		j := &job{index: ji, budget: l.budgets[ji], sequential: !l.pattern.random, slice: l.slices[ji], slots: make([]*slot, w.IODepth), fd: -1}
		j.pace = newSchedule(w.RateIOPS/float64(w.NumJobs), w.RateBW/float64(w.NumJobs), w.Arrival == "poisson",
			splitmix64(w.Seed^uint64(ji)<<32), float64(ji)/float64(w.NumJobs))
		var shared *recorder
		if r.method.sharedRecorder() {
			shared = newRecorder(l, r.paced)
			r.coll.recorders = append(r.coll.recorders, shared)
		}
		for i := range j.slots {
			s := r.newSlot(j, ji*w.IODepth+i, w.Seed, &buf)
			if s.rec = shared; s.rec == nil {
				s.rec = newRecorder(l, r.paced)
				r.coll.recorders = append(r.coll.recorders, s.rec)
			}
			j.slots[i] = s
		}
		r.jobs[ji] = j
	}
}

// newSlot sets up a slot of job j, number index in the run: its buffers,
// taken from *buf on, and random streams, for the directions the layout
// issues.
func (r *run) newSlot(j *job, index int, seed uint64, buf *int) *slot {
	l := &r.layout
	s := &slot{job: j, sizes: &l.sizes}
	s.ops = opMix{readPct: l.readPct, rng: s.rng(seed, index, streamOps)}
	s.sizeRNG = s.rng(seed, index, streamSizes)
	if r.files != nil {
		s.fileRNG = s.rng(seed, index, streamFiles)
	}
	if l.pattern.random {
		reg := l.region
		if r.files != nil {
			reg = j.slice
		}
		s.randomState = randomOffsets{region: reg, granule: l.granule, zones: l.zones, seqPct: l.seqPct, lastEnd: -1,
			rng: s.rng(seed, index, streamOffsets), skew: s.rng(seed, index, streamSkew)}
		s.random = &s.randomState
	}
	if l.reads() {
		s.readBuf = r.buffers.buffer(*buf)
		*buf++
	}
	if l.writes() {
		s.writeState = newWriteData(r.data, r.buffers.buffer(*buf), s.rng(seed, index, streamData), index)
		s.writes = &s.writeState
		*buf++
	}
	return s
}

// launch starts every job on the I/O method, holds them at a gate
// until all are there, then starts the run's clock, calls begin (the
// measured phase's start, nil while a ramp runs first) and lets them go
// together; the returned channel closes when all have stopped.
func (r *run) launch(begin func()) <-chan struct{} {
	granted, release := reserveProcs(r.method.waiters(r))
	r.method.grant(r, granted)
	g := newGate(len(r.jobs))
	var wg sync.WaitGroup
	for _, j := range r.jobs {
		wg.Go(func() {
			if r.arriving != nil {
				r.arriving(j)
			}
			g.wait()
			r.method.runJob(r, j)
			if r.files != nil {
				r.finishJob(j)
			}
		})
	}
	g.release(func() {
		r.base = nanotime()
		if begin != nil {
			begin()
		}
	})
	done := make(chan struct{})
	go func() {
		wg.Wait()
		release()
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

// verify runs the verify pass after a run that completed and notes its
// figures in res.Metrics.
func (r *run) verify(res *metrics.Result) error {
	checked, err := r.verifyPass(r.blocks, r.layout.region)
	var bad int64
	var v *VerifyError
	if errors.As(err, &v) {
		bad = v.Bad
	}
	if res.Metrics == nil {
		res.Metrics = map[string]float64{}
	}
	res.Metrics["verify_blocks"] = float64(checked)
	res.Metrics["verify_bad_blocks"] = float64(bad)
	return err
}

// close releases the target's open files and the buffers once every slot
// has stopped.
func (r *run) close() error {
	errs := []error{r.buffers.release()}
	if r.fd >= 0 {
		errs = append(errs, r.sys.close(r.fd))
	}
	for _, j := range r.jobs {
		if j.fd >= 0 && j.fd != r.fd { // -1: not opened
			errs = append(errs, r.sys.close(j.fd))
		}
	}
	return errors.Join(errs...)
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
