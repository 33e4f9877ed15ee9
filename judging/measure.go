package judging

import (
	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
)

// Measured is what an expectation sees of a result.
func Measured(res *metrics.Result) plan.Measured {
	return plan.Measured{
		Read: dirMeasure(res.Read), Write: dirMeasure(res.Write), Total: dirMeasure(TotalStats(res)),
		Metrics: res.Metrics, RuntimeS: float64(res.RuntimeNs) / 1e9, Dataloader: dataloaderMeasure(res.Dataloader),
		Replay: replayMeasure(res.Replay), Files: filesMeasure(res.Files),
	}
}

// filesMeasure is result.files: every figure the registry gives a file
// set's expectations (plan.FileSetStats), the latencies in µs.
func filesMeasure(f *metrics.FileSetStats) map[string]float64 {
	if f == nil {
		return nil
	}
	figures := map[string]float64{}
	for _, fig := range figure.In(figure.Files) {
		figures[fig.Key(figure.Files)] = fig.FilesValue(figure.Files, f)
	}
	return figures
}

// replayMeasure is result.replay: every figure the registry gives a
// replay's expectations (plan.ReplayStats), the lags in µs.
func replayMeasure(r *metrics.ReplayStats) map[string]float64 {
	if r == nil {
		return nil
	}
	figures := map[string]float64{}
	for _, f := range figure.In(figure.Replay) {
		figures[f.Key(figure.Replay)] = f.ReplayValue(figure.Replay, r)
	}
	return figures
}

// dataloaderMeasure is result.dataloader: every figure the registry
// gives a dataloader's expectations (plan.DataloaderStats), the batch
// waits in µs.
func dataloaderMeasure(d *metrics.Dataloader) map[string]float64 {
	if d == nil {
		return nil
	}
	figures := map[string]float64{}
	for _, f := range figure.In(figure.Dataloader) {
		figures[f.Key(figure.Dataloader)] = f.DataloaderValue(figure.Dataloader, d)
	}
	return figures
}

// dirMeasure reads the figures an expectation names from one
// direction's statistics, through the figure registry; latencies in µs.
func dirMeasure(d *metrics.DirStats) *plan.DirMeasure {
	if d == nil {
		return nil
	}
	figures := map[string]float64{}
	for _, f := range figure.In(figure.Expect) {
		figures[f.Key(figure.Expect)] = f.Value(figure.Expect, d)
	}
	return &plan.DirMeasure{IOs: d.IOs, Bytes: d.Bytes, Figures: figures}
}

// TotalStats combines both directions: rates add up, latencies come from
// the merged histograms. Without histograms (results imported from plain
// fio JSON) the combined percentiles are the higher direction's, an upper
// bound.
func TotalStats(res *metrics.Result) *metrics.DirStats {
	rd, wr := res.Read, res.Write
	switch {
	case rd == nil:
		return wr
	case wr == nil:
		return rd
	}
	var t *metrics.DirStats
	if rd.Hist != nil && wr.Hist != nil {
		t = metrics.Summarize(CombinedHistogram(res), rd.Bytes+wr.Bytes, 0)
	}
	if t == nil {
		t = &metrics.DirStats{IOs: rd.IOs + wr.IOs, Bytes: rd.Bytes + wr.Bytes, Lat: upperLatency(rd, wr)}
	}
	t.IOPS, t.BW = rd.IOPS+wr.IOPS, rd.BW+wr.BW
	return t
}

// upperLatency bounds the latency of two directions without histograms.
func upperLatency(a, b *metrics.DirStats) metrics.LatencySummary {
	n := float64(a.IOs + b.IOs)
	s := metrics.LatencySummary{Min: min(a.Lat.Min, b.Lat.Min), Max: max(a.Lat.Max, b.Lat.Max), Stddev: max(a.Lat.Stddev, b.Lat.Stddev)}
	if n > 0 {
		s.Mean = (a.Lat.Mean*float64(a.IOs) + b.Lat.Mean*float64(b.IOs)) / n
	}
	for _, p := range a.Lat.Percentiles {
		s.Percentiles = append(s.Percentiles, metrics.Percentile{P: p.P, Ns: max(p.Ns, b.Quantile(p.P))})
	}
	return s
}

// CombinedHistogram merges both directions' latency histograms.
func CombinedHistogram(res *metrics.Result) *metrics.Histogram {
	var h metrics.Histogram
	for _, d := range []*metrics.DirStats{res.Read, res.Write} {
		if d != nil && d.Hist != nil {
			h.Merge(d.Hist)
		}
	}
	return &h
}

// TotalIOPS is the IOPS of both directions together.
func TotalIOPS(res *metrics.Result) float64 {
	return sumDirections(res, func(d *metrics.DirStats) float64 { return d.IOPS })
}

// TotalBW is the bandwidth of both directions together, in bytes/s.
func TotalBW(res *metrics.Result) float64 {
	return sumDirections(res, func(d *metrics.DirStats) float64 { return d.BW })
}

// sumDirections adds a figure over the directions a result has.
func sumDirections(res *metrics.Result, figure func(*metrics.DirStats) float64) float64 {
	var sum float64
	for _, d := range []*metrics.DirStats{res.Read, res.Write} {
		if d != nil {
			sum += figure(d)
		}
	}
	return sum
}
