package fio

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/workload"
)

// fileSetSpec is the job file of a step on a file set: fio's own files
// (nrfiles of filesize each per job, named by fio) in the folder the
// native engine would make the set in, with the file selection, the
// open-file cap, the flushes and the creation as the step asks; what fio
// cannot express is said in the file (FileSetNotes).
func fileSetSpec(name string, t driver.Target, w workload.Workload) (jobSpec, error) {
	unit := granule(w)
	dir := filepath.Join(t.Path, w.FileSetName())
	global, err := globalOptions(driver.Target{Path: dir, BlockSize: t.BlockSize}, w, unit)
	if err != nil {
		return jobSpec{}, err
	}
	// A set names its folder: fio makes its files there.
	global[0] = option{"directory", escapeFilename(dir)}
	spec := jobSpec{comments: header(name, w), notes: FileSetNotes(w), global: invalidateOption(global, w)}
	if w.Files == 1 && w.NumJobs > 1 {
		return sharedFileSpec(spec, name, w, unit)
	}
	spec.jobs = []section{{name: jobName(name), options: fileSetJobOptions(w, unit)}}
	return spec, nil
}

// invalidateOption evicts each job's files from the page cache before it
// starts (invalidate=1) for a step that empties the page cache, the most
// fio can do of it.
func invalidateOption(global []option, w workload.Workload) []option {
	if !w.DropCache {
		return global
	}
	for i, o := range global {
		if o.key == "invalidate" {
			global[i].value = "1"
			return global
		}
	}
	return append(global, option{"invalidate", "1"})
}

// fileSetJobOptions give each job its share of the files (nrfiles) at
// the set's size (filesize, a range for a distribution), the open-file
// cap and the byte budget.
func fileSetJobOptions(w workload.Workload, unit int64) []option {
	per := max(1, w.Files/w.NumJobs)
	open := min(per, 256)
	if w.OpenFiles > 0 {
		open = min(per, w.OpenFiles)
	}
	opts := []option{{"nrfiles", strconv.Itoa(per)}, {"filesize", fileSizeValue(w)}, {"openfiles", strconv.Itoa(open)}}
	if w.NumJobs > 1 {
		opts = append(opts, option{"numjobs", strconv.Itoa(w.NumJobs)})
	}
	perJob := int64(per) * w.FileSetBytes() / int64(max(1, w.Files))
	switch {
	case w.Bytes > 0:
		opts = append(opts, option{"io_size", strconv.FormatInt(w.Bytes/int64(w.NumJobs)/unit*unit, 10)})
	case w.BytesPct > 0:
		opts = append(opts, option{"io_size", strconv.FormatInt(int64(w.BytesPct/100*float64(perJob))/unit*unit, 10)})
	case w.Loops > 1:
		opts = append(opts, option{"loops", strconv.Itoa(w.Loops)})
	}
	return opts
}

// fileSizeValue is filesize: the set's one size, or the range of its
// distribution's sizes.
func fileSizeValue(w workload.Workload) string {
	if len(w.FileSizes) == 0 {
		return strconv.FormatInt(w.FileSize, 10)
	}
	lo, hi := w.FileSizes[0].Size, w.FileSizes[0].Size
	for _, s := range w.FileSizes {
		lo, hi = min(lo, s.Size), max(hi, s.Size)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}

// sharedFileSpec gives every job its slice of one shared file, as the
// native engine does a set of one file.
func sharedFileSpec(spec jobSpec, name string, w workload.Workload, unit int64) (jobSpec, error) {
	parts, err := jobParts(w, 0, w.FileSize/unit*unit, unit)
	if err != nil {
		return jobSpec{}, err
	}
	for _, run := range groupParts(parts) {
		opts := append([]option{{"filename", "shared"}}, runOptions(run)...)
		spec.jobs = append(spec.jobs, section{name: jobName(name), options: opts})
	}
	return spec, nil
}

// FileSetNotes says, a sentence each, what of a step on a file set (a
// dataloader's among them) fio cannot express as drivebench runs it: the
// export writes each as a comment of the job file and shows it as a
// warning. None for a step that is not on a file set.
func FileSetNotes(w workload.Workload) []string {
	switch {
	case !w.IsFileSet():
		return nil
	case w.Dataloader():
		return dataloaderNotes(w)
	}
	notes := []string{"time file operations apart from the transfers (drivebench times each create, stat, open, close, fsync and unlink); its filecreate, filestat and filedelete engines time them in jobs of their own"}
	if w.Files > 1 && w.Files%w.NumJobs != 0 {
		notes = append(notes, fmt.Sprintf("divide %d files among %d jobs unevenly: every fio job has nrfiles = %d, %d files in all",
			w.Files, w.NumJobs, max(1, w.Files/w.NumJobs), max(1, w.Files/w.NumJobs)*w.NumJobs))
	}
	if w.Dirs > 1 {
		notes = append(notes, fmt.Sprintf("spread a job's files over %d subfolders: its files are all in the one directory", w.Dirs))
	}
	if len(w.FileSizes) > 0 {
		notes = append(notes, "draw file sizes in the shares of file_size ("+workload.SplitText(w.FileSizes)+"): filesize is a range fio draws from uniformly")
	}
	if w.MeasureSetup {
		notes = append(notes, "measure the set's creation (measure_setup): fio lays its files out before it measures, untimed")
	}
	if w.CreateOnOpen {
		notes = append(notes, "empty a file that is there as its job first opens it: create_on_open creates a missing file and writes over one that is there")
	}
	if w.DropCache {
		notes = append(notes, "empty the whole page cache (drop_cache): invalidate=1 evicts each job's own files before it starts")
	}
	return notes
}
