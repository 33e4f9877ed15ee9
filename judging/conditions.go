package judging

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// conditions lists how the chosen point's conditions differ from the
// entry's, or what the entry leaves unstated, and whether the comparison
// is like with like: it is not when any condition is listed, since a
// condition the spec leaves unstated makes its own conditions unknown.
func conditions(a *plan.Accept, e *plan.SpecEntry, f specFigure, c Candidate, same []Candidate) ([]results.Condition, bool) {
	var out []results.Condition
	for _, cond := range []results.Condition{bsCondition(e, c), depthCondition(e, f, c, same), stateCondition(e, c), linkCondition(a, e)} {
		if cond.Text != "" {
			out = append(out, cond)
		}
	}
	return out, len(out) > 0
}

// linkCondition notes a figure for a link whose generation the accept
// block does not state.
func linkCondition(a *plan.Accept, e *plan.SpecEntry) results.Condition {
	if e.PCIeGen == 0 || a.PCIeGen != 0 {
		return results.Condition{}
	}
	return results.Condition{Kind: results.ConditionLink, Unstated: true, Text: fmt.Sprintf("the spec is for a PCIe Gen %d link; the link of the drive under test is not stated (set pcie_gen in the accept block)", e.PCIeGen)}
}

// sizeText names a workload's transfer size as the bs row of
// workload.Options writes it, in tables and step names alike.
func sizeText(w workload.Workload) string {
	if len(w.BSSplit) > 0 {
		return "a mix of transfer sizes"
	}
	return workload.Lookup("bs").Text(&w)
}

func bsCondition(e *plan.SpecEntry, c Candidate) results.Condition {
	switch {
	case e.BS == 0:
		return results.Condition{Kind: results.ConditionBlockSize, Unstated: true, Text: "the spec does not state a block size, so its own conditions are unknown; measured at " + sizeText(c.Workload)}
	case c.Workload.BS != e.BS || len(c.Workload.BSSplit) > 0:
		spec := sizeText(workload.Workload{BS: e.BS})
		return results.Condition{Kind: results.ConditionBlockSize, Text: fmt.Sprintf("spec at %s blocks, measured at %s: no step ran rw = %s at %s",
			spec, sizeText(c.Workload), e.RW, spec)}
	}
	return results.Condition{}
}

// depthText writes a queue depth and job count: "QD32 x 4 jobs".
func depthText(qd, jobs int) string {
	if jobs == 0 {
		return fmt.Sprintf("QD%d", qd)
	}
	unit := "jobs"
	if jobs == 1 {
		unit = "job"
	}
	return fmt.Sprintf("QD%d x %d %s", qd, jobs, unit)
}

func depthCondition(e *plan.SpecEntry, f specFigure, c Candidate, same []Candidate) results.Condition {
	measured := depthText(c.Workload.IODepth, c.Workload.NumJobs)
	deepest := slices.MaxFunc(same, func(a, b Candidate) int {
		return cmp.Compare(candidateOutstanding(a), candidateOutstanding(b))
	})
	maxOut := candidateOutstanding(deepest)
	out := candidateOutstanding(c)
	if !specDepthStated(e) {
		// One rule for an unstated condition: the spec's own conditions
		// are unknown, so a miss is never "under the spec's conditions";
		// the same case always warns, with this reason.
		s := "the spec does not state a queue depth, so its own conditions are unknown; compared with the best point, " + measured
		if f.higher && out == maxOut && hasShallower(same, maxOut) {
			s += ", the deepest this plan measured, so the drive may reach more beyond it"
		}
		return results.Condition{Kind: results.ConditionQueueDepth, Unstated: true, Text: s}
	}
	spec := fmt.Sprintf("spec at %s (%s)", depthText(max(e.IODepth, 1), e.NumJobs), outstandingText(specOutstanding(e)))
	switch {
	case (e.IODepth == 0 || e.IODepth == c.Workload.IODepth) && (e.NumJobs == 0 || e.NumJobs == c.Workload.NumJobs):
		return results.Condition{}
	case specOutstanding(e) > maxOut:
		return results.Condition{Kind: results.ConditionQueueDepth, Text: fmt.Sprintf("%s, beyond this plan's deepest point, %s (%d)", spec, depthText(deepest.Workload.IODepth, deepest.Workload.NumJobs), maxOut)}
	case specOutstanding(e) == out:
		return results.Condition{Kind: results.ConditionQueueDepth, Text: fmt.Sprintf("%s; measured at %s (%d)", spec, measured, out)}
	}
	return results.Condition{Kind: results.ConditionQueueDepth, Text: fmt.Sprintf("%s; the closest measured is %s (%d)", spec, measured, out)}
}

// outstandingText says how many I/Os are outstanding: "128 outstanding
// I/Os".
func outstandingText(n int) string {
	if n == 1 {
		return "1 outstanding I/O"
	}
	return fmt.Sprintf("%d outstanding I/Os", n)
}

// hasShallower reports whether any candidate has fewer outstanding I/Os.
func hasShallower(cands []Candidate, than int) bool {
	return slices.ContainsFunc(cands, func(c Candidate) bool { return candidateOutstanding(c) < than })
}

func stateCondition(e *plan.SpecEntry, c Candidate) results.Condition {
	switch {
	case e.State == "steady" && c.State == "steady":
		return results.Condition{}
	case e.State == "steady" && c.State == "unsteady":
		return results.Condition{Kind: results.ConditionDriveState, Text: "spec in steady state; this profile's steady-state search ended without reaching it"}
	case e.State == "steady":
		return results.Condition{Kind: results.ConditionDriveState, Text: "spec in steady state; this step ran without a steady-state search (a steady_state block in its profile)"}
	case e.State == "fresh" && c.WrittenBy != "":
		return results.Condition{Kind: results.ConditionDriveState, Text: fmt.Sprintf("spec fresh out of the box; the drive had been written before this step (by %s)", c.WrittenBy)}
	}
	return results.Condition{}
}
