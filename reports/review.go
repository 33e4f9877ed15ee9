package reports

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// review lays the Summary out in the order of a published drive review:
// testbed, drive specifications, methodology, comparables, one section per
// profile, steady state, spec acceptance, checks, a conclusion and the
// problems met.
func review(s *Summary) *document {
	d := &document{}
	for _, section := range []func(*document, *Summary){
		docHeader, docTestbed, docDrives, docMethodology, docComparables,
		docResults, docSteadyState, docAcceptance, docChecks, docConclusion, docProblems,
	} {
		section(d, s)
	}
	return d
}

func docHeader(d *document, s *Summary) {
	d.heading(1, plain(orDash(s.Plan.Name)+" — drivebench report"))
	date := dash
	if !s.GeneratedAt.IsZero() {
		date = s.GeneratedAt.UTC().Format("2006-01-02 15:04 UTC")
	}
	items := [][]span{
		{plain("Plan: "), mono(orDash(s.Plan.File)), plain(", hash "), mono(orDash(s.Plan.Hash))},
		spans("Date: " + date),
		spans("drivebench version: " + orDash(s.Version)),
		spans(stepCountsText(s.Counts.Steps)),
		spans(verdictCountsText(s.Counts.Checks)),
	}
	if n := s.Counts.Steps.Unlisted; n > 0 {
		items = append(items, spans("Left out: "+plural(n, "record")+" of steps this plan no longer has"))
	}
	d.list(items)
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

func docTestbed(d *document, s *Summary) {
	d.heading(2, plain("Testbed"))
	t := s.Testbed
	if t.Name != "" || t.Description != "" {
		text := []span{strong(orDash(t.Name))}
		if t.Description != "" {
			text = append(text, plain(": "+t.Description))
		}
		d.para(text...)
	}
	var rows [][]string
	for _, f := range t.Declared {
		rows = append(rows, []string{f.Name, f.Value})
	}
	for _, f := range t.Detected {
		rows = append(rows, []string{f.Name + " (detected)", f.Value})
	}
	if len(rows) == 0 {
		d.para(plain("No facts were declared or detected."))
		return
	}
	d.table([]column{{title: "Fact"}, {title: "Value"}}, rows)
}

// docDrives sets each drive's spec sheet beside what the run detected of
// it (its NVMe identity and block-device facts).
func docDrives(d *document, s *Summary) {
	d.heading(2, plain("Drive specifications"))
	if len(s.Drives) == 0 {
		d.para(plain("The run lists no drives."))
	}
	for _, drv := range s.Drives {
		d.heading(3, plain(orDash(drv.Name)))
		identity := identityRows(drv)
		if len(drv.Spec) == 0 {
			d.richTable([]column{{title: "Property"}, {title: "Detected"}}, identity)
			d.para(plain("The plan states no spec sheet for this drive."))
			continue
		}
		cols := []column{{title: "Spec sheet"}, {title: "Claim"}, {title: "Identity"}, {title: "Detected"}}
		var rows [][][]span
		for i := range max(len(drv.Spec), len(identity)) {
			row := [][]span{spans(""), spans(""), spans(""), spans("")}
			if i < len(drv.Spec) {
				row[0], row[1] = spans(drv.Spec[i].Name), spans(specText(drv.Spec[i]))
			}
			if i < len(identity) {
				row[2], row[3] = identity[i][0], identity[i][1]
			}
			rows = append(rows, row)
		}
		d.richTable(cols, rows)
	}
}

// identityRows are what the run knows of a drive: path, capacity, whether
// it may be written, and the facts it detected.
func identityRows(drv Drive) [][][]span {
	path := []span{mono(drv.Path)}
	if drv.Scratch || drv.Path == "" {
		path = spans("scratch file in the results folder")
	}
	size := dash
	if drv.SizeBytes > 0 {
		size = fmt.Sprintf("%s (%s bytes)", formatBytes(uint64(drv.SizeBytes)), formatCount(float64(drv.SizeBytes)))
	}
	rows := [][][]span{
		{spans("Path"), path},
		{spans("Capacity"), spans(size)},
		{spans("Writable"), spans(yesNo(drv.Writable))},
	}
	for _, f := range drv.Facts {
		rows = append(rows, [][]span{spans(f.Name), spans(f.Value)})
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

func docMethodology(d *document, s *Summary) {
	d.heading(2, plain("Methodology"))
	m := s.Methodology
	if len(m.Preconditions) > 0 || len(s.Preconditioning) > 0 {
		d.heading(3, plain("Preconditioning"))
		methodList(d, m.Preconditions)
		preconditionTable(d, s.Preconditioning)
	}
	if len(m.Profiles) > 0 {
		d.heading(3, plain("Profiles"))
		methodList(d, m.Profiles)
	}
	if len(m.Checks) > 0 {
		d.heading(3, plain("Checks"))
		methodList(d, m.Checks)
	}
}

func methodList(d *document, methods []Method) {
	if len(methods) == 0 {
		return
	}
	items := make([][]span, len(methods))
	for i, m := range methods {
		items[i] = methodText(m)
	}
	d.list(items)
}

// methodText writes a method on one line: its name, drives, parameters,
// sweep and region.
func methodText(m Method) []span {
	drives := "all drives"
	if len(m.Drives) > 0 {
		drives = strings.Join(m.Drives, ", ")
	}
	text := []span{strong(orDash(m.Name)), plain(" on " + drives)}
	for i, kv := range m.Params {
		text = append(text, plain(cond(i == 0, ": ", ", ")), mono(kv.Key+"="+kv.Value))
	}
	for i, dim := range m.Sweep {
		text = append(text, plain(cond(i == 0, "; sweeps ", " by ")), mono(dim.Param), plain(" over "+strings.Join(dim.Values, ", ")))
	}
	if m.Region != "" {
		text = append(text, plain("; region: "+m.Region))
	}
	return append(text, plain("."))
}

// cond is a when c holds, b otherwise.
func cond(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

func preconditionTable(d *document, passes []PreconditionPass) {
	if len(passes) == 0 {
		d.para(plain("The run did no preconditioning."))
		return
	}
	cols := []column{
		{title: "Precondition"}, {title: "Drive"}, {"Pass", true}, {title: "Status"},
		{"Written", true}, {"MB/s", true}, {"Duration", true},
	}
	var rows [][]string
	for _, p := range passes {
		written, bw := dash, dash
		if p.BytesWritten > 0 {
			written, bw = formatBytes(p.BytesWritten), formatMBps(p.BWBytes)
		}
		rows = append(rows, []string{
			p.Precondition, p.Drive, fmt.Sprint(p.Pass), statusText(p.Status),
			written, bw, formatDuration(p.DurationNs),
		})
	}
	d.table(cols, rows)
}

func docComparables(d *document, s *Summary) {
	if len(s.Comparables) == 0 {
		return
	}
	d.heading(2, plain("Comparables"))
	d.para(plain("The results of these runs are drawn on the same charts and ranked with this run's drives, profile by profile. " +
		"Results marked † were measured on another testbed: close, but not like for like."))
	var rows [][]string
	for _, c := range s.Comparables {
		var drives []string
		for _, drv := range c.Drives {
			drives = append(drives, driveName(drv))
		}
		note := "same testbed"
		if !c.SameTestbed {
			note = "† another testbed: " + strings.Join(c.Differences, "; ")
		}
		rows = append(rows, []string{c.Name, orDash(c.Plan.Name), orDash(c.Testbed.Name), orDash(strings.Join(drives, ", ")), note})
	}
	d.table([]column{{title: "Run"}, {title: "Plan"}, {title: "Testbed"}, {title: "Drives"}, {title: "Note"}}, rows)
}

// driveName is a drive's name with its model when the run detected one.
func driveName(drv Drive) string {
	for _, f := range drv.Facts {
		if f.Name == "model" && f.Value != "" {
			return drv.Name + " (" + f.Value + ")"
		}
	}
	return drv.Name
}

func docResults(d *document, s *Summary) {
	d.heading(2, plain("Results"))
	if len(s.Sections) == 0 {
		d.para(plain("The run has no profile steps."))
		return
	}
	d.para(plain("IOPS and bandwidth add reads and writes. Bandwidth is in MB/s " +
		"(decimal: 1 MB/s is 10^6 bytes per second). Latency is completion " +
		"latency, counted from the moment each I/O was due."))
	for _, sec := range s.Sections {
		tables := sectionTables(s, sec.Profile)
		if len(tables) == 1 {
			d.heading(3, plain(orDash(sec.Profile)+" on "+orDash(tables[0].Drive)))
		} else {
			d.heading(3, plain(orDash(sec.Profile)))
		}
		for _, ref := range sec.Charts {
			d.figure(ref)
		}
		for _, t := range tables {
			if len(tables) > 1 {
				d.heading(4, plain(orDash(t.Drive)))
			}
			resultTable(d, t)
			d.para(plain(t.Highlight))
		}
		rankingTable(d, sec)
	}
}

// sectionTables are this run's tables of a profile.
func sectionTables(s *Summary, profile string) []*ProfileResult {
	var out []*ProfileResult
	for i := range s.Results {
		if s.Results[i].Profile == profile {
			out = append(out, &s.Results[i])
		}
	}
	return out
}

func resultTable(d *document, t *ProfileResult) {
	cols, cells := plainColumns, plainCells
	if t.Mixed {
		cols, cells = mixedColumns, mixedCells
	}
	rows := make([][][]span, len(t.Rows))
	for i, r := range t.Rows {
		texts := cells(r)
		rows[i] = make([][]span, len(texts)+1)
		rows[i][0] = pointCell(r, len(t.Rows) > 1)
		for j, text := range texts {
			rows[i][j+1] = spans(text)
		}
	}
	d.richTable(cols, rows)
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

// pointCell names a row's point (a rate curve's point without one by its
// rate) and marks the peak when there are other rows to compare it with.
func pointCell(r Row, markPeak bool) []span {
	point := cmp.Or(r.Point, "single run")
	if r.RatePct != nil && r.Point == "" {
		point = formatPlain(*r.RatePct) + "% rate"
	}
	if r.Peak && markPeak {
		return []span{strong(point), plain(" (peak)")}
	}
	return spans(point)
}

// plainCells are a row's cells after the point.
func plainCells(r Row) []string {
	f := r.Total
	if f == nil {
		return []string{statusText(r.Status), dash, dash, dash, dash, dash, dash}
	}
	return []string{
		statusText(r.Status), formatCount(f.IOPS), formatMBps(f.BWBytes),
		latencyText(f.MeanLatNs), nsText(f.P50Ns), nsText(f.P99Ns), nsText(f.P999Ns),
	}
}

func mixedCells(r Row) []string {
	f := r.Total
	if f == nil {
		return []string{statusText(r.Status), dash, dash, dash, dash, dash, dash, dash, dash}
	}
	split := func(pick func(*Figures) *uint64) string {
		return dirNs(r.Read, pick) + " / " + dirNs(r.Write, pick)
	}
	return []string{
		statusText(r.Status), formatCount(f.IOPS),
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

// rankingTable ranks the drives of a section when there are several.
func rankingTable(d *document, sec Section) {
	if len(sec.Ranking) < 2 {
		return
	}
	cols := []column{
		{"Rank", true}, {title: "Drive"}, {title: "Peak at"}, {"IOPS", true}, {"MB/s", true},
		{"Mean latency", true}, {"p99", true},
	}
	var rows [][]string
	other := false
	for _, r := range sec.Ranking {
		other = other || r.OtherTestbed
		rows = append(rows, []string{
			fmt.Sprint(r.Rank), rankLabel(r), cmp.Or(r.Point, "single run"), formatCount(r.Total.IOPS),
			formatMBps(r.Total.BWBytes), latencyText(r.Total.MeanLatNs), nsText(r.Total.P99Ns),
		})
	}
	d.table(cols, rows)
	text := sec.Highlight
	if other {
		text = joinSentences(text, "† Measured on another testbed.")
	}
	if text != "" {
		d.para(plain(text))
	}
}

func docSteadyState(d *document, s *Summary) {
	if len(s.SteadyState) == 0 {
		return
	}
	d.heading(2, plain("Steady state"))
	for _, ss := range s.SteadyState {
		d.heading(3, plain(orDash(ss.Profile)+" on "+orDash(ss.Drive)))
		if ss.Chart != "" {
			d.figure(ChartRef{Kind: chartSteadyState, File: ss.Chart, Title: ss.Profile + " on " + ss.Drive + ": steady-state rounds"})
		}
		d.para(plain(steadyStateSentence(ss)))
	}
}

// steadyStateSentence states the outcome of a steady-state search.
func steadyStateSentence(ss SteadyState) string {
	var text string
	switch {
	case ss.Reached && ss.WindowFirst > 0:
		text = fmt.Sprintf("Steady state was reached in rounds %d to %d: %s averaged %s, and the best-fit line changed by %s across the window.",
			ss.WindowFirst, ss.WindowLast, orDash(ss.Variable), formatPlain(ss.Average),
			percentText(windowExcursion(ss)))
	case ss.Reached:
		text = "Steady state was reached."
	default:
		text = fmt.Sprintf("Steady state was not reached in %s.", plural(len(ss.Rounds), "round"))
	}
	return joinSentences(text, ss.Message)
}

// windowExcursion is how much the best-fit line moves across the window,
// in percent of the window's average.
func windowExcursion(ss SteadyState) float64 {
	if ss.Average == 0 {
		return 0
	}
	return ss.Slope * float64(ss.WindowLast-ss.WindowFirst) / ss.Average * 100
}

func docAcceptance(d *document, s *Summary) {
	if len(s.Acceptance) == 0 {
		return
	}
	d.heading(2, plain("Spec acceptance"))
	cols := []column{
		{title: "Drive"}, {title: "Spec"}, {"Claimed", true}, {"Measured", true}, {"Ratio", true},
		{title: "Verdict"}, {title: "Conditions"},
	}
	var rows [][]string
	for _, a := range s.Acceptance {
		measured, ratio := dash, dash
		if a.Measured != nil {
			measured = specValue(a.Metric, *a.Measured)
		}
		if a.Ratio != nil {
			ratio = percentText(*a.Ratio * 100)
		}
		rows = append(rows, []string{
			a.Drive, a.Spec, specValue(a.Metric, a.Claimed), measured, ratio,
			verdictText(a.Verdict), orDash(strings.Join(a.Conditions, "\n")),
		})
	}
	d.table(cols, rows)
}

func docChecks(d *document, s *Summary) {
	d.heading(2, plain("Checks"))
	if len(s.Checks) == 0 {
		d.para(plain("No check gave a verdict."))
		return
	}
	var rows [][][]span
	for _, v := range s.Checks {
		message := spans(v.Message)
		if v.Where != "" {
			message = []span{mono(v.Where), plain(": " + v.Message)}
		}
		rows = append(rows, [][]span{spans(v.Check), spans(orDash(v.Drive)), spans(verdictText(v.Status)), message})
	}
	d.richTable([]column{{title: "Check"}, {title: "Drive"}, {title: "Verdict"}, {title: "Message"}}, rows)
}

// verdictText marks a verdict for the eye and names it for the reader.
func verdictText(status string) string {
	marks := map[string]string{
		verdictPass: "✅", verdictFail: "❌", verdictWarn: "⚠️", verdictError: "❌",
	}
	return cmp.Or(marks[status], "❓") + " " + strings.ReplaceAll(orDash(status), "_", " ")
}

// docConclusion gathers the headline figure of every profile on every
// drive of the run, with its rank when other drives were compared.
func docConclusion(d *document, s *Summary) {
	d.heading(2, plain("Conclusion"))
	ranked := len(s.Comparables) > 0 || slices.ContainsFunc(s.Sections, func(sec Section) bool { return len(sec.Ranking) > 1 })
	cols := []column{{title: "Profile"}, {title: "Drive"}, {"Peak", true}, {title: "At"}, {"Mean latency", true}, {"p99", true}}
	if ranked {
		cols = append(cols, column{"Rank", true})
	}
	var rows [][]string
	for _, sec := range s.Sections {
		headline := headlineOf(s, sec.Profile)
		for _, r := range sec.Ranking {
			if r.Run != "" {
				continue
			}
			row := []string{
				sec.Profile, r.Drive, headlineText(&r.Total, headline), cmp.Or(r.Point, "single run"),
				latencyText(r.Total.MeanLatNs), nsText(r.Total.P99Ns),
			}
			if ranked {
				row = append(row, fmt.Sprintf("%d of %d", r.Rank, len(sec.Ranking)))
			}
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		d.para(plain("No profile step finished with measurements."))
		return
	}
	d.table(cols, rows)
}

// headlineOf is the headline figure of this run's first table of profile.
func headlineOf(s *Summary, profile string) string {
	for _, t := range s.Results {
		if t.Profile == profile {
			return t.Headline
		}
	}
	return headlineIOPS
}

// headlineText writes the headline figure in full: "590,441 IOPS" or
// "2,418.4 MB/s".
func headlineText(f *Figures, headline string) string {
	if headline == headlineBW {
		return formatBandwidth(f.BWBytes)
	}
	return formatCount(f.IOPS) + " IOPS"
}

func docProblems(d *document, s *Summary) {
	if len(s.Problems) == 0 {
		return
	}
	d.heading(2, plain("Problems"))
	var rows [][]string
	for _, p := range s.Problems {
		rows = append(rows, []string{cmp.Or(p.Name, p.StepID), statusText(p.Status), orDash(p.Error)})
	}
	d.table([]column{{title: "Step"}, {title: "Status"}, {title: "Error"}}, rows)
}
