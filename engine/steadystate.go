package engine

import (
	"context"
	"fmt"

	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/steady"
)

// judgeGroup decides, after a node of a group finished, whether the rest
// of the group still runs: a rate curve ends when a point crosses the
// stop condition; a steady-state profile ends after the round in which
// its tracked figure became steady, or ran out of rounds.
func (r *runner) judgeGroup(ctx context.Context, n *plan.Node, rec *results.Record) {
	if n.Group == "" {
		return
	}
	if reason := judging.StopReason(n.Stop, rec); reason != "" {
		r.endGroup(n.Group, reason, -1)
	}
	if n.TracksSteadyState() {
		r.judgeSteadyState(ctx, n, rec)
	}
}

// judgeSteadyState adds the round's tracked figure and applies the rule:
// SNIA's, or the plan's own hook.
func (r *runner) judgeSteadyState(ctx context.Context, n *plan.Node, rec *results.Record) {
	ss := n.SteadyState
	if rec.Status != results.StatusOK || rec.Result == nil {
		r.endGroup(n.Group, fmt.Sprintf("round %d of the steady-state search failed", n.Round), n.Round)
		return
	}
	rounds := r.addRound(n.Group, judging.TrackedFigure(ss.Metric, rec.Result))
	if ss.Hook != nil {
		r.judgeByHook(ctx, n, rec, rounds)
		return
	}
	rule := steady.Rule{Window: ss.Window, MaxRounds: ss.MaxRounds, ExcursionPct: ss.ExcursionPct, SlopePct: ss.SlopePct}
	v := rule.Judge(rounds)
	rec.SteadyState = judging.SteadyRecord(ss.Metric, rounds, v, rule)
	switch {
	case v.Steady:
		r.endGroup(n.Group, fmt.Sprintf("steady state reached over rounds %d-%d", v.Window.First, v.Window.Last), n.Round)
	case v.Exhausted:
		r.endGroup(n.Group, rec.SteadyState.Message, n.Round)
	}
}

// judgeByHook asks the plan's steady_state hook whether the rounds so far
// are steady. A hook that fails fails the round and ends the search, as
// no later round could be judged either.
func (r *runner) judgeByHook(ctx context.Context, n *plan.Node, rec *results.Record, rounds []float64) {
	h, ss := n.SteadyState.Hook, n.SteadyState
	recs := r.addRoundRecord(n.Group, rec)
	input := make([]any, len(recs))
	for i, rr := range recs {
		input[i] = pointValue(rr).Round(i+1, rounds[i])
	}
	d, prints, err := r.hooksFor(h.Script).SteadyState(ctx, h.Script, h.Function, input, h.Args)
	rec.Log = append(rec.Log, prints...)
	judged := &results.SteadyState{Variable: ss.Metric, Rounds: rounds, Rule: fmt.Sprintf("hook %s:%s", h.ScriptName, h.Function)}
	rec.SteadyState = judged
	if err != nil {
		r.hookFailed(rec, "steady_state "+n.Source, err)
		judged.Code, judged.Message = results.SteadyHookError, "the steady-state hook failed, so no round can be judged"
		r.endGroup(n.Group, "the steady-state hook failed at round "+fmt.Sprint(n.Round), n.Round)
		return
	}
	why := ""
	if d.Message != "" {
		why = ": " + d.Message
	}
	judged.Reached = d.Steady
	switch {
	case d.Steady:
		judged.Code = results.SteadyReached
		judged.Message = fmt.Sprintf("steady state reached after round %d%s", len(rounds), why)
		r.endGroup(n.Group, judged.Message, n.Round)
	case len(rounds) >= ss.MaxRounds:
		judged.Exhausted, judged.Code = true, results.SteadyNotReached
		judged.Message = fmt.Sprintf("steady state not reached in %d rounds%s", len(rounds), why)
		r.endGroup(n.Group, judged.Message, n.Round)
	default:
		judged.Code = results.SteadyNotYet
		judged.Message = fmt.Sprintf("not steady after round %d%s", len(rounds), why)
	}
}

// addRoundRecord appends a tracked round's record to the group's and
// returns them all.
func (r *runner) addRoundRecord(group string, rec *results.Record) []*results.Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.roundRecs == nil {
		r.roundRecs = map[string][]*results.Record{}
	}
	r.roundRecs[group] = append(r.roundRecs[group], rec)
	return append([]*results.Record(nil), r.roundRecs[group]...)
}

// addRound appends a tracked figure to the group's rounds and returns
// them all.
func (r *runner) addRound(group string, value float64) []float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.rounds == nil {
		r.rounds = map[string][]float64{}
	}
	r.rounds[group] = append(r.rounds[group], value)
	return append([]float64(nil), r.rounds[group]...)
}
