package native

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/drivebench/drivebench/internal/ctxtime"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
)

// A dataloader step runs as a training job's input pipeline does, the
// way MLPerf Storage's DLIO models one: each epoch visits every sample of
// the data set once, in an order shuffled anew (seeded), cut into
// batches; reader threads take the samples in that order and read each
// one whole; the accelerator takes the batches in order, waiting for a
// batch until its last sample is read, then computes (sleeps) for the
// compute time. Readers run ahead of the accelerator by at most
// loaderPrefetch batches per reader thread, PyTorch's DataLoader default
// (prefetch_factor = 2 per worker), and a new epoch starts with nothing
// read ahead, as a new DataLoader iterator does. Samples that do not
// fill a last batch are left out (drop_last).
//
// The accelerator utilisation is the compute time of every batch over
// the run's length, which MLPerf Storage requires to be at least 90 %
// (70 % for cosmoflow): storage keeps up when the accelerator never
// waits.

// loaderPrefetch is how many batches per reader thread the readers may
// read ahead of the accelerator.
const loaderPrefetch = 2

// loaderClock is the time a dataloader run keeps: the accelerator's
// compute is a sleep on it, and the batch waits and the run's length are
// read from it. Tests use a virtual one, so that a loaded machine does
// not decide what the accelerator waited.
type loaderClock interface {
	now() time.Duration
	sleep(ctx context.Context, d time.Duration) error
}

// wallClock is the real clock, from the run's start.
type wallClock struct{ start time.Time }

func (c wallClock) now() time.Duration { return time.Since(c.start) }

func (c wallClock) sleep(ctx context.Context, d time.Duration) error { return ctxtime.Sleep(ctx, d) }

// sampleReader reads one sample, file f's sample s, for reader thread
// thread; it records the transfers it makes itself.
type sampleReader func(thread, f, s int) error

// loaderShape is what a dataloader run does, from its workload.
type loaderShape struct {
	files, samplesPerFile, batch, threads, epochs int
	compute                                       time.Duration
	seed                                          uint64
}

func shapeOf(w workload.Workload) loaderShape {
	return loaderShape{files: w.Files, samplesPerFile: w.SamplesPerFile, batch: w.BatchSize, threads: w.ReaderThreads,
		epochs: w.Epochs, compute: w.ComputeTime, seed: w.Seed}
}

// samples is the number of samples in the data set.
func (s loaderShape) samples() int { return s.files * s.samplesPerFile }

// batchesPerEpoch is the number of whole batches an epoch holds.
func (s loaderShape) batchesPerEpoch() int { return s.samples() / s.batch }

// loaderTotals is what the accelerator saw of a run.
type loaderTotals struct {
	batches, samples uint64
	epochs           int
	compute, wall    time.Duration
	wait             metrics.Histogram
}

// runLoader runs the epochs of shape, reading each sample with read,
// and returns what the accelerator saw: all of it up to an error or
// cancellation, with that error.
func runLoader(ctx context.Context, shape loaderShape, read sampleReader, clock loaderClock) (*loaderTotals, error) {
	t := &loaderTotals{}
	var err error
	for e := 0; e < shape.epochs && err == nil; e++ {
		err = runEpoch(ctx, shape, epochOrder(shape, e), read, clock, t)
		if err == nil {
			t.epochs++
		}
	}
	t.wall = clock.now()
	return t, err
}

// epochOrder is the order epoch e visits the samples in: every sample
// index (file*samplesPerFile + sample) once, shuffled by the seed and
// the epoch.
func epochOrder(shape loaderShape, e int) []int {
	order := make([]int, shape.samples())
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(shape.seed, uint64(e)+1))
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	return order[:shape.batchesPerEpoch()*shape.batch]
}

// epoch is the state an epoch's readers and its accelerator share.
type epoch struct {
	order []int
	batch int
	mu    sync.Mutex
	next  int
	// read counts the samples read of each batch; ready[b] is closed
	// once batch b is whole.
	read  []int
	ready []chan struct{}
	// credit bounds the samples taken but not yet consumed: the
	// read-ahead.
	credit chan struct{}
}

// runEpoch runs one epoch: the readers fill its batches while the
// accelerator consumes them.
func runEpoch(ctx context.Context, shape loaderShape, order []int, read sampleReader, clock loaderClock, t *loaderTotals) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	batches := len(order) / shape.batch
	ep := &epoch{order: order, batch: shape.batch, read: make([]int, batches), ready: make([]chan struct{}, batches),
		credit: make(chan struct{}, loaderPrefetch*shape.threads*shape.batch)}
	for b := range ep.ready {
		ep.ready[b] = make(chan struct{})
	}
	for range cap(ep.credit) {
		ep.credit <- struct{}{}
	}
	var wg sync.WaitGroup
	for thread := range shape.threads {
		wg.Go(func() {
			if err := ep.readSamples(ctx, shape, thread, read); err != nil {
				cancel(err)
			}
		})
	}
	err := ep.consume(ctx, shape, clock, t)
	cancel(nil)
	wg.Wait()
	if cause := context.Cause(ctx); err != nil && cause != nil && cause != context.Canceled {
		return cause
	}
	return err
}

// readSamples is one reader thread: it takes the next sample in the
// epoch's order, once the read-ahead allows, and reads it.
func (ep *epoch) readSamples(ctx context.Context, shape loaderShape, thread int, read sampleReader) error {
	for {
		select {
		case <-ep.credit:
		case <-ctx.Done():
			return nil
		}
		i, ok := ep.take()
		if !ok {
			return nil
		}
		idx := ep.order[i]
		if err := read(thread, idx/shape.samplesPerFile, idx%shape.samplesPerFile); err != nil {
			return err
		}
		ep.done(i / ep.batch)
	}
}

// take hands out the position of the next sample to read; ok is false
// when every sample of the epoch is taken.
func (ep *epoch) take() (i int, ok bool) {
	ep.mu.Lock()
	defer ep.mu.Unlock()
	if ep.next == len(ep.order) {
		return 0, false
	}
	ep.next++
	return ep.next - 1, true
}

// done counts a sample of batch b as read.
func (ep *epoch) done(b int) {
	ep.mu.Lock()
	defer ep.mu.Unlock()
	ep.read[b]++
	if ep.read[b] == ep.batch {
		close(ep.ready[b])
	}
}

// consume is the accelerator: it waits for each batch in turn, then
// computes, and gives the batch's read-ahead back to the readers. Its
// compute time is the compute time per batch, not the time it slept: a
// sleeper woken late by a loaded host, a stopped process (Ctrl-Z) or a
// held machine did not compute meanwhile, and counting that time would
// raise AU over what the storage earned (97 % for 30 ms reads under
// 10 ms batches with 990 ms stalls). The stall stays in the run's
// length, so it can only lower AU; the host watchers say it happened.
func (ep *epoch) consume(ctx context.Context, shape loaderShape, clock loaderClock, t *loaderTotals) error {
	for b := range ep.ready {
		waitFrom := clock.now()
		select {
		case <-ep.ready[b]:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
		readyAt := clock.now()
		t.wait.Record(uint64(max(readyAt-waitFrom, 0)))
		if err := clock.sleep(ctx, shape.compute); err != nil {
			return context.Cause(ctx)
		}
		t.batches++
		t.samples += uint64(shape.batch)
		t.compute += shape.compute
		for range shape.batch {
			ep.credit <- struct{}{}
		}
	}
	return nil
}

// dataloaderFigures turns what the accelerator saw into the result's
// figures.
func dataloaderFigures(t *loaderTotals) *metrics.Dataloader {
	d := &metrics.Dataloader{Samples: t.samples, Batches: t.batches, Epochs: t.epochs, ComputeNs: int64(t.compute)}
	if t.wall > 0 {
		d.SamplesPerSec = float64(t.samples) / t.wall.Seconds()
		d.AU = float64(t.compute) / float64(t.wall)
	}
	if t.wait.Count() > 0 {
		h := t.wait
		d.BatchWait, d.BatchWaitHist = h.Summary(metrics.DefaultPercentiles), &h
	}
	return d
}

// validateDataloader checks a dataloader's shape.
func validateDataloader(c *checker, w workload.Workload) {
	c.check(w.ReaderThreads >= 1, "reader_threads", "reader_threads = %d: must be at least 1", w.ReaderThreads)
	c.check(w.Files >= 1, "files", "files = %d: the data set needs at least one file", w.Files)
	c.check(w.SamplesPerFile >= 1, "samples_per_file", "samples_per_file = %d: must be at least 1", w.SamplesPerFile)
	c.check(w.RecordSize > 0, "record_size", "record_size = %d: a sample must be at least a byte", w.RecordSize)
	c.check(w.Epochs >= 1, "epochs", "epochs = %d: must be at least 1", w.Epochs)
	c.check(w.ComputeTime >= 0, "compute_time", "compute_time = %s: must not be negative", w.ComputeTime)
	if w.Files >= 1 && w.SamplesPerFile >= 1 {
		n := int64(w.Files) * int64(w.SamplesPerFile)
		c.check(n >= int64(w.BatchSize), "batch_size", "the data set holds %d samples, fewer than one batch of %d; raise files or samples_per_file, or lower batch_size", n, w.BatchSize)
	}
}
