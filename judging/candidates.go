package judging

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// Candidate is a measured point acceptance may compare with.
type Candidate struct {
	Record   *results.Record
	Workload workload.Workload
	// State is "steady" for the final round of a steady-state search that
	// reached steady state, "unsteady" for one that did not, "" otherwise.
	State string
	// WrittenBy names the last step that wrote to the drive before this
	// one since the drive was last purged; "" when none did.
	WrittenBy string
	// Total is the point's figures, both directions combined.
	Total *metrics.DirStats
	// Step names the measurement as an acceptance row does; Record's name
	// when empty.
	Step string
}

// CandidateOf returns the candidate rec gives as a point of workload w
// measured in the given state: none when there is no workload or no
// result to compare.
func CandidateOf(rec *results.Record, w *workload.Workload, state string) []Candidate {
	if w == nil || rec.Result == nil {
		return nil
	}
	total := TotalStats(rec.Result)
	if total == nil {
		return nil
	}
	return []Candidate{{Record: rec, Workload: *w, State: state, Total: total}}
}

// WindowCandidate is the candidate of a steady-state search's point at
// its final round final: the rounds of the search's last judged window,
// first to last, combined as the report's row combines them
// (AverageRounds), so that acceptance compares the figure the profile's
// row and the Conclusion show, not the final round's alone.
func WindowCandidate(final *results.Record, w *workload.Workload, state string, window []*results.Record, first, last int) []Candidate {
	total := TotalStats(AverageRounds(window))
	if w == nil || total == nil {
		return nil
	}
	step := final.Name + " (" + WindowName(first, last, state == "steady") + ")"
	return []Candidate{{Record: final, Workload: *w, State: state, Total: total, Step: step}}
}

// WindowName names the figures of a steady-state window as reports and
// acceptance quote them: "window avg of rounds 2-6", or "avg of rounds
// 3-5, not steady" for the last window of a search that did not reach
// steady state, which is no measurement window.
func WindowName(first, last int, steady bool) string {
	if !steady {
		return fmt.Sprintf("avg of rounds %d-%d, not steady", first, last)
	}
	return fmt.Sprintf("window avg of rounds %d-%d", first, last)
}

// fit ranks a candidate against a spec entry: lower is better, compared
// field by field.
type fit struct {
	bs, state int
	depth     float64
	pair      int
	figure    float64
}

func (a fit) compare(b fit) int {
	return cmp.Or(cmp.Compare(a.bs, b.bs), cmp.Compare(a.state, b.state), cmp.Compare(a.depth, b.depth),
		cmp.Compare(a.pair, b.pair), cmp.Compare(a.figure, b.figure))
}

// bestCandidate picks the candidate whose conditions come closest to the
// entry's, and of equals the one with the best figure.
func bestCandidate(e *plan.SpecEntry, f specFigure, cands []Candidate) Candidate {
	rank := func(c Candidate) fit {
		k := fit{figure: f.read(c.Total)}
		if f.higher {
			k.figure = -k.figure
		}
		if e.BS != 0 && (c.Workload.BS != e.BS || len(c.Workload.BSSplit) > 0) {
			k.bs = 1
		}
		if e.State != "" && stateOf(c) != e.State {
			k.state = 1
		}
		if specDepthStated(e) {
			k.depth = math.Abs(math.Log2(float64(candidateOutstanding(c)) / float64(specOutstanding(e))))
			if e.IODepth != 0 && e.IODepth != c.Workload.IODepth || e.NumJobs != 0 && e.NumJobs != c.Workload.NumJobs {
				k.pair = 1
			}
		}
		return k
	}
	return slices.MinFunc(cands, func(a, b Candidate) int { return rank(a).compare(rank(b)) })
}

// stateOf is the drive state a candidate was measured in, as a spec says
// it: "steady", or "fresh" when nothing wrote to the drive before it.
func stateOf(c Candidate) string {
	switch {
	case c.State == "steady":
		return "steady"
	case c.WrittenBy == "":
		return "fresh"
	}
	return ""
}

func specDepthStated(e *plan.SpecEntry) bool { return e.IODepth > 0 || e.NumJobs > 0 }

func outstanding(qd, jobs int) int { return max(qd, 1) * max(jobs, 1) }

func specOutstanding(e *plan.SpecEntry) int { return outstanding(e.IODepth, e.NumJobs) }

func candidateOutstanding(c Candidate) int {
	return outstanding(c.Workload.IODepth, c.Workload.NumJobs)
}
