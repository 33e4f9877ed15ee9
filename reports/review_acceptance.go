package reports

import (
	"fmt"
	"strings"

	"github.com/drivebench/drivebench/format"
)

// docAcceptance sets each drive's spec sheet against what was measured,
// figure by figure, skipped figures included, with the reason for each
// verdict and the ways the conditions differ.
func docAcceptance(d *document, s *Summary) {
	if len(s.Acceptance) == 0 {
		return
	}
	d.heading(2, plain("Spec acceptance"))
	d.para(plain("Each figure of a drive's spec sheet against the measurement whose conditions come closest to the figure's. " +
		"A figure missed under other conditions than the spec's is a warning, not a failure: not like with like. " +
		"Figures drivebench cannot compare are listed as skipped."))
	groups := acceptGroups(s.Acceptance)
	shown := map[string]bool{}
	for _, g := range groups {
		if !shown[g.drive] {
			d.heading(3, plain(orDash(g.drive)))
			shown[g.drive] = true
		}
		d.para(acceptGroupText(g)...)
		d.richTable(acceptanceColumns, acceptanceRows(g))
	}
}

var acceptanceColumns = []column{
	{title: "Spec"}, {title: "Metric"}, {"Claimed", true}, {title: "Measured"}, {"Ratio", true},
	{title: "Verdict"}, {title: "Reason and conditions"},
}

// acceptGroupText names the accept block and its tolerance, and counts
// its verdicts.
func acceptGroupText(g acceptGroup) []span {
	text := []span{plain("Accept block "), mono(orDash(g.accept))}
	if tol, ok := g.tolerance(); ok {
		text = append(text, plain(", tolerance "+format.Plain(tol)+"%"))
	}
	return append(text, plain(": "+g.tallyText()+"."))
}

func acceptanceRows(g acceptGroup) [][][]span {
	var rows [][][]span
	for _, a := range g.rows {
		measured, ratio := format.Dash, format.Dash
		if a.Measured != nil {
			measured = acceptValue(a, *a.Measured, true)
			if a.Step != "" {
				measured += "\nat " + stepWithin(a.Step, a.Drive)
			}
		}
		if a.Ratio != nil {
			ratio = percentText(*a.Ratio * 100)
		}
		rows = append(rows, [][]span{
			spans(a.Spec), spans(a.Metric), spans(acceptValue(a, a.Claimed, false)), spans(measured), spans(ratio),
			{verdict(a.Verdict)}, spans(reasonText(a)),
		})
	}
	return rows
}

// reasonText is a row's reason, then each of its conditions on a line of
// its own.
func reasonText(a AcceptanceRow) string {
	lines := []string{fullStop(a.Reason)}
	for _, c := range a.Conditions {
		lines = append(lines, fmt.Sprintf("• %s", c))
	}
	return orDash(strings.TrimSpace(strings.Join(lines, "\n")))
}

// fullStop ends text with a full stop, unless it is empty or ends a
// sentence already.
func fullStop(text string) string {
	text = strings.TrimSpace(text)
	if text == "" || strings.HasSuffix(text, ".") || strings.HasSuffix(text, "!") || strings.HasSuffix(text, "?") {
		return text
	}
	return text + "."
}
