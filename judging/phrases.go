package judging

import (
	"fmt"
	"strings"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// The phrase table: what an acceptance row's code and a steady-state
// judgement's say, in one sentence.
// The row holds the figures; the sentence quotes them. The engine
// records it beside the data, with bandwidths as a spec sheet gives
// them, in decimal MB/s; a report says it again from the same figures in
// its own unit (Bandwidths), so no sentence is ever read back.

// Bandwidths writes the bandwidths a sentence quotes, a measured one and
// a claimed one; nil writes both as spec sheets do ("6,200 MB/s").
type Bandwidths interface {
	Measured(bytesPerSec float64) string
	Claimed(bytesPerSec float64) string
}

// Compared reports whether a row's code is the outcome of comparing a
// measured figure with its claim, the codes whose sentence quotes the
// figures.
func Compared(code string) bool {
	switch code {
	case results.CodeWithin, results.CodeShort, results.CodeOver, results.CodeConditionsDiffer:
		return true
	}
	return false
}

// ComparedReason is the reason of a row that compared figures: "1,867
// MB/s measured against 6,200 MB/s claimed (30.1%): more than 5% short,
// under the spec's own conditions"; ok is false for other rows, whose
// reason quotes no figure a unit changes.
func ComparedReason(code string, c results.Comparison, bw Bandwidths) (reason string, ok bool) {
	if !Compared(code) || c.Measured == nil || c.Ratio == nil {
		return "", false
	}
	shown := fmt.Sprintf("%s measured against %s claimed (%s%%)",
		quote(*c.Measured, c.Unit, bw, true), quote(c.Claimed, c.Unit, bw, false), format.Grouped(*c.Ratio*100, 1))
	tolerance := strings.TrimSuffix(plan.FormatNumber(c.TolerancePct), ".0") + "%"
	missed := "short"
	if c.Better == "lower" {
		missed = "over"
	}
	switch code {
	case results.CodeWithin:
		return shown + ": within the " + tolerance + " tolerance", true
	case results.CodeConditionsDiffer:
		return fmt.Sprintf("%s: more than %s %s, but under other conditions than the spec's, so not like with like", shown, tolerance, missed), true
	}
	return fmt.Sprintf("%s: more than %s %s, under the spec's own conditions", shown, tolerance, missed), true
}

// RowMessage is an acceptance row as its verdict's message: "seq_read
// bw: <reason> [<conditions>]".
func RowMessage(subject, reason string, conditions []results.Condition) string {
	msg := subject + ": " + reason
	if len(conditions) > 0 {
		msg += " [" + strings.Join(results.ConditionTexts(conditions), "; ") + "]"
	}
	return msg
}

// quote writes a figure in its unit: "812,345 IOPS", "6,123 MB/s",
// "81.2 µs"; a bandwidth as bw writes it.
func quote(v float64, unit string, bw Bandwidths, measured bool) string {
	switch {
	case unit == "B/s" && bw != nil && measured:
		return bw.Measured(v)
	case unit == "B/s" && bw != nil:
		return bw.Claimed(v)
	}
	return showFigure(v, unit)
}

// SteadyMessage is a judgement of SNIA's steady-state rule in a sentence:
// "steady state reached over rounds 2-6 (average 2,724.0 MB/s): range
// 3.1% of the mean (limit 20%), slope 1.2% (limit 10%)", a bandwidth as
// bw writes a measured one; ok is false for a plan's own rule, whose
// message holds its hook's words, and for a record without a code.
func SteadyMessage(s results.SteadyState, bw Bandwidths) (message string, ok bool) {
	if s.Rule != "snia" {
		return "", false
	}
	shares := fmt.Sprintf("range %.1f%% of the mean (limit %g%%), slope %.1f%% (limit %g%%)", s.RangePct, s.RangeLimitPct, s.SlopePct, s.SlopeLimitPct)
	switch s.Code {
	case results.SteadyReached:
		return fmt.Sprintf("steady state reached over rounds %d-%d (average %s): %s", s.WindowFirst, s.WindowLast, trackedText(s.Variable, s.Average, bw), shares), true
	case results.SteadyNotReached:
		return fmt.Sprintf("steady state not reached in %d rounds; the last window, rounds %d-%d: %s", len(s.Rounds), s.WindowFirst, s.WindowLast, shares), true
	case results.SteadyTooFewRounds:
		return fmt.Sprintf("%d round%s so far; a window needs %d", len(s.Rounds), map[bool]string{true: "", false: "s"}[len(s.Rounds) == 1], s.Window), true
	case results.SteadyNotYet:
		return fmt.Sprintf("not steady yet over rounds %d-%d: %s%s", s.WindowFirst, s.WindowLast, shares, overLimits(s)), true
	}
	return "", false
}

// trackedText writes a value of a steady-state variable in its unit:
// "10,540 IOPS", "2,724.0 MB/s" (or as bw writes it), "1.52 ms mean
// latency".
func trackedText(metric string, v float64, bw Bandwidths) string {
	f := SteadyFigure(metric)
	switch {
	case f.Unit == figure.BytesPerSec && bw != nil:
		return bw.Measured(v)
	case f.Unit == figure.Nanoseconds:
		return f.Text(v) + " " + f.Title
	}
	return f.Text(v)
}

// overLimits names the criteria a window failed: " (range over its
// limit)".
func overLimits(s results.SteadyState) string {
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

// AUSubject is what an AU verdict judges, the same in every run:
// "train: accelerator utilisation >= 90%".
func AUSubject(point string, targetPct float64) string {
	return fmt.Sprintf("%s: accelerator utilisation >= %s%%", point, plan.FormatNumber(targetPct))
}

// AUMessage is an AU verdict in a sentence: "train: accelerator
// utilisation 93.1% reached the 90% target" or "... 41.2%, short of the
// 90% target: the accelerator was idle 58.8% of the run, its batches
// waiting for their samples 57.9%". waitPct is the batches' waits over
// the run, in percent: the idle time that storage (or the readers) is to
// blame for, the rest being the host's (a compute time overslept, the
// pipeline's own work).
func AUMessage(point, code string, c results.Comparison, waitPct float64) string {
	measured := 0.0
	if c.Measured != nil {
		measured = *c.Measured
	}
	target := plan.FormatNumber(c.Claimed)
	if code == results.CodeAUReached {
		return fmt.Sprintf("%s: accelerator utilisation %.1f%% reached the %s%% target", point, measured, target)
	}
	return fmt.Sprintf("%s: accelerator utilisation %.1f%%, short of the %s%% target: the accelerator was idle %.1f%% of the run, its batches waiting for their samples %.1f%%",
		point, measured, target, 100-measured, waitPct)
}
