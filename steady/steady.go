// Package steady decides when a drive has reached steady state by the
// rule of the SNIA Solid State Storage Performance Test Specification:
// over a measurement window of consecutive rounds of a tracking variable
// (4K random write IOPS, say), the data must stay within an excursion of
// the window's average and the least-squares line through them must be
// nearly flat. The rule is arithmetic on a few numbers, but its verdict
// decides how long a test runs and whether its results may be called
// steady, so it lives apart, tested against hand-computed cases.
package steady

import (
	"fmt"
	"math"
)

// Rule is a steady-state criterion. The zero value is not valid; use
// SNIA or fill every field.
type Rule struct {
	// Window is the number of consecutive rounds judged together.
	Window int `json:"window"`
	// MaxRounds is how many rounds may run before giving up.
	MaxRounds int `json:"max_rounds"`
	// ExcursionPct bounds max - min of the window, in percent of its
	// average.
	ExcursionPct float64 `json:"excursion_pct"`
	// SlopePct bounds the change of the best-fit line across the window
	// (slope x (Window - 1)), in percent of the window's average.
	SlopePct float64 `json:"slope_pct"`
}

// SNIA is the specification's rule: a window of 5 rounds, 20 % data
// excursion, 10 % slope excursion, at most 25 rounds.
var SNIA = Rule{Window: 5, MaxRounds: 25, ExcursionPct: 20, SlopePct: 10}

// Validate reports a rule that cannot be applied.
func (r Rule) Validate() error {
	switch {
	case r.Window < 2:
		return fmt.Errorf("window must be at least 2 rounds, got %d", r.Window)
	case r.MaxRounds < r.Window:
		return fmt.Errorf("max_rounds (%d) must be at least the window (%d)", r.MaxRounds, r.Window)
	case r.ExcursionPct <= 0 || r.SlopePct <= 0:
		return fmt.Errorf("excursion_pct and slope_pct must be positive, got %g and %g", r.ExcursionPct, r.SlopePct)
	}
	return nil
}

// Window is the judgement of one measurement window.
type Window struct {
	// First and Last are the 1-based rounds the window spans.
	First, Last int
	Average     float64
	// Excursion is max - min of the window; Slope and Intercept describe
	// the least-squares line y = Intercept + Slope x over the round
	// numbers x = First..Last.
	Excursion float64
	Slope     float64
	Intercept float64
	// ExcursionOK and SlopeOK say whether each criterion holds.
	ExcursionOK bool
	SlopeOK     bool
}

// Steady reports whether both criteria hold.
func (w Window) Steady() bool { return w.ExcursionOK && w.SlopeOK }

// SlopeExcursion is the change of the fitted line across the window.
func (w Window) SlopeExcursion() float64 {
	return math.Abs(w.Slope) * float64(w.Last-w.First)
}

// Verdict is the outcome of applying a rule to the rounds so far.
type Verdict struct {
	// Steady is true once a window satisfies the rule; Window is then that
	// window, otherwise the latest one judged (nil with too few rounds).
	Steady bool
	Window *Window
	// Exhausted is true when MaxRounds have run without reaching steady
	// state: the result must be reported as "not reached".
	Exhausted bool
}

// Judge applies the rule to rounds (the tracking variable, one value per
// round, in order). It looks at every window ending at or after round
// Window and stops at the first steady one, as the specification runs
// rounds until the criterion is met.
func (r Rule) Judge(rounds []float64) Verdict {
	var v Verdict
	for last := r.Window; last <= len(rounds) && last <= r.MaxRounds; last++ {
		w := r.judgeWindow(rounds[last-r.Window:last], last-r.Window+1)
		v.Window = &w
		if w.Steady() {
			v.Steady = true
			return v
		}
	}
	v.Exhausted = len(rounds) >= r.MaxRounds
	return v
}

// judgeWindow checks one window whose first value is round first.
func (r Rule) judgeWindow(ys []float64, first int) Window {
	w := Window{First: first, Last: first + len(ys) - 1}
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for _, y := range ys {
		lo, hi, sum = math.Min(lo, y), math.Max(hi, y), sum+y
	}
	w.Average = sum / float64(len(ys))
	w.Excursion = hi - lo
	w.Slope, w.Intercept = fitLine(ys, first)
	limit := math.Abs(w.Average) / 100
	w.ExcursionOK = w.Excursion <= r.ExcursionPct*limit
	w.SlopeOK = w.SlopeExcursion() <= r.SlopePct*limit
	return w
}

// fitLine is the least-squares line through (first+i, ys[i]).
func fitLine(ys []float64, first int) (slope, intercept float64) {
	n := float64(len(ys))
	var sx, sy, sxx, sxy float64
	for i, y := range ys {
		x := float64(first + i)
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return 0, sy / n
	}
	slope = (n*sxy - sx*sy) / den
	return slope, (sy - slope*sx) / n
}
