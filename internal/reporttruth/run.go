package reporttruth

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/reports"
	"github.com/drivebench/drivebench/results"
)

// The sentences about the run as a whole: the counts of its header, its
// steady-state searches, its spec acceptance, the drives' health and the
// steps it skipped.

// headerKinds know the lines of the header.
var headerKinds = []kind{
	{
		name: "step counts", in: "",
		pattern: pattern(`{count:n} steps?(?: \((?P<parts>.+)\))?`),
		check: func(sc *scope, g groups) []string {
			var p problems
			total, parts := sc.stepCounts()
			p.eq("steps", g["n"], countText(total), "the manifest")
			p.eq("steps by status", g["parts"], parts, "the records")
			return p
		},
	},
	{
		name: "verdict counts", in: "",
		pattern: pattern(`{count:n} check verdicts?(?: \((?P<parts>.+)\))?`),
		check: func(sc *scope, g groups) []string {
			var p problems
			total, parts := sc.verdictCounts()
			p.eq("verdicts", g["n"], countText(total), "the records")
			p.eq("verdicts by status", g["parts"], parts, "the records")
			return p
		},
	},
	{
		name: "earlier revision", in: "",
		pattern: pattern(`(?P<marker>\S+) Results of an earlier revision of the plan, ` + "`(?P<hash>[0-9a-f]+)`" + `: {count:n} steps?, kept when the run resumed under the current revision`),
		check: func(sc *scope, g groups) []string {
			n := 0
			for _, rec := range sc.r.Records {
				if rec.PlanHash != sc.r.Summary.Plan.Hash && strings.HasPrefix(rec.PlanHash, g["hash"]) {
					n++
				}
			}
			var p problems
			p.eq("steps of the revision", g["n"], countText(n), "the records")
			return p
		},
	},
	{
		name: "records of earlier steps", in: "",
		pattern: pattern(`Kept from earlier revisions of the plan: {count:n} records? of steps this plan no longer has, under Measurements of earlier plan revisions`),
		check: func(sc *scope, g groups) []string {
			listed := map[string]bool{}
			for _, st := range sc.listed() {
				listed[st.ID] = true
			}
			for _, st := range sc.r.Manifest.Steps {
				listed[st.ID] = true
			}
			n := 0
			for id := range sc.r.Records {
				if !listed[id] {
					n++
				}
			}
			var p problems
			p.eq("records of steps the plan no longer has", g["n"], countText(n), "the results folder")
			return p
		},
	},
	{
		name: "runs", in: "",
		pattern: pattern(`Measured over {count:n} runs? \((?P<outcomes>.+)\); see Run history`),
		check: func(sc *scope, g groups) []string {
			var p problems
			p.eq("runs", g["n"], countText(len(sc.r.Summary.Runs)), "the journal's runs in report.json")
			return p
		},
	},
	{
		name: "unreadable records", in: "",
		pattern: pattern(`Left out: {count:n} records? that cannot be read, listed under Problems`),
		check: func(sc *scope, g groups) []string {
			var p problems
			p.eq("unreadable records", g["n"], countText(len(sc.r.Summary.UnreadableRecords)), "report.json")
			return p
		},
	},
	{
		name: "drives", in: "",
		pattern: pattern(`Drives: (?P<list>.+)`),
		check: func(sc *scope, g groups) []string {
			var names []string
			for _, d := range sc.r.Summary.Drives {
				name := d.Name
				if label := d.Identity.Known.Label(); label != "" {
					name += " (" + label + ")"
				}
				names = append(names, name)
			}
			var p problems
			p.eq("drives", g["list"], strings.Join(names, ", "), "report.json's drives and their identities")
			return p
		},
	},
	{
		name: "date", in: "",
		pattern: pattern(`Date: (?P<date>\d{4}-\d\d-\d\d \d\d:\d\d) UTC`),
		check: func(sc *scope, g groups) []string {
			var p problems
			latest := sc.r.Summary.GeneratedAt
			for _, rec := range sc.r.Records {
				if rec.Finished.After(latest) {
					latest = rec.Finished
				}
			}
			p.eq("date", g["date"], latest.UTC().Format("2006-01-02 15:04"), "the latest finish of the records")
			return p
		},
	},
	{
		name: "version", in: "",
		pattern: pattern(`drivebench version: (?P<version>.+)`),
		check: func(sc *scope, g groups) []string {
			var p problems
			p.eq("version", g["version"], cond(sc.r.Summary.Version == "", "—", sc.r.Summary.Version), "report.json")
			return p
		},
	},
	{
		name: "plan", in: "",
		pattern: pattern("Plan: `(?P<file>.*)`, hash `(?P<hash>.*)`"),
		check: func(sc *scope, g groups) []string {
			var p problems
			p.eq("plan file", g["file"], cond(sc.r.Summary.Plan.File == "", "—", sc.r.Summary.Plan.File), "report.json")
			p.eq("plan hash", g["hash"], cond(sc.r.Summary.Plan.Hash == "", "—", sc.r.Summary.Plan.Hash), "report.json")
			return p
		},
	},
}

// listed are the steps a report counts: those of the manifest but the
// report's own, and the points of its adaptive searches, which the
// searches chose as they ran.
func (sc *scope) listed() []results.StepInfo {
	if sc.r.Manifest == nil {
		return nil
	}
	var out []results.StepInfo
	for _, st := range sc.r.Manifest.Steps {
		if st.Kind == "report" {
			continue
		}
		out = append(out, st)
		for _, rec := range sc.r.Records {
			if rec.Parent == st.ID {
				out = append(out, results.StepInfo{ID: rec.StepID, Kind: rec.Kind, Name: rec.Name, Drive: rec.Drive, Source: rec.Source})
			}
		}
	}
	return out
}

// stepCounts counts the manifest's steps by the status of their records:
// "6 ok, 1 failed".
func (sc *scope) stepCounts() (int, string) {
	order := []string{results.StatusOK, results.StatusFailed, results.StatusInterrupted, results.StatusSkipped, "not run"}
	counts := map[string]int{}
	for _, st := range sc.listed() {
		status := "not run"
		if rec := sc.r.Records[st.ID]; rec != nil {
			status = rec.Status
		} else if slices.ContainsFunc(sc.r.Summary.UnreadableRecords, func(u reports.UnreadableRecord) bool { return u.StepID == st.ID }) {
			status = "other status"
		}
		if !slices.Contains(order, status) {
			status = "other status"
		}
		counts[status]++
	}
	return len(sc.listed()), countsText(append(order, "other status"), counts)
}

// verdictCounts counts the verdicts the records of the manifest's steps
// hold, by status.
func (sc *scope) verdictCounts() (int, string) {
	order := []string{results.VerdictPass, results.VerdictFail, results.VerdictWarn, results.VerdictError}
	counts := map[string]int{}
	n := 0
	for _, st := range sc.listed() {
		rec := sc.r.Records[st.ID]
		if rec == nil {
			continue
		}
		for _, v := range rec.Verdicts {
			status := v.Status
			if !slices.Contains(order, status) {
				status = "other status"
			}
			counts[status]++
			n++
		}
	}
	return n, countsText(append(order, "other status"), counts)
}

// countsText writes counts in order, zeros left out: "6 ok, 1 failed".
func countsText(order []string, counts map[string]int) string {
	var parts []string
	for _, name := range order {
		if counts[name] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[name], name))
		}
	}
	return strings.Join(parts, ", ")
}

// steadyKinds know the sentence on each steady-state search.
var steadyKinds = []kind{
	{
		name: "steady state reached", in: "Steady state",
		pattern: pattern(`Steady state was reached in rounds {count:first} to {count:last}: (?P<variable>.+?) averaged (?P<average>.+?)` +
			`(?:; its range was {num:range}% of the mean \(limit {num:rangeLimit}%\) and the best-fit line changed by {num:slope}% across the window \(limit {num:slopeLimit}%\)|, and the best-fit line changed by {num:slope}% across the window)\.`),
		check: checkSteadyWindow,
	},
	{
		name: "steady state not reached", in: "Steady state",
		pattern: pattern(`Steady state not reached in {count:n} rounds: in the last window, rounds {count:first} to {count:last}, the range was {num:range}% of the mean \(limit {num:rangeLimit}%\) and the best-fit line changed by {num:slope}% \(limit {num:slopeLimit}%\)\.`),
		check:   checkSteadyWindow,
	},
	{
		name: "steady-state rounds", in: "Steady state",
		pattern: pattern(`(?:Steady state was reached after|Steady state not reached in|The search ended after) {count:n} rounds?(?: without reaching steady state)?(?:: the search ran every round it was allowed)?\.`),
		check: func(sc *scope, g groups) []string {
			ss, _, ok := sc.steady()
			if !ok {
				return []string{"no steady-state search of report.json is under this heading"}
			}
			var p problems
			p.eq("rounds", g["n"], countText(len(ss.Rounds)), "the search's judgement")
			return p
		},
	},
	{
		name: "steady-state message", in: "Steady state",
		// Last of the kinds of its section: a sentence none of the others
		// knows may be the judgement's own message, its numbers the rule's.
		pattern: pattern(`(?P<sentence>.+)`),
		check: func(sc *scope, g groups) []string {
			ss, _, ok := sc.steady()
			if !ok {
				return []string{"no steady-state search of report.json is under this heading"}
			}
			rec := sc.r.Records[ss.StepID]
			if rec == nil || rec.SteadyState == nil {
				return []string{"the record of the search's judgement is not in the results folder"}
			}
			msg := strings.TrimSuffix(strings.TrimSpace(rec.SteadyState.Message), ".")
			said := strings.TrimSuffix(g["sentence"], ".")
			if msg != "" && strings.Contains(strings.ToLower(msg), strings.ToLower(said)) || !hasNumber(sc, said) {
				return nil
			}
			return []string{fmt.Sprintf("no kind of sentence knows it, and it is not the judgement's message in its record (%q)", msg)}
		},
	},
}

// steady is the steady-state search a sentence is under, and the row of
// its table whose rounds it judged.
func (sc *scope) steady() (reports.SteadyState, reports.Row, bool) {
	for _, ss := range sc.r.Summary.SteadyState {
		if !strings.HasPrefix(sc.u.h3, ss.Profile+" on "+ss.Drive) {
			continue
		}
		for _, t := range sc.r.Summary.Results {
			for _, r := range t.Rows {
				if t.Profile == ss.Profile && t.Drive == ss.Drive && slices.ContainsFunc(r.Rounds, func(x reports.RoundResult) bool { return x.StepID == ss.StepID }) {
					return ss, r, true
				}
			}
		}
		return ss, reports.Row{}, true
	}
	return reports.SteadyState{}, reports.Row{}, false
}

// checkSteadyWindow recomputes a window's average, range and best-fit
// line from the records of its rounds.
func checkSteadyWindow(sc *scope, g groups) []string {
	ss, row, ok := sc.steady()
	if !ok {
		return []string{"no steady-state search of report.json is under this heading"}
	}
	first, last := atoi(g["first"]), atoi(g["last"])
	var p problems
	p.eq("window", g["first"]+" to "+g["last"], fmt.Sprintf("%d to %d", ss.WindowFirst, ss.WindowLast), "the search's judgement")
	if g["n"] != "" {
		p.eq("rounds", g["n"], countText(len(ss.Rounds)), "the search's judgement")
	}
	var xs, ys []float64
	for _, round := range row.Rounds {
		if round.Round < first || round.Round > last {
			continue
		}
		v, ok := sc.tracked(ss.Variable, round.StepID)
		if !ok {
			return append(p, fmt.Sprintf("round %d has no record with the tracked figure", round.Round))
		}
		xs, ys = append(xs, float64(round.Round)), append(ys, v)
	}
	if len(ys) != last-first+1 || len(ys) < 2 {
		return append(p, fmt.Sprintf("the table holds %d of the window's rounds", len(ys)))
	}
	var avg float64
	for _, y := range ys {
		avg += y / float64(len(ys))
	}
	whose := "the records of the window's rounds"
	if g["average"] != "" {
		p.eq("average", g["average"], sc.variableText(ss.Variable, avg), whose)
		if combined(row) && row.Total != nil && ss.Variable == "iops" {
			p.eq("average", g["average"], format.Count(row.Total.IOPS), "the row the window is combined into")
		}
	}
	// The least-squares line over the window, and how far it moves
	// across it in percent of the average.
	var mx, my float64
	for i := range xs {
		mx, my = mx+xs[i]/float64(len(xs)), my+ys[i]/float64(len(ys))
	}
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	slope := sxy / sxx
	p.eq("best-fit change", g["slope"], pct(math.Abs(slope*float64(last-first)/avg*100), g["slope"]), whose)
	if g["range"] != "" {
		p.eq("range", g["range"], format.Grouped((slices.Max(ys)-slices.Min(ys))/avg*100, 1), whose)
	}
	return p
}

// pct writes a percentage as the sentence does, with the sign it gave
// when it gave one: a range or an excursion is written with its sign.
func pct(abs float64, says string) string {
	if strings.HasPrefix(says, "-") {
		return format.Grouped(-abs, 1)
	}
	return format.Grouped(abs, 1)
}

// tracked is the figure a steady-state search tracks, from a round's
// record.
func (sc *scope) tracked(variable, id string) (float64, bool) {
	rec := sc.r.Records[id]
	if rec == nil || rec.Result == nil {
		return 0, false
	}
	switch variable {
	case "iops":
		return recordIOPS(rec)
	case "bw":
		var v float64
		if rec.Result.Read != nil {
			v += rec.Result.Read.BW
		}
		if rec.Result.Write != nil {
			v += rec.Result.Write.BW
		}
		return v, true
	}
	return 0, false
}

// variableText writes a tracked figure as the sentence does.
func (sc *scope) variableText(variable string, v float64) string {
	if variable == "bw" {
		return sc.bw(v)
	}
	return format.Count(v)
}

// acceptanceKinds know the sentences that count a spec sheet's figures.
var acceptanceKinds = []kind{
	{
		name: "accept block", in: "Spec acceptance",
		pattern: pattern("Accept block `(?P<accept>.+)`(?:, tolerance {num:tolerance}%)?: {count:n} figures?(?: \\((?P<tally>.+)\\))?\\."),
		check: func(sc *scope, g groups) []string {
			return sc.checkAccept(sc.u.h3, g["accept"], g)
		},
	},
	{
		name: "figures not judged", in: "Spec acceptance",
		pattern: pattern(`Not judged by an accept block: {count:n} figures?\.`),
		check: func(sc *scope, g groups) []string {
			var p problems
			p.eq("figures not judged", g["n"], countText(sc.unjudged(sc.u.h3)), "the drive's spec sheet and the acceptance records")
			return p
		},
	},
	{
		name: "spec sheet judged", in: "Conclusion",
		pattern: pattern(`Spec sheet of (?P<drive>.+) \((?P<accept>.+)\): {count:n} figures?(?: \((?P<tally>.+)\))?\.`),
		check: func(sc *scope, g groups) []string {
			return sc.checkAccept(g["drive"], g["accept"], g)
		},
	},
	{
		name: "spec sheet not judged", in: "Conclusion",
		pattern: pattern(`Spec sheet of (?P<drive>.+): {count:n} figures? no accept block judged\.`),
		check: func(sc *scope, g groups) []string {
			var p problems
			p.eq("figures not judged", g["n"], countText(sc.unjudged(g["drive"])), "the drive's spec sheet and the acceptance records")
			return p
		},
	},
}

// sheetKinds know the sentences that set a spec sheet beside the drive
// held to it.
var sheetKinds = []kind{
	{
		name: "spec sheet", in: "Spec acceptance",
		pattern: pattern("Held to spec sheet `(?P<sheet>.+)`: (?P<identity>.+)\\."),
		check: func(sc *scope, g groups) []string {
			d, ok := sc.drive(sc.u.h3)
			if !ok || d.SpecSheet == nil {
				return []string{"report.json holds no spec sheet for " + sc.u.h3}
			}
			sh := d.SpecSheet
			var parts []string
			for _, part := range []string{sh.Vendor, sh.Model, capacity(sh.Capacity), sh.Interface} {
				if part != "" {
					parts = append(parts, part)
				}
			}
			var p problems
			p.eq("sheet", g["sheet"], sh.Name, "report.json")
			p.eq("sheet's identity", g["identity"], cond(len(parts) == 0, "no identity given", strings.Join(parts, ", ")), "the sheet in report.json")
			return p
		},
	},
	{
		name: "drive under test", in: "Spec acceptance",
		pattern: pattern("Under test: (?P<what>.+) at `(?P<path>.+)`\\."),
		check: func(sc *scope, g groups) []string {
			d, ok := sc.drive(sc.u.h3)
			if !ok {
				return []string{"report.json holds no drive " + sc.u.h3}
			}
			var parts []string
			for _, f := range d.Facts {
				if f.Name == "model" && f.Value != "" {
					parts = append(parts, f.Value)
				}
			}
			parts = append(parts, format.Bytes(uint64(max(d.SizeBytes, 0))))
			var p problems
			p.eq("drive under test", g["what"], strings.Join(parts, ", "), "the drive's model and size in report.json")
			p.eq("path", g["path"], d.Path, "report.json")
			return p
		},
	},
	{
		name: "file held to a sheet", in: "Spec acceptance",
		pattern: pattern(`\*\*Warning:\*\* the target is a file, not a (?P<model>.+); the figures compare how this file performs with the sheet, not whether the sheet's drive meets it\.`),
		check: func(sc *scope, g groups) []string {
			d, ok := sc.drive(sc.u.h3)
			if !ok || d.SpecSheet == nil {
				return []string{"report.json holds no spec sheet for " + sc.u.h3}
			}
			var p problems
			if !d.Scratch && slices.ContainsFunc(d.Facts, func(f reports.Fact) bool { return f.Name == "model" && f.Value != "" }) {
				p.add("the drive is no file: it reports a model")
			}
			p.eq("sheet's drive", g["model"], cond(d.SpecSheet.Vendor+d.SpecSheet.Model == "", "drive of the sheet's model", strings.TrimSpace(d.SpecSheet.Vendor+" "+d.SpecSheet.Model)), "the sheet in report.json")
			return p
		},
	},
}

// drive is the drive of report.json named name.
func (sc *scope) drive(name string) (reports.Drive, bool) {
	for _, d := range sc.r.Summary.Drives {
		if d.Name == name {
			return d, true
		}
	}
	return reports.Drive{}, false
}

// capacity writes a sheet's capacity; "" when it states none.
func capacity(bytes int64) string {
	if bytes <= 0 {
		return ""
	}
	return format.Bytes(uint64(bytes))
}

// acceptRows are the rows the acceptance records of a drive hold, of the
// accept block named.
func (sc *scope) acceptRows(drive, accept string) []results.AcceptanceRow {
	var out []results.AcceptanceRow
	for _, st := range sc.listed() {
		rec := sc.r.Records[st.ID]
		if rec == nil || rec.Drive != drive || len(rec.Acceptance) == 0 {
			continue
		}
		if accept == "" || cond(rec.Source != "", rec.Source, rec.Name) == accept {
			out = append(out, rec.Acceptance...)
		}
	}
	return out
}

// checkAccept counts an accept block's verdicts from its records.
func (sc *scope) checkAccept(drive, accept string, g groups) []string {
	rows := sc.acceptRows(drive, accept)
	var p problems
	whose := "the acceptance records of " + drive
	p.eq("figures", g["n"], countText(len(rows)), whose)
	order := []string{results.VerdictPass, results.VerdictFail, results.VerdictWarn, results.VerdictSkip}
	counts := map[string]int{}
	for _, a := range rows {
		if !slices.Contains(order, a.Verdict) {
			order = append(order, a.Verdict)
		}
		counts[a.Verdict]++
	}
	p.eq("verdicts", g["tally"], countsText(order, counts), whose)
	if g["tolerance"] != "" && len(rows) > 0 {
		p.eq("tolerance", g["tolerance"], format.Plain(rows[0].TolerancePct), whose)
	}
	return p
}

// unjudged counts the figures of a drive's spec sheet that no acceptance
// record judged.
func (sc *scope) unjudged(drive string) int {
	judged := sc.acceptRows(drive, "")
	n := 0
	for _, d := range sc.r.Summary.Drives {
		if d.Name != drive {
			continue
		}
		for _, e := range d.Spec {
			for metric := range e.Values {
				if !slices.ContainsFunc(judged, func(a results.AcceptanceRow) bool { return a.Spec == e.Name && a.Metric == metric }) {
					n++
				}
			}
		}
	}
	return n
}

// healthKinds know the sentences on what a drive's SMART log counted.
var healthKinds = []kind{
	{
		name: "data written", in: "Drive health",
		pattern: pattern(`Between the readings the drive counted (?P<counted>.+?) written \({count:units} data units? of 512,000 bytes\)(?:, (?P<ratio>[\d,.]+)× the (?P<wrote>.+?) drivebench wrote|, though drivebench wrote nothing to it in that time)\.`),
		check:   checkWritten,
	},
	{
		name: "data units", in: "Drive health",
		pattern: pattern(`The log is the controller's: its counters include any other I/O in that time, and it counts data in units of 512,000 bytes, rounded up\.`),
		check: func(*scope, groups) []string {
			if results.DataUnitBytes != 512_000 {
				return []string{fmt.Sprintf("a data unit is %d bytes", results.DataUnitBytes)}
			}
			return nil
		},
	},
	{
		name: "temperature", in: "Drive health",
		pattern: pattern(`Its temperature (?:was {count:before} °C at both readings|went from {count:before} °C to {count:after} °C)(?:, at or above its warning threshold of {count:warning} °C)?\.`),
		check: func(sc *scope, g groups) []string {
			h, ok := sc.health()
			if !ok || h.Before == nil || h.After == nil || h.Before.TemperatureC == nil || h.After.TemperatureC == nil {
				return []string{"report.json has no two temperature readings of " + sc.u.h3}
			}
			var p problems
			p.eq("temperature before", g["before"], fmt.Sprint(*h.Before.TemperatureC), "the health readings")
			p.eq("temperature after", cond(g["after"] == "", g["before"], g["after"]), fmt.Sprint(*h.After.TemperatureC), "the health readings")
			return p
		},
	},
}

// health is the health of the drive a sentence is under.
func (sc *scope) health() (reports.DriveHealth, bool) {
	for _, h := range sc.r.Summary.Health {
		if h.Drive == sc.u.h3 {
			return h, true
		}
	}
	return reports.DriveHealth{}, false
}

// checkWritten checks the data a drive counted against its readings and
// against what the records of its steps wrote.
func checkWritten(sc *scope, g groups) []string {
	h, ok := sc.health()
	if !ok || h.Change == nil {
		return []string{"report.json has no change between two readings of " + sc.u.h3}
	}
	var p problems
	p.eq("written", g["counted"], format.Bytes(h.Change.BytesWritten), "the health readings")
	p.eq("data units", g["units"], format.Count(float64(h.Change.BytesWritten/results.DataUnitBytes)), "the health readings")
	var wrote uint64
	for _, rec := range sc.r.Records {
		if rec.Drive == sc.u.h3 && rec.Result != nil && rec.Result.Write != nil &&
			(h.Before == nil || !rec.Finished.Before(h.Before.Time)) && (h.After == nil || !rec.Finished.After(h.After.Time)) {
			wrote += rec.Result.Write.Bytes
		}
	}
	if g["wrote"] == "" {
		if wrote > 0 {
			p.add("says drivebench wrote nothing; its records wrote %s", format.Bytes(wrote))
		}
		return p
	}
	p.eq("drivebench wrote", g["wrote"], format.Bytes(wrote), "the records of the drive's steps between the readings")
	if wrote > 0 {
		p.eq("ratio", g["ratio"], format.Grouped(float64(h.Change.BytesWritten)/float64(wrote), 2), "the readings and the records")
	}
	return p
}

// problemKinds know the lines on the steps the run skipped or that
// failed.
var problemKinds = []kind{
	{
		name: "output tail", in: "Problems",
		pattern: pattern("Output of (?P<step>.+) \\((?P<stream>stdout|stderr), last {count:n} lines?; the whole of it is in `(?P<file>.+)`\\):"),
		check: func(sc *scope, g groups) []string {
			for _, pr := range sc.r.Summary.Problems {
				for _, o := range pr.Output {
					if (pr.Name == g["step"] || pr.StepID == g["step"]) && o.Stream == g["stream"] {
						var p problems
						p.eq("lines", g["n"], countText(len(o.Lines)), "the output report.json keeps")
						p.eq("file", g["file"], o.File, "report.json")
						return p
					}
				}
			}
			return []string{"report.json keeps no such output of " + g["step"]}
		},
	},
	{
		name: "skipped steps", in: "Problems",
		pattern: pattern(`Skipped, as the plan asks: {count:n} steps? that the run decided not to run\.`),
		check: func(sc *scope, g groups) []string {
			n := 0
			for _, st := range sc.listed() {
				if rec := sc.r.Records[st.ID]; rec != nil && rec.Status == results.StatusSkipped {
					n++
				}
			}
			var p problems
			p.eq("skipped steps", g["n"], countText(n), "the records")
			return p
		},
	},
	{
		name: "skipped group", in: "Problems",
		pattern: pattern(`(?P<drive>[^/]+) / (?P<source>.+?): {count:n} steps?, (?P<reason>.+)`),
		check: func(sc *scope, g groups) []string {
			n := 0
			for _, st := range sc.listed() {
				rec := sc.r.Records[st.ID]
				if rec == nil || rec.Status != results.StatusSkipped || rec.Drive != g["drive"] || cond(rec.Source != "", rec.Source, rec.Name) != g["source"] {
					continue
				}
				if skipReason(rec) == g["reason"] {
					n++
				}
			}
			var p problems
			p.eq("steps skipped for this reason", g["n"], countText(n), "the records")
			return p
		},
	},
}
