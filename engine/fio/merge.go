package fio

import (
	"math"
	"time"

	"github.com/drivebench/drivebench/metrics"
)

// latStats is the exact digest fio prints for a latency distribution.
type latStats struct {
	n        uint64
	min, max uint64
	mean     float64
	// stddev is the sample standard deviation, as fio computes it.
	stddev float64
}

// mergeLat combines two digests exactly: counts add, the mean is weighted
// by the counts, extremes are kept and the variance is pooled (the
// within-group sums of squares plus the spread of the group means).
func mergeLat(a, b latStats) latStats {
	switch {
	case a.n == 0:
		return b
	case b.n == 0:
		return a
	}
	n := a.n + b.n
	na, nb, nt := float64(a.n), float64(b.n), float64(n)
	mean := (na*a.mean + nb*b.mean) / nt
	ss := (na-1)*a.stddev*a.stddev + na*(a.mean-mean)*(a.mean-mean) +
		(nb-1)*b.stddev*b.stddev + nb*(b.mean-mean)*(b.mean-mean)
	return latStats{
		n:      n,
		min:    min(a.min, b.min),
		max:    max(a.max, b.max),
		mean:   mean,
		stddev: math.Sqrt(max(ss, 0) / (nt - 1)),
	}
}

// dirFigures are one direction's figures as fio reports them.
type dirFigures struct {
	ios, bytes uint64
	// runtimeMs is how long the direction ran, in ms; merged figures take
	// the longest, as fio's group reporting does.
	runtimeMs uint64
	lat       latStats
	// hist holds fio's bins; nil when the output has none (plain json).
	hist *metrics.Histogram
	// percentiles are fio's own, kept for a single job without bins.
	percentiles []metrics.Percentile
}

// merge adds o to d. Percentiles of several jobs can only come from their
// merged bins, so fio's printed ones are dropped.
func (d dirFigures) merge(o dirFigures) dirFigures {
	if o.ios == 0 && o.lat.n == 0 {
		return d
	}
	if d.ios == 0 && d.lat.n == 0 {
		return o
	}
	m := dirFigures{
		ios:       d.ios + o.ios,
		bytes:     d.bytes + o.bytes,
		runtimeMs: max(d.runtimeMs, o.runtimeMs),
		lat:       mergeLat(d.lat, o.lat),
	}
	if d.hist != nil && o.hist != nil {
		m.hist = new(metrics.Histogram)
		m.hist.Merge(d.hist)
		m.hist.Merge(o.hist)
	}
	return m
}

// stats turns the figures into the record's DirStats; nil without I/O.
// IOPS and bandwidth use fio's own formulas (I/Os times 1000 over the
// runtime in ms; bandwidth truncated to whole bytes per second), so an
// import shows exactly what fio printed.
func (d dirFigures) stats() *metrics.DirStats {
	if d.ios == 0 && d.lat.n == 0 {
		return nil
	}
	s := &metrics.DirStats{IOs: d.ios, Bytes: d.bytes}
	if d.runtimeMs > 0 {
		s.IOPS = float64(d.ios) * 1000 / float64(d.runtimeMs)
		s.BW = float64(d.bytes/d.runtimeMs*1000 + d.bytes%d.runtimeMs*1000/d.runtimeMs)
	}
	s.Lat = metrics.LatencySummary{Min: d.lat.min, Max: d.lat.max, Mean: d.lat.mean, Stddev: d.lat.stddev, Percentiles: d.percentiles}
	if d.hist != nil && d.hist.Count() > 0 {
		h := *d.hist
		h.SetExact(d.lat.min, d.lat.max, d.lat.mean, d.lat.stddev)
		s.Hist = &h
		s.Lat.Percentiles = h.Summary(metrics.DefaultPercentiles).Percentiles
	}
	s.Lat.Clamp()
	return s
}

// jobFigures are one job's (or a merge of jobs') figures.
type jobFigures struct {
	read, write dirFigures
	cpu         metrics.CPU
	// end is when fio wrote the report the figures come from.
	end time.Time
}

func (j jobFigures) merge(o jobFigures) jobFigures {
	end := j.end
	if o.end.After(end) {
		end = o.end
	}
	return jobFigures{
		read:  j.read.merge(o.read),
		write: j.write.merge(o.write),
		cpu:   metrics.CPU{UserSec: j.cpu.UserSec + o.cpu.UserSec, SysSec: j.cpu.SysSec + o.cpu.SysSec},
		end:   end,
	}
}

// result is the figures as a record's result. The measured phase is
// taken to end when fio wrote its report.
func (j jobFigures) result() *metrics.Result {
	runtime := time.Duration(max(j.read.runtimeMs, j.write.runtimeMs)) * time.Millisecond
	return &metrics.Result{
		Start:     j.end.Add(-runtime),
		RuntimeNs: runtime.Nanoseconds(),
		Read:      j.read.stats(),
		Write:     j.write.stats(),
		CPU:       j.cpu,
	}
}

// mergeJobs combines the figures of jobs.
func mergeJobs(jobs []Job) jobFigures {
	var m jobFigures
	for i, j := range jobs {
		if i == 0 {
			m = j.figures
			continue
		}
		m = m.merge(j.figures)
	}
	return m
}

// Merge combines jobs into one result: I/Os and bytes add, IOPS and
// bandwidth are over the longest runtime (fio's group_reporting and "All
// clients" figures), latency histograms add bin by bin and percentiles
// are read from the sum, means are weighted and deviations pooled. It is
// nil for no jobs.
func Merge(jobs []Job) *metrics.Result {
	if len(jobs) == 0 {
		return nil
	}
	return mergeJobs(jobs).result()
}
