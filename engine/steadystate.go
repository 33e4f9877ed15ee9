package engine

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/drivebench/drivebench/metrics"
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
	if reason := stopReason(n.Stop, rec); reason != "" {
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
	rounds := r.addRound(n.Group, trackedFigure(ss.Metric, rec.Result))
	if ss.Hook != nil {
		r.judgeByHook(ctx, n, rec, rounds)
		return
	}
	rule := steady.Rule{Window: ss.Window, MaxRounds: ss.MaxRounds, ExcursionPct: ss.ExcursionPct, SlopePct: ss.SlopePct}
	v := rule.Judge(rounds)
	rec.SteadyState = steadyRecord(ss.Metric, rounds, v, rule)
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
		judged.Message = "the steady-state hook failed, so no round can be judged"
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
		judged.Message = fmt.Sprintf("steady state reached after round %d%s", len(rounds), why)
		r.endGroup(n.Group, judged.Message, n.Round)
	case len(rounds) >= ss.MaxRounds:
		judged.Exhausted = true
		judged.Message = fmt.Sprintf("steady state not reached in %d rounds%s", len(rounds), why)
		r.endGroup(n.Group, judged.Message, n.Round)
	default:
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

// trackedFigure reads the steady-state variable from a round's result.
func trackedFigure(metric string, res *metrics.Result) float64 {
	switch metric {
	case "bw":
		return totalBW(res)
	case "lat_mean":
		return combinedHistogram(res).Mean()
	case "lat_p99":
		return float64(combinedHistogram(res).Percentile(99))
	}
	return totalIOPS(res)
}

func steadyRecord(metric string, rounds []float64, v steady.Verdict, rule steady.Rule) *results.SteadyState {
	s := &results.SteadyState{Variable: metric, Rounds: rounds, Reached: v.Steady, Exhausted: v.Exhausted, Rule: "snia",
		Window: rule.Window, RangeLimitPct: rule.ExcursionPct, SlopeLimitPct: rule.SlopePct}
	if w := v.Window; w != nil {
		s.WindowFirst, s.WindowLast = w.First, w.Last
		s.Average, s.Slope, s.Intercept = w.Average, w.Slope, w.Intercept
		if w.Average != 0 {
			s.RangePct = w.Excursion / math.Abs(w.Average) * 100
			s.SlopePct = w.SlopeExcursion() / math.Abs(w.Average) * 100
		}
	}
	shares := fmt.Sprintf("range %.1f%% of the mean (limit %g%%), slope %.1f%% (limit %g%%)", s.RangePct, s.RangeLimitPct, s.SlopePct, s.SlopeLimitPct)
	switch {
	case v.Steady:
		s.Message = fmt.Sprintf("steady state reached over rounds %d-%d (average %.4g %s): %s", s.WindowFirst, s.WindowLast, s.Average, metric, shares)
	case v.Exhausted:
		s.Message = fmt.Sprintf("steady state not reached in %d rounds; the last window, rounds %d-%d: %s", len(rounds), s.WindowFirst, s.WindowLast, shares)
	case v.Window == nil:
		s.Message = fmt.Sprintf("%d round%s so far; a window needs %d", len(rounds), map[bool]string{true: "", false: "s"}[len(rounds) == 1], rule.Window)
	default:
		s.Message = fmt.Sprintf("not steady yet over rounds %d-%d: %s%s", s.WindowFirst, s.WindowLast, shares, overLimits(s))
	}
	return s
}

// overLimits names the criteria a window failed: " (range over its
// limit)".
func overLimits(s *results.SteadyState) string {
	var over []string
	if s.RangePct > s.RangeLimitPct {
		over = append(over, "range")
	}
	if s.SlopePct > s.SlopeLimitPct {
		over = append(over, "slope")
	}
	if len(over) == 0 {
		return ""
	}
	return " (" + strings.Join(over, " and ") + " over the limit)"
}
