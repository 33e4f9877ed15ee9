package metrics

import (
	"sync/atomic"
	"time"
)

// Recorder collects the completions of one worker in one direction. The
// worker owns the histogram and records without locks; the running totals
// are atomics so a Sampler can read them while the worker runs.
type Recorder struct {
	hist   Histogram
	ios    atomic.Uint64
	bytes  atomic.Uint64
	latSum atomic.Uint64
}

// Record adds one completed I/O of n bytes that took latNs nanoseconds.
func (r *Recorder) Record(latNs uint64, n uint64) {
	r.hist.Record(latNs)
	r.ios.Add(1)
	r.bytes.Add(n)
	r.latSum.Add(latNs)
}

// Totals returns the running I/O count, bytes and latency sum; safe to call
// from any goroutine.
func (r *Recorder) Totals() (ios, bytes, latSum uint64) {
	return r.ios.Load(), r.bytes.Load(), r.latSum.Load()
}

// Histogram returns the worker's histogram. Read it only after the worker
// has stopped.
func (r *Recorder) Histogram() *Histogram { return &r.hist }

// Summarize turns a merged histogram and byte count of one direction over
// runtime into the statistics a report shows; nil when there were no I/Os.
func Summarize(h *Histogram, bytes uint64, runtime time.Duration) *DirStats {
	if h == nil || h.Count() == 0 {
		return nil
	}
	secs := runtime.Seconds()
	d := &DirStats{IOs: h.Count(), Bytes: bytes, Lat: h.Summary(DefaultPercentiles), Hist: h}
	if secs > 0 {
		d.IOPS = float64(d.IOs) / secs
		d.BW = float64(bytes) / secs
	}
	return d
}

// Quantile returns the p-th percentile of the direction's latency in ns,
// from the histogram when present and from the stored percentiles
// otherwise (the nearest stored percentile at or above p).
func (d *DirStats) Quantile(p float64) uint64 {
	if d.Hist != nil && d.Hist.Count() > 0 {
		return d.Hist.Percentile(p)
	}
	for _, q := range d.Lat.Percentiles {
		if q.P >= p {
			return q.Ns
		}
	}
	return d.Lat.Max
}
