package engine

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// aggregateStep runs an aggregate node, which combines the rounds of a
// repeated step.
type aggregateStep struct{}

func (aggregateStep) run(_ context.Context, r *runner, _ int, n *plan.Node, rec *results.Record) error {
	r.runAggregate(n, rec)
	return nil
}

func (aggregateStep) reusable() bool { return true }

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
		slices.SortStableFunc(best, func(a, b *results.Record) int {
			return cmp.Compare(judging.TotalBW(b.Result), judging.TotalBW(a.Result))
		})
		best = best[:keep]
		rounds = slices.DeleteFunc(rounds, func(r *results.Record) bool { return !slices.Contains(best, r) })
	}
	used := rounds[len(rounds)-keep:]
	rec.Result = judging.AverageRounds(used)
	for _, u := range used {
		rec.Uses = append(rec.Uses, u.Name)
	}
}
