package fio

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/workload"
)

// fioDefaults is the workload of a job that sets none of the options the
// table reads: what fio runs then (rw=read, bs=4k, iodepth=1, numjobs=1,
// rwmixread=50), on the fio engine. ioengine stays unset, the engine's
// choice, since fio's default differs between platforms.
var fioDefaults = workload.Workload{RW: "read", ReadPct: workload.DefaultReadPct, BS: 4096, IODepth: 1, NumJobs: 1, Engine: "fio"}

// jobOptions are the options of a job that the import reads apart from
// the table: the step's name, drive and identity, and how fio bounds a
// job (stepBounds).
var jobOptions = []string{"name", "filename", "description", "time_based", "loops", "offset_increment"}

// jobWorkload is the workload a group's job ran, read from its fio
// options.
type jobWorkload struct {
	w workload.Workload
	// read are the parameters (workload.Options names) set from the job's
	// options.
	read map[string]bool
	// notes list the job's options the workload does not hold, for the
	// record's log.
	notes []string
}

// workload reads the workload of the group's first job (the jobs of a
// name are its numjobs clones or its hosts) from its fio options, through
// every row of workload.Options that names a fio option and reads it
// back; fio's defaults stand for the options the job leaves out. The
// options the table does not know, and those whose value the workload
// cannot hold, are listed in notes.
func (g jobGroup) workload() jobWorkload {
	opts := g.jobs[0].Options
	jw := jobWorkload{w: fioDefaults.Clone(), read: map[string]bool{}}
	known := map[string]bool{}
	for _, k := range jobOptions {
		known[k] = true
	}
	var unread []string
	for _, o := range workload.Options {
		v, ok := opts[o.Fio]
		if o.Fio == "" || !ok {
			continue
		}
		known[o.Fio] = true
		if o.FromFio == nil {
			unread = append(unread, o.Fio+"="+v)
			continue
		}
		if err := o.FromFio(&jw.w, v); err != nil {
			unread = append(unread, fmt.Sprintf("%s=%s (%v)", o.Fio, v, err))
			continue
		}
		jw.read[o.Name] = true
	}
	stepBounds(&jw.w, opts)
	var unknown []string
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		if !known[k] {
			unknown = append(unknown, k+"="+opts[k])
		}
	}
	if len(unread) > 0 {
		jw.notes = append(jw.notes, "fio options the step's workload does not hold: "+strings.Join(unread, "; "))
	}
	if len(unknown) > 0 {
		jw.notes = append(jw.notes, "fio options drivebench's workload has no parameter for, left out of the step's workload: "+strings.Join(unknown, ", "))
	}
	return jw
}

// stepBounds turns what fio sets per job into what the workload sets per
// step, and how fio ends a job into the workload's bounds: io_size and
// the rates are each job's, so the step's are numjobs times them; numjobs clones
// offset_increment apart cover a region that long per job further; and a
// job that is not time_based ends after loops passes over its region
// (fio's default one), or at its runtime if that comes first.
func stepBounds(w *workload.Workload, opts map[string]string) {
	w.Bytes *= int64(w.NumJobs)
	w.RateIOPS *= float64(w.NumJobs)
	w.RateBW *= float64(w.NumJobs)
	if inc, err := workload.ParseSize(opts["offset_increment"]); err == nil && inc > 0 && w.Size > 0 {
		w.Size += inc * int64(w.NumJobs-1)
	}
	loops, err := strconv.Atoi(opts["loops"])
	if err != nil || loops < 1 {
		loops = 1
	}
	flag, set := opts["time_based"]
	timeBased := set && flag != "0"
	switch {
	case timeBased && w.Runtime > 0:
		w.Loops = 0
	case w.Bytes == 0:
		w.Loops = loops
	}
}
