package judging

import (
	"fmt"
	"math"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/steady"
)

// TrackedFigure reads the steady-state variable from a round's result,
// over both directions (TotalStats); 0 for a round without I/O.
func TrackedFigure(metric string, res *metrics.Result) float64 {
	d := TotalStats(res)
	if d == nil {
		return 0
	}
	return SteadyFigure(metric).Read(d)
}

// SteadyFigure is the figure a steady-state variable names: a name the
// figure registry gives steady_state, or one records written before it
// kept (lat_p99); IOPS, the default, for a record without one.
func SteadyFigure(metric string) *figure.Figure {
	if f, _ := figure.Resolve(figure.Steady, metric); f != nil {
		return f
	}
	return figure.Lookup("iops")
}

// SteadyRecord is SNIA's judgement of the rounds so far, as the
// round's record keeps it: its code, its figures and a sentence saying
// why (SteadyMessage).
func SteadyRecord(metric string, rounds []float64, v steady.Verdict, rule steady.Rule) *results.SteadyState {
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
	switch {
	case v.Steady:
		s.Code = results.SteadyReached
	case v.Exhausted:
		s.Code = results.SteadyNotReached
	case v.Window == nil:
		s.Code = results.SteadyTooFewRounds
	default:
		s.Code = results.SteadyNotYet
	}
	s.Message, _ = SteadyMessage(*s, nil)
	return s
}

// StopReason says why a rate curve ends after rec, or "" to go on.
func StopReason(stop *plan.StopCondition, rec *results.Record) string {
	if stop == nil || rec.Status != results.StatusOK || rec.Result == nil {
		return ""
	}
	f := figure.Lookup(stop.Stat)
	got := f.Read(TotalStats(rec.Result))
	if got <= float64(stop.LimitNs) {
		return ""
	}
	return fmt.Sprintf("%s %.1f µs at %s exceeded the curve's limit of %.1f µs", f.Title, got/1e3, rec.Name, float64(stop.LimitNs)/1e3)
}
