package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/results"
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
			row.Reason = restateReason(row, u)
			out = append(out, row)
		}
	}
	return out
}

// restateReason is an acceptance row's reason with its bandwidths in the
// report's unit. The engine states them in the sheet's MB/s ("1,867 MB/s
// measured against 6,200 MB/s claimed (30.1%): more than 5% short ..."),
// which a MiB/s report restates from the row's own figures.
func restateReason(a AcceptanceRow, u bwUnit) string {
	if u != unitMiBps || a.Unit != "B/s" || a.Measured == nil || a.Ratio == nil {
		return a.Reason
	}
	head, rest, ok := strings.Cut(a.Reason, ": ")
	if !ok || !strings.Contains(head, " measured against ") || !strings.HasSuffix(head, ")") {
		return a.Reason
	}
	return u.text(*a.Measured) + " measured against " + u.claim(a.Claimed) + " claimed (" + percentText(*a.Ratio*100) + "): " + rest
}

// restateMessage is a verdict's message with the reason of the
// acceptance row it stands for restated in the report's unit (see
// restateReason); other verdicts' messages are left as they are.
func restateMessage(s step, v results.Verdict, u bwUnit) string {
	if !s.is(kindAcceptance) {
		return v.Message
	}
	subject := cmp.Or(v.Subject, legacySubject(s, v))
	for _, a := range s.rec.Acceptance {
		if a.Spec+" "+a.Metric == subject {
			return strings.Replace(v.Message, a.Reason, restateReason(acceptanceRow(s, a), u), 1)
		}
	}
	return v.Message
}

func acceptanceRow(s step, a results.AcceptanceRow) AcceptanceRow {
	row := AcceptanceRow{
		Drive: s.info.Drive, Accept: s.source(), Spec: a.Spec, Metric: a.Metric,
		Unit: a.Unit, Better: a.Better, Claimed: finite(a.Claimed), TolerancePct: finite(a.TolerancePct),
		Verdict: a.Verdict, Reason: a.Reason, Conditions: append([]string{}, a.Conditions...),
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
	return countsText(plural(len(g.rows), "figure"), parts)
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

// stepWithin is a step's name without the drive it ran on, as a table of
// that drive shows it: "random.randread / iodepth=64, numjobs=4".
func stepWithin(name, drive string) string {
	return strings.TrimPrefix(name, drive+" / ")
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
// dut (spec-sheet): 9 figures (1 pass, 3 warn, 5 skip)."
func acceptanceSentence(g acceptGroup) string {
	return fmt.Sprintf("Spec sheet of %s (%s): %s.", orDash(g.drive), cmp.Or(g.accept, "accept"), g.tallyText())
}
