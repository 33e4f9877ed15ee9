package reporttruth

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/reports"
	"github.com/drivebench/drivebench/results"
)

// The notes beside a table: which percentiles rest on too few I/Os, how
// much each point's IOPS varied over its intervals and its rounds, the
// warnings the run recorded on its rows and the drive's temperature.
var noteKinds = []kind{
	{
		name: "p99.999 left out", in: "Results",
		pattern: pattern(`p99\.999 is not shown: no point had the 1,000,000 I/Os it needs for 10 of them to lie beyond it\.`),
		check: func(sc *scope, _ groups) []string {
			if r, f, ok := enoughFor99999(sc); ok {
				return []string{fmt.Sprintf("%s had %s I/Os", cond(r.Point == "", "the single run", r.Point), format.Count(float64(f.IOs)))}
			}
			return nil
		},
	},
	{
		name: "p99.999 not recorded", in: "Results",
		pattern: pattern(`p99\.999 is not shown: the points with the 1,000,000 I/Os it needs did not record it \(their records keep no latency histogram to read it from\)\.`),
		check: func(sc *scope, _ groups) []string {
			if _, _, ok := enoughFor99999(sc); !ok {
				return []string{"no point had 1,000,000 I/Os"}
			}
			for _, r := range tableRows(sc) {
				rec := sc.r.Records[r.StepID]
				if rec == nil || rec.Result == nil {
					continue
				}
				for _, d := range []*metrics.DirStats{rec.Result.Read, rec.Result.Write} {
					if d != nil && d.IOs >= 1_000_000 && (d.Hist != nil && d.Hist.Count() > 0 || slices.ContainsFunc(d.Lat.Percentiles, func(p metrics.Percentile) bool { return p.P == 99.999 })) {
						return []string{fmt.Sprintf("the record of %s holds what p99.999 is read from", cond(r.Point == "", "the single run", r.Point))}
					}
				}
			}
			return nil
		},
	},
	{
		name: "few I/Os beyond a percentile", in: "Results",
		pattern: pattern(`† fewer than 10 I/Os of the point lie beyond this percentile, so it shows one of the slowest few I/Os rather than a rate\.`),
		check: func(sc *scope, _ groups) []string {
			if sc.table == nil {
				return []string{"no table of report.json is under this heading"}
			}
			for _, r := range sc.table.Rows {
				for _, f := range []*reports.Figures{r.Total, r.Read, r.Write} {
					for _, p := range sc.table.Columns {
						if f != nil && f.IOs > 0 && p < 100 && float64(f.IOs) < 10/(1-p/100) {
							return nil
						}
					}
				}
			}
			return []string{"every point has the I/Os its percentile columns need"}
		},
	},
	{
		name: "bandwidth unit", in: "Results",
		pattern: pattern(`Bandwidth is in (?P<unit>MB/s \(decimal: 1 MB/s is 10\^6|MiB/s \(binary: 1 MiB/s is 2\^20) bytes per second\)\.`),
		check: func(sc *scope, g groups) []string {
			var p problems
			p.eq("unit", strings.SplitN(g["unit"], " ", 2)[0], sc.r.Summary.Units, "report.json")
			return p
		},
	},
	{
		name: "interval noise", in: "Results",
		pattern: pattern(`Per-interval IOPS varied \(coefficient of variation\) by (?P<list>.+)\.`),
		check:   checkIntervalNoise,
	},
	{
		name: "round spread", in: "Results",
		pattern: pattern(`Rounds: (?P<list>.+)\.`),
		check:   checkRoundSpread,
	},
}

// enoughFor99999 is a row of the table, and its figure, with the
// 1,000,000 I/Os p99.999 needs for 10 of them to lie beyond it.
func enoughFor99999(sc *scope) (reports.Row, *reports.Figures, bool) {
	for _, r := range tableRows(sc) {
		for _, f := range []*reports.Figures{r.Total, r.Read, r.Write} {
			if f != nil && f.IOs >= 1_000_000 {
				return r, f, true
			}
		}
	}
	return reports.Row{}, nil, false
}

// tableRows are the rows of the table a sentence is under.
func tableRows(sc *scope) []reports.Row {
	if sc.table == nil {
		return nil
	}
	return sc.table.Rows
}

// cvItem is one point of the interval noise: "iodepth=8 2.4 %".
var cvItem = regexp.MustCompile(`(.+?) (\d+\.\d) %(?:, |$)`)

// checkIntervalNoise recomputes each point's coefficient of variation
// over its record's whole intervals, and checks that every point with
// two or more is named, a row of rounds combined excepted.
func checkIntervalNoise(sc *scope, g groups) []string {
	t := sc.table
	if t == nil {
		return []string{"no table of report.json is under this heading"}
	}
	var p problems
	curve := isCurve(t)
	named := map[string]bool{}
	for _, m := range cvItem.FindAllStringSubmatch(g["list"], -1) {
		r, ok := findRow(t.Rows, m[1], curve)
		if !ok {
			p.add("names %s, which is no row of the table", m[1])
			continue
		}
		named[r.StepID] = true
		if pacedReplay(r) {
			p.add("gives a spread for %s, which replays a trace on its schedule: its intervals' IOPS are the trace's rate, not the drive's", m[1])
			continue
		}
		s, ok := spreadOf(intervalIOPS(sc.r.Records[r.StepID]))
		if !ok {
			p.add("gives a spread for %s, whose record has fewer than 2 whole intervals", m[1])
			continue
		}
		p.eq("coefficient of variation of "+m[1], m[2], fmt.Sprintf("%.1f", s.cv), "its record's whole intervals")
	}
	for _, r := range t.Rows {
		if _, ok := spreadOf(intervalIOPS(sc.r.Records[r.StepID])); ok && !combined(r) && !pacedReplay(r) && !named[r.StepID] {
			p.add("leaves out %s, whose record has the intervals to judge", cond(r.Point == "", "the single run", r.Point))
		}
	}
	return p
}

// spreadItem is one row of the round spread.
var spreadItem = pattern(`(?P<name>.+): {count:min} to {count:max} IOPS over {count:n} rounds \(CV {num:cv} %\), mean {count:mean}, 95 % confidence {count:lo} to {count:hi}`)

// checkRoundSpread recomputes the spread of each row's rounds from their
// records: of the rounds a row combines, or of all when it shows one.
func checkRoundSpread(sc *scope, g groups) []string {
	t := sc.table
	if t == nil {
		return []string{"no table of report.json is under this heading"}
	}
	var p problems
	curve := isCurve(t)
	named := 0
	for _, item := range splitTop(g["list"], "; ") {
		m := spreadItem.FindStringSubmatch(item)
		if m == nil {
			p.add("the rounds of %q are of no known form", item)
			continue
		}
		ig := groups{}
		for i, name := range spreadItem.SubexpNames() {
			if name != "" {
				ig[name] = m[i]
			}
		}
		r, ok := findRow(t.Rows, ig["name"], curve)
		if !ok {
			p.add("names %s, which is no row of the table", ig["name"])
			continue
		}
		named++
		s, ok := spreadOf(sc.roundIOPS(r))
		if !ok {
			p.add("gives a spread of the rounds of %s, which has fewer than 2 with records", ig["name"])
			continue
		}
		whose := "the records of its rounds"
		p.eq("lowest round of "+ig["name"], ig["min"], format.Count(s.min), whose)
		p.eq("highest round of "+ig["name"], ig["max"], format.Count(s.max), whose)
		p.eq("rounds of "+ig["name"], ig["n"], countText(s.n), whose)
		p.eq("CV of "+ig["name"], ig["cv"], fmt.Sprintf("%.1f", s.cv), whose)
		p.eq("mean of "+ig["name"], ig["mean"], format.Count(s.mean), whose)
		p.eq("confidence low of "+ig["name"], ig["lo"], format.Count(s.lo), whose)
		p.eq("confidence high of "+ig["name"], ig["hi"], format.Count(s.hi), whose)
		if combined(r) {
			p.eq("mean of "+ig["name"], ig["mean"], format.Count(r.Total.IOPS), "the row the rounds are combined into")
		}
	}
	want := 0
	for _, r := range t.Rows {
		if len(sc.roundIOPS(r)) >= 2 {
			want++
		}
	}
	if named != want {
		p.add("gives the rounds of %d rows; %d rows have 2 rounds or more", named, want)
	}
	return p
}

// warningKinds know the warnings listed under a table.
var warningKinds = []kind{
	{
		name: "warning", in: "Results",
		pattern: pattern(`\*\*Warning \((?P<where>.+)\):\*\* (?P<message>.+)`),
		check:   checkWarning,
	},
	{
		name: "precondition warning", in: "Methodology",
		pattern: pattern(`\*\*Warning \((?P<pre>.+), pass {count:pass} on (?P<drive>.+)\):\*\* (?P<message>.+)`),
		check:   checkPreconditionWarning,
	},
}

// checkPreconditionWarning checks that a warning under the preconditioning
// table is one its pass's record holds.
func checkPreconditionWarning(sc *scope, g groups) []string {
	for _, p := range sc.r.Summary.Preconditioning {
		if p.Precondition != g["pre"] || p.Drive != g["drive"] || strconv.Itoa(p.Pass) != g["pass"] {
			continue
		}
		if rec := sc.r.Records[p.StepID]; rec != nil {
			for _, w := range rec.Warnings {
				if w.Message == g["message"] {
					return nil
				}
			}
		}
		return []string{"the pass's record holds no such warning"}
	}
	return []string{"no preconditioning pass of report.json is " + g["pre"] + ", pass " + g["pass"] + " on " + g["drive"]}
}

// roundSuffix ends the place of a round's warning: ", round 3".
var roundSuffix = regexp.MustCompile(`^(.*), round (\d+)$`)

// keptUp is the warning a report adds to a rate point that fell short of
// its rate.
var keptUp = pattern(`The drive did not keep up: {count:iops} IOPS of the {count:asked} asked \({num:short} % short\)\.`)

// checkWarning checks that a warning is one the record of its row's step,
// or of the round it names, holds; or, for a rate point that fell short,
// that its figures are the row's and the rate its workload asked.
func checkWarning(sc *scope, g groups) []string {
	t := sc.table
	if t == nil {
		return []string{"no table of report.json is under this heading"}
	}
	where, round := g["where"], ""
	if m := roundSuffix.FindStringSubmatch(where); m != nil {
		where, round = m[1], m[2]
	}
	r, ok := findRow(t.Rows, where, isCurve(t))
	if !ok {
		return []string{"names " + where + ", which is no row of the table"}
	}
	if m := keptUp.FindStringSubmatch(g["message"]); m != nil {
		var p problems
		rec := sc.r.Records[r.StepID]
		if rec == nil || rec.Workload == nil || rec.Workload.RateIOPS <= 0 || r.Total == nil {
			return []string{"says the drive did not keep up with a rate the row's record does not set"}
		}
		asked := rec.Workload.RateIOPS
		p.eq("IOPS", m[1], format.Count(r.Total.IOPS), "the row")
		p.eq("rate asked", m[2], format.Count(asked), "the row's record")
		p.eq("shortfall", m[3], fmt.Sprintf("%.1f", 100*(1-r.Total.IOPS/asked)), "the row against its rate")
		if r.Total.IOPS >= 0.99*asked {
			p.add("the row kept within 1 %% of its rate")
		}
		return p
	}
	id := r.StepID
	if round != "" {
		i := slices.IndexFunc(r.Rounds, func(x reports.RoundResult) bool { return fmt.Sprint(x.Round) == round })
		if i < 0 {
			return []string{"names round " + round + ", which the row does not have"}
		}
		id = r.Rounds[i].StepID
	}
	rec := sc.r.Records[id]
	if rec == nil {
		return []string{"the record of " + g["where"] + " is not in the results folder"}
	}
	if !slices.ContainsFunc(rec.Warnings, func(w results.Warning) bool { return w.Message == g["message"] }) {
		return []string{"is no warning of the record of " + g["where"]}
	}
	for _, wf := range warningFigures {
		if m := wf.pattern.FindStringSubmatch(g["message"]); m != nil {
			wg := groups{}
			for i, name := range wf.pattern.SubexpNames() {
				if _, seen := wg[name]; name != "" && (m[i] != "" || !seen) {
					wg[name] = m[i]
				}
			}
			return wf.check(sc, wg, rec)
		}
	}
	return nil
}

// warningFigure is a kind of warning whose figures the record it was
// written in holds, recomputed as the sentences of the report are. A
// warning of another kind is held to its record's words alone.
type warningFigure struct {
	pattern *regexp.Regexp
	check   func(sc *scope, g groups, rec *results.Record) []string
}

// warningFigures are the warnings whose figures are recomputed: how busy
// the host was, how long the whole machine was held, and a rate point
// above its curve's maximum against the maximum's noise, which needs 3
// whole intervals (docs/figures.md, Noise).
var warningFigures = []warningFigure{
	{pattern(`The host's processors were {count:busy} % busy over the step \(all {count:cpus} of them(?P<mostly>\), mostly with other programs \(|; )drivebench and its engine {count:engine} %\).*`), func(_ *scope, g groups, rec *results.Record) []string {
		h := rec.Host
		if h == nil {
			return []string{"its record holds no host load"}
		}
		var p problems
		p.eq("busy", g["busy"], fmt.Sprintf("%.0f", h.BusyPct), "the record's host load")
		p.eq("processors", g["cpus"], fmt.Sprint(h.CPUs), "the record's host load")
		p.eq("engine's share", g["engine"], fmt.Sprintf("%.0f", h.EnginePct), "the record's host load")
		if (g["mostly"] != "; ") != (h.EnginePct < h.BusyPct/2) {
			p.add("says whose the load mostly was against the record: drivebench and its engine %.0f %% of %.0f %%", h.EnginePct, h.BusyPct)
		}
		return p
	}},
	{pattern(`The engine's busiest thread \((?P<thread>.+?)\) kept a processor {count:pct} % busy.*`), func(_ *scope, g groups, rec *results.Record) []string {
		if rec.Host == nil {
			return []string{"its record holds no host load"}
		}
		var p problems
		p.eq("busiest thread", g["pct"], fmt.Sprintf("%.0f", rec.Host.BusiestThreadPct), "the record's host load")
		p.eq("thread", g["thread"], rec.Host.BusiestThread, "the record's host load")
		return p
	}},
	{pattern(`The whole machine was held, none of its programs running, for about (?P<share>.+?) of the step: {count:held} of {count:samples} wake-ups of a real-time thread came more than 2 ms late, one by {num:late} ms.*`), func(_ *scope, g groups, rec *results.Record) []string {
		if rec.Host == nil || rec.Host.Stalls == nil {
			return []string{"its record holds no stalls"}
		}
		st := rec.Host.Stalls
		var p problems
		p.eq("late wake-ups", g["held"], fmt.Sprint(st.Held), "the record's stalls")
		p.eq("wake-ups", g["samples"], fmt.Sprint(st.Samples), "the record's stalls")
		p.eq("latest", g["late"], fmt.Sprintf("%.1f", st.MaxLateMs), "the record's stalls")
		p.eq("share held", g["share"], format.Share(st.HeldPct), "the record's stalls")
		return p
	}},
	{pattern(`At {num:rate}% of the maximum this step completed {count:got} IOPS, {num:excess}% more than the curve's uncontrolled maximum of {count:peak} IOPS(?: \(noise ±{num:noise}%\)|, but the maximum ran {count:n} whole intervals?, and its noise needs 3).*`), func(sc *scope, g groups, rec *results.Record) []string {
		if rec.Workload == nil || sc.r.Records[rec.Workload.RateBase] == nil {
			return []string{"its record names no maximum the results folder holds"}
		}
		base := sc.r.Records[rec.Workload.RateBase]
		got, _ := recordIOPS(rec)
		peak, _ := recordIOPS(base)
		whole := len(intervalIOPS(base))
		var p problems
		p.eq("IOPS", g["got"], fmt.Sprintf("%.0f", got), "its record")
		p.eq("maximum", g["peak"], fmt.Sprintf("%.0f", peak), "the maximum's record")
		noise, _, known := judging.IOPSNoise(base.Result)
		if g["n"] != "" {
			p.eq("whole intervals of the maximum", g["n"], fmt.Sprint(whole), "the maximum's record")
			p.eq("excess", g["excess"], fmt.Sprintf("%.2f", 100*(got-peak)/peak), "the records")
			if whole >= 3 {
				p.add("says the maximum's noise is unknown, but it ran %d whole intervals", whole)
			}
			return p
		}
		p.eq("excess", g["excess"], fmt.Sprintf("%.1f", 100*(got-peak)/peak), "the records")
		if !known {
			return append(p, fmt.Sprintf("gives the maximum's noise, which %d whole intervals cannot tell", whole))
		}
		p.eq("noise", g["noise"], fmt.Sprintf("%.1f", 100*noise/peak), "the maximum's whole intervals")
		if got <= peak+noise {
			p.add("the step is within the maximum's noise")
		}
		return p
	}},
}

// thermalKinds know a row's temperature note.
var thermalKinds = []kind{
	{
		name: "drive temperature", in: "Results",
		pattern: pattern(`\*\*(?P<where>.+?):\*\* drive temperature {count:lo}(?: to {count:hi})? °C over {count:n} readings; (?:no thermal throttling|THROTTLED: (?P<events>.+))\.`),
		check:   checkThermal,
	},
}

// checkThermal recomputes a row's temperature note from the readings its
// record holds: the coolest and hottest, their number, and how often and
// how long the drive throttled from the first reading to the last.
func checkThermal(sc *scope, g groups) []string {
	t := sc.table
	if t == nil {
		return []string{"no table of report.json is under this heading"}
	}
	where := g["where"]
	if where == "Single run" {
		where = ""
	}
	r, ok := findRow(t.Rows, where, isCurve(t))
	rec := sc.r.Records[r.StepID]
	if !ok || rec == nil || rec.Result == nil || len(rec.Result.Thermal) == 0 {
		return []string{"the record of " + g["where"] + " holds no temperature readings"}
	}
	th := rec.Result.Thermal
	lo, hi := th[0].TempC, th[0].TempC
	for _, s := range th {
		lo, hi = min(lo, s.TempC), max(hi, s.TempC)
	}
	var p problems
	whose := "the readings of its record"
	p.eq("coolest", g["lo"], fmt.Sprint(lo), whose)
	if lo != hi || g["hi"] != "" {
		p.eq("hottest", g["hi"], fmt.Sprint(hi), whose)
	}
	p.eq("readings", g["n"], fmt.Sprint(len(th)), whose)
	first, last := th[0], th[len(th)-1]
	var events []string
	times := func(n uint32) string { return cond(n == 1, "once", fmt.Sprintf("%d times", n)) }
	if n := last.Throttle1 - first.Throttle1; n > 0 {
		events = append(events, fmt.Sprintf("light thermal throttling %s (%d s)", times(n), last.Throttle1Sec-first.Throttle1Sec))
	}
	if n := last.Throttle2 - first.Throttle2; n > 0 {
		events = append(events, fmt.Sprintf("heavy thermal throttling %s (%d s)", times(n), last.Throttle2Sec-first.Throttle2Sec))
	}
	if n := last.WarningMin - first.WarningMin; n > 0 {
		events = append(events, fmt.Sprintf("%d min above the warning temperature", n))
	}
	if n := last.CriticalMin - first.CriticalMin; n > 0 {
		events = append(events, fmt.Sprintf("%d min above the critical temperature", n))
	}
	p.eq("throttling", cond(g["events"] == "", "none", g["events"]), cond(len(events) == 0, "none", strings.Join(events, ", ")), whose)
	return p
}
