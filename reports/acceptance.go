package reports

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// buildAcceptance gathers the rows of every acceptance step, in step
// order and, within a step, in the order of the drive's spec, their
// reasons in the report's unit u.
func buildAcceptance(steps []step, u bwUnit) []AcceptanceRow {
	out := []AcceptanceRow{}
	for _, s := range steps {
		if !s.is(kindAcceptance) || s.rec == nil {
			continue
		}
		for _, a := range s.rec.Acceptance {
			row := acceptanceRow(s, a)
			if reason, ok := judging.ComparedReason(a.Code, a.Comparison, u.bandwidths()); ok {
				row.Reason = reason
			}
			out = append(out, row)
		}
	}
	return out
}

// verdictMessage is a verdict's message in the report's unit u: an
// acceptance verdict's said again from its figures (the engine states
// bandwidths in the sheet's MB/s: "1,867 MB/s measured against 6,200
// MB/s claimed (30.1%): ..."); any other's as recorded.
func verdictMessage(v results.Verdict, u bwUnit) string {
	if v.Figure == nil {
		return v.Message
	}
	reason, ok := judging.ComparedReason(v.Code, *v.Figure, u.bandwidths())
	if !ok {
		return v.Message
	}
	return judging.RowMessage(v.Subject, reason, v.Figure.Conditions)
}

func acceptanceRow(s step, a results.AcceptanceRow) AcceptanceRow {
	row := AcceptanceRow{
		Drive: s.info.Drive, Accept: s.source(), Spec: a.Spec, Metric: a.Metric,
		Unit: a.Unit, Better: a.Better, Claimed: finite(a.Claimed), TolerancePct: finite(a.TolerancePct),
		Verdict: a.Verdict, Code: a.Code, Reason: a.Reason, Conditions: results.ConditionTexts(a.Conditions),
		StepID: a.StepID, Step: a.Step,
	}
	if a.Measured != nil {
		m := finite(*a.Measured)
		row.Measured = &m
	}
	if a.Ratio != nil {
		r := finite(*a.Ratio)
		row.Ratio = &r
	}
	return row
}

// acceptGroup is the rows one accept block gave for one drive.
type acceptGroup struct {
	drive, accept string
	rows          []AcceptanceRow
}

// acceptGroups splits the rows by drive and accept block, in the order
// they first appear.
func acceptGroups(rows []AcceptanceRow) []acceptGroup {
	var out []acceptGroup
	index := map[[2]string]int{}
	for _, a := range rows {
		key := [2]string{a.Drive, a.Accept}
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, acceptGroup{drive: a.Drive, accept: a.Accept})
		}
		out[i].rows = append(out[i].rows, a)
	}
	return out
}

// tallyText counts a group's verdicts: "9 figures (1 pass, 3 warn, 5
// skip)", known verdicts first.
func (g acceptGroup) tallyText() string {
	order := []string{results.VerdictPass, results.VerdictFail, results.VerdictWarn, results.VerdictSkip}
	counts := map[string]int{}
	for _, a := range g.rows {
		if counts[a.Verdict] == 0 && !slices.Contains(order, a.Verdict) {
			order = append(order, a.Verdict)
		}
		counts[a.Verdict]++
	}
	var parts []namedCount
	for _, v := range order {
		parts = append(parts, namedCount{strings.ReplaceAll(orDash(v), "_", " "), counts[v]})
	}
	return countsText(format.Counted(len(g.rows), "figure"), parts)
}

// tolerance is the group's tolerance when all its rows share one.
func (g acceptGroup) tolerance() (float64, bool) {
	for _, a := range g.rows[1:] {
		if a.TolerancePct != g.rows[0].TolerancePct {
			return 0, false
		}
	}
	return g.rows[0].TolerancePct, true
}

// acceptValue writes a claimed or measured figure in its unit: "87,243
// IOPS", "921.6 µs"; a claimed bandwidth as the sheet states it, in MB/s,
// and in the report's unit too when that is MiB/s ("6,200 MB/s (5,912.8
// MiB/s)"); a measured one in the report's unit, as its tables give it.
func acceptValue(a AcceptanceRow, v float64, measured bool, u bwUnit) string {
	switch {
	case a.Unit == "B/s" && measured:
		return u.text(v)
	case a.Unit == "B/s":
		return u.claim(v)
	}
	switch a.Unit {
	case "IOPS":
		return format.Count(v) + " IOPS"
	case "µs":
		return format.Latency(v * 1e3)
	}
	return specValue(a.Metric, v, u)
}

// acceptanceByTable finds, for each row of s.Acceptance, the table of the
// step it compared with: key profile and drive.
func acceptanceByTable(s *Summary) map[[2]string][]AcceptanceRow {
	owner := map[string][2]string{}
	for _, t := range s.Results {
		for _, r := range t.Rows {
			owner[r.StepID] = [2]string{t.Profile, t.Drive}
			for _, round := range r.Rounds {
				owner[round.StepID] = [2]string{t.Profile, t.Drive}
			}
		}
	}
	out := map[[2]string][]AcceptanceRow{}
	for _, a := range s.Acceptance {
		if key, ok := owner[a.StepID]; ok && a.StepID != "" {
			out[key] = append(out[key], a)
		}
	}
	return out
}

// acceptanceBrief is a row as the conclusion quotes it: "WARN
// rand_read_4k iops: 8.7%", the verdict in words, which every format and
// font shows alike.
func acceptanceBrief(a AcceptanceRow) string {
	text := strings.ToUpper(orDash(a.Verdict)) + " " + a.Spec + " " + a.Metric
	if a.Ratio != nil {
		text += ": " + percentText(*a.Ratio*100)
	}
	return text
}

// acceptanceSentence sums up a group for the conclusion: "Spec sheet of
// dut (spec-sheet): 9 figures (1 pass, 3 warn, 5 skip)."; "Spec sheet of
// dut: 2 figures no accept block judged." for the figures no block did.
func acceptanceSentence(g acceptGroup) string {
	if g.accept == "" {
		return fmt.Sprintf("Spec sheet of %s: %s no accept block judged.", orDash(g.drive), format.Counted(len(g.rows), "figure"))
	}
	return fmt.Sprintf("Spec sheet of %s (%s): %s.", orDash(g.drive), g.accept, g.tallyText())
}

// unjudgedRows lists the figures of the drives' spec sheets that no
// acceptance row judged, as skipped rows that say why: no profile ran
// the figure's conditions ("not measured"), or one did and no accept
// block compared it ("not judged"). So a sheet is read in full even when
// the plan has no accept block, or one that names only some entries.
func unjudgedRows(drives []Drive, judged []AcceptanceRow, steps []step) []AcceptanceRow {
	out := []AcceptanceRow{}
	for _, d := range drives {
		accept := ""
		if i := slices.IndexFunc(judged, func(a AcceptanceRow) bool { return a.Drive == d.Name }); i >= 0 {
			accept = judged[i].Accept
		}
		for _, e := range d.Spec {
			for _, metric := range results.SpecFigureOrder(e.Values) {
				if slices.ContainsFunc(judged, func(a AcceptanceRow) bool {
					return a.Drive == d.Name && a.Spec == e.Name && a.Metric == metric
				}) {
					continue
				}
				unit, better := metricUnit(metric)
				code, reason := unjudgedReason(d.Name, e, metric, accept, steps)
				out = append(out, AcceptanceRow{
					Drive: d.Name, Spec: e.Name, Metric: metric, Unit: unit, Better: better,
					Claimed: finite(e.Values[metric]), Verdict: results.VerdictSkip, Code: code, Conditions: []string{},
					Reason: reason,
				})
			}
		}
	}
	return out
}

// metricUnit is the unit of a spec figure in acceptance rows and which
// way passes, "higher" or "lower" (results.SpecFigure); empty for a
// figure drivebench does not measure.
func metricUnit(metric string) (unit, better string) {
	unit, higher, ok := results.SpecFigure(metric)
	switch {
	case !ok:
		return "", ""
	case higher:
		return unit, "higher"
	}
	return unit, "lower"
}

// unjudgedReason says why no accept block judged a figure of drive's
// sheet: what the run measured of its conditions, then what judging it
// takes. accept is the block that judged the drive's other figures, ""
// when none did.
func unjudgedReason(drive string, e SpecEntry, metric, accept string, steps []step) (code, reason string) {
	code, reason = ranText(drive, e, steps)
	if unit, _ := metricUnit(metric); unit == "" {
		code, reason = results.CodeNotMeasurable, "not measured: drivebench does not measure "+metric
	}
	if accept == "" {
		return code, reason + "; the plan has no accept block for drive " + drive + " to judge its sheet"
	}
	return code, reason + "; accept block " + accept + " leaves this entry out"
}

// ranText says what the run measured of a spec entry's conditions on a
// drive, a code and a sentence: "not measured: no profile ran 4KiB random read at QD32 x 4
// jobs", or "not judged: 4k-random-read / iodepth=32 ran its conditions".
func ranText(drive string, e SpecEntry, steps []step) (code, text string) {
	if e.RW == "" {
		return results.CodeNoPattern, "not measured: the spec entry states no rw, so no step can be matched with it"
	}
	pattern := rwWords(e.RW)
	if e.BS > 0 {
		pattern = format.BlockSize(e.BS) + " " + pattern
	}
	var same []step
	for _, s := range steps {
		w := s.workload()
		if s.is(kindProfile) && s.info.Drive == drive && s.status() == results.StatusOK && w != nil && !w.RateLimited() &&
			w.RW == e.RW && (e.BS == 0 || w.BS == e.BS && len(w.BSSplit) == 0) {
			same = append(same, s)
		}
	}
	if len(same) == 0 {
		return results.CodeNotMeasured, "not measured: no profile on " + drive + " ran " + pattern
	}
	depth := func(w *workload.Workload) bool {
		return (e.IODepth == 0 || w.IODepth == e.IODepth) && (e.NumJobs == 0 || w.NumJobs == e.NumJobs)
	}
	if i := slices.IndexFunc(same, func(s step) bool { return depth(s.workload()) }); i >= 0 {
		return results.CodeNotJudged, "not judged: " + results.StepWithin(same[i].info.Name, drive) + " ran its conditions"
	}
	var profiles []string
	for _, s := range same {
		if !slices.Contains(profiles, s.source()) {
			profiles = append(profiles, s.source())
		}
	}
	return results.CodeNotMeasured, "not measured: no profile on " + drive + " ran " + pattern + " at " + specDepth(e) +
		" (" + strings.Join(profiles, ", ") + " ran it at other queue depths)"
}

// specDepth writes the load a spec entry states: "QD32 x 4 jobs".
func specDepth(e SpecEntry) string {
	var parts []string
	if e.IODepth > 0 {
		parts = append(parts, "QD"+strconv.Itoa(e.IODepth))
	}
	if e.NumJobs > 0 {
		parts = append(parts, format.Counted(e.NumJobs, "job"))
	}
	return strings.Join(parts, " x ")
}
