package engine

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// runAggregate combines the rounds an aggregate node depends on: the
// chosen rounds' IOPS and bandwidth are averaged, their latency
// histograms merged, so percentiles come from every I/O of those rounds.
func (r *runner) runAggregate(n *plan.Node, rec *results.Record) {
	var rounds []*results.Record
	for _, dep := range n.DependsOn {
		if d := r.record(dep); d != nil && d.Kind == string(plan.KindProfile) && d.Status == results.StatusOK && d.Result != nil {
			rounds = append(rounds, d)
		}
	}
	keep := len(rounds)
	if a := n.Aggregate; a != nil && a.Use != "all" && a.Keep > 0 {
		keep = a.Keep
	}
	if len(rounds) < keep || len(rounds) == 0 {
		rec.Status = results.StatusFailed
		rec.Error = fmt.Sprintf("%d of %d rounds completed; the aggregate needs %d", len(rounds), len(n.DependsOn), max(keep, 1))
		return
	}
	if n.Aggregate != nil && n.Aggregate.Use == "best" {
		// The rounds of highest bandwidth, kept in the order they ran.
		best := slices.Clone(rounds)
		slices.SortStableFunc(best, func(a, b *results.Record) int { return cmp.Compare(totalBW(b.Result), totalBW(a.Result)) })
		best = best[:keep]
		rounds = slices.DeleteFunc(rounds, func(r *results.Record) bool { return !slices.Contains(best, r) })
	}
	used := rounds[len(rounds)-keep:]
	rec.Result = averageRounds(used)
	for _, u := range used {
		rec.Log = append(rec.Log, "uses round "+u.Name)
	}
}

// averageRounds averages rates and merges histograms of several runs.
func averageRounds(rounds []*results.Record) *metrics.Result {
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
