package reports

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/results"
)

// review lays the Summary out in the order of a published drive review:
// testbed, drive specifications, methodology, comparables, one section per
// profile, the application workloads, the measurements of steps an
// earlier revision of the plan had, steady state, spec acceptance,
// checks, a conclusion, the run's history when it was interrupted or
// resumed, and the problems met; then the sections of the plan's summary
// hook.
func review(s *Summary) *document {
	d := &document{}
	for _, section := range []func(*document, *Summary){
		docHeader, docTestbed, docDrives, docMethodology, docComparables,
		docResults, docGrids, docApplications, docDataloaders, docCheckpoints, docFileSets, docEarlierSteps, docSteadyState, docAcceptance, docHealth, docChecks, docConclusion,
		docRunHistory, docProblems, docSummaryHook,
	} {
		section(d, s)
	}
	return d
}

func docHeader(d *document, s *Summary) {
	d.heading(1, plain(orDash(s.Plan.Name)+" — drivebench report"))
	items := [][]span{
		{plain("Plan: "), mono(orDash(s.Plan.File)), plain(", hash "), mono(orDash(s.Plan.Hash))},
		spans("Date: " + dateText(s.GeneratedAt)),
		spans("drivebench version: " + orDash(s.Version)),
		spans(stepCountsText(s.Counts.Steps)),
		spans(verdictCountsText(s.Counts.Checks)),
	}
	if drives := drivesText(s); drives != "" {
		items = slices.Insert(items, 1, spans("Drives: "+drives))
	}
	for _, r := range s.EarlierRevisions {
		items = append(items, []span{
			plain(r.Marker + " Results of an earlier revision of the plan, "), mono(shortHash(r.Hash)),
			plain(": " + format.Counted(r.Steps, "step") + ", kept when the run resumed under the current revision"),
		})
	}
	if n := s.Counts.Steps.Unlisted; n > 0 {
		items = append(items, spans("Kept from earlier revisions of the plan: "+format.Counted(n, "record")+" of steps this plan no longer has, under Measurements of earlier plan revisions"))
	}
	if notableRuns(s.Runs) {
		items = append(items, spans(runsText(s.Runs)))
	}
	if n := len(s.UnreadableRecords); n > 0 {
		items = append(items, spans(fmt.Sprintf("Left out: %s that cannot be read, listed under Problems", format.Counted(n, "record"))))
	}
	for _, n := range s.Notes {
		items = append(items, spans("Note: "+n))
	}
	d.list(items)
}

func stepCountsText(c StepCounts) string {
	return countsText(format.Counted(c.Total, "step"), []namedCount{
		{"ok", c.OK}, {"failed", c.Failed}, {"interrupted", c.Interrupted},
		{"skipped", c.Skipped}, {"not run", c.NotRun}, {"other status", c.Other},
	})
}

func verdictCountsText(c VerdictCounts) string {
	total := c.Pass + c.Fail + c.Warn + c.Error + c.Other
	return countsText(format.Counted(total, "check verdict"), []namedCount{
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

func orDash(text string) string {
	if text == "" {
		return format.Dash
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

// docDrives sets each drive's spec sheet beside what the run found of it:
// its NVMe identity, when the drive gave one, and its block-device facts.
func docDrives(d *document, s *Summary) {
	d.heading(2, plain("Drive specifications"))
	if len(s.Drives) == 0 {
		d.para(plain("The run lists no drives."))
	}
	for _, drv := range s.Drives {
		d.heading(3, plain(orDash(drv.Name)))
		d.para(plain(joinSentences(identitySentence(drv), targetsSentence(drv))))
		var id *results.NVMeIdentity
		if h := s.healthOf(drv.Name); h != nil {
			id = h.Identity
		}
		identity := identityRows(drv, id)
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
				row[0], row[1] = spans(drv.Spec[i].Name), spans(specText(drv.Spec[i], s.unit()))
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
// it may be written, what its NVMe controller says of itself (id, nil
// when it said nothing) and the facts it detected that the identity does
// not repeat.
func identityRows(drv Drive, id *results.NVMeIdentity) [][][]span {
	path := []span{mono(drv.Path)}
	if drv.Scratch || drv.Path == "" {
		path = spans("scratch file in the results folder")
	}
	size := format.Dash
	if drv.SizeBytes > 0 {
		size = bytesInFull(uint64(drv.SizeBytes))
	}
	rows := [][][]span{
		{spans("Path"), path},
		{spans("Capacity"), spans(size)},
		{spans("Writable"), spans(yesNo(drv.Writable))},
	}
	if id != nil {
		rows = append(rows, nvmeIdentityRows(id)...)
	}
	for _, f := range drv.Facts {
		if !repeatsIdentity(f, id) {
			rows = append(rows, [][]span{spans(f.Name), spans(f.Value)})
		}
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
func specText(e SpecEntry, u bwUnit) string {
	var values []string
	for _, metric := range slices.Sorted(maps.Keys(e.Values)) {
		values = append(values, specValue(metric, e.Values[metric], u))
	}
	text := orDash(strings.Join(values, ", "))
	cond := specConditions(e)
	switch {
	case cond == "":
	case strings.HasSuffix(text, ")"):
		// "6,200 MB/s (5,912.8 MiB/s; sequential read)", not two brackets.
		text = strings.TrimSuffix(text, ")") + "; " + cond + ")"
	default:
		text += " (" + cond + ")"
	}
	return text
}

// specValue writes one claimed figure in the report's units, a
// bandwidth as the sheet states it too (see bwUnit.claim).
func specValue(metric string, v float64, u bwUnit) string {
	switch {
	case metric == "iops":
		return format.Count(v) + " IOPS"
	case metric == "bw":
		return u.claim(v)
	case metric == "lat_us":
		return format.Latency(v*1e3) + " latency"
	case strings.HasSuffix(metric, "_us"):
		return format.Latency(v*1e3) + " " + strings.TrimSuffix(metric, "_us")
	}
	return format.Plain(v) + " " + metric
}

func specConditions(e SpecEntry) string {
	var parts []string
	var pattern []string
	if e.BS > 0 {
		pattern = append(pattern, format.BlockSize(e.BS))
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
		parts = append(parts, format.Counted(e.NumJobs, "job"))
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
		preconditionTable(d, s)
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

func preconditionTable(d *document, s *Summary) {
	passes := s.Preconditioning
	if len(passes) == 0 {
		d.para(plain("The run did no preconditioning."))
		return
	}
	cols := []column{
		{title: "Precondition"}, {title: "Drive"}, {"Pass", true}, {title: "Status"},
		{"Written", true}, {s.unit().column(), true}, {"Duration", true},
	}
	var rows [][]string
	var warnings [][]span
	for _, p := range passes {
		var kinds []string
		for _, w := range p.Warnings {
			kinds = addFlags(kinds, w.Kind)
			warnings = append(warnings, []span{strong(fmt.Sprintf("Warning (%s, pass %d on %s):", p.Precondition, p.Pass, p.Drive)), plain(" " + w.Message)})
		}
		written, bw := format.Dash, format.Dash
		if p.BytesWritten > 0 {
			written, bw = format.Bytes(p.BytesWritten), s.unit().number(p.BWBytes)+flagNote(kinds)
		}
		rows = append(rows, []string{
			p.Precondition + s.revisionMarker(p.PlanHash), p.Drive, fmt.Sprint(p.Pass), statusWords(p.Status, p.BytesWritten > 0),
			written, bw, format.Duration(p.DurationNs),
		})
	}
	d.table(cols, rows)
	if len(warnings) > 0 {
		d.list(warnings)
	}
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
			drives = append(drives, labelled(drv.Name, drv.Identity.Known.Label()))
		}
		note := "same testbed"
		if !c.SameTestbed {
			note = "† another testbed: " + strings.Join(c.Differences, "; ")
		}
		rows = append(rows, []string{c.Name, orDash(c.Plan.Name), orDash(c.Testbed.Name), orDash(strings.Join(drives, ", ")), note})
	}
	d.table([]column{{title: "Run"}, {title: "Plan"}, {title: "Testbed"}, {title: "Drives"}, {title: "Note"}}, rows)
}

func docResults(d *document, s *Summary) {
	if len(s.Sections) == 0 && len(s.Applications) > 0 {
		return
	}
	d.heading(2, plain("Results"))
	if len(s.Sections) == 0 {
		d.para(plain(noProfileSentence(s)))
		return
	}
	d.para(plain("IOPS and bandwidth add reads and writes. " + s.unit().definition() + " Under each table, which latency it holds."))
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
			resultTable(d, s, t)
			d.para(plain(joinSentences(t.LatencyNote, t.TailNote, t.NoiseNote)))
			tableWarnings(d, t)
			d.para(plain(t.Highlight))
		}
		rankingTable(d, s, sec)
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

func resultTable(d *document, s *Summary, t *ProfileResult) {
	u := s.unit()
	cols, cells := plainColumns(t.Columns, u), plainCells
	if t.Mixed {
		cols, cells = mixedColumns(t.Columns, u), mixedCells
	}
	curve := shapeOf(t) == shapeRateCurve
	rows := make([][][]span, len(t.Rows))
	for i, r := range t.Rows {
		texts := cells(r, t.Columns, u)
		rows[i] = make([][]span, len(texts)+1)
		rows[i][0] = pointCell(r, curve, cond(len(t.Rows) > 1, peakWord(t.Headline), ""), s.revisionMarker(r.PlanHash))
		for j, text := range texts {
			rows[i][j+1] = spans(text)
		}
	}
	d.richTable(cols, rows)
	thermalNotes(d, t)
	roundsTable(d, s, t)
	replayTables(d, t, u)
}

// tableWarnings lists the warnings recorded on a table's steps, each
// with the point it concerns.
func tableWarnings(d *document, t *ProfileResult) {
	var items [][]span
	for _, w := range t.Warnings {
		where := w.Point
		if w.Round > 0 {
			where += fmt.Sprintf(", round %d", w.Round)
		}
		items = append(items, []span{strong("Warning (" + where + "):"), plain(" " + w.Message)})
	}
	if len(items) > 0 {
		d.list(items)
	}
}

// roundsTable lists the rounds behind the rows of repeated points, as a
// secondary table under the main one. The point column is left out when
// the profile has no sweep.
func roundsTable(d *document, s *Summary, t *ProfileResult) {
	swept := slices.ContainsFunc(t.Rows, func(r Row) bool { return r.Point != "" })
	var rows [][][]span
	averaged := false
	for _, r := range t.Rows {
		averaged = averaged || r.Averaged > 0
		for _, round := range r.Rounds {
			row := [][]span{
				spans(fmt.Sprint(round.Round) + s.revisionMarker(round.PlanHash)),
				spans(statusWords(round.Status, round.Total != nil)),
				spans(figureOrDash(round.Total, func(f *Figures) string { return format.Count(f.IOPS) })),
				spans(figureOrDash(round.Total, func(f *Figures) string { return s.unit().number(f.BWBytes) })),
				spans(figureOrDash(round.Total, func(f *Figures) string { return latencyText(f.MeanLatNs) })),
				spans(figureOrDash(round.Total, func(f *Figures) string { return nsText(f.P99Ns) })),
				spans(cond(round.Used, "✓", "")),
			}
			if swept {
				row = append([][]span{spans(r.Point)}, row...)
			}
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		return
	}
	title, used := "Rounds of the steady-state search; ✓ marks the measurement window.", "Window"
	if slices.ContainsFunc(t.Rows, func(r Row) bool { return r.NotSteady }) {
		title = "Rounds of the steady-state search; ✓ marks the last window judged, which was not steady."
	}
	if averaged {
		title, used = "Rounds behind the averaged rows; ✓ marks the rounds averaged.", "Averaged"
	}
	cols := []column{
		{"Round", true}, {title: "Status"}, {"IOPS", true}, {s.unit().column(), true},
		{"Mean latency", true}, {"p99", true}, {title: used},
	}
	if swept {
		cols = append([]column{{title: "Point"}}, cols...)
	}
	d.details(spans(title), cols, rows)
}

// figureOrDash writes a figure of f, or a format.Dash when f is nil.
func figureOrDash(f *Figures, text func(*Figures) string) string {
	if f == nil {
		return format.Dash
	}
	return text(f)
}

// plainColumns are the columns of a table that reads or writes, with
// its latency percentiles.
func plainColumns(tail []float64, u bwUnit) []column {
	cols := []column{{title: "Point"}, {title: "Status"}, {"IOPS", true}, {u.column(), true}, {"Mean latency", true}}
	for _, p := range tail {
		cols = append(cols, column{tailTitle(p), true})
	}
	return cols
}

// mixedColumns are the columns of a table that both reads and writes.
func mixedColumns(tail []float64, u bwUnit) []column {
	cols := []column{{title: "Point"}, {title: "Status"}, {"IOPS", true}, {"Read IOPS", true},
		{"Write IOPS", true}, {u.column(), true}, {"Mean latency", true}}
	for _, p := range tail {
		cols = append(cols, column{tailTitle(p) + " read / write", true})
	}
	return cols
}

// pointName names a row's point for people: its sweep point or, on a
// rate curve without one, its rate ("25% rate", "max rate"); "" for the
// single run of a profile without a sweep. The rate of a point is known
// from its record's workload, so a point of a curve that has not run is
// only "rate point".
func pointName(r Row, curve bool) string {
	switch {
	case r.Point != "":
		return r.Point
	case r.RatePct != nil:
		return format.Plain(*r.RatePct) + "% rate"
	case curve && r.Status == StatusNotRun:
		return "rate point"
	case curve:
		return "max rate"
	}
	return ""
}

// rowNotes say what the row of a repeated point stands for ("round 6 of
// 8", "avg of 2 rounds") and which bound ended a run with two.
func rowNotes(r Row) []string {
	return append(roundNotes(r), endedNotes(r)...)
}

// endedNotes says which bound ended a run with two.
func endedNotes(r Row) []string {
	switch r.EndedBy {
	case "io_size":
		return []string{"ended by io_size"}
	case "runtime":
		return []string{"ended at runtime"}
	}
	return nil
}

// roundNotes say which rounds a row stands for.
func roundNotes(r Row) []string {
	switch rounds := len(r.Rounds); {
	case r.WindowFirst > 0:
		return []string{judging.WindowName(r.WindowFirst, r.WindowLast, !r.NotSteady)}
	case r.Round > 0:
		return []string{fmt.Sprintf("round %d of %d", r.Round, rounds)}
	case r.Averaged > 0:
		return []string{chosenRounds(r)}
	case rounds > 0:
		return []string{"aggregate of " + format.Counted(rounds, "round")}
	}
	return nil
}

// chosenRounds says which rounds a repeated point's figures stand for,
// in the plan's words: "best of 5 rounds" for the best one round of five,
// "mean of last 3 of 5 rounds"; "avg of 3 rounds" when the manifest does
// not say.
func chosenRounds(r Row) string {
	if r.Aggregate != "" {
		return r.Aggregate
	}
	return "avg of " + format.Counted(r.Averaged, "round")
}

// pointParts are a row's name and the notes on what it stands for: a
// repeated point without a name is named by the rounds it stands for,
// "round 6 of 8"; a single run by "single run", the bound that ended it
// a note.
func pointParts(r Row, curve bool) (string, []string) {
	name, rounds := pointName(r, curve), roundNotes(r)
	if name == "" && len(rounds) > 0 {
		return rounds[0], append(rounds[1:], endedNotes(r)...)
	}
	return cmp.Or(name, "single run"), append(rounds, endedNotes(r)...)
}

// pointText names a row with what it stands for: "iodepth=8 (avg of 2
// rounds)", "round 6 of 8", "single run".
func pointText(r Row, curve bool) string {
	name, notes := pointParts(r, curve)
	if len(notes) > 0 {
		name += " (" + strings.Join(notes, ", ") + ")"
	}
	return name
}

// pointCell is a row's first cell: its point and what it stands for, the
// marker of the plan revision that produced it, and the peak marked with
// peak ("peak", "lowest latency") when there are other rows to compare it
// with ("" when there are not).
func pointCell(r Row, curve bool, peak, marker string) []span {
	name, notes := pointParts(r, curve)
	text := []span{plain(name)}
	if r.Peak && peak != "" {
		text = []span{strong(name)}
		notes = append(notes, peak)
	}
	if marker != "" {
		text = append(text, plain(marker))
	}
	if len(notes) > 0 {
		text = append(text, plain(" ("+strings.Join(notes, ", ")+")"))
	}
	return text
}

// plainCells are a row's cells after the point.
func plainCells(r Row, tail []float64, u bwUnit) []string {
	f := r.Total
	if f == nil {
		return append([]string{statusText(r.Status)}, slices.Repeat([]string{format.Dash}, 4+len(tail)-1)...)
	}
	cells := []string{statusWords(r.Status, true), format.Count(f.IOPS), u.number(f.BWBytes), latencyText(f.MeanLatNs)}
	for _, p := range tail {
		cells = append(cells, tailText(f, p))
	}
	return cells
}

func mixedCells(r Row, tail []float64, u bwUnit) []string {
	f := r.Total
	if f == nil {
		return append([]string{statusText(r.Status)}, slices.Repeat([]string{format.Dash}, 6+len(tail)-1)...)
	}
	cells := []string{statusWords(r.Status, true), format.Count(f.IOPS),
		dirIOPS(r.Read), dirIOPS(r.Write), u.number(f.BWBytes), latencyText(f.MeanLatNs)}
	for _, p := range tail {
		cells = append(cells, tailText(r.Read, p)+" / "+tailText(r.Write, p))
	}
	return cells
}

func dirIOPS(f *Figures) string {
	if f == nil {
		return format.Dash
	}
	return format.Count(f.IOPS)
}

func latencyText(ns *float64) string {
	if ns == nil {
		return format.Dash
	}
	return format.Latency(*ns)
}

// headlineMean and headlineP99 are the latency cells of a row quoted as a
// headline (the ranking, the Conclusion): a paced row's service latency,
// with the latency from each I/O's due time beside it.
func headlineMean(f *Figures) string {
	if f.ServiceMeanNs == nil || f.MeanLatNs == nil {
		return latencyText(f.MeanLatNs)
	}
	return latencyText(f.ServiceMeanNs) + " service (" + latencyText(f.MeanLatNs) + " from due time)"
}

func headlineP99(f *Figures) string {
	if f.ServiceP99Ns == nil || f.P99Ns == nil {
		return nsText(f.P99Ns)
	}
	return nsText(f.ServiceP99Ns) + " service (" + nsText(f.P99Ns) + " from due time)"
}

func nsText(ns *uint64) string {
	if ns == nil {
		return format.Dash
	}
	return format.Latency(float64(*ns))
}

// statusWords is the status a table cell shows: an interrupted step that
// kept a partial result says so.
func statusWords(status string, partial bool) string {
	if status == results.StatusInterrupted && partial {
		return "interrupted, partial result"
	}
	return statusText(status)
}

// statusText is a step status for people.
func statusText(status string) string {
	if status == StatusNotRun {
		return "not run"
	}
	return status
}

// peakText names a ranked peak as its table's first cell does, with the
// marker of the plan revision that produced it when it is this run's.
func (s *Summary) peakText(r Rank) string {
	tables := s.Results
	if r.Run != "" {
		tables = nil
		for _, c := range s.Comparables {
			if c.Name == r.Run {
				tables = c.Results
			}
		}
	}
	for i := range tables {
		t := &tables[i]
		for _, row := range t.Rows {
			if t.Drive == r.Drive && row.StepID == r.StepID {
				text := pointText(row, shapeOf(t) == shapeRateCurve)
				if r.Run == "" {
					text += s.revisionMarker(row.PlanHash)
				}
				return text
			}
		}
	}
	return cmp.Or(r.Point, "single run")
}

// peakWord names the row a headline picks out: "peak", or "lowest
// latency" when the table leads with latency.
func peakWord(headline string) string {
	return cond(headline == headlineLat, "lowest latency", "peak")
}

// rankingTable ranks the drives of a section when there are several.
func rankingTable(d *document, s *Summary, sec Section) {
	if len(sec.Ranking) < 2 {
		return
	}
	at := cond(headlineOf(s, sec.Profile) == headlineLat, "Lowest latency at", "Peak at")
	cols := []column{
		{"Rank", true}, {title: "Drive"}, {title: at}, {"IOPS", true}, {s.unit().column(), true},
		{"Mean latency", true}, {"p99", true},
	}
	var rows [][]string
	other := false
	for _, r := range sec.Ranking {
		other = other || r.OtherTestbed
		rows = append(rows, []string{
			fmt.Sprint(r.Rank), rankLabel(r), s.peakText(r) + flagNote(r.Flags), format.Count(r.Total.IOPS),
			s.unit().number(r.Total.BWBytes), headlineMean(&r.Total), headlineP99(&r.Total),
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
		d.heading(3, plain(orDash(ss.Profile)+" on "+orDash(ss.Drive)+s.revisionMarker(ss.PlanHash)))
		if ss.Chart != "" {
			d.figure(ChartRef{Kind: chartSteadyState, File: ss.Chart, Title: ss.Profile + " on " + ss.Drive + ": steady-state rounds"})
		}
		d.para(plain(steadyStateSentence(ss, s.unit())))
		steadyRoundsTable(d, ss, s.unit())
	}
}

// steadyRoundsTable lists the rounds of a steady-state search with the
// judgement after each: the tracked figure, the window ending there, its
// range and slope as shares of the mean, in PTS's own terms.
func steadyRoundsTable(d *document, ss SteadyState, u bwUnit) {
	if !slices.ContainsFunc(ss.Rounds, func(r SteadyRound) bool { return r.Judgement != "" }) {
		return
	}
	cols := []column{{"Round", true}, {title: variableName(ss.Variable), numeric: true}, {"Range", true}, {"Slope", true}, {title: "Judgement"}}
	var rows [][]string
	for _, r := range ss.Rounds {
		rng, slope := "—", "—"
		if r.RangePct > 0 || r.SlopePct > 0 {
			rng, slope = percentText(r.RangePct), percentText(r.SlopePct)
		}
		rows = append(rows, []string{strconv.Itoa(r.Round), variableText(ss.Variable, r.Value, u), rng, slope, orDash(r.Judgement)})
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
		rows = append(rows, [][]span{spans(v.Check), spans(orDash(v.Drive)), {verdict(v.Status)}, message})
	}
	d.richTable([]column{{title: "Check"}, {title: "Drive"}, {title: "Verdict"}, {title: "Message"}}, rows)
}

// verdictText marks a verdict for the eye and names it for the reader.
func verdictText(status string) string {
	return verdictMark(status) + " " + strings.ReplaceAll(orDash(status), "_", " ")
}

// verdictMark is the sign of a verdict: ✅ pass, ❌ fail or error, ⚠️ warn,
// ⏭ skip, ❓ a status this version does not know.
func verdictMark(status string) string {
	marks := map[string]string{
		results.VerdictPass: "✅", results.VerdictFail: "❌", results.VerdictWarn: "⚠️", results.VerdictError: "❌", results.VerdictSkip: "⏭",
	}
	return cmp.Or(marks[status], "❓")
}

// docConclusion gathers the headline figure of every profile on every
// drive of the run, with its rank when other drives were compared and the
// spec-sheet figures compared with it; then the metrics of every
// application run, and a sentence on each drive's spec acceptance.
func docConclusion(d *document, s *Summary) {
	d.heading(2, plain("Conclusion"))
	ranked := len(s.Comparables) > 0 || slices.ContainsFunc(s.Sections, func(sec Section) bool { return len(sec.Ranking) > 1 })
	accepted := acceptanceByTable(s)
	cols := []column{{title: "Profile"}, {title: "Drive"}, {"Headline", true}, {title: "At"}, {"Mean latency", true}, {"p99", true}}
	if len(accepted) > 0 {
		cols = append(cols, column{title: "Spec sheet"})
	}
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
				sec.Profile, s.driveLabel(r.Drive), headlineText(&r.Total, headline, s.unit()) + flagNote(r.Flags), s.peakText(r),
				headlineMean(&r.Total), headlineP99(&r.Total),
			}
			if len(accepted) > 0 {
				row = append(row, s.acceptanceBriefs(accepted[[2]string{sec.Profile, r.Drive}]))
			}
			if ranked {
				row = append(row, fmt.Sprintf("%d of %d", r.Rank, len(sec.Ranking)))
			}
			rows = append(rows, row)
		}
	}
	rows = append(rows, applicationConclusionRows(s, len(cols))...)
	switch {
	case len(rows) == 0 && len(s.Sections) == 0:
		d.para(plain(noProfileSentence(s)))
	case len(rows) == 0:
		d.para(plain("No profile step finished with measurements."))
	default:
		d.table(cols, rows)
	}
	for _, g := range acceptGroups(s.Acceptance) {
		d.para(plain(acceptanceSentence(g)))
	}
}

// noProfileSentence says that a run has no table of a profile: its
// profile steps, when it has some, are its checkpoints' passes, whose
// figures the Checkpoints section gives.
func noProfileSentence(s *Summary) string {
	if len(s.Checkpoints) > 0 {
		return "The plan has no profile of its own: its steps that read and wrote are its checkpoints' passes, whose figures are under Checkpoints."
	}
	return "The run has no profile steps."
}

// acceptanceBriefs quotes the spec-sheet figures compared with one table,
// one a line, each with the flags of the row it was measured on.
func (s *Summary) acceptanceBriefs(rows []AcceptanceRow) string {
	briefs := make([]string, len(rows))
	for i, a := range rows {
		briefs[i] = acceptanceBrief(a) + flagNote(s.stepFlags(a.StepID))
	}
	return strings.Join(briefs, "\n")
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
func headlineText(f *Figures, headline string, u bwUnit) string {
	switch {
	case headline == headlineBW:
		return u.text(f.BWBytes)
	case headline == headlineLat && f.MeanLatNs != nil:
		return format.Latency(*f.MeanLatNs) + " mean"
	}
	return format.Count(f.IOPS) + " IOPS"
}

// docProblems lists the steps that failed or were interrupted, and counts
// the skipped ones with the reasons: a skipped step is the plan working
// as written, not a problem, but the reader should know what did not run.
func docProblems(d *document, s *Summary) {
	if len(s.Problems) == 0 && len(s.Skipped) == 0 {
		return
	}
	d.heading(2, plain("Problems"))
	if len(s.Problems) > 0 {
		var rows [][]string
		for _, p := range s.Problems {
			rows = append(rows, []string{cmp.Or(p.Name, p.StepID), statusText(p.Status), orDash(p.Error)})
		}
		d.table([]column{{title: "Step"}, {title: "Status"}, {title: "Error"}}, rows)
		outputBlocks(d, s.Problems)
	} else {
		d.para(plain("No step failed or was interrupted."))
	}
	if len(s.Skipped) == 0 {
		return
	}
	total := 0
	var items [][]span
	for _, g := range s.Skipped {
		total += g.Steps
		items = append(items, spans(fmt.Sprintf("%s / %s: %s, %s", orDash(g.Drive), orDash(g.Profile),
			format.Counted(g.Steps, "step"), orDash(strings.TrimSuffix(g.Reason, ".")))))
	}
	d.para(plain(fmt.Sprintf("Skipped, as the plan asks: %s that the run decided not to run.", format.Counted(total, "step"))))
	d.list(items)
}

// thermalNotes say how hot an NVMe drive ran: for every step it
// throttled in, and for a table of one step (a long write saturation),
// even when it did not.
func thermalNotes(d *document, t *ProfileResult) {
	var items [][]span
	for _, r := range t.Rows {
		if r.Thermal != "" && (len(t.Rows) == 1 || r.throttled) {
			items = append(items, []span{strong(cond(r.Point == "", "Single run", r.Point) + ":"), plain(" " + r.Thermal + ".")})
		}
	}
	if len(items) > 0 {
		d.list(items)
	}
}
