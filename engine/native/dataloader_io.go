package native

import (
	"context"
	"errors"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
)

// loaderFiles is the data set of a dataloader run on one file or device:
// its files laid out one after the other from the workload's offset,
// each its samples one after the other, each sample in a slot of its
// record's size (sampleSlot). Every reader thread has its own
// open file and buffer, and records its transfers in its own histogram.
type loaderFiles struct {
	sys      syscalls
	path     string
	offset   int64
	record   int64
	perFile  int
	transfer int64
	fds      []int
	buffers  *arena
	hists    []metrics.Histogram
	bytes    []uint64
}

// runDataloader runs a dataloader workload on t.
func runDataloader(ctx context.Context, t driver.Target, w workload.Workload, sys syscalls, clock loaderClock) (*metrics.Result, error) {
	if err := validateLoaderTarget(t, w); err != nil {
		return nil, err
	}
	set, err := openLoaderFiles(t, w, sys)
	if err != nil {
		return nil, err
	}
	defer set.close()
	start := time.Now()
	totals, runErr := runLoader(ctx, shapeOf(w), set.readSample, clock)
	var h metrics.Histogram
	var bytes uint64
	for i := range set.hists {
		h.Merge(&set.hists[i])
		bytes += set.bytes[i]
	}
	res := &metrics.Result{Start: start, RuntimeNs: int64(totals.wall), Latency: metrics.LatencyEngine,
		Read: metrics.Summarize(&h, bytes, totals.wall), Dataloader: dataloaderFigures(totals)}
	return res, runErr
}

// validateLoaderTarget checks a dataloader workload, and that its data
// set fits the target and, with O_DIRECT, its block size.
func validateLoaderTarget(t driver.Target, w workload.Workload) error {
	var c checker
	validateDataloader(&c, w)
	if len(c.errs) > 0 {
		return errors.Join(c.errs...)
	}
	need := w.Offset + int64(w.Files)*int64(w.SamplesPerFile)*sampleSlot(t, w)
	c.check(need <= t.Capacity, "files", "the data set (%d files of %d samples of %d bytes) and offset need %d bytes, and %s holds %d; lower files (or scale) or record_size, or give the drive more room",
		w.Files, w.SamplesPerFile, w.RecordSize, need, t.Path, t.Capacity)
	if w.Direct {
		bs := int64(t.LogicalBlockSize())
		c.check(w.BS%bs == 0, "bs", "bs = %d is not a multiple of the %d-byte blocks O_DIRECT reads; round it, or set direct = false", w.BS, bs)
		c.check(w.Offset%bs == 0, "offset", "offset = %d is not a multiple of the %d-byte blocks O_DIRECT reads", w.Offset, bs)
	}
	c.check(w.BS > 0, "bs", "bs = %d: the transfer size must be a positive number of bytes", w.BS)
	return errors.Join(c.errs...)
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

// openLoaderFiles opens t once per reader thread and maps the buffers.
func openLoaderFiles(t driver.Target, w workload.Workload, sys syscalls) (*loaderFiles, error) {
	slot := sampleSlot(t, w)
	transfer := min(w.BS, slot)
	set := &loaderFiles{sys: sys, path: t.Path, offset: w.Offset, record: slot, perFile: w.SamplesPerFile, transfer: transfer,
		hists: make([]metrics.Histogram, w.ReaderThreads), bytes: make([]uint64, w.ReaderThreads)}
	var err error
	if set.buffers, err = mapArena(w.ReaderThreads, int(transfer)); err != nil {
		return nil, err
	}
	for range w.ReaderThreads {
		fd, err := openTarget(sys, t.Path, false, w.Direct)
		if err != nil {
			set.close()
			return nil, err
		}
		set.fds = append(set.fds, fd)
	}
	return set, nil
}

// readSample reads file f's sample s whole, in transfers of at most the
// transfer size, timing each.
func (l *loaderFiles) readSample(thread, f, s int) error {
	buf := l.buffers.buffer(thread)
	off := l.offset + (int64(f)*int64(l.perFile)+int64(s))*l.record
	for done := int64(0); done < l.record; {
		n := min(l.transfer, l.record-done)
		began := nanotime()
		got, err := l.sys.pread(l.fds[thread], buf[:n], off+done, false)
		l.hists[thread].Record(uint64(nanotime() - began))
		switch {
		case err != nil:
			return &IOError{Path: l.path, Op: "pread", Offset: off + done, Err: err}
		case int64(got) < n:
			return &IOError{Path: l.path, Op: "pread", Offset: off + done, Err: &shortTransfer{got: got, want: int(n)}}
		}
		l.bytes[thread] += uint64(got)
		done += n
	}
	return nil
}

// close closes the files and unmaps the buffers.
func (l *loaderFiles) close() {
	for _, fd := range l.fds {
		_ = l.sys.close(fd)
	}
	if l.buffers != nil {
		_ = l.buffers.release()
	}
}
