package engine

import (
	"context"
	"reflect"
	"slices"

	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// acceptanceStep runs an acceptance node, which compares a drive's
// measurements with its spec.
type acceptanceStep struct{}

func (acceptanceStep) run(_ context.Context, r *runner, _ int, n *plan.Node, rec *results.Record) error {
	r.runAcceptance(n, rec)
	return nil
}

func (acceptanceStep) reusable() bool { return false }

// runAcceptance compares a drive's measurements with its spec: the run
// gathers the points measured on the drive, judging compares them.
func (r *runner) runAcceptance(n *plan.Node, rec *results.Record) {
	rows, verdicts := judging.Accept(n.Accept, r.targets[n.Drive].drive.Spec, n.Drive, r.acceptCandidates(n))
	rec.Acceptance = append(rec.Acceptance, rows...)
	rec.Verdicts = append(rec.Verdicts, verdicts...)
}

// acceptCandidates lists the points measured on n's drive before n that
// the accept block may compare with: plain points, the averages of
// repeated ones, the points of adaptive searches, the final round of
// steady-state searches, and not the rate-limited points of curves.
func (r *runner) acceptCandidates(n *plan.Node) []judging.Candidate {
	final := r.finalRounds(n.Drive)
	var out []judging.Candidate
	writtenBy := ""
	for _, g := range r.graph.Nodes {
		if g == n {
			break
		}
		if g.Drive != n.Drive {
			continue
		}
		rec := r.record(g.ID)
		if rec == nil || rec.Status != results.StatusOK {
			continue
		}
		for _, p := range r.pointsOf(g, rec, final) {
			if len(n.Accept.Profiles) == 0 || slices.Contains(n.Accept.Profiles, g.Source) {
				p.WrittenBy = writtenBy
				out = append(out, p)
			}
		}
		writtenBy = r.writer(g, rec, writtenBy)
	}
	return out
}

// writer is the last step that wrote to the drive after g ran.
func (r *runner) writer(g *plan.Node, rec *results.Record, before string) string {
	switch {
	case g.PurgeMethod != "":
		return ""
	case g.Exec != nil || g.Workload != nil && g.Workload.Writes():
		return g.Name
	case g.Kind == plan.KindAdaptive:
		for _, id := range rec.Points {
			if p := r.record(id); p != nil && p.Result != nil && p.Result.Write != nil {
				before = p.Name
			}
		}
	}
	return before
}

// pointsOf returns the candidates a node's record gives.
func (r *runner) pointsOf(g *plan.Node, rec *results.Record, final map[string]finalRound) []judging.Candidate {
	switch {
	case g.Kind == plan.KindAggregate:
		if first := r.record(g.DependsOn[0]); first != nil {
			return judging.CandidateOf(rec, first.Workload, "")
		}
	case g.Kind == plan.KindAdaptive:
		var out []judging.Candidate
		for _, id := range rec.Points {
			if p := r.record(id); p != nil && p.Status == results.StatusOK {
				out = append(out, judging.CandidateOf(p, p.Workload, "")...)
			}
		}
		return out
	case g.Kind != plan.KindProfile || rec.Workload == nil || rec.Workload.RateLimited():
	case g.SteadyState != nil:
		if f := final[g.Group]; f.round == g.Round {
			return r.windowCandidate(g, rec, f.state)
		}
	case g.Group == "" || g.Round == 0:
		return judging.CandidateOf(rec, rec.Workload, "")
	}
	return nil
}

// windowCandidate is the candidate of a steady-state search's point at
// its final round g: the rounds of the search's last judged window at
// that point combined (judging.WindowCandidate), the figure the report's
// row shows; the final round alone when no window was judged or a round
// of it has no result.
func (r *runner) windowCandidate(g *plan.Node, rec *results.Record, state string) []judging.Candidate {
	var judged *results.SteadyState
	for _, n := range r.graph.Nodes {
		if d := r.record(n.ID); n.Group == g.Group && n.Drive == g.Drive && d != nil && d.SteadyState != nil {
			judged = d.SteadyState
		}
	}
	if judged == nil || judged.WindowFirst == 0 {
		return judging.CandidateOf(rec, rec.Workload, state)
	}
	var window []*results.Record
	for _, n := range r.graph.Nodes {
		if n.Group != g.Group || n.Drive != g.Drive || n.Round < judged.WindowFirst || n.Round > judged.WindowLast || !reflect.DeepEqual(n.Point, g.Point) {
			continue
		}
		if d := r.record(n.ID); d != nil && d.Status == results.StatusOK && d.Result != nil {
			window = append(window, d)
		}
	}
	if len(window) != judged.WindowLast-judged.WindowFirst+1 {
		return judging.CandidateOf(rec, rec.Workload, state)
	}
	return judging.WindowCandidate(rec, rec.Workload, state, window, judged.WindowFirst, judged.WindowLast)
}

// finalRound is the last round a steady-state search ran and whether it
// reached steady state.
type finalRound struct {
	round int
	state string
}

// finalRounds finds, for each steady-state search on a drive, its last
// round and its outcome.
func (r *runner) finalRounds(drive string) map[string]finalRound {
	out := map[string]finalRound{}
	for _, g := range r.graph.Nodes {
		if g.Drive != drive || g.SteadyState == nil {
			continue
		}
		rec := r.record(g.ID)
		if rec == nil || rec.Status == results.StatusSkipped {
			continue
		}
		f := out[g.Group]
		f.round = max(f.round, g.Round)
		if rec.SteadyState != nil {
			f.state = "unsteady"
			if rec.SteadyState.Reached {
				f.state = "steady"
			}
		}
		out[g.Group] = f
	}
	return out
}
