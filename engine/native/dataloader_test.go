package native

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
)

// stepClock is a virtual clock for dataloader runs: it stands still but
// for the accelerator's compute, which moves it on at once, and for what
// a test's reader adds, so the figures do not depend on how fast the
// machine runs.
type stepClock struct {
	mu sync.Mutex
	t  time.Duration
}

func (c *stepClock) now() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *stepClock) sleep(_ context.Context, d time.Duration) error {
	c.advance(d)
	return nil
}

func (c *stepClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t += d
	c.mu.Unlock()
}

// TestLoaderVisitsEverySampleOncePerEpoch: each epoch reads each sample
// that fits a whole batch once, in an order of its own, and with reads
// that take no time the accelerator never waits (AU 1).
func TestLoaderVisitsEverySampleOncePerEpoch(t *testing.T) {
	shape := loaderShape{files: 5, samplesPerFile: 3, batch: 4, threads: 3, epochs: 3, compute: 7 * time.Millisecond, seed: 9}
	var mu sync.Mutex
	seen := map[int]int{}
	read := func(_, f, s int) error {
		mu.Lock()
		seen[f*shape.samplesPerFile+s]++
		mu.Unlock()
		return nil
	}
	tot, err := runLoader(context.Background(), shape, read, &stepClock{})
	if err != nil {
		t.Fatal(err)
	}
	// 15 samples make 3 batches of 4 an epoch; 3 samples are left out.
	if tot.batches != 9 || tot.samples != 36 || tot.epochs != 3 {
		t.Errorf("batches, samples, epochs = %d, %d, %d; want 9, 36, 3", tot.batches, tot.samples, tot.epochs)
	}
	reads := 0
	for idx, n := range seen {
		if n > 3 {
			t.Errorf("sample %d read %d times in 3 epochs", idx, n)
		}
		reads += n
	}
	if reads != 36 {
		t.Errorf("%d samples read, want 36", reads)
	}
	figs := dataloaderFigures(tot)
	if figs.AU != 1 || figs.ComputeNs != int64(63*time.Millisecond) || figs.BatchWait.Max != 0 || figs.BatchWaitHist.Count() != 9 {
		t.Errorf("AU %v, compute %d ns, longest wait %d ns over %d batches; want 1, 63 ms, 0 over 9", figs.AU, figs.ComputeNs, figs.BatchWait.Max, figs.BatchWaitHist.Count())
	}
	if a, b := epochOrder(shape, 0), epochOrder(shape, 1); slices.Equal(a, b) {
		t.Errorf("epochs 1 and 2 visit the samples in the same order %v", a)
	}
}

// TestLoaderWaitsAreWhatReadsTake: a sample that takes 30 ms to read
// keeps a 10 ms accelerator waiting 30 ms a batch: AU = 20 / 80.
func TestLoaderWaitsAreWhatReadsTake(t *testing.T) {
	clock := &stepClock{}
	tot, err := slowReads(clock, clock)
	if err != nil {
		t.Fatal(err)
	}
	figs := dataloaderFigures(tot)
	if tot.wall != 80*time.Millisecond || figs.AU != 0.25 {
		t.Errorf("wall %s, AU %v; want 80ms, 0.25", tot.wall, figs.AU)
	}
	if figs.BatchWait.Min != uint64(30*time.Millisecond) || figs.BatchWait.Max != uint64(30*time.Millisecond) || figs.BatchWaitHist.Count() != 2 {
		t.Errorf("batch waits %d..%d ns over %d batches; want 30 ms each of 2", figs.BatchWait.Min, figs.BatchWait.Max, figs.BatchWaitHist.Count())
	}
	if figs.SamplesPerSec != 25 {
		t.Errorf("samples/s = %v, want 2 in 80 ms = 25", figs.SamplesPerSec)
	}
}

// slowReads runs two epochs of one sample a batch, 10 ms of compute a
// batch, each sample taking 30 ms of steps of the clock to read, on
// clock as the loader's clock.
func slowReads(clock loaderClock, steps *stepClock) (*loaderTotals, error) {
	shape := loaderShape{files: 1, samplesPerFile: 1, batch: 1, threads: 1, epochs: 2, compute: 10 * time.Millisecond}
	read := func(int, int, int) error {
		steps.advance(30 * time.Millisecond)
		return nil
	}
	return runLoader(context.Background(), shape, read, clock)
}

// lateClock wakes every sleeper late by a fixed delay, as a process
// stopped mid-compute (Ctrl-Z) or a host holding the machine would.
type lateClock struct {
	stepClock
	late time.Duration
}

func (c *lateClock) sleep(_ context.Context, d time.Duration) error {
	c.advance(d + c.late)
	return nil
}

// TestLoaderStallsDoNotRaiseAU: a sleeper woken 990 ms late on every 10
// ms batch, by a stopped process or a held host, does not turn 30 ms
// reads into a busy accelerator: compute is the batches' 10 ms each, so
// AU falls (20 ms in 2,060 ms) where counting the time slept would give
// 2,000 in 2,060 ms, 97 %, and pass a 90 % target storage never met.
func TestLoaderStallsDoNotRaiseAU(t *testing.T) {
	clock := &lateClock{late: 990 * time.Millisecond}
	tot, err := slowReads(clock, &clock.stepClock)
	if err != nil {
		t.Fatal(err)
	}
	figs := dataloaderFigures(tot)
	if figs.ComputeNs != int64(20*time.Millisecond) || figs.AU > 0.25 {
		t.Errorf("compute %d ns, AU %v over %s; want 20 ms of compute and an AU no higher than without the stalls (0.25)", figs.ComputeNs, figs.AU, tot.wall)
	}
}

// TestLoaderStopsAtAReadError: a failed read ends the run with its
// error and the batches consumed before it.
func TestLoaderStopsAtAReadError(t *testing.T) {
	boom := errors.New("boom")
	var mu sync.Mutex
	reads := 0
	read := func(int, int, int) error {
		mu.Lock()
		defer mu.Unlock()
		reads++
		if reads == 5 {
			return boom
		}
		return nil
	}
	shape := loaderShape{files: 10, samplesPerFile: 1, batch: 2, threads: 1, epochs: 1}
	tot, err := runLoader(context.Background(), shape, read, &stepClock{})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want the read's", err)
	}
	if tot.batches > 2 || tot.epochs != 0 {
		t.Errorf("%d batches and %d epochs consumed, want at most the 2 read whole and none", tot.batches, tot.epochs)
	}
}

// TestLoaderReadAheadIsBounded: readers take no sample more than the
// read-ahead beyond the batches consumed.
func TestLoaderReadAheadIsBounded(t *testing.T) {
	shape := loaderShape{files: 64, samplesPerFile: 1, batch: 2, threads: 2, epochs: 1}
	var mu sync.Mutex
	taken, most := 0, 0
	clock := &consumedClock{stepClock: &stepClock{}, onSleep: func() {
		mu.Lock()
		taken -= shape.batch
		mu.Unlock()
	}}
	read := func(int, int, int) error {
		mu.Lock()
		taken++
		most = max(most, taken)
		mu.Unlock()
		return nil
	}
	if _, err := runLoader(context.Background(), shape, read, clock); err != nil {
		t.Fatal(err)
	}
	if limit := loaderPrefetch*shape.threads*shape.batch + shape.batch; most > limit {
		t.Errorf("%d samples read ahead of the accelerator, more than %d", most, limit)
	}
}

// consumedClock calls onSleep as the accelerator starts computing a
// batch.
type consumedClock struct {
	*stepClock
	onSleep func()
}

func (c *consumedClock) sleep(ctx context.Context, d time.Duration) error {
	c.onSleep()
	return c.stepClock.sleep(ctx, d)
}

// TestDataloaderReadsTheDataSet runs a dataloader on a folder: its data
// set is made there as a file set, and every epoch reads each batch's
// samples whole, in transfers of bs, each reader opening a sample's file
// when its last sample was in another, every open closed.
func TestDataloaderReadsTheDataSet(t *testing.T) {
	dir := t.TempDir()
	w := workload.Workload{RW: "randread", BS: 16 << 10, Seed: 3,
		BatchSize: 3, ReaderThreads: 2, Files: 4, SamplesPerFile: 2, RecordSize: 40 << 10, Epochs: 2, ComputeTime: time.Millisecond}
	sys := &recordingSys{}
	res, err := execute(context.Background(), driver.Target{Path: dir}, w, nil, sys, time.Second)
	returned := time.Now()
	if err != nil {
		t.Fatal(err)
	}
	// 8 samples: 2 batches of 3 an epoch, each sample 16 + 16 + 8 KiB.
	d := res.Dataloader
	if d.Samples != 12 || d.Batches != 4 || d.Epochs != 2 || res.Read.Bytes != 12*40<<10 || res.Read.IOs != 36 {
		t.Errorf("samples %d, batches %d, epochs %d, %d bytes in %d reads; want 12, 4, 2, %d in 36", d.Samples, d.Batches, d.Epochs, res.Read.Bytes, res.Read.IOs, 12*40<<10)
	}
	for _, tr := range sys.transfers() {
		within := tr.offset % w.RecordSize
		if tr.op != opRead || within%w.BS != 0 || int64(tr.length) != min(w.BS, w.RecordSize-within) || tr.offset+int64(tr.length) > 2*w.RecordSize {
			t.Errorf("transfer %+v is not a read within a sample of its file", tr)
		}
	}
	if d.AU <= 0 || d.AU > 1 || d.ComputeNs < int64(4*time.Millisecond) || res.RuntimeNs < d.ComputeNs {
		t.Errorf("AU %v with %d ns of compute in %d ns", d.AU, d.ComputeNs, res.RuntimeNs)
	}
	f := res.Files
	opens, closes := f.Op(metrics.OpOpen), f.Op(metrics.OpClose)
	if f.Files != 4 || f.Bytes != 4*2*40<<10 || f.Setup.Created != 4 || opens == nil || closes == nil || opens.Count != closes.Count || opens.Count > 12 {
		t.Errorf("file set %+v: opens %+v, closes %+v; want 4 files made, an open and a close for at most every sample", f, opens, closes)
	}
	// The run's clock starts once the set is made, after every file's
	// last write, and its length ends by the time Run returns.
	files, _ := filepath.Glob(filepath.Join(dir, "*", "f*"))
	for _, path := range files {
		if info, err := os.Stat(path); err != nil || info.ModTime().After(res.Start) {
			t.Errorf("%s was written at %v, after the run's start %v: the setup is in the run's time", path, info.ModTime(), res.Start)
		}
	}
	if end := res.Start.Add(time.Duration(res.RuntimeNs)); end.After(returned) {
		t.Errorf("the run lasted %d ns from %v, past its return at %v: its clock started before its start", res.RuntimeNs, res.Start, returned)
	}
	if len(files) != 4 {
		t.Errorf("the set holds %d files, want 4", len(files))
	}
	sets, _ := os.ReadDir(dir)
	if len(sets) != 1 || sets[0].Name() != (&workload.Workload{Files: 4, FileSize: 2 * 40 << 10}).FileSetName() {
		t.Errorf("the folder holds %v, want the data set's folder", sets)
	}
}

// TestDataloaderDirectReadsWholeBlocks: under O_DIRECT a sample of 5,000
// bytes takes and is read as two 4 KiB blocks, at block offsets.
func TestDataloaderDirectReadsWholeBlocks(t *testing.T) {
	w := workload.Workload{RW: "randread", BS: 1 << 20, Direct: true, Seed: 1,
		BatchSize: 2, ReaderThreads: 1, Files: 3, SamplesPerFile: 2, RecordSize: 5000, Epochs: 1}
	sys := &recordingSys{}
	res, err := execute(context.Background(), driver.Target{Path: t.TempDir(), BlockSize: 4096}, w, nil, sys, time.Second)
	if errors.Is(err, ErrDirectRefused) {
		testenv.Require(t, "O_DIRECT", "the file system of the test's temporary folder refuses it (ext4 and tmpfs take it)")
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range sys.transfers() {
		if tr.offset%8192 != 0 || tr.length != 8192 || !tr.aligned {
			t.Errorf("transfer %+v is not a whole 8 KiB slot at a slot's offset", tr)
		}
	}
	if res.Read.Bytes != 6*8192 || res.Files.Bytes != 3*2*8192 {
		t.Errorf("%d bytes read of a set of %d, want 6 slots of 8 KiB", res.Read.Bytes, res.Files.Bytes)
	}
}

// TestDataloaderRefusesWhatCannotRun: transfers O_DIRECT cannot make, a
// batch larger than the data set and no reader are refused by name
// before any file is made.
func TestDataloaderRefusesWhatCannotRun(t *testing.T) {
	base := workload.Workload{RW: "randread", BS: 4096, BatchSize: 1, ReaderThreads: 1, Files: 2, SamplesPerFile: 1, RecordSize: 4096, Epochs: 1}
	cases := []struct {
		name  string
		set   func(w *workload.Workload)
		field string
	}{
		{"unaligned direct", func(w *workload.Workload) { w.Direct, w.BS = true, 5000 }, "bs"},
		{"batch over data set", func(w *workload.Workload) { w.BatchSize = 3 }, "batch_size"},
		{"no threads", func(w *workload.Workload) { w.ReaderThreads = 0 }, "reader_threads"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := base
			c.set(&w)
			dir := t.TempDir()
			res, err := execute(context.Background(), driver.Target{Path: dir, BlockSize: 4096}, w, nil, &recordingSys{}, time.Second)
			var we *WorkloadError
			if !errors.As(err, &we) || we.Field != c.field || res != nil {
				t.Fatalf("got %v (result %v), want a workload error on %s", err, res, c.field)
			}
			if made, _ := os.ReadDir(dir); len(made) != 0 {
				t.Errorf("the folder holds %v after the refusal", made)
			}
		})
	}
}
