package reports

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// WriteMarkdown writes the Summary as report.md: a review-style document a
// reviewer can paste into an article. Bandwidth is in decimal MB/s
// throughout, as reviews quote it.
func WriteMarkdown(w io.Writer, s *Summary) error {
	if s == nil {
		return errors.New("write Markdown report: no summary to write")
	}
	var b strings.Builder
	for _, section := range []func(*strings.Builder, *Summary){
		mdHeader, mdTestbed, mdDrives, mdMethodology, mdResults,
		mdPreconditioning, mdChecks, mdProblems,
	} {
		section(&b, s)
	}
	_, err := io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

// column is a table column: its title and whether it holds numbers, which
// are right-aligned.
type column struct {
	title   string
	numeric bool
}

// mdTable writes a Markdown table; cells are escaped here.
func mdTable(b *strings.Builder, cols []column, rows [][]string) {
	b.WriteString("|")
	for _, c := range cols {
		b.WriteString(" " + cell(c.title) + " |")
	}
	b.WriteString("\n|")
	for _, c := range cols {
		if c.numeric {
			b.WriteString("--:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for _, row := range rows {
		b.WriteString("|")
		for _, text := range row {
			b.WriteString(" " + cell(text) + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

// cell makes text safe inside a table cell: pipes escaped, line breaks
// kept as <br>.
func cell(text string) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "|", `\|`)
	return strings.ReplaceAll(text, "\n", "<br>")
}

// inline makes text safe on one line of prose or in a heading.
func inline(text string) string {
	return strings.Join(strings.Fields(text), " ")
}

// code writes text as a code span, with a fence longer than any run of
// backticks inside it.
func code(text string) string {
	fence := "`"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	if strings.HasPrefix(text, "`") || strings.HasSuffix(text, "`") {
		text = " " + text + " "
	}
	return fence + text + fence
}

func mdHeader(b *strings.Builder, s *Summary) {
	fmt.Fprintf(b, "# %s — drivebench report\n\n", inline(orDash(s.Plan.Name)))
	fmt.Fprintf(b, "- Plan: %s, hash %s\n", code(orDash(s.Plan.File)), code(orDash(s.Plan.Hash)))
	date := dash
	if !s.GeneratedAt.IsZero() {
		date = s.GeneratedAt.UTC().Format("2006-01-02 15:04 UTC")
	}
	fmt.Fprintf(b, "- Date: %s\n", date)
	fmt.Fprintf(b, "- drivebench version: %s\n", inline(orDash(s.Version)))
	fmt.Fprintf(b, "- %s\n", stepCountsText(s.Counts.Steps))
	fmt.Fprintf(b, "- %s\n", verdictCountsText(s.Counts.Checks))
	if n := s.Counts.Steps.Unlisted; n > 0 {
		fmt.Fprintf(b, "- Left out: %s of steps this plan no longer has\n", plural(n, "record"))
	}
	b.WriteString("\n")
}

func stepCountsText(c StepCounts) string {
	return countsText(plural(c.Total, "step"), []namedCount{
		{"ok", c.OK}, {"failed", c.Failed}, {"interrupted", c.Interrupted},
		{"skipped", c.Skipped}, {"not run", c.NotRun}, {"other status", c.Other},
	})
}

func verdictCountsText(c VerdictCounts) string {
	total := c.Pass + c.Fail + c.Warn + c.Error + c.Other
	return countsText(plural(total, "check verdict"), []namedCount{
		{"pass", c.Pass}, {"fail", c.Fail}, {"warn", c.Warn},
		{"error", c.Error}, {"other status", c.Other},
	})
}

type namedCount struct {
	name string
	n    int
}

// countsText writes "9 steps (8 ok, 1 failed)", leaving out zero counts.
func countsText(total string, counts []namedCount) string {
	var parts []string
	for _, c := range counts {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.name))
		}
	}
	if len(parts) == 0 {
		return total
	}
	return total + " (" + strings.Join(parts, ", ") + ")"
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func orDash(text string) string {
	if text == "" {
		return dash
	}
	return text
}

func mdTestbed(b *strings.Builder, s *Summary) {
	b.WriteString("## Testbed\n\n")
	t := s.Testbed
	if t.Name != "" || t.Description != "" {
		line := "**" + inline(orDash(t.Name)) + "**"
		if t.Description != "" {
			line += ": " + inline(t.Description)
		}
		b.WriteString(line + "\n\n")
	}
	var rows [][]string
	for _, f := range t.Declared {
		rows = append(rows, []string{f.Name, f.Value})
	}
	for _, f := range t.Detected {
		rows = append(rows, []string{f.Name + " (detected)", f.Value})
	}
	if len(rows) == 0 {
		b.WriteString("No facts were declared or detected.\n\n")
		return
	}
	mdTable(b, []column{{title: "Fact"}, {title: "Value"}}, rows)
}

func mdDrives(b *strings.Builder, s *Summary) {
	b.WriteString("## Drives\n\n")
	if len(s.Drives) == 0 {
		b.WriteString("The run lists no drives.\n\n")
	}
	for _, d := range s.Drives {
		fmt.Fprintf(b, "### %s\n\n", inline(orDash(d.Name)))
		mdTable(b, []column{{title: "Property"}, {title: "Value"}}, driveRows(d))
	}
}

func driveRows(d Drive) [][]string {
	path := code(d.Path)
	if d.Scratch || d.Path == "" {
		path = "scratch file in the results folder"
	}
	size := dash
	if d.SizeBytes > 0 {
		size = fmt.Sprintf("%s (%s bytes)", formatBytes(uint64(d.SizeBytes)), formatCount(float64(d.SizeBytes)))
	}
	rows := [][]string{{"Path", path}, {"Capacity", size}, {"Writable", yesNo(d.Writable)}}
	for _, f := range d.Facts {
		rows = append(rows, []string{f.Name, f.Value})
	}
	for _, e := range d.Spec {
		rows = append(rows, []string{"Spec: " + e.Name, specText(e)})
	}
	return rows
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

// specText writes a spec-sheet claim with its conditions:
// "1,000,000 IOPS (4KiB random read, QD32, 4 jobs)".
func specText(e SpecEntry) string {
	var values []string
	for _, metric := range slices.Sorted(maps.Keys(e.Values)) {
		values = append(values, specValue(metric, e.Values[metric]))
	}
	text := orDash(strings.Join(values, ", "))
	if cond := specConditions(e); cond != "" {
		text += " (" + cond + ")"
	}
	return text
}

// specValue writes one claimed figure in the report's units.
func specValue(metric string, v float64) string {
	switch {
	case metric == "iops":
		return formatCount(v) + " IOPS"
	case metric == "bw":
		return formatPlain(v/1e6) + " MB/s"
	case metric == "lat_us":
		return formatLatency(v*1e3) + " latency"
	case strings.HasSuffix(metric, "_us"):
		return formatLatency(v*1e3) + " " + strings.TrimSuffix(metric, "_us")
	}
	return formatPlain(v) + " " + metric
}

func specConditions(e SpecEntry) string {
	var parts []string
	var pattern []string
	if e.BS > 0 {
		pattern = append(pattern, formatBlockSize(e.BS))
	}
	if e.RW != "" {
		pattern = append(pattern, rwWords(e.RW))
	}
	if len(pattern) > 0 {
		parts = append(parts, strings.Join(pattern, " "))
	}
	if e.IODepth > 0 {
		parts = append(parts, fmt.Sprintf("QD%d", e.IODepth))
	}
	if e.NumJobs > 0 {
		parts = append(parts, plural(e.NumJobs, "job"))
	}
	if e.State != "" {
		parts = append(parts, e.State)
	}
	return strings.Join(parts, ", ")
}

// rwWords names an access pattern the way reviews do.
func rwWords(rw string) string {
	words := map[string]string{
		"read": "sequential read", "write": "sequential write",
		"randread": "random read", "randwrite": "random write",
		"rw": "sequential mixed", "randrw": "random mixed",
	}
	return cmp.Or(words[rw], rw)
}

func mdMethodology(b *strings.Builder, s *Summary) {
	b.WriteString("## Methodology\n\n")
	groups := []struct {
		title   string
		methods []Method
	}{
		{"Preconditions", s.Methodology.Preconditions},
		{"Profiles", s.Methodology.Profiles},
		{"Checks", s.Methodology.Checks},
	}
	for _, g := range groups {
		if len(g.methods) == 0 {
			continue
		}
		fmt.Fprintf(b, "### %s\n\n", g.title)
		for _, m := range g.methods {
			b.WriteString("- " + methodText(m) + "\n")
		}
		b.WriteString("\n")
	}
}

// methodText writes a method on one line: its name, drives, parameters
// and sweep.
func methodText(m Method) string {
	drives := "all drives"
	if len(m.Drives) > 0 {
		drives = strings.Join(m.Drives, ", ")
	}
	text := fmt.Sprintf("**%s** on %s", inline(orDash(m.Name)), inline(drives))
	var params []string
	for _, kv := range m.Params {
		params = append(params, code(inline(kv.Key+"="+kv.Value)))
	}
	if len(params) > 0 {
		text += ": " + strings.Join(params, ", ")
	}
	var dims []string
	for _, d := range m.Sweep {
		dims = append(dims, code(inline(d.Param))+" over "+inline(strings.Join(d.Values, ", ")))
	}
	if len(dims) > 0 {
		text += "; sweeps " + strings.Join(dims, " by ")
	}
	return text + "."
}

func mdResults(b *strings.Builder, s *Summary) {
	b.WriteString("## Results\n\n")
	if len(s.Results) == 0 {
		b.WriteString("The run has no profile steps.\n\n")
		return
	}
	b.WriteString("IOPS and bandwidth add reads and writes. Bandwidth is in MB/s " +
		"(decimal: 1 MB/s is 10^6 bytes per second). Latency is completion " +
		"latency, counted from the moment each I/O was due.\n\n")
	for _, t := range s.Results {
		fmt.Fprintf(b, "### %s on %s\n\n", inline(orDash(t.Profile)), inline(orDash(t.Drive)))
		cols, cells := plainColumns, plainCells
		if t.Mixed {
			cols, cells = mixedColumns, mixedCells
		}
		rows := make([][]string, len(t.Rows))
		for i, r := range t.Rows {
			rows[i] = cells(pointCell(r, len(t.Rows) > 1), r)
		}
		mdTable(b, cols, rows)
		b.WriteString(t.Highlight + "\n\n")
	}
}

var plainColumns = []column{
	{title: "Point"}, {title: "Status"}, {"IOPS", true}, {"MB/s", true},
	{"Mean latency", true}, {"p50", true}, {"p99", true}, {"p99.9", true},
}

var mixedColumns = []column{
	{title: "Point"}, {title: "Status"}, {"IOPS", true}, {"Read IOPS", true},
	{"Write IOPS", true}, {"MB/s", true}, {"Mean latency", true},
	{"p50 read / write", true}, {"p99 read / write", true}, {"p99.9 read / write", true},
}

// pointCell names a row's point and marks the peak when there are other
// rows to compare it with.
func pointCell(r Row, markPeak bool) string {
	point := cmp.Or(r.Point, "single run")
	if r.Peak && markPeak {
		return "**" + point + "** (peak)"
	}
	return point
}

func plainCells(point string, r Row) []string {
	f := r.Total
	if f == nil {
		return []string{point, statusText(r.Status), dash, dash, dash, dash, dash, dash}
	}
	return []string{
		point, statusText(r.Status), formatCount(f.IOPS), formatMBps(f.BWBytes),
		latencyText(f.MeanLatNs), nsText(f.P50Ns), nsText(f.P99Ns), nsText(f.P999Ns),
	}
}

func mixedCells(point string, r Row) []string {
	f := r.Total
	if f == nil {
		return []string{point, statusText(r.Status), dash, dash, dash, dash, dash, dash, dash, dash}
	}
	split := func(pick func(*Figures) *uint64) string {
		return dirNs(r.Read, pick) + " / " + dirNs(r.Write, pick)
	}
	return []string{
		point, statusText(r.Status), formatCount(f.IOPS),
		dirIOPS(r.Read), dirIOPS(r.Write), formatMBps(f.BWBytes), latencyText(f.MeanLatNs),
		split(func(f *Figures) *uint64 { return f.P50Ns }),
		split(func(f *Figures) *uint64 { return f.P99Ns }),
		split(func(f *Figures) *uint64 { return f.P999Ns }),
	}
}

func dirIOPS(f *Figures) string {
	if f == nil {
		return dash
	}
	return formatCount(f.IOPS)
}

func dirNs(f *Figures, pick func(*Figures) *uint64) string {
	if f == nil {
		return dash
	}
	return nsText(pick(f))
}

func latencyText(ns *float64) string {
	if ns == nil {
		return dash
	}
	return formatLatency(*ns)
}

func nsText(ns *uint64) string {
	if ns == nil {
		return dash
	}
	return formatLatency(float64(*ns))
}

// statusText is a step status for people.
func statusText(status string) string {
	if status == StatusNotRun {
		return "not run"
	}
	return status
}

func mdPreconditioning(b *strings.Builder, s *Summary) {
	b.WriteString("## Preconditioning\n\n")
	if len(s.Preconditioning) == 0 {
		b.WriteString("The run did no preconditioning.\n\n")
		return
	}
	cols := []column{
		{title: "Precondition"}, {title: "Drive"}, {"Pass", true}, {title: "Status"},
		{"Written", true}, {"MB/s", true}, {"Duration", true},
	}
	var rows [][]string
	for _, p := range s.Preconditioning {
		written, bw := dash, dash
		if p.BytesWritten > 0 {
			written, bw = formatBytes(p.BytesWritten), formatMBps(p.BWBytes)
		}
		rows = append(rows, []string{
			p.Precondition, p.Drive, fmt.Sprint(p.Pass), statusText(p.Status),
			written, bw, formatDuration(p.DurationNs),
		})
	}
	mdTable(b, cols, rows)
}

func mdChecks(b *strings.Builder, s *Summary) {
	b.WriteString("## Checks\n\n")
	if len(s.Checks) == 0 {
		b.WriteString("No check gave a verdict.\n\n")
		return
	}
	var rows [][]string
	for _, v := range s.Checks {
		message := v.Message
		if v.Where != "" {
			message = code(v.Where) + ": " + message
		}
		rows = append(rows, []string{v.Check, orDash(v.Drive), verdictText(v.Status), message})
	}
	mdTable(b, []column{{title: "Check"}, {title: "Drive"}, {title: "Verdict"}, {title: "Message"}}, rows)
}

// verdictText marks a verdict for the eye and names it for the reader.
func verdictText(status string) string {
	marks := map[string]string{
		verdictPass: "✅", verdictFail: "❌", verdictWarn: "⚠️", verdictError: "❌",
	}
	return cmp.Or(marks[status], "❓") + " " + orDash(status)
}

func mdProblems(b *strings.Builder, s *Summary) {
	if len(s.Problems) == 0 {
		return
	}
	b.WriteString("## Problems\n\n")
	var rows [][]string
	for _, p := range s.Problems {
		rows = append(rows, []string{cmp.Or(p.Name, p.StepID), statusText(p.Status), orDash(p.Error)})
	}
	mdTable(b, []column{{title: "Step"}, {title: "Status"}, {title: "Error"}}, rows)
}
