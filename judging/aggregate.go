package judging

import (
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// AverageRounds averages rates and merges histograms of several runs.
func AverageRounds(rounds []*results.Record) *metrics.Result {
	out := &metrics.Result{Start: rounds[0].Result.Start}
	var read, write []*metrics.DirStats
	for _, r := range rounds {
		out.RuntimeNs += r.Result.RuntimeNs
		out.CPU.UserSec += r.Result.CPU.UserSec
		out.CPU.SysSec += r.Result.CPU.SysSec
		read = append(read, r.Result.Read)
		write = append(write, r.Result.Write)
	}
	out.Read, out.Write = averageDir(read), averageDir(write)
	return out
}

// averageDir combines one direction of several rounds: their rates
// averaged, as a reviewer averages rounds, and their latency read from
// their merged histograms, every I/O of every round. Rounds that kept no
// histogram (a fio import without bins) give the mean weighted by I/Os,
// the smallest min and the largest max, and no percentiles: those of the
// rounds do not average.
func averageDir(dirs []*metrics.DirStats) *metrics.DirStats {
	var h metrics.Histogram
	out := &metrics.DirStats{}
	var n, hists int
	var latSum float64
	for _, d := range dirs {
		if d == nil {
			continue
		}
		if n == 0 || d.Lat.Min < out.Lat.Min {
			out.Lat.Min = d.Lat.Min
		}
		n++
		out.IOs += d.IOs
		out.Bytes += d.Bytes
		out.IOPS += d.IOPS
		out.BW += d.BW
		out.Lat.Max = max(out.Lat.Max, d.Lat.Max)
		latSum += d.Lat.Mean * float64(d.IOs)
		if d.Hist != nil && d.Hist.Count() > 0 {
			h.Merge(d.Hist)
			hists++
		}
	}
	if n == 0 || out.IOs == 0 && h.Count() == 0 {
		return nil
	}
	out.IOPS, out.BW = out.IOPS/float64(n), out.BW/float64(n)
	if hists == n {
		out.IOs, out.Lat, out.Hist = h.Count(), h.Summary(metrics.DefaultPercentiles), &h
		return out
	}
	if out.IOs > 0 {
		out.Lat.Mean = latSum / float64(out.IOs)
	}
	return out
}
