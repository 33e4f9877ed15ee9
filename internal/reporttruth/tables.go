package reporttruth

import (
	"fmt"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/reports"
	"github.com/drivebench/drivebench/results"
)

// Two tables of a report hold headlines and aggregates rather than
// records: the Conclusion, each profile's peak with its rank and the spec
// figures compared with it, and the spec acceptance, each spec figure
// against the measurement it was compared with. Their cells are checked
// as sentences are, against the rows of report.json and the records.

// table is a Markdown table of the report, with the headings it is
// under: its header's titles and its rows' cells.
type table struct {
	u      unit
	titles []string
	rows   [][]string
}

// cell is a row's cell under title; "" when the table has no such column.
func (t table) cell(row []string, title string) string {
	i := slices.Index(t.titles, title)
	if i < 0 || i >= len(row) {
		return ""
	}
	return row[i]
}

// markdownTables are the tables of a Markdown report.
func markdownTables(md string) []table {
	var out []table
	var cur unit
	var t *table
	code := false
	for _, line := range strings.Split(md, "\n") {
		isRow := !code && strings.HasPrefix(line, "|")
		if !isRow && t != nil {
			out = append(out, *t)
			t = nil
		}
		switch {
		case strings.HasPrefix(line, "```"):
			code = !code
		case code:
		case strings.HasPrefix(line, "#"):
			cur = heading(cur, line)
		case isRow && t == nil:
			t = &table{u: cur, titles: cells(line)}
		case isRow && strings.HasPrefix(line, "|---") || isRow && strings.HasPrefix(line, "|--:"):
		case isRow:
			t.rows = append(t.rows, cells(line))
		}
	}
	if t != nil {
		out = append(out, *t)
	}
	return out
}

// cells splits a table row into its cells, escaped pipes kept.
func cells(line string) []string {
	line = strings.TrimSuffix(strings.TrimPrefix(line, "| "), " |")
	parts := strings.Split(strings.ReplaceAll(line, `\|`, "\x00"), " | ")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(p, "\x00", "|")
	}
	return parts
}

// checkTables checks the Conclusion's and the spec acceptance's tables.
func checkTables(r *Report) []Falsehood {
	var out []Falsehood
	for _, t := range markdownTables(r.Markdown) {
		var check func(*scope, table, []string) []string
		switch t.u.h2 {
		case "Conclusion":
			check = checkConclusionRow
		case "Spec acceptance":
			check = checkAcceptanceRow
		default:
			continue
		}
		for _, row := range t.rows {
			sc := newScope(r, t.u)
			for _, p := range check(sc, t, row) {
				out = append(out, Falsehood{Where: t.u.where(), Sentence: "| " + strings.Join(row, " | ") + " |", Kind: t.u.h2 + " table", Problem: p})
			}
		}
	}
	return out
}

// checkConclusionRow checks a profile's headline in the Conclusion: the
// peak of its table by docs/figures.md, with its figures, flags and
// latency (a paced row's service latency first), its rank among the
// drives compared, and the spec figures compared with the table.
func checkConclusionRow(sc *scope, t table, row []string) []string {
	profile, drive := t.cell(row, "Profile"), t.cell(row, "Drive")
	var tab *reports.ProfileResult
	for i := range sc.r.Summary.Results {
		rt := &sc.r.Summary.Results[i]
		if rt.Profile == profile && (drive == rt.Drive || strings.HasPrefix(drive, rt.Drive+" (")) {
			tab = rt
		}
	}
	if tab == nil {
		if sc.application(profile) {
			return nil
		}
		return []string{"names no table of report.json, nor an application run"}
	}
	peak, ok := sc.peak(tab)
	if !ok {
		return []string{"no row of the table completed"}
	}
	var p problems
	whose := "the table's peak"
	f := peak.Total
	headline := t.cell(row, "Headline")
	want := format.Count(f.IOPS) + " IOPS"
	switch {
	case tab.Headline == "bw":
		want = sc.bw(f.BWBytes)
	case tab.Headline == "lat" && f.MeanLatNs != nil:
		want = format.Latency(*f.MeanLatNs) + " mean"
	}
	note := ""
	if i := strings.Index(headline, " (⚠"); i >= 0 {
		headline, note = headline[:i], headline[i:]
	}
	p.eq("headline", headline, want, whose)
	checkFlags(&p, note, peak, whose)
	atText := t.cell(row, "At")
	for _, rev := range sc.r.Summary.EarlierRevisions {
		marked := strings.Contains(atText, rev.Marker)
		if marked != (peak.PlanHash == rev.Hash) {
			p.add("at: the mark %s of the plan revision %s is %s, the peak's result is of %s", rev.Marker, rev.Hash[:min(8, len(rev.Hash))],
				cond(marked, "given", "missing"), cond(peak.PlanHash == "", "the current revision", peak.PlanHash[:min(8, len(peak.PlanHash))]))
		}
		atText = strings.ReplaceAll(atText, rev.Marker, "")
	}
	if at, ok := findRow(tab.Rows, atText, isCurve(tab)); !ok || at.StepID != peak.StepID {
		p.add("at: says %s, the peak is %s", t.cell(row, "At"), cond(pointName(peak, isCurve(tab)) == "", "the single run", pointName(peak, isCurve(tab))))
	}
	checkWindowName(&p, "at", t.cell(row, "At"), peak)
	p.eq("mean latency", t.cell(row, "Mean latency"), headlineLatency(f.ServiceMeanNs, f.MeanLatNs), whose)
	p.eq("p99", t.cell(row, "p99"), headlineLatency(uintPtr(f.ServiceP99Ns), uintPtr(f.P99Ns)), whose)
	if rank := t.cell(row, "Rank"); rank != "" {
		entries, _ := sc.ranked(profile)
		i := slices.IndexFunc(entries, func(e rankEntry) bool { return e.run == "" && e.drive == tab.Drive })
		p.eq("rank", rank, fmt.Sprintf("%d of %d", i+1, len(entries)), "the peaks of the section's tables")
	}
	if briefs := t.cell(row, "Spec sheet"); briefs != "" {
		p = append(p, sc.checkBriefs(tab, briefs)...)
	}
	return p
}

// checkWindowName holds the name of a row that combines a steady-state
// search's window to the window it is and whether steady state was
// reached: "window avg of rounds 2-6", "avg of rounds 3-5, not steady"
// (docs/figures.md, A row).
func checkWindowName(p *problems, figure, text string, r reports.Row) {
	if r.WindowFirst == 0 {
		return
	}
	want := fmt.Sprintf("window avg of rounds %d-%d", r.WindowFirst, r.WindowLast)
	if r.NotSteady {
		want = fmt.Sprintf("avg of rounds %d-%d, not steady", r.WindowFirst, r.WindowLast)
	}
	if !strings.Contains(text, "("+want+")") && !strings.HasPrefix(text, want) {
		p.add("%s: %q does not name the window its figures combine, %q", figure, text, want)
	}
}

// application reports whether name is a run of an application.
func (sc *scope) application(name string) bool {
	for _, a := range sc.r.Summary.Applications {
		for _, r := range a.Runs {
			if r.Name == name {
				return true
			}
		}
	}
	return false
}

// headlineLatency writes a headline's latency: the service latency with
// the one from each I/O's due time beside it for a paced row.
func headlineLatency(service, due *float64) string {
	switch {
	case due == nil:
		return "—"
	case service != nil:
		return format.Latency(*service) + " service (" + format.Latency(*due) + " from due time)"
	}
	return format.Latency(*due)
}

func uintPtr(v *uint64) *float64 {
	if v == nil {
		return nil
	}
	f := float64(*v)
	return &f
}

// checkBriefs checks the spec figures the Conclusion quotes beside a
// table: "WARN rand_read_4k iops: 8.7%", one a line, each the verdict and
// ratio of its acceptance record, measured on a row of the table.
func (sc *scope) checkBriefs(tab *reports.ProfileResult, cell string) []string {
	var p problems
	for _, brief := range strings.Split(cell, "<br>") {
		fields := strings.Fields(brief)
		if len(fields) < 3 {
			p.add("the spec figure %q is of no known form", brief)
			continue
		}
		a, ok := sc.acceptRow(tab.Drive, fields[1], strings.TrimSuffix(fields[2], ":"))
		if !ok {
			p.add("quotes %s %s, which no acceptance record of %s holds", fields[1], fields[2], tab.Drive)
			continue
		}
		if !slices.ContainsFunc(tab.Rows, func(r reports.Row) bool { return ownsStep(r, a.StepID) }) {
			p.add("quotes %s %s beside %s, which did not measure it", a.Spec, a.Metric, tab.Profile)
		}
		p.eq("verdict of "+a.Spec, fields[0], strings.ToUpper(a.Verdict), "its acceptance record")
		if a.Ratio != nil && len(fields) > 3 {
			p.eq("ratio of "+a.Spec, fields[3], format.Grouped(*a.Ratio*100, 1)+"%", "its acceptance record")
		}
	}
	return p
}

// ownsStep reports whether a row shows the step: its own, or a round it
// stands for.
func ownsStep(r reports.Row, id string) bool {
	return r.StepID == id || slices.ContainsFunc(r.Rounds, func(x reports.RoundResult) bool { return x.StepID == id })
}

// acceptRow is the acceptance record's row of a drive's spec figure.
func (sc *scope) acceptRow(drive, spec, metric string) (results.AcceptanceRow, bool) {
	for _, a := range sc.acceptRows(drive, "") {
		if a.Spec == spec && a.Metric == metric {
			return a, true
		}
	}
	return results.AcceptanceRow{}, false
}

// checkAcceptanceRow checks a spec figure against the measurement it was
// compared with: the acceptance record's, which must be the figure the
// profile's row shows for the step it names (docs/figures.md, Spec
// acceptance: one figure for one measurement), and its ratio to the
// claim.
func checkAcceptanceRow(sc *scope, t table, row []string) []string {
	a, ok := sc.acceptRow(sc.u.h3, t.cell(row, "Spec"), t.cell(row, "Metric"))
	if !ok {
		// A figure no accept block judged: a skip whose reason is the
		// report's, with nothing measured.
		if t.cell(row, "Measured") != "—" {
			return []string{"gives a measurement for a figure no acceptance record judged"}
		}
		return nil
	}
	var p problems
	measured, _, _ := strings.Cut(t.cell(row, "Measured"), "<br>")
	if a.Measured == nil {
		p.eq("measured", measured, "—", "the acceptance record")
		return p
	}
	p.eq("measured", measured, sc.acceptValue(a.Unit, *a.Measured), "the acceptance record")
	if a.Ratio != nil {
		p.eq("ratio", t.cell(row, "Ratio"), format.Grouped(*a.Ratio*100, 1)+"%", "the acceptance record")
		if a.Claimed != 0 {
			p.eq("ratio", format.Grouped(*a.Ratio*100, 1)+"%", format.Grouped(*a.Measured/a.Claimed*100, 1)+"%", "measured over claimed")
		}
	}
	p.eq("verdict", t.cell(row, "Verdict"), verdictMarks[a.Verdict]+" "+a.Verdict, "the acceptance record")
	if r, ok := sc.rowOf(a.StepID); ok {
		_, at, _ := strings.Cut(t.cell(row, "Measured"), "<br>")
		checkWindowName(&p, "measured", at, r)
		if v, ok := rowFigure(r, a.Metric); ok {
			p.eq("measured", measured, sc.acceptValue(a.Unit, v), "the profile's row of the step compared")
		}
	} else if a.StepID != "" {
		p.add("compares a step no row of report.json shows")
	}
	return p
}

// verdictMarks are the signs a verdict is shown with.
var verdictMarks = map[string]string{
	results.VerdictPass: "✅", results.VerdictFail: "❌", results.VerdictWarn: "⚠️", results.VerdictSkip: "⏭",
}

// acceptValue writes a measured spec figure in its unit.
func (sc *scope) acceptValue(unit string, v float64) string {
	switch unit {
	case "B/s":
		return sc.bw(v)
	case "IOPS":
		return format.Count(v) + " IOPS"
	case "µs":
		return format.Latency(v * 1e3)
	}
	return format.Plain(v) + " " + unit
}

// rowOf is the row of this run's tables that shows step id.
func (sc *scope) rowOf(id string) (reports.Row, bool) {
	for _, t := range sc.r.Summary.Results {
		for _, r := range t.Rows {
			if id != "" && ownsStep(r, id) && r.Total != nil {
				return r, true
			}
		}
	}
	return reports.Row{}, false
}

// rowFigure is the figure of a row a spec metric compares: its IOPS or
// bandwidth (bytes/s), or its mean latency in µs; ok is false for a
// figure a row does not show whole (a percentile of one direction).
func rowFigure(r reports.Row, metric string) (float64, bool) {
	switch metric {
	case "iops":
		return r.Total.IOPS, true
	case "bw":
		return r.Total.BWBytes, true
	case "lat_us":
		if r.Total.MeanLatNs != nil {
			return *r.Total.MeanLatNs / 1e3, true
		}
	}
	return 0, false
}
