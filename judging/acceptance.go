package judging

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// Spec-sheet acceptance: every figure of a drive's spec is compared with
// the measured point whose conditions come closest to the figure's (same
// I/O pattern; then the same block size; the same drive state; the
// nearest number of outstanding I/Os; the best figure), under the accept
// block's tolerance. Each way the point's conditions differ from the
// spec's is said in plain words, and a figure missed under other
// conditions is a warning rather than a failure: not like with like.

// Accept compares a drive's spec with the points measured on it: a row
// for every figure of each entry the accept block names (every entry
// when it names none), and a verdict for every row that is not skipped.
func Accept(a *plan.Accept, spec []*plan.SpecEntry, drive string, cands []Candidate) ([]results.AcceptanceRow, []results.Verdict) {
	var rows []results.AcceptanceRow
	var verdicts []results.Verdict
	for _, e := range spec {
		if len(a.Entries) > 0 && !slices.Contains(a.Entries, e.Name) {
			continue
		}
		for _, metric := range results.SpecFigureOrder(e.Values) {
			row := acceptRow(a, e, metric, cands, drive)
			rows = append(rows, row)
			if row.Verdict != results.VerdictSkip {
				figure := row.Comparison
				verdicts = append(verdicts, results.Verdict{Check: a.Name, Drive: drive, Subject: row.Subject(), Status: row.Verdict, Code: row.Code,
					Message: RowMessage(row.Subject(), row.Reason, row.Conditions), Figure: &figure})
			}
		}
	}
	return rows, verdicts
}

// acceptRow compares one figure of a spec entry with the best-matching
// candidate.
func acceptRow(a *plan.Accept, e *plan.SpecEntry, metric string, cands []Candidate, drive string) results.AcceptanceRow {
	row := results.AcceptanceRow{Spec: e.Name, Comparison: results.Comparison{Metric: metric, Claimed: e.Values[metric], TolerancePct: a.TolerancePct}}
	f, measurable := figureOf(metric)
	if !measurable {
		return skipRow(row, results.CodeNotMeasurable, fmt.Sprintf("drivebench does not measure %s; check it by other means", metric))
	}
	row.Unit, row.Better = f.unit, "lower"
	if f.higher {
		row.Better = "higher"
	}
	switch {
	case e.RW == "":
		return skipRow(row, results.CodeNoPattern, "the spec entry states no rw, so no step can be matched with it; add the pattern it was measured with, such as rw = \"randread\"")
	case e.PCIeGen != 0 && a.PCIeGen != 0 && e.PCIeGen != a.PCIeGen:
		return skipRow(row, results.CodeOtherLink, fmt.Sprintf("the figure is for a PCIe Gen %d link, and the drive under test is on Gen %d", e.PCIeGen, a.PCIeGen))
	case row.Claimed <= 0:
		return skipRow(row, results.CodeNoClaim, fmt.Sprintf("the spec claims %s %s, which no measurement can be compared with", plan.FormatNumber(row.Claimed), f.unit))
	}
	same := slices.DeleteFunc(slices.Clone(cands), func(c Candidate) bool { return c.Workload.RW != e.RW })
	if len(same) == 0 {
		row.Verdict, row.Code = results.VerdictWarn, results.CodeNotMeasured
		row.Reason = fmt.Sprintf("not measured: no profile of this plan ran rw = %s on drive %s; add one to check this figure", e.RW, drive)
		return row
	}
	best := bestCandidate(e, f, same)
	row.StepID, row.Step = best.Record.StepID, cmp.Or(best.Step, best.Record.Name)
	var differs bool
	row.Conditions, differs = conditions(a, e, f, best, same)
	judge(&row, f, f.read(best.Total), differs)
	return row
}

func skipRow(row results.AcceptanceRow, code, reason string) results.AcceptanceRow {
	row.Verdict, row.Code, row.Reason = results.VerdictSkip, code, reason
	return row
}

// judge sets the measured figure, the ratio, the verdict and its code: a
// figure missed under conditions that differ from the spec's is a
// warning.
func judge(row *results.AcceptanceRow, f specFigure, measured float64, differs bool) {
	ratio := measured / row.Claimed
	row.Measured, row.Ratio = &measured, &ratio
	tol := row.TolerancePct / 100
	met := f.higher && measured >= row.Claimed*(1-tol) || !f.higher && measured <= row.Claimed*(1+tol)
	switch {
	case met:
		row.Verdict, row.Code = results.VerdictPass, results.CodeWithin
	case differs:
		row.Verdict, row.Code = results.VerdictWarn, results.CodeConditionsDiffer
	case f.higher:
		row.Verdict, row.Code = results.VerdictFail, results.CodeShort
	default:
		row.Verdict, row.Code = results.VerdictFail, results.CodeOver
	}
	row.Reason, _ = ComparedReason(row.Code, row.Comparison, nil)
}
