package judging

import (
	"fmt"
	"math"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/steady"
)

// TrackedFigure reads the steady-state variable from a round's result.
func TrackedFigure(metric string, res *metrics.Result) float64 {
	switch metric {
	case "bw":
		return TotalBW(res)
	case "lat_mean":
		return CombinedHistogram(res).Mean()
	case "lat_p99":
		return float64(CombinedHistogram(res).Percentile(99))
	}
	return TotalIOPS(res)
}

// SteadyRecord is SNIA's judgement of the rounds so far, as the
// round's record keeps it, with a sentence saying why.
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
	shares := fmt.Sprintf("range %.1f%% of the mean (limit %g%%), slope %.1f%% (limit %g%%)", s.RangePct, s.RangeLimitPct, s.SlopePct, s.SlopeLimitPct)
	switch {
	case v.Steady:
		s.Message = fmt.Sprintf("steady state reached over rounds %d-%d (average %s): %s", s.WindowFirst, s.WindowLast, trackedText(metric, s.Average), shares)
	case v.Exhausted:
		s.Message = fmt.Sprintf("steady state not reached in %d rounds; the last window, rounds %d-%d: %s", len(rounds), s.WindowFirst, s.WindowLast, shares)
	case v.Window == nil:
		s.Message = fmt.Sprintf("%d round%s so far; a window needs %d", len(rounds), map[bool]string{true: "", false: "s"}[len(rounds) == 1], rule.Window)
	default:
		s.Message = fmt.Sprintf("not steady yet over rounds %d-%d: %s%s", s.WindowFirst, s.WindowLast, shares, overLimits(s))
	}
	return s
}

// trackedText writes a value of a steady-state variable in its unit:
// "10,540 IOPS", "2,724.0 MB/s", "1.52 ms mean latency".
func trackedText(metric string, v float64) string {
	switch metric {
	case "bw":
		return format.Bandwidth(v)
	case "lat_mean":
		return format.Latency(v) + " mean latency"
	case "lat_p99":
		return format.Latency(v) + " p99 latency"
	}
	return format.Count(v) + " IOPS"
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

// StopReason says why a rate curve ends after rec, or "" to go on.
func StopReason(stop *plan.StopCondition, rec *results.Record) string {
	if stop == nil || rec.Status != results.StatusOK || rec.Result == nil {
		return ""
	}
	h := CombinedHistogram(rec.Result)
	var got float64
	switch stop.Stat {
	case "p99":
		got = float64(h.Percentile(99))
	default:
		got = h.Mean()
	}
	if got <= float64(stop.LimitNs) {
		return ""
	}
	return fmt.Sprintf("%s latency %.1f µs at %s exceeded the curve's limit of %.1f µs", stop.Stat, got/1e3, rec.Name, float64(stop.LimitNs)/1e3)
}
