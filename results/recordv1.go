package results

import (
	"fmt"
	"strings"

	"github.com/drivebench/drivebench/metrics"
)

// RecordSchemaV1 is the schema of records written before verdicts
// carried their judgement as data. Such a record is still read: the
// reader derives what version 2 records hold from what version 1 did.
const RecordSchemaV1 = "drivebench/record/v1"

// fromV1 gives a version 1 record the fields version 2 added, where its
// own data allows: the codes, subjects and figures of its verdicts and
// acceptance rows, the code of its steady-state judgement, its drive's
// thermal summary, the rounds an aggregate used, why an adaptive search
// stopped and why a skipped step was not run. The sentences of version 1 are fixed, since no
// drivebench writes them any more, so reading the few it must from them
// (the subject of an expectation, the rounds an aggregate's log names,
// the line a search logged last, a skipped step's error)
// cannot be broken by a later rewording.
func (r *Record) fromV1(m *Manifest) {
	for i := range r.Acceptance {
		r.Acceptance[i].Code = v1RowCode(r.Acceptance[i], specEntry(m, r.Drive, r.Acceptance[i].Spec))
	}
	rows := judgedRows(r.Acceptance)
	for i := range r.Verdicts {
		v := &r.Verdicts[i]
		switch {
		case r.Kind == "acceptance" && len(rows) > 0:
			row := rows[0]
			rows = rows[1:]
			figure := row.Comparison
			v.Subject, v.Code, v.Figure = row.Subject(), row.Code, &figure
		default:
			v.Subject, v.Code = v1Subject(r, *v), v1Code(*v)
		}
	}
	if r.Status == StatusSkipped && r.Skipped == "" {
		r.Skipped = strings.TrimSpace(strings.TrimPrefix(r.Error, "not run: "))
	}
	if s := r.SteadyState; s != nil && s.Code == "" {
		s.Code = v1SteadyCode(*s)
	}
	if r.Thermal == nil && r.Result != nil {
		r.Thermal = metrics.SummarizeThermal(r.Result.Thermal)
	}
	if r.Kind == "adaptive" && r.Search == nil && r.Error == "" && len(r.Log) > 0 {
		r.Search = v1SearchEnd(r.Log[len(r.Log)-1], len(r.Points))
	}
	if r.Kind == "aggregate" && r.Uses == nil {
		for _, line := range r.Log {
			if name, ok := strings.CutPrefix(line, "uses round "); ok {
				r.Uses = append(r.Uses, name)
			}
		}
	}
}

// judgedRows are the acceptance rows that gave a verdict, in order: a
// version 1 acceptance step recorded one verdict for each.
func judgedRows(rows []AcceptanceRow) []AcceptanceRow {
	var out []AcceptanceRow
	for _, a := range rows {
		if a.Verdict != VerdictSkip {
			out = append(out, a)
		}
	}
	return out
}

// v1RowCode is the code of a version 1 acceptance row, from its verdict
// and figures and the spec entry it judged (the manifest's); "" for a
// skipped row whose cause they leave open (an entry the manifest does not
// hold; no claim, on an entry for a link that may be another).
func v1RowCode(a AcceptanceRow, e *SpecEntry) string {
	_, _, measurable := SpecFigure(a.Metric)
	switch {
	case a.Verdict == VerdictSkip && !measurable:
		return CodeNotMeasurable
	case a.Verdict == VerdictSkip && e == nil:
		return ""
	case a.Verdict == VerdictSkip && e.RW == "":
		return CodeNoPattern
	case a.Verdict == VerdictSkip && a.Claimed > 0:
		// An entry with rw and a claim is skipped only for another
		// link than the accept block's.
		return CodeOtherLink
	case a.Verdict == VerdictSkip && e.PCIeGen == 0:
		return CodeNoClaim
	case a.Verdict == VerdictSkip:
		// No claim, on an entry for a link that may be another.
		return ""
	case a.Measured == nil:
		return CodeNotMeasured
	case a.Verdict == VerdictPass:
		return CodeWithin
	case a.Verdict == VerdictWarn:
		return CodeConditionsDiffer
	case a.Better == "lower":
		return CodeOver
	}
	return CodeShort
}

// v1Subject is what a version 1 verdict judged: its own subject when it
// has one; an expectation's point and expression, which its message
// begins with ("iodepth=4: result.read.iops >= 1000 does not hold
// (result.read.iops = 812)"); else the step, named within its drive.
func v1Subject(r *Record, v Verdict) string {
	if v.Subject != "" {
		return v.Subject
	}
	point := StepWithin(r.Name, r.Drive)
	if _, ok := v.ExpectProfile(); !ok || !strings.HasPrefix(v.Message, point+": ") {
		return point
	}
	msg := v.Message
	if v.Status == VerdictError {
		msg, _, _ = strings.Cut(msg, " cannot be judged: ")
		return msg
	}
	if strings.HasSuffix(msg, ")") {
		if i := strings.LastIndex(msg, " ("); i > 0 {
			msg = msg[:i]
		}
	}
	return strings.TrimSuffix(msg, " does not hold")
}

// v1Code is the code of a version 1 verdict other than an acceptance
// row's: an expectation's by its status, an adaptive search's by its
// status, any other a hook's.
func v1Code(v Verdict) string {
	_, expectation := v.ExpectProfile()
	switch {
	case expectation && v.Status == VerdictPass:
		return CodeHolds
	case expectation && v.Status == VerdictFail:
		return CodeDoesNotHold
	case expectation:
		return CodeCannotJudge
	case strings.HasPrefix(v.Check, adaptivePrefix) && v.Status == VerdictWarn:
		return CodeMaxPoints
	case strings.HasPrefix(v.Check, adaptivePrefix) && strings.HasPrefix(v.Message, "next_point asked for a point that cannot run"):
		return CodeBadPoint
	case v.Status == VerdictError:
		return CodeHookError
	}
	return CodeHook
}

// v1SearchEnd reads why an adaptive search stopped from the line a
// version 1 record logged last; nil when that line says nothing of it
// (a search interrupted, or one whose hook printed last).
func v1SearchEnd(line string, points int) *SearchEnd {
	var n int
	if _, err := fmt.Sscanf(line, "next_point returned None after %d points", &n); err == nil {
		return &SearchEnd{Code: SearchNone, Points: n}
	}
	if _, err := fmt.Sscanf(line, "stopped after max_points = %d points", &n); err == nil {
		return &SearchEnd{Code: SearchMaxPoints, Points: n}
	}
	rest, ok := strings.CutPrefix(line, "next_point asked again for ")
	if point, converged := strings.CutSuffix(rest, ", measured already: the search has converged"); ok && converged {
		return &SearchEnd{Code: SearchConverged, Points: points, Point: point}
	}
	return nil
}

// v1SteadyCode is the code of a version 1 steady-state judgement, from
// its fields; "" for one of SNIA's rule recorded before the window's
// range and limits were, whose message alone says it.
func v1SteadyCode(s SteadyState) string {
	switch {
	case s.Rule == "snia" && s.RangeLimitPct == 0:
		return ""
	case s.Reached:
		return SteadyReached
	case s.Exhausted:
		return SteadyNotReached
	case s.Rule == "snia" && s.WindowFirst == 0:
		return SteadyTooFewRounds
	case s.Message == "the steady-state hook failed, so no round can be judged":
		return SteadyHookError
	}
	return SteadyNotYet
}

// specEntry is the entry of drive's spec sheet named name in the
// manifest; nil when there is none.
func specEntry(m *Manifest, drive, name string) *SpecEntry {
	if m == nil {
		return nil
	}
	for _, d := range m.Drives {
		if d.Name != drive {
			continue
		}
		for i := range d.Spec {
			if d.Spec[i].Name == name {
				return &d.Spec[i]
			}
		}
	}
	return nil
}
