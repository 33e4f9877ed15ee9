package engine

import (
	"slices"

	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// judgeExpect judges a step's expectations: on its own result, or, for
// the rounds of a steady-state profile, on every point of the round that
// ended the search, once its last point has run (earlier rounds are the
// drive on its way to steady state). The verdicts replace the record's
// earlier expectation verdicts; saved is set when rec is already on disk
// (a reused step), so that it is written again if they changed.
func (r *runner) judgeExpect(n *plan.Node, rec *results.Record, saved bool) error {
	if len(n.Expect) == 0 && n.Dataloader == nil || n.Kind == plan.KindAdaptive {
		return nil
	}
	if n.SteadyState == nil {
		return r.setExpectVerdicts(n, rec, saved)
	}
	if !r.endsSearch(n) {
		return nil
	}
	for _, other := range r.graph.Nodes {
		if other.Group != n.Group || other.Round != n.Round {
			continue
		}
		if other == n {
			if err := r.setExpectVerdicts(n, rec, saved); err != nil {
				return err
			}
			continue
		}
		if o := r.record(other.ID); o != nil {
			if err := r.rejudgeKept(other, o); err != nil {
				return err
			}
		}
	}
	return nil
}

// endsSearch reports whether n is the last node of the final round of
// its steady-state search: the round after which the search stopped, or
// the last round there is.
func (r *runner) endsSearch(n *plan.Node) bool {
	for _, other := range r.graph.Nodes[slices.Index(r.graph.Nodes, n)+1:] {
		if other.Group == n.Group && other.Round == n.Round {
			return false
		}
	}
	r.mu.Lock()
	stop, stopped := r.stopped[n.Group]
	r.mu.Unlock()
	return stopped && stop.afterRound == n.Round || n.Round == n.Rounds
}

// setExpectVerdicts replaces rec's expectation verdicts with fresh ones,
// writing rec again when it is saved and they changed.
func (r *runner) setExpectVerdicts(n *plan.Node, rec *results.Record, saved bool) error {
	fresh := judging.Expect(n, rec, r.targets[n.Drive].drive.Spec)
	kept := slices.DeleteFunc(slices.Clone(rec.Verdicts), judging.IsExpectVerdict)
	if slices.Equal(append(slices.Clone(kept), fresh...), rec.Verdicts) {
		return nil
	}
	rec.Verdicts = append(kept, fresh...)
	if !saved {
		return nil
	}
	if err := r.folder.WriteRecord(rec); err != nil {
		return r.saveError(err)
	}
	return nil
}

// rejudgeKept judges a record this run already kept, and adds its
// verdicts to the outcome.
func (r *runner) rejudgeKept(n *plan.Node, rec *results.Record) error {
	if err := r.setExpectVerdicts(n, rec, true); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range rec.Verdicts {
		if judging.IsExpectVerdict(v) {
			r.out.Verdicts = append(r.out.Verdicts, v)
		}
	}
	return nil
}
