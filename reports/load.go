package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/workload"
)

// Sentences about a sweep follow its load, not the order its steps ran
// in: a point's load is the I/Os it keeps in flight (iodepth x numjobs),
// or on a rate curve the rate it was held to (the uncontrolled maximum
// counting as 100 %). A sweep that also varies something else (the read
// share, the block size) is several mixes, each a line of the latency
// ladder, and a sentence about the load names each mix it speaks of.

// inFlight is iodepth x numjobs at a point; ok is false when the point
// sets neither.
func inFlight(params []Param) (float64, bool) {
	load, found := 1.0, false
	for _, p := range params {
		v, numeric := p.Value.(float64)
		if numeric && slices.Contains(loadParams, p.Name) {
			load *= v
			found = true
		}
	}
	return load, found
}

// pointLoad is a row's load; ok is false when its point says nothing of
// the load (a sweep over the block size alone).
func pointLoad(r Row, curve bool) (float64, bool) {
	if curve {
		if r.RatePct != nil {
			return *r.RatePct, true
		}
		return 100, true
	}
	return inFlight(r.Params)
}

// loadName names a row by its load parameters alone, as the rows of one
// mix are told apart: "iodepth=4, numjobs=2"; the whole point when it
// sets none of them.
func loadName(r Row, curve bool) string {
	var parts []string
	for _, p := range r.Params {
		if slices.Contains(loadParams, p.Name) {
			parts = append(parts, workload.Param(p).String())
		}
	}
	if len(parts) == 0 || len(parts) == len(r.Params) {
		return pointName(r, curve)
	}
	return strings.Join(parts, ", ")
}

// tail is a row's p99 latency at its load: in a mixed table the worse
// direction's, named.
type tail struct {
	point   string
	dir     string
	ns      uint64
	load    float64
	hasLoad bool
	flags   []string
}

func rowTail(r Row, mixed, curve bool) (tail, bool) {
	load, hasLoad := pointLoad(r, curve)
	if !mixed {
		if r.Total.P99Ns == nil {
			return tail{}, false
		}
		return tail{point: pointName(r, curve), ns: *r.Total.P99Ns, load: load, hasLoad: hasLoad, flags: r.Flags}, true
	}
	worst, found := tail{}, false
	for _, d := range []struct {
		name string
		f    *Figures
	}{{"read", r.Read}, {"write", r.Write}} {
		if d.f != nil && d.f.P99Ns != nil && (!found || *d.f.P99Ns > worst.ns) {
			worst, found = tail{point: pointName(r, curve), dir: d.name, ns: *d.f.P99Ns, load: load, hasLoad: hasLoad, flags: r.Flags}, true
		}
	}
	return worst, found
}

// rowTails are the tails of rows that have one; a mix's are named by
// their load alone.
func rowTails(rows []Row, mixed, curve, inMix bool) []tail {
	var tails []tail
	for _, r := range rows {
		if t, ok := rowTail(r, mixed, curve); ok {
			if inMix {
				t.point = loadName(r, curve)
			}
			tails = append(tails, t)
		}
	}
	return tails
}

// subject names the figure: "p99", or "write p99" in a mixed table.
func (t tail) subject() string {
	return strings.TrimSpace(t.dir + " p99")
}

// latency is the tail's value, with its direction in a mixed table and
// its row's flags: "1.42 ms", "write 1.30 ms; ⚠ host stalls".
func (t tail) latency() string {
	text := strings.TrimSpace(t.dir + " " + format.Latency(float64(t.ns)))
	if flags := flagText(t.flags); flags != "" {
		text += "; " + flags
	}
	return text
}

func (t tail) over() bool { return t.ns > tailLimitNs }

// tailClause says how p99 stood against the 1 ms line over the completed
// rows of a table (a rate curve's when curve is set), along the load and
// for each mix; empty when no row has a p99.
func tailClause(t *ProfileResult, done []Row, curve bool) string {
	tails := rowTails(done, t.Mixed, curve, false)
	switch {
	case len(tails) == 0:
		return ""
	case len(done) == 1:
		return tails[0].subject() + " was " + format.Latency(float64(tails[0].ns))
	}
	names, groups := ladderGroups(t)
	if len(names) < 2 {
		return "p99 " + tailPhrase(tails)
	}
	phrases := make([]string, len(names))
	for i, g := range groups {
		phrases[i] = tailPhrase(rowTails(g, t.Mixed, curve, true))
	}
	if uniform := phrases[0]; (uniform == tailUnder || uniform == tailOver) && !slices.ContainsFunc(phrases, func(p string) bool { return p != uniform }) {
		return "p99 " + uniform
	}
	for i := range phrases {
		phrases[i] = "at " + names[i] + " " + phrases[i]
	}
	return "p99 " + strings.Join(phrases, "; ")
}

// The phrases of tails that never crossed 1 ms, or always had.
const (
	tailUnder = "stayed under 1 ms throughout"
	tailOver  = "was above 1 ms at every point"
)

// tailPhrase says where tails crossed 1 ms, after "p99": where every
// point has a load, the heaviest point under the line and the lightest
// over it, and the heavier points that stayed under when the crossing
// was not one step of the load.
func tailPhrase(tails []tail) string {
	var over, under []tail
	for _, t := range tails {
		if t.over() {
			over = append(over, t)
		} else {
			under = append(under, t)
		}
	}
	switch {
	case len(tails) == 0:
		return "was not recorded"
	case len(over) == 0:
		return tailUnder
	case len(under) == 0:
		return tailOver
	case slices.ContainsFunc(tails, func(t tail) bool { return !t.hasLoad }):
		worst := slices.MaxFunc(over, func(a, b tail) int { return cmp.Compare(a.ns, b.ns) })
		if len(over) == 1 {
			return fmt.Sprintf("exceeded 1 ms only at %s (%s)", worst.point, worst.latency())
		}
		return fmt.Sprintf("exceeded 1 ms at %d of %d points, the highest at %s (%s)", len(over), len(tails), worst.point, worst.latency())
	}
	byLoad := func(a, b tail) int { return cmp.Compare(a.load, b.load) }
	lightest := slices.MinFunc(over, byLoad)
	heavier := slices.DeleteFunc(slices.Clone(under), func(t tail) bool { return t.load < lightest.load })
	if len(heavier) == 0 {
		below := slices.MaxFunc(under, byLoad)
		if len(over) == 1 {
			return fmt.Sprintf("stayed under 1 ms up to %s (%s) and exceeded it only at %s (%s)", below.point, below.latency(), lightest.point, lightest.latency())
		}
		return fmt.Sprintf("stayed under 1 ms up to %s (%s) and exceeded it from %s on (%s)", below.point, below.latency(), lightest.point, lightest.latency())
	}
	heaviest := slices.MaxFunc(heavier, byLoad)
	text := fmt.Sprintf("exceeded 1 ms at %d of %d points, the lightest %s (%s), yet stayed under it at ", len(over), len(tails), lightest.point, lightest.latency())
	if len(over) == 1 {
		text = fmt.Sprintf("exceeded 1 ms only at %s (%s), yet stayed under it at ", lightest.point, lightest.latency())
	}
	if len(heavier) == 1 {
		return text + fmt.Sprintf("%s (%s), %s", heaviest.point, heaviest.latency(), cond(heaviest.load > lightest.load, "a heavier load", "as heavy a load"))
	}
	return text + fmt.Sprintf("%d points as heavy or heavier, up to %s (%s)", len(heavier), heaviest.point, heaviest.latency())
}

// lightestSentence states the completed point with the fewest I/Os in
// flight (iodepth x numjobs), as reviews quote the QD1 figure, and in a
// table of several mixes the lightest point of each; empty when the sweep
// has no such parameter or its one lightest point is the peak.
func lightestSentence(t *ProfileResult) string {
	names, groups := ladderGroups(t)
	if len(names) < 2 {
		groups = [][]Row{completedRows(t)}
	}
	var light []Row
	for _, g := range groups {
		light = append(light, lightestRows(g)...)
	}
	if len(light) == 0 || len(light) == 1 && light[0].Peak {
		return ""
	}
	parts := make([]string, len(light))
	for i, r := range light {
		parts[i] = r.Point + ": " + figuresText(r.Total, t.Headline, t.unit())
		if t.Headline != headlineLat {
			parts[i] += latencyTail(r)
		}
		parts[i] += flagNote(r.Flags)
	}
	lead := "At the lightest load, "
	if len(names) >= 2 {
		lead = "At the lightest load of each mix, "
	}
	return lead + strings.Join(parts, "; ") + "."
}

// lightestRows are the rows of least load, in table order; none when no
// row has a load.
func lightestRows(rows []Row) []Row {
	var out []Row
	least := 0.0
	for _, r := range rows {
		load, ok := inFlight(r.Params)
		switch {
		case !ok:
		case len(out) == 0 || load < least:
			out, least = []Row{r}, load
		case load == least:
			out = append(out, r)
		}
	}
	return out
}

// latencyTail is " with 18.4 µs mean latency", or nothing.
func latencyTail(r Row) string {
	if r.Total.MeanLatNs == nil {
		return ""
	}
	return " with " + format.Latency(*r.Total.MeanLatNs) + " mean latency"
}
