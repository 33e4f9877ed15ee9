package native

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
)

// loaderFiles is a dataloader's data set: a file set (fileSet) of its
// files, each its samples one after the other, each sample in a slot of
// its record's size (sampleSlot). The set is made before the run as any
// file set's is, its setup not measured. Every reader thread has its
// own buffer and keeps the file of its last sample open, opening the
// next sample's file when it is another (each open and close timed as
// the set's metadata), and records its transfers in its own histogram.
type loaderFiles struct {
	r        *run
	fs       *fileSet
	slot     int64
	perFile  int
	transfer int64
	buffers  *arena
	readers  []loaderReader
}

// loaderReader is one reader thread's open file and what it read.
// holdP says that its reads wait in raw system calls on a P of its own,
// as a psync slot's do (procs.go): with ordinary ones, 4 readers of 2.8
// MB O_DIRECT samples on 2 CPUs kept 1.4 reads in flight on average,
// each woken reader waiting for the runtime to hand it a P, and a pass
// took 2.7 s where fio's 4 jobs took 0.9 s.
type loaderReader struct {
	file, fd int
	holdP    bool
	hist     metrics.Histogram
	bytes    uint64
}

// runDataloader runs a dataloader workload on the folder t; its clock
// starts once the data set is ready.
func runDataloader(ctx context.Context, t driver.Target, w workload.Workload, sys syscalls) (*metrics.Result, error) {
	var c checker
	validateDataloader(&c, w)
	if w.Direct {
		bs := int64(t.LogicalBlockSize())
		c.check(w.BS%bs == 0, "bs", "bs = %d is not a multiple of the %d-byte blocks O_DIRECT reads; round it, or set direct = false", w.BS, bs)
	}
	if err := errors.Join(c.errs...); err != nil {
		return nil, err
	}
	set, err := openLoaderFiles(t, w, sys)
	if err != nil {
		return nil, err
	}
	granted, release := reserveProcs(len(set.readers))
	if servedByProcessPath(set.fs.dir) {
		granted = 0
	}
	for i := range set.readers {
		set.readers[i].holdP = i < granted
	}
	start := time.Now()
	totals, runErr := runLoader(ctx, shapeOf(w), set.readSample, wallClock{start: start})
	release()
	var h metrics.Histogram
	var bytes uint64
	for i := range set.readers {
		h.Merge(&set.readers[i].hist)
		bytes += set.readers[i].bytes
	}
	if err := set.close(); err != nil && runErr == nil {
		runErr = err
	}
	res := &metrics.Result{Start: start, RuntimeNs: int64(totals.wall), Latency: metrics.LatencyEngine,
		Read: metrics.Summarize(&h, bytes, totals.wall), Dataloader: dataloaderFigures(totals), Files: set.fs.stats(start)}
	return res, runErr
}

// sampleSlot is the room a sample takes and the bytes read of it: its
// record, rounded up to whole blocks under O_DIRECT, which reads only
// whole blocks at block offsets.
func sampleSlot(t driver.Target, w workload.Workload) int64 {
	if !w.Direct {
		return w.RecordSize
	}
	bs := int64(t.LogicalBlockSize())
	return (w.RecordSize + bs - 1) / bs * bs
}

// openLoaderFiles makes the data set ready in the folder t and maps the
// readers' buffers.
func openLoaderFiles(t driver.Target, w workload.Workload, sys syscalls) (*loaderFiles, error) {
	slot := sampleSlot(t, w)
	set := w
	set.FileSize, set.FileSizes = int64(w.SamplesPerFile)*slot, nil
	fs, err := newFileSet(t, set)
	if err != nil {
		return nil, err
	}
	l := &loaderFiles{r: &run{sys: sys}, fs: fs, slot: slot, perFile: w.SamplesPerFile, transfer: min(w.BS, slot),
		readers: make([]loaderReader, w.ReaderThreads)}
	for i := range l.readers {
		l.readers[i].file, l.readers[i].fd = -1, -1
	}
	if l.buffers, err = mapArena(w.ReaderThreads, int(l.transfer)); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(fs.dir, 0o755); err != nil {
		return nil, errors.Join(err, l.buffers.release())
	}
	if err := fs.prepareFiles(l.r, set); err != nil {
		return nil, errors.Join(err, l.buffers.release())
	}
	return l, nil
}

// readSample reads file f's sample s whole, in transfers of at most the
// transfer size, timing each.
func (l *loaderFiles) readSample(thread, f, s int) error {
	rd := &l.readers[thread]
	if rd.file != f {
		if err := l.closeReader(rd); err != nil {
			return err
		}
		fd, err := l.fs.openFile(l.r, f, false)
		if err != nil {
			return err
		}
		rd.file, rd.fd = f, fd
	}
	buf := l.buffers.buffer(thread)
	off := int64(s) * l.slot
	for done := int64(0); done < l.slot; {
		n := min(l.transfer, l.slot-done)
		began := nanotime()
		got, err := l.r.sys.pread(rd.fd, buf[:n], off+done, rd.holdP)
		rd.hist.Record(uint64(nanotime() - began))
		switch {
		case err != nil:
			return &IOError{Path: l.fs.path(f), Op: "pread", Offset: off + done, Err: err}
		case int64(got) < n:
			return &IOError{Path: l.fs.path(f), Op: "pread", Offset: off + done, Err: &shortTransfer{got: got, want: int(n)}}
		}
		rd.bytes += uint64(got)
		done += n
	}
	return nil
}

// closeReader closes a reader's open file, if any, timed.
func (l *loaderFiles) closeReader(rd *loaderReader) error {
	if rd.fd < 0 {
		return nil
	}
	err := l.fs.closeFile(l.r, rd.file, rd.fd)
	rd.file, rd.fd = -1, -1
	return err
}

// close closes the readers' files and unmaps the buffers; the files stay
// for the next step on the same set, and the run removes them when it
// completes.
func (l *loaderFiles) close() error {
	var errs []error
	for i := range l.readers {
		errs = append(errs, l.closeReader(&l.readers[i]))
	}
	return errors.Join(append(errs, l.buffers.release())...)
}
