package reports

import (
	"slices"

	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/results"
)

// pointSteps are the steps behind one row of a table: the step whose
// record the row shows and, for a repeated point, the rounds behind it.
type pointSteps struct {
	shown  step
	rounds []step
	// aggregate is set when shown averages the rounds; otherwise rounds
	// are those of a steady-state search and shown is the last that ran.
	aggregate bool
}

// groupPoints splits a table's steps into rows, in the order their first
// steps appear. An aggregate step stands for the rounds it depends on. In
// a steady-state profile (some round recorded a steady-state judgement)
// the steps of one point are its rounds, in round order, as the plan
// expands a search round by round; the row shows the last round that ran.
// Any other step is a row of its own.
func groupPoints(steps []step) []pointSteps {
	aggregateOf := map[string]string{}
	for _, s := range steps {
		if s.is(kindAggregate) {
			for _, dep := range s.info.DependsOn {
				aggregateOf[dep] = s.info.ID
			}
		}
	}
	steady := slices.ContainsFunc(steps, func(s step) bool { return s.rec != nil && s.rec.SteadyState != nil })
	var groups []pointSteps
	index := map[string]int{}
	for _, s := range steps {
		key, round := "step "+s.info.ID, false
		switch agg, ok := aggregateOf[s.info.ID]; {
		case s.is(kindAggregate):
			key = "aggregate " + s.info.ID
		case ok:
			key, round = "aggregate "+agg, true
		case steady:
			key, round = "point "+s.info.Point.String(), true
		}
		i, seen := index[key]
		if !seen {
			i = len(groups)
			index[key] = i
			groups = append(groups, pointSteps{})
		}
		g := &groups[i]
		if round {
			g.rounds = append(g.rounds, s)
		} else {
			g.shown, g.aggregate = s, s.is(kindAggregate)
		}
	}
	for i := range groups {
		if g := &groups[i]; !g.aggregate && len(g.rounds) > 0 {
			g.shown = g.rounds[lastRun(g.rounds)]
		}
	}
	return groups
}

// lastRun is the index of the last round that ran (it has a record and
// was not skipped), or 0 when none did.
func lastRun(rounds []step) int {
	for i := len(rounds) - 1; i >= 0; i-- {
		if st := rounds[i].status(); st != StatusNotRun && st != results.StatusSkipped {
			return i
		}
	}
	return 0
}

// window is the measurement window of a steady-state search: the rounds
// first to last; zero when none was judged. steady is false when the
// search has not reached steady state, and the window is the last one
// judged.
type window struct {
	first, last int
	steady      bool
}

func (w window) holds(round int) bool { return w.first > 0 && round >= w.first && round <= w.last }

// steadyWindow is the window of the last steady-state judgement among the
// steps.
func steadyWindow(steps []step) window {
	var w window
	for _, s := range steps {
		if s.rec != nil && s.rec.SteadyState != nil {
			j := s.rec.SteadyState
			w = window{j.WindowFirst, j.WindowLast, j.Reached}
		}
	}
	return w
}

// setRounds fills in the rounds behind a row: which of them an aggregate
// averaged (its record's uses) or which lie in a steady-state
// window, and which round a steady-state row shows.
func setRounds(row *Row, p pointSteps, w window, rev *revisions) {
	var used []string
	if p.shown.rec != nil {
		used = p.shown.rec.Uses
	}
	for i, s := range p.rounds {
		r := RoundResult{Round: i + 1, StepID: s.info.ID, Status: s.status(), PlanHash: rev.earlier(s.rec)}
		if p.aggregate {
			r.Used = slices.Contains(used, s.info.Name) || s.rec != nil && slices.Contains(used, s.rec.Name)
		} else {
			r.Used = w.holds(r.Round)
		}
		if s.rec != nil {
			r.Error = s.rec.Error
			if row.workload == nil {
				// An aggregate runs no I/O of its own: its rounds'
				// workload is the row's.
				row.workload = s.rec.Workload
			}
			if res := s.rec.Result; res != nil {
				r.Total = totalFigures(res.Read, res.Write)
			}
		}
		if !p.aggregate && s.info.ID == p.shown.info.ID {
			row.Round = r.Round
		}
		row.Rounds = append(row.Rounds, r)
	}
	if p.aggregate {
		row.Averaged = len(used)
		if a := p.shown.info.Aggregate; a != nil {
			row.Aggregate = a.Describe(len(p.shown.info.DependsOn))
		}
		return
	}
	windowAverage(row, p.rounds, w)
}

// windowAverage puts on a steady-state row, as SNIA's PTS reports each
// cell, the figures of its rounds in the measurement window instead of
// its last round's, combined as an aggregate step combines its rounds
// (judging.AverageRounds): their IOPS and bandwidth averaged, their
// latency, mean, percentiles and max, read from their merged histograms,
// since percentiles do not average.
func windowAverage(row *Row, rounds []step, w window) {
	var in []*results.Record
	for i, r := range row.Rounds {
		if r.Used && r.Total != nil {
			in = append(in, rounds[i].rec)
		}
	}
	if w.first == 0 || len(in) != w.last-w.first+1 {
		return
	}
	res := judging.AverageRounds(in)
	row.result = res
	row.Total, row.Read, row.Write = totalFigures(res.Read, res.Write), dirFigures(res.Read), dirFigures(res.Write)
	row.WindowFirst, row.WindowLast, row.NotSteady = w.first, w.last, !w.steady
}

// combined reports whether the row's figures combine several rounds: an
// aggregate's, or a steady-state window's.
func (r Row) combined() bool { return r.Averaged > 0 || r.WindowFirst > 0 }
