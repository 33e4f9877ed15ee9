package metrics

import "time"

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
// otherwise (the nearest stored percentile at or above p, which reading
// them clamped within [min, max]).
func (d *DirStats) Quantile(p float64) uint64 {
	if d.Hist != nil && d.Hist.Count() > 0 {
		return d.Hist.Percentile(p)
	}
	return d.Lat.Quantile(p)
}

// Quantile is the summary's latency (ns) at percentile p: the first of
// its percentiles at or above p, or its maximum.
func (s *LatencySummary) Quantile(p float64) uint64 {
	for _, q := range s.Percentiles {
		if q.P >= p {
			return q.Ns
		}
	}
	return s.Max
}
