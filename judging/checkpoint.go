package judging

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// checkpointExpect evaluates a checkpoint's expectations on each of its
// passes, as a vendor states one ("a pass takes at most 30 s"): an
// expectation holds when it holds in every pass that completed, and
// fails naming the passes where it did not. A pass whose phase did not
// complete is left out; with no pass to judge, the verdict is an error.
func checkpointExpect(n *plan.Node, rec *results.Record, spec []*plan.SpecEntry) []results.Verdict {
	if rec.Status != results.StatusOK || rec.Checkpoint == nil {
		return nil
	}
	point := results.StepWithin(n.Name, n.Drive)
	var out []results.Verdict
	for _, e := range n.Expect {
		v := results.Verdict{Check: results.ExpectCheck(n.Source), Drive: n.Drive, Subject: point + ": " + e.Text, Where: e.Where}
		v.Status, v.Code, v.Message = judgePasses(point, e, rec.Checkpoint, spec)
		out = append(out, v)
	}
	return out
}

// judgePasses evaluates e on each pass of c: its status, code and
// message, which quotes each pass's values.
func judgePasses(point string, e *plan.Expectation, c *results.Checkpoint, spec []*plan.SpecEntry) (status, code, message string) {
	var judged, failed, values []string
	var lastErr error
	for _, p := range c.Passes {
		j, err := e.Eval(plan.Measured{Checkpoint: passMeasure(p)}, spec)
		if err != nil {
			lastErr = err
			continue
		}
		judged = append(judged, strconv.Itoa(p.Pass))
		if !j.Holds {
			failed = append(failed, strconv.Itoa(p.Pass))
		}
		if len(j.Values) > 0 {
			values = append(values, fmt.Sprintf("pass %d: %s", p.Pass, strings.Join(j.Values, ", ")))
		}
	}
	shown := ""
	if len(values) > 0 {
		shown = " (" + strings.Join(values, "; ") + ")"
	}
	switch {
	case len(judged) == 0:
		return results.VerdictError, results.CodeCannotJudge, fmt.Sprintf("%s: %s cannot be judged: %v", point, e.Text, lastErr)
	case len(failed) == 1:
		return results.VerdictFail, results.CodeDoesNotHold, fmt.Sprintf("%s: %s does not hold in pass %s of %d%s", point, e.Text, failed[0], len(judged), shown)
	case len(failed) > 1:
		return results.VerdictFail, results.CodeDoesNotHold, fmt.Sprintf("%s: %s does not hold in passes %s of %d%s", point, e.Text, strings.Join(failed, ", "), len(judged), shown)
	}
	if len(judged) == 1 && len(c.Passes) == 1 {
		return results.VerdictPass, results.CodeHolds, fmt.Sprintf("%s: %s in its one pass%s", point, e.Text, shown)
	}
	if len(judged) == 1 {
		return results.VerdictPass, results.CodeHolds, fmt.Sprintf("%s: %s in pass %s, the one judged%s", point, e.Text, judged[0], shown)
	}
	return results.VerdictPass, results.CodeHolds, fmt.Sprintf("%s: %s in each of %d passes%s", point, e.Text, len(judged), shown)
}

// passMeasure is result.checkpoint of one pass: each phase that
// completed, its figures by their names in the figure registry
// (plan.CheckpointStats).
func passMeasure(p results.CheckpointPass) map[string]map[string]float64 {
	phases := map[string]map[string]float64{}
	for name, ph := range map[string]*results.CheckpointPhase{plan.CheckpointWrite: p.Write, plan.CheckpointRead: p.Read} {
		if ph != nil {
			phases[name] = phaseFigures(ph)
		}
	}
	return phases
}

// phaseFigures reads a phase's figures, each by its registry row, as
// its place names it.
func phaseFigures(ph *results.CheckpointPhase) map[string]float64 {
	values := ph.Figures()
	figures := map[string]float64{}
	for _, f := range figure.In(figure.Checkpoint) {
		figures[f.Key(figure.Checkpoint)] = values[f.Name]
	}
	return figures
}
