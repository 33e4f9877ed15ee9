package fio

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/workload"
)

// dataloaderSpec is the job file of a dataloader step, its shape as
// bench/ai-compare.sh gives it to fio: a job per reader thread, each
// reading its share of the data set's files (nrfiles, filesize the
// file's samples in whole blocks under O_DIRECT, as the native engine
// lays them out) with one file open at a time, a sample a run of
// transfers in a file picked at random (file_service_type random, or
// random:N for a sample of N transfers), for every epoch (io_size), and
// the compute time as thinktime after each job's share of a batch; what
// fio cannot express is said in the file (FileSetNotes).
func dataloaderSpec(name string, t driver.Target, w workload.Workload) jobSpec {
	slot := w.RecordSize
	if w.Direct {
		bs := int64(t.LogicalBlockSize())
		slot = (slot + bs - 1) / bs * bs
	}
	set := w
	set.FileSize, set.FileSizes = int64(w.SamplesPerFile)*slot, nil
	bs := sampleTransfer(w.BS, slot)
	perSample := slot / bs
	rw, service := "randread", "random"
	if perSample > 1 {
		rw, service = "read", "random:"+strconv.FormatInt(perSample, 10)
	}
	global := []option{
		{"directory", escapeFilename(filepath.Join(t.Path, set.FileSetName()))},
		{"ioengine", "psync"}, {"rw", rw}, {"bs", strconv.FormatInt(bs, 10)}, {"direct", fioBool(w.Direct)},
		{"file_service_type", service}, {"openfiles", "1"}, {"invalidate", "1"}, {"lat_percentiles", "1"}, {"thread", "1"},
	}
	readers := max(1, w.ReaderThreads)
	perJob := max(1, w.Files/readers)
	opts := []option{
		{"numjobs", strconv.Itoa(readers)}, {"nrfiles", strconv.Itoa(perJob)}, {"filesize", strconv.FormatInt(set.FileSize, 10)},
		{"io_size", strconv.FormatInt(int64(perJob)*set.FileSize*int64(max(1, w.Epochs)), 10)},
	}
	if w.ComputeTime > 0 {
		blocks := max(1, int64(w.BatchSize)*perSample/int64(readers))
		opts = append(opts, option{"thinktime", strconv.FormatInt(w.ComputeTime.Microseconds(), 10)}, option{"thinktime_blocks", strconv.FormatInt(blocks, 10)})
	}
	return jobSpec{comments: header(name, w), notes: dataloaderNotes(w), global: global,
		jobs: []section{{name: jobName(name), options: opts}}}
}

// sampleTransfer is fio's bs for samples of slot bytes read in
// transfers of at most bs: bs when it divides the sample, else the whole
// sample in one transfer, as fio issues no partial block.
func sampleTransfer(bs, slot int64) int64 {
	if bs >= slot || slot%bs != 0 {
		return slot
	}
	return bs
}

func fioBool(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// dataloaderNotes are FileSetNotes of a dataloader step.
func dataloaderNotes(w workload.Workload) []string {
	notes := []string{
		fmt.Sprintf("compute while the readers read ahead: thinktime (%s after each job's share of a batch) stalls the job itself, so fio's pass is its reads plus the compute where drivebench's accelerator overlaps them", workload.FormatDuration(w.ComputeTime)),
		fmt.Sprintf("keep an accelerator waiting for its batches (%d samples each): fio reports no batch wait and no accelerator utilisation", w.BatchSize),
		"visit every sample once an epoch in one shuffled order the readers share: each fio job reads its own files, each file drawn at random, so a file may be read twice in a pass and another not at all",
		"time the opens and closes of the data set's files apart from the transfers",
	}
	if w.BS < w.RecordSize && w.RecordSize%w.BS != 0 {
		notes = append(notes, fmt.Sprintf("read a sample of %s in transfers of at most bs = %s: fio reads it whole in one transfer, as it issues no partial block",
			workload.FormatSize(w.RecordSize), workload.FormatSize(w.BS)))
	}
	if w.ReaderThreads > 0 && w.Files%w.ReaderThreads != 0 {
		notes = append(notes, fmt.Sprintf("share %d files among %d readers: every fio job has nrfiles = %d, %d files in all",
			w.Files, w.ReaderThreads, max(1, w.Files/w.ReaderThreads), max(1, w.Files/w.ReaderThreads)*w.ReaderThreads))
	}
	return notes
}
