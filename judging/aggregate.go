package judging

import (
	"time"

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

func averageDir(dirs []*metrics.DirStats) *metrics.DirStats {
	var h metrics.Histogram
	var bytes uint64
	var iops, bw float64
	n := 0
	for _, d := range dirs {
		if d == nil {
			continue
		}
		n++
		h.Merge(d.Hist)
		bytes += d.Bytes
		iops += d.IOPS
		bw += d.BW
	}
	if n == 0 {
		return nil
	}
	// Summarize gives the merged counts and percentiles; the rates are the
	// mean of the rounds' rates, as a reviewer averages rounds.
	agg := metrics.Summarize(&h, bytes, time.Second)
	if agg == nil {
		return nil
	}
	agg.IOPS, agg.BW = iops/float64(n), bw/float64(n)
	return agg
}
