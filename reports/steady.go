package reports

import (
	"fmt"
	"strings"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/results"
)

// buildSteadyState lists the steady-state searches of the run, one per
// profile and drive, in the order they first appear. Each round of a
// search that tracks the steady-state figure records the judgement of the
// rounds so far, so the last such record of a search holds its whole
// history.
func buildSteadyState(steps []step, rev *revisions, u bwUnit) []SteadyState {
	out := []SteadyState{}
	index := map[[2]string]int{}
	var judged [][]*results.SteadyState
	for _, s := range steps {
		if s.rec == nil || s.rec.SteadyState == nil {
			continue
		}
		key := [2]string{s.info.Drive, s.source()}
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, SteadyState{})
			judged = append(judged, nil)
		}
		out[i] = steadyState(s, rev, u)
		judged[i] = append(judged[i], s.rec.SteadyState)
	}
	for i := range out {
		roundJudgements(&out[i], judged[i], u)
	}
	return out
}

// roundJudgements gives each round the judgement its own record made:
// after round k, the window ending at k and why the search went on, in
// the report's unit u.
func roundJudgements(ss *SteadyState, judged []*results.SteadyState, u bwUnit) {
	for _, j := range judged {
		k := len(j.Rounds)
		if k < 1 || k > len(ss.Rounds) {
			continue
		}
		r := &ss.Rounds[k-1]
		r.RangePct, r.SlopePct, r.Judgement = finite(j.RangePct), finite(j.SlopePct), steadyMessage(j, u)
	}
}

// steadyMessage is a judgement's sentence, said again from its figures in
// the report's unit u under SNIA's rule; a plan's own rule's as
// recorded, with its hook's words.
func steadyMessage(j *results.SteadyState, u bwUnit) string {
	if m, ok := judging.SteadyMessage(*j, u.bandwidths()); ok {
		return m
	}
	return j.Message
}

// steadyState is the search as one round's record judged it.
func steadyState(s step, rev *revisions, u bwUnit) SteadyState {
	j := s.rec.SteadyState
	ss := SteadyState{
		Drive: s.info.Drive, Profile: s.source(), Variable: j.Variable, Rule: j.Rule, Rounds: []SteadyRound{},
		WindowFirst: j.WindowFirst, WindowLast: j.WindowLast,
		Average: finite(j.Average), Slope: finite(j.Slope), Intercept: finite(j.Intercept),
		RangePct: finite(j.RangePct), SlopePct: finite(j.SlopePct), RangeLimitPct: j.RangeLimitPct, SlopeLimitPct: j.SlopeLimitPct,
		Reached: j.Reached, Exhausted: j.Exhausted && !j.Reached, Message: steadyMessage(j, u),
		StepID: s.info.ID, PlanHash: rev.earlier(s.rec),
	}
	for i, v := range j.Rounds {
		ss.Rounds = append(ss.Rounds, SteadyRound{Round: i + 1, Value: finite(v)})
	}
	return ss
}

// steadyStateSentence states the outcome of a steady-state search in the
// report's words, and names the plan's own rule when one judged it. The
// rule's message is added where the figures do not say it all: a search
// that ended without a verdict, or a plan's rule, which judges without a
// window.
func steadyStateSentence(ss SteadyState, u bwUnit) string {
	return joinSentences(outcomeSentence(ss, u), ruleSentence(ss.Rule))
}

// limitText writes a limit as the plan set it and the round judgements
// quote it: "20%", "12.5%".
func limitText(pct float64) string { return format.Plain(pct) + "%" }

func outcomeSentence(ss SteadyState, u bwUnit) string {
	rounds := format.Counted(len(ss.Rounds), "round")
	switch {
	case ss.Reached && ss.WindowFirst > 0 && ss.RangeLimitPct > 0:
		return fmt.Sprintf("Steady state was reached in rounds %d to %d: %s averaged %s; its range was %s of the mean (limit %s) and the best-fit line changed by %s across the window (limit %s).",
			ss.WindowFirst, ss.WindowLast, variableName(ss.Variable), variableText(ss.Variable, ss.Average, u),
			percentText(ss.RangePct), limitText(ss.RangeLimitPct), percentText(ss.SlopePct), limitText(ss.SlopeLimitPct))
	case ss.Reached && ss.WindowFirst > 0:
		return fmt.Sprintf("Steady state was reached in rounds %d to %d: %s averaged %s, and the best-fit line changed by %s across the window.",
			ss.WindowFirst, ss.WindowLast, variableName(ss.Variable), variableText(ss.Variable, ss.Average, u),
			percentText(windowExcursion(ss)))
	case ss.Exhausted && ss.RangeLimitPct > 0 && ss.WindowFirst > 0:
		return fmt.Sprintf("Steady state not reached in %s: in the last window, rounds %d to %d, the range was %s of the mean (limit %s) and the best-fit line changed by %s (limit %s).",
			rounds, ss.WindowFirst, ss.WindowLast, percentText(ss.RangePct), limitText(ss.RangeLimitPct), percentText(ss.SlopePct), limitText(ss.SlopeLimitPct))
	case ss.Reached:
		return joinSentences(fmt.Sprintf("Steady state was reached after %s.", rounds), sentence(ss.Message))
	case ss.Exhausted:
		return fmt.Sprintf("Steady state not reached in %s: the search ran every round it was allowed.", rounds)
	}
	return joinSentences(fmt.Sprintf("The search ended after %s without reaching steady state.", rounds), sentence(ss.Message))
}

// ruleSentence names a plan's own steady-state rule; SNIA's, the
// default, goes unsaid.
func ruleSentence(rule string) string {
	hook, ok := strings.CutPrefix(rule, "hook ")
	if !ok {
		return ""
	}
	return "The plan's own rule, " + hook + ", judged the rounds in place of SNIA's."
}

// windowExcursion is how much the best-fit line moves across the window,
// in percent of the window's average.
func windowExcursion(ss SteadyState) float64 {
	if ss.Average == 0 {
		return 0
	}
	return ss.Slope * float64(ss.WindowLast-ss.WindowFirst) / ss.Average * 100
}

// variableFigure is the figure a steady-state record tracks, by its name
// in the figure registry or the one records kept before it (lat_p99);
// nil for a record that names none the registry knows.
func variableFigure(v string) *figure.Figure {
	f, _ := figure.Resolve(figure.Steady, v)
	return f
}

// variableName names a tracked figure in prose: "p99 latency".
func variableName(v string) string {
	if f := variableFigure(v); f != nil {
		return f.Title
	}
	return orDash(v)
}

// variableText writes a value of a tracked figure in its unit, bandwidth
// in the report's; IOPS, named by the figure, take none.
func variableText(v string, value float64, u bwUnit) string {
	f := variableFigure(v)
	switch {
	case f == nil:
		return format.Plain(value)
	case f.Unit == figure.PerSecond:
		return format.Count(value)
	case f.Unit == figure.BytesPerSec:
		return u.text(value)
	}
	return format.Latency(value)
}

// sentence makes a message end like a sentence, with a capital first
// letter and a full stop.
func sentence(msg string) string {
	if msg == "" {
		return ""
	}
	msg = format.UpperFirst(msg)
	if last := msg[len(msg)-1]; last != '.' && last != '!' && last != '?' {
		msg += "."
	}
	return msg
}
