package reporttruth

import (
	"regexp"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/reports"
	"github.com/drivebench/drivebench/results"
)

// The sentences under a table: its peak and how p99 stood against 1 ms
// along the load, the lightest load, how IOPS held over a long run, the
// points skipped or cut short, an adaptive search's course, and the
// ranking of the drives.
var highlightKinds = []kind{
	{
		name: "peak", in: "Results",
		pattern: pattern(`(?P<lead>Peak of|Measured) (?:{count:iops} IOPS \({bw}\)|{bw} \({count:iops} IOPS\))(?: at (?P<point>.+?))?` +
			`(?: with (?:{lat:service} mean service latency \({lat:mean} from each I/O's due time\)|{lat:mean} mean latency))?{flags}(?:; (?P<tail>.+))?\.`),
		check: checkPeak,
	},
	{
		name: "peak latency", in: "Results",
		pattern: pattern(`(?:Lowest mean latency of {lat:mean}|Measured {lat:mean} mean latency) \({count:iops} IOPS, {bw}\)(?: at (?P<point>.+?))?{flags}(?:; (?P<tail>.+))?\.`),
		check:   checkPeak,
	},
	{
		name: "lightest load", in: "Results",
		pattern: pattern(`At the lightest load(?P<each> of each mix)?, (?P<list>.+)\.`),
		check:   checkLightest,
	},
	{
		name: "series", in: "Results",
		pattern: pattern(`Over (?P<span>.+?), IOPS (?P<verb>fell from|rose from|held near) {count:first} \(first tenth of the run\) to {count:last} \(last tenth\)\.`),
		check:   checkSeries,
	},
	{
		name: "skipped points", in: "Results",
		pattern: pattern(`{count:n} (?:point was|points were) skipped(?:: (?P<reasons>.+))?\.`),
		check:   checkSkippedPoints,
	},
	{
		name: "no point finished", in: "Results",
		pattern: pattern(`(?:No point finished|No measurements were recorded) \((?P<tally>.+)\)\.`),
		check: func(sc *scope, g groups) []string {
			var p problems
			if sc.table != nil {
				p.eq("tally", g["tally"], tally(sc.table.Rows), "the table")
			}
			return p
		},
	},
	{
		name: "adaptive search", in: "Results",
		pattern: pattern(`The search measured (?:{count:n} points?|no point)(?:, in the order listed, and (?:stopped|was interrupted|\w+) after (?P<last>.+?))?(?:: (?P<stop>.+))?\.`),
		check:   checkSearch,
	},
	{
		name: "ranking", in: "Results",
		pattern: pattern(`(?P<drive>.+?) (?:leads the {count:n} drives|ranks (?P<rank>\d+)(?:st|nd|rd|th) of {count:n}) by (?P<metric>peak IOPS|peak bandwidth|lowest mean latency), {num:pct}% (?:ahead of|behind|below|above) (?P<other>.+)\.`),
		check:   checkRanking,
	},
}

// checkPeak checks the peak sentence: the row it quotes is the table's
// peak (docs/figures.md, The peak), with that row's figures.
func checkPeak(sc *scope, g groups) []string {
	var p problems
	t := sc.table
	if t == nil {
		return []string{"no table of report.json is under this heading"}
	}
	peak, ok := sc.peak(t)
	if !ok {
		return []string{"no row of the table completed"}
	}
	curve := isCurve(t)
	done := completed(t)
	if g["lead"] == "Measured" && len(done) > 1 {
		p.add("says Measured of one point, but %d points completed: it should give the peak", len(done))
	}
	whose := "the peak row"
	if name := pointName(peak, curve); name != "" {
		whose += " (" + name + ")"
	}
	p.eq("point", g["point"], pointName(peak, curve), "the table's peak by docs/figures.md")
	p.eq("IOPS", g["iops"], format.Count(peak.Total.IOPS), whose)
	p.eq("bandwidth", g["bw"], sc.bw(peak.Total.BWBytes), whose)
	f := peak.Total
	switch {
	case g["mean"] == "" && f.MeanLatNs != nil:
		p.add("gives no mean latency, %s has %s", whose, format.Latency(*f.MeanLatNs))
	case g["mean"] != "" && f.MeanLatNs == nil:
		p.add("gives a mean latency of %s, %s has none", g["mean"], whose)
	case g["mean"] != "":
		p.eq("mean latency", g["mean"], format.Latency(*f.MeanLatNs), whose)
	}
	switch {
	case g["service"] != "" && f.ServiceMeanNs != nil:
		p.eq("mean service latency", g["service"], format.Latency(*f.ServiceMeanNs), whose)
	case g["service"] != "":
		p.add("gives a service latency, %s is not paced", whose)
	case f.ServiceMeanNs != nil && g["mean"] != "":
		p.add("gives the latency from each I/O's due time alone; %s is paced and its service latency is %s", whose, format.Latency(*f.ServiceMeanNs))
	}
	checkFlags(&p, g["flags"], peak, whose)
	if g["tail"] != "" {
		p = append(p, checkTail(t, done, curve, g["tail"])...)
	}
	return p
}

// checkFlags holds a figure's flag note to its row's flags: a row the
// run warned about is flagged wherever it is quoted, and only such a row.
func checkFlags(p *problems, note string, r reports.Row, whose string) {
	switch {
	case note == "" && len(r.Flags) > 0:
		p.add("carries no flag, %s is flagged %s", whose, strings.Join(r.Flags, ", "))
	case note != "" && len(r.Flags) == 0:
		p.add("carries the flag%s, %s has none", note, whose)
	}
}

// tail is a row's p99 at its load.
type tail struct {
	row     reports.Row
	ns      uint64
	dir     string
	load    float64
	hasLoad bool
}

func (t tail) over() bool { return t.ns > 1_000_000 }

// tailValue is a value in brackets after a point: "1.42 ms", "write 1.30
// ms; ⚠ host stalls".
var tailValue = regexp.MustCompile(`^(?:(read|write) )?([\d,]+(?:\.\d+)? (?:ns|µs|ms|s))(; ⚠ .*)?$`)

// tailRef is a point named in a tail phrase with its value: "iodepth=8
// (1.42 ms)".
type tailRef struct{ name, value string }

// tailPhrases are the ways a p99 clause says where p99 crossed 1 ms, each
// with the truth it states about the tails of a table or a mix.
var tailPhrases = []struct {
	pattern *regexp.Regexp
	check   func(tails []tail, g groups, refs map[string]tail) []string
}{
	{regexp.MustCompile(`^stayed under 1 ms throughout$`), func(tails []tail, _ groups, _ map[string]tail) []string {
		if n := countOver(tails); n > 0 {
			return []string{format.Counted(n, "point") + " had p99 above 1 ms"}
		}
		return nil
	}},
	{regexp.MustCompile(`^was above 1 ms at every point$`), func(tails []tail, _ groups, _ map[string]tail) []string {
		if n := len(tails) - countOver(tails); n > 0 {
			return []string{format.Counted(n, "point") + " had p99 under 1 ms"}
		}
		return nil
	}},
	{regexp.MustCompile(`^exceeded 1 ms only at (?P<a>.+?) \((?P<av>[^()]+)\)$`), func(tails []tail, _ groups, refs map[string]tail) []string {
		var p problems
		if n := countOver(tails); n != 1 {
			p.add("says p99 exceeded 1 ms at one point; it did at %d", n)
		}
		if !refs["a"].over() {
			p.add("names a point whose p99 is not above 1 ms")
		}
		return p
	}},
	{regexp.MustCompile(`^exceeded 1 ms at (?P<k>\d+) of (?P<n>\d+) points, the highest at (?P<a>.+?) \((?P<av>[^()]+)\)$`), func(tails []tail, g groups, refs map[string]tail) []string {
		var p problems
		p.eq("points over 1 ms", g["k"], countText(countOver(tails)), "the table")
		p.eq("points", g["n"], countText(len(tails)), "the table")
		for _, t := range tails {
			if t.ns > refs["a"].ns {
				p.add("%s had a higher p99 than the point named the highest", pointName(t.row, false))
			}
		}
		return p
	}},
	{regexp.MustCompile(`^stayed under 1 ms up to (?P<b>.+?) \((?P<bv>[^()]+)\) and exceeded it (?:only at (?P<a>.+?)|from (?P<a>.+?) on) \((?P<av>[^()]+)\)$`), func(tails []tail, _ groups, refs map[string]tail) []string {
		var p problems
		below, above := refs["b"], refs["a"]
		for _, t := range tails {
			switch {
			case t.load <= below.load && t.over():
				p.add("p99 exceeded 1 ms at a load no heavier than the point it stayed under up to")
			case t.load >= above.load && !t.over():
				p.add("p99 stayed under 1 ms at a load as heavy as the point it exceeded it from")
			case t.load > below.load && t.load < above.load:
				p.add("a point lies between the heaviest under 1 ms and the lightest over it")
			}
		}
		if below.over() || !above.over() || below.load >= above.load {
			p.add("the points named do not cross 1 ms from the lighter to the heavier")
		}
		return p
	}},
	{regexp.MustCompile(`^exceeded 1 ms (?:at (?P<k>\d+) of (?P<n>\d+) points, the lightest|only at) (?P<a>.+?) \((?P<av>[^()]+)\), yet stayed under it at (?:(?P<b>.+?) \((?P<bv>[^()]+)\), (?:a heavier load|as heavy a load)|(?P<m>\d+) points as heavy or heavier, up to (?P<b>.+?) \((?P<bv>[^()]+)\))$`), func(tails []tail, g groups, refs map[string]tail) []string {
		var p problems
		lightest := refs["a"]
		var heavierUnder []tail
		for _, t := range tails {
			if t.over() && t.load < lightest.load {
				p.add("a lighter point than the one named the lightest was over 1 ms")
			}
			if !t.over() && t.load >= lightest.load {
				heavierUnder = append(heavierUnder, t)
			}
		}
		if g["k"] != "" {
			p.eq("points over 1 ms", g["k"], countText(countOver(tails)), "the table")
			p.eq("points", g["n"], countText(len(tails)), "the table")
		} else if countOver(tails) != 1 {
			p.add("says p99 exceeded 1 ms at one point; it did at %d", countOver(tails))
		}
		if g["m"] != "" {
			p.eq("points under 1 ms as heavy or heavier", g["m"], countText(len(heavierUnder)), "the table")
		} else if len(heavierUnder) != 1 {
			p.add("names one heavier point under 1 ms; there are %d", len(heavierUnder))
		}
		for _, t := range heavierUnder {
			if t.load > refs["b"].load {
				p.add("the heavier points under 1 ms go beyond the one named")
			}
		}
		return p
	}},
}

func countText(n int) string { return format.Count(float64(n)) }

func countOver(tails []tail) int {
	n := 0
	for _, t := range tails {
		if t.over() {
			n++
		}
	}
	return n
}

// tailsOf are the p99 tails of rows, a mix's named by their load.
func tailsOf(rows []reports.Row, mixed, curve bool) []tail {
	var out []tail
	for _, r := range rows {
		ns, dir, ok := p99(r, mixed)
		if !ok {
			continue
		}
		l, has := load(r, curve)
		out = append(out, tail{row: r, ns: ns, dir: dir, load: l, hasLoad: has})
	}
	return out
}

// checkTail checks the p99 clause after a peak: "p99 stayed under 1 ms
// throughout", "p99 was 1.33 ms", or per mix "p99 at rwmixread=70
// stayed ...; at rwmixread=30 ...".
func checkTail(t *reports.ProfileResult, done []reports.Row, curve bool, text string) []string {
	var p problems
	if len(done) == 1 {
		m := regexp.MustCompile(`^(?:(read|write) )?p99 was ([\d,]+(?:\.\d+)? (?:ns|µs|ms|s))$`).FindStringSubmatch(text)
		ns, dir, ok := p99(done[0], t.Mixed)
		switch {
		case m == nil:
			p.add("the p99 clause %q is of no known kind", text)
		case !ok:
			p.add("gives a p99 the row does not have")
		default:
			p.eq("p99", strings.TrimSpace(m[1]+" p99 "+m[2]), strings.TrimSpace(dir+" p99 "+format.Latency(float64(ns))), "the row")
		}
		return p
	}
	rest, ok := strings.CutPrefix(text, "p99 ")
	if !ok {
		return []string{"the p99 clause " + text + " is of no known kind"}
	}
	names, groups := mixes(t)
	if len(names) < 2 {
		return checkTailPhrase(tailsOf(done, t.Mixed, curve), done, curve, rest)
	}
	parts := splitTop(rest, "; ")
	if len(parts) == 1 {
		// Every mix said the same.
		for _, g := range groups {
			p = append(p, checkTailPhrase(tailsOf(g, t.Mixed, curve), g, curve, rest)...)
		}
		return p
	}
	seen := 0
	for _, part := range parts {
		part = strings.TrimPrefix(part, "at ")
		found := false
		for i, name := range names {
			if phrase, ok := strings.CutPrefix(part, name+" "); ok {
				p = append(p, checkTailPhrase(tailsOf(groups[i], t.Mixed, curve), groups[i], curve, phrase)...)
				found = true
				seen++
			}
		}
		if !found {
			p.add("the p99 clause %q names no mix of the table", part)
		}
	}
	if seen != len(names) {
		p.add("the p99 clause speaks of %d of the table's %d mixes", seen, len(names))
	}
	return p
}

// checkTailPhrase checks one phrase about the tails of rows.
func checkTailPhrase(tails []tail, rows []reports.Row, curve bool, phrase string) []string {
	for _, tp := range tailPhrases {
		m := tp.pattern.FindStringSubmatch(phrase)
		if m == nil {
			continue
		}
		g := groups{}
		for i, name := range tp.pattern.SubexpNames() {
			if name != "" && m[i] != "" {
				g[name] = m[i]
			}
		}
		var p problems
		refs := map[string]tail{}
		for _, ref := range []tailRef{{g["a"], g["av"]}, {g["b"], g["bv"]}} {
			if ref.name == "" {
				continue
			}
			r, ok := findRow(rows, ref.name, curve)
			if !ok {
				p.add("names %s, which is no completed point of the table", ref.name)
				return p
			}
			i := slices.IndexFunc(tails, func(t tail) bool { return t.row.StepID == r.StepID })
			if i < 0 {
				p.add("names %s, which has no p99", ref.name)
				return p
			}
			tl := tails[i]
			v := tailValue.FindStringSubmatch(ref.value)
			if v == nil {
				p.add("the value %q of %s is of no known form", ref.value, ref.name)
				continue
			}
			p.eq("p99 of "+ref.name, strings.TrimSpace(v[1]+" "+v[2]), strings.TrimSpace(tl.dir+" "+format.Latency(float64(tl.ns))), "the row")
			if (v[3] != "") != (len(r.Flags) > 0) {
				p.add("the flags beside %s are not its row's (%s)", ref.name, strings.Join(r.Flags, ", "))
			}
			if g["a"] == ref.name {
				refs["a"] = tl
			} else {
				refs["b"] = tl
			}
		}
		return append(p, tp.check(tails, g, refs)...)
	}
	return []string{"the p99 phrase " + phrase + " is of no known kind"}
}

// splitTop splits text at sep outside brackets.
func splitTop(text, sep string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(text); i++ {
		switch {
		case text[i] == '(':
			depth++
		case text[i] == ')':
			depth--
		case depth == 0 && strings.HasPrefix(text[i:], sep):
			out = append(out, text[start:i])
			start = i + len(sep)
		}
	}
	return append(out, text[start:])
}

// lightestItem is one point of the lightest-load sentence: "iodepth=1:
// 47,218 IOPS (193.4 MB/s) with 84.6 µs mean latency".
var lightestItem = pattern(`(?P<point>.+?): (?:{count:iops} IOPS \({bw}\)|{bw} \({count:iops} IOPS\)|{lat:lead} mean latency \({count:iops} IOPS, {bw}\))(?: with {lat:mean} mean latency)?{flags}`)

// checkLightest checks that the points named are the lightest, each of
// its mix, with their figures; and that every mix is named.
func checkLightest(sc *scope, g groups) []string {
	t := sc.table
	if t == nil {
		return []string{"no table of report.json is under this heading"}
	}
	var p problems
	names, mixGroups := mixes(t)
	if len(names) < 2 {
		mixGroups = [][]reports.Row{completed(t)}
	}
	if (g["each"] != "") != (len(names) >= 2) {
		p.add("says of each mix where the table has %d", len(names))
	}
	var want []reports.Row
	for _, rows := range mixGroups {
		want = append(want, lightest(rows)...)
	}
	items := splitTop(g["list"], "; ")
	if len(items) != len(want) {
		p.add("names %d points; the lightest points of the table are %d", len(items), len(want))
	}
	for _, item := range items {
		m := lightestItem.FindStringSubmatch(item)
		if m == nil {
			p.add("the point %q is of no known form", item)
			continue
		}
		ig := groups{}
		for i, name := range lightestItem.SubexpNames() {
			if name != "" && m[i] != "" {
				ig[name] = m[i]
			}
		}
		i := slices.IndexFunc(want, func(r reports.Row) bool { return r.Point == ig["point"] })
		if i < 0 {
			p.add("%s is not the lightest load of its mix", ig["point"])
			continue
		}
		r := want[i]
		whose := "the row " + r.Point
		p.eq("IOPS", ig["iops"], format.Count(r.Total.IOPS), whose)
		p.eq("bandwidth", ig["bw"], sc.bw(r.Total.BWBytes), whose)
		if lat := cond(ig["lead"] != "", ig["lead"], ig["mean"]); lat != "" || r.Total.MeanLatNs != nil {
			want := "none"
			if r.Total.MeanLatNs != nil {
				want = format.Latency(*r.Total.MeanLatNs)
			}
			p.eq("mean latency", cond(lat == "", "none", lat), want, whose)
		}
		checkFlags(&p, ig["flags"], r, whose)
	}
	return p
}

func cond(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// lightest are the rows of least load in flight.
func lightest(rows []reports.Row) []reports.Row {
	var out []reports.Row
	least := 0.0
	for _, r := range rows {
		l, ok := inFlight(r)
		switch {
		case !ok:
		case len(out) == 0 || l < least:
			out, least = []reports.Row{r}, l
		case l == least:
			out = append(out, r)
		}
	}
	return out
}

// checkSeries checks how IOPS moved over a long run against the first and
// last tenth of the peak row's intervals, each weighted by its length.
func checkSeries(sc *scope, g groups) []string {
	t := sc.table
	if t == nil {
		return []string{"no table of report.json is under this heading"}
	}
	peak, ok := sc.peak(t)
	if !ok {
		return []string{"no row of the table completed"}
	}
	if pacedReplay(peak) {
		return []string{"the peak row replays a trace on its schedule: its IOPS over the run are the trace's rate, not the drive's"}
	}
	first, last, secs, ok := tenths(sc.r.Records[peak.StepID])
	if !ok {
		return []string{"the peak row's record has fewer than 10 intervals"}
	}
	var p problems
	whose := "the peak row's record"
	p.eq("run length", g["span"], format.Duration(int64(secs*1e9)), whose)
	p.eq("first tenth", g["first"], format.Count(first), whose)
	p.eq("last tenth", g["last"], format.Count(last), whose)
	verb := "held near"
	switch {
	case last < first*0.8:
		verb = "fell from"
	case last > first*1.2:
		verb = "rose from"
	}
	p.eq("trend", g["verb"], verb, whose)
	return p
}

// checkSkippedPoints checks the count of skipped points and their
// reasons against the records.
func checkSkippedPoints(sc *scope, g groups) []string {
	t := sc.table
	if t == nil {
		return []string{"no table of report.json is under this heading"}
	}
	var p problems
	n := 0
	var reasons []string
	for _, r := range t.Rows {
		if r.Status != results.StatusSkipped {
			continue
		}
		n++
		if rec := sc.r.Records[r.StepID]; rec != nil {
			reasons = append(reasons, skipReason(rec))
		}
	}
	p.eq("skipped points", g["n"], countText(n), "the table")
	for _, reason := range splitTop(g["reasons"], "; ") {
		if reason != "" && !slices.Contains(reasons, reason) && !slices.Contains(reasons, reason+".") {
			p.add("gives the reason %q, which no skipped step's record gives", reason)
		}
	}
	return p
}

// tally counts rows by status: "1 failed, 2 not run".
func tally(rows []reports.Row) string {
	var order []string
	counts := map[string]int{}
	for _, r := range rows {
		word := strings.ReplaceAll(r.Status, "_", " ")
		if r.Status == results.StatusOK {
			word = "finished without data"
		}
		if counts[word] == 0 {
			order = append(order, word)
		}
		counts[word]++
	}
	parts := make([]string, len(order))
	for i, w := range order {
		parts[i] = countText(counts[w]) + " " + w
	}
	return strings.Join(parts, ", ")
}

// checkSearch checks the count of points an adaptive search measured
// against its record.
func checkSearch(sc *scope, g groups) []string {
	t := sc.table
	if t == nil || t.Search == nil {
		return []string{"no adaptive search of report.json is under this heading"}
	}
	rec := sc.r.Records[t.Search.StepID]
	if rec == nil {
		return []string{"the search's record is not in the results folder"}
	}
	var p problems
	n := cond(g["n"] == "", "0", g["n"])
	p.eq("points measured", n, countText(len(rec.Points)), "the search's record")
	if last := g["last"]; last != "" && len(rec.Points) > 0 {
		if lr := sc.r.Records[rec.Points[len(rec.Points)-1]]; lr != nil {
			p.eq("last point", last, lr.Point.String(), "the record of the search's last point")
		}
	}
	stop := rec.Error
	if stop == "" && rec.Search != nil {
		stop = rec.Search.Text()
	}
	p.eq("why it stopped", g["stop"], strings.TrimSuffix(stop, "."), "the search's record")
	return p
}

// rankEntry is one drive's peak in a section's ranking.
type rankEntry struct {
	run, drive string
	f          *reports.Figures
}

// ranked are the peaks of a profile's tables, best first: this run's,
// recomputed, and the comparables', as their reports marked them; with
// the profile's headline.
func (sc *scope) ranked(profile string) ([]rankEntry, string) {
	s := sc.r.Summary
	var entries []rankEntry
	headline := ""
	for i := range s.Results {
		if t := &s.Results[i]; t.Profile == profile {
			headline = t.Headline
			if peak, ok := sc.peak(t); ok {
				entries = append(entries, rankEntry{"", t.Drive, peak.Total})
			}
		}
	}
	for _, c := range s.Comparables {
		for _, t := range c.Results {
			if t.Profile != profile {
				continue
			}
			for _, r := range t.Rows {
				if r.Peak && r.Total != nil {
					entries = append(entries, rankEntry{c.Name, t.Drive, r.Total})
				}
			}
		}
	}
	slices.SortStableFunc(entries, func(a, b rankEntry) int {
		va, vb := headlineValue(a.f, headline), headlineValue(b.f, headline)
		switch {
		case va == vb:
			return 0
		case (va > vb) != (headline == "lat"):
			return -1
		}
		return 1
	})
	return entries, headline
}

// headlineValue is the figure a headline ranks by.
func headlineValue(f *reports.Figures, headline string) float64 {
	switch headline {
	case "bw":
		return f.BWBytes
	case "lat":
		return latOrInf(f)
	}
	return f.IOPS
}

// checkRanking checks a ranking sentence against the peaks of the
// drives' tables.
func checkRanking(sc *scope, g groups) []string {
	entries, headline := sc.ranked(strings.SplitN(sc.u.h3, " on ", 2)[0])
	var p problems
	p.eq("drives", g["n"], countText(len(entries)), "the section")
	if len(entries) < 2 {
		return p
	}
	metric := map[string]string{"bw": "peak bandwidth", "lat": "lowest mean latency"}[headline]
	p.eq("figure ranked by", g["metric"], cond(metric == "", "peak IOPS", metric), "the section's headline")
	rank := 1
	if g["rank"] != "" {
		rank = atoi(g["rank"])
	}
	me := entries[rank-1]
	if !strings.HasPrefix(g["drive"], me.drive+" ") && g["drive"] != me.drive || me.run != "" {
		p.add("names %s at rank %d; by the peaks of the tables it is %s", g["drive"], rank, me.drive)
		return p
	}
	other := entries[0]
	if rank == 1 {
		other = entries[1]
	}
	diff := (headlineValue(me.f, headline) - headlineValue(other.f, headline)) / headlineValue(other.f, headline) * 100
	if headline == "lat" {
		diff = -diff
	}
	if rank > 1 {
		diff = -diff
	}
	p.eq("lead", g["pct"], format.Grouped(diff, 1), "the peaks of the tables")
	return p
}
