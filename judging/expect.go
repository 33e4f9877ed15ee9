package judging

import (
	"fmt"
	"strings"

	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// IsExpectVerdict reports whether v is the verdict of an expectation.
func IsExpectVerdict(v results.Verdict) bool {
	_, ok := v.ExpectProfile()
	return ok
}

// Expect evaluates each of n's expectations on its record, against the
// drive's spec (a checkpoint's on each of its passes); a step that failed or was skipped is reported as such,
// not judged, so it gets no verdicts.
func Expect(n *plan.Node, rec *results.Record, spec []*plan.SpecEntry) []results.Verdict {
	if n.Kind == plan.KindCheckpoint {
		return checkpointExpect(n, rec, spec)
	}
	if rec.Status != results.StatusOK || rec.Result == nil {
		return nil
	}
	point := results.StepWithin(n.Name, n.Drive)
	m := Measured(rec.Result)
	var out []results.Verdict
	for _, e := range n.Expect {
		v := results.Verdict{Check: results.ExpectCheck(n.Source), Drive: n.Drive, Subject: point + ": " + e.Text, Where: e.Where}
		j, err := e.Eval(m, spec)
		switch {
		case err != nil:
			v.Status, v.Code, v.Message = results.VerdictError, results.CodeCannotJudge, fmt.Sprintf("%s: %s cannot be judged: %v", point, e.Text, err)
		case j.Holds:
			v.Status, v.Code, v.Message = results.VerdictPass, results.CodeHolds, expectMessage(point, e.Text, j)
		default:
			v.Status, v.Code, v.Message = results.VerdictFail, results.CodeDoesNotHold, expectMessage(point, e.Text, j)
		}
		out = append(out, v)
	}
	if v := AU(n, rec); v != nil {
		out = append(out, *v)
	}
	return out
}

// expectMessage says what was judged and with which values:
// "4k / iodepth=4: result.read.iops >= 100000 (result.read.iops = 81234)".
func expectMessage(point, text string, j plan.Judgement) string {
	msg := point + ": " + text
	if !j.Holds {
		msg += " does not hold"
	}
	if len(j.Values) > 0 {
		msg += " (" + strings.Join(j.Values, ", ") + ")"
	}
	return msg
}
