package engine

import (
	"context"
	"fmt"

	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// adaptiveStep runs an adaptive node, whose hook picks the points it
// measures; a kept record reads its points back.
type adaptiveStep struct{}

func (adaptiveStep) run(ctx context.Context, r *runner, i int, n *plan.Node, rec *results.Record) error {
	return r.runAdaptive(ctx, i, n, rec)
}

func (adaptiveStep) reusable() bool { return true }

func (adaptiveStep) reused(r *runner, i int, n *plan.Node, old *results.Record) error {
	return r.reusePoints(i, n, old)
}

// runAdaptive runs an adaptive profile: it asks the hook's next_point for
// a point, measures it, and asks again with every point so far, until the
// hook returns None, asks for a point it has had already (the search has
// converged), or max_points points have run. Each point is a step of its
// own with its own record; the adaptive step's record lists them. The
// error is for a record that cannot be saved.
func (r *runner) runAdaptive(ctx context.Context, i int, n *plan.Node, rec *results.Record) error {
	a := n.Adaptive
	rt := r.hooksFor(a.Hook.Script)
	var history []any
	seen := map[string]bool{}
	for {
		params, prints, err := rt.NextPoint(ctx, a.Hook.Script, a.Hook.Function, history, a.Hook.Args)
		rec.Log = append(rec.Log, prints...)
		switch {
		case err != nil && ctx.Err() != nil:
			rec.Status, rec.Error = results.StatusInterrupted, interruptReason(ctx)
			return nil
		case err != nil:
			r.hookFailed(rec, results.AdaptiveCheck(n.Source), err)
			return nil
		case params == nil:
			rec.Search = &results.SearchEnd{Code: results.SearchNone, Points: len(rec.Points)}
			return nil
		case len(rec.Points) == a.MaxPoints:
			r.stopAtMaxPoints(n, rec)
			return nil
		}
		point, err := n.AdaptivePoint(params)
		if err != nil {
			r.badPoint(n, rec, err)
			return nil
		}
		if seen[point.ID] {
			rec.Search = &results.SearchEnd{Code: results.SearchConverged, Points: len(rec.Points), Point: point.Name}
			return nil
		}
		seen[point.ID] = true
		prec, err := r.measurePoint(ctx, i, point)
		if err != nil {
			return err
		}
		rec.Points = append(rec.Points, point.ID)
		history = append(history, pointValue(prec).Value())
		if ctx.Err() != nil {
			rec.Status, rec.Error = results.StatusInterrupted, interruptReason(ctx)
			return nil
		}
	}
}

// stopAtMaxPoints ends a search whose hook still asks for more points, and
// says so with a warning: the answer may lie beyond them.
func (r *runner) stopAtMaxPoints(n *plan.Node, rec *results.Record) {
	rec.Search = &results.SearchEnd{Code: results.SearchMaxPoints, Points: n.Adaptive.MaxPoints}
	rec.Verdicts = append(rec.Verdicts, results.Verdict{Check: results.AdaptiveCheck(n.Source), Drive: n.Drive, Subject: results.StepWithin(n.Name, n.Drive),
		Status: results.VerdictWarn, Code: results.CodeMaxPoints, Message: rec.Search.Text(),
		Where: hookWhere(n.Adaptive.Hook)})
}

// badPoint fails the search at a point that cannot run.
func (r *runner) badPoint(n *plan.Node, rec *results.Record, err error) {
	msg := fmt.Sprintf("next_point asked for a point that cannot run: %v", err)
	rec.Status, rec.Error = results.StatusFailed, msg
	rec.Verdicts = append(rec.Verdicts, results.Verdict{Check: results.AdaptiveCheck(n.Source), Drive: n.Drive, Subject: results.StepWithin(n.Name, n.Drive),
		Status: results.VerdictError, Code: results.CodeBadPoint, Message: msg,
		Where: hookWhere(n.Adaptive.Hook)})
}

// hookWhere names a hook's function: "search.star:next_point".
func hookWhere(h *plan.Hook) string {
	return h.ScriptName + ":" + h.Function
}

// measurePoint runs one point of an adaptive search, or keeps its record
// from an earlier run in the same folder, and adds it to the outcome.
func (r *runner) measurePoint(ctx context.Context, i int, point *plan.Node) (*results.Record, error) {
	ev := Event{Kind: StepStarted, Index: i, Total: len(r.graph.Nodes), Node: point, Elapsed: r.elapsed()}
	if old, err := r.folder.ReadRecord(point.ID); err == nil && old.Status == results.StatusOK {
		if err := r.reuse(ctx, ev, point, old); err != nil {
			return nil, err
		}
		r.keep(point, old)
		return old, nil
	}
	r.emit(ev)
	rec := r.newRecord(point)
	rec.Parent = point.Parent
	r.runWorkload(ctx, i, point, rec)
	if err := r.judgeExpect(point, rec, false); err != nil {
		return nil, err
	}
	if err := r.finish(i, point, rec); err != nil {
		return nil, err
	}
	r.keep(point, rec)
	return rec, nil
}

// reusePoints reads back the points of an adaptive step kept from an
// earlier run, judging each again.
func (r *runner) reusePoints(i int, n *plan.Node, rec *results.Record) error {
	for _, id := range rec.Points {
		prec, err := r.folder.ReadRecord(id)
		if err != nil {
			return fmt.Errorf("adaptive step %s lists the point %s, whose record cannot be read: %w", n.Name, id, err)
		}
		params := map[string]any{}
		for _, p := range prec.Point {
			params[p.Name] = p.Value
		}
		if point, err := n.AdaptivePoint(params); err == nil && point.ID == id {
			r.emit(Event{Kind: StepReused, Index: i, Total: len(r.graph.Nodes), Node: point, Record: prec, Elapsed: r.elapsed()})
			if err := r.judgeExpect(point, prec, true); err != nil {
				return err
			}
			r.keep(point, prec)
		}
	}
	return nil
}
