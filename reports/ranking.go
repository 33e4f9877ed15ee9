package reports

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/format"
)

// Section shapes: what a profile's points are.
const (
	shapeRateCurve = "rate_curve"
	shapeSweep     = "sweep"
	shapeMatrix    = "matrix"
	shapeMulti     = "multi"
	shapeSingle    = "single"
)

// arrange gathers the profile sections, ranks their drives and names the
// charts drawn from them and from the summary hook's sections. Build calls
// it, and so does every change that adds results or sections, such as
// AddComparable and SetSummaryHook.
func (s *Summary) arrange() {
	s.Sections = []Section{}
	for _, name := range profileOrder(s.Results) {
		entries := s.entries(name)
		sec := Section{Profile: name, Shape: shapeOf(entries[0].table), Charts: []ChartRef{}}
		sec.Ranking = ranking(entries)
		sec.Highlight = rankingSentence(sec.Ranking, entries[0].table.Headline)
		s.Sections = append(s.Sections, sec)
	}
	for _, pc := range planCharts(s) {
		pc.place(s, pc.ref)
	}
}

// profileOrder lists the profiles of the tables in the order they first
// appear.
func profileOrder(tables []ProfileResult) []string {
	var names []string
	for _, t := range tables {
		if !slices.Contains(names, t.Profile) {
			names = append(names, t.Profile)
		}
	}
	return names
}

// entry is one drive's table of a section, this run's or a comparable's.
type entry struct {
	// label names the drive in charts and tables: the drive's name, and
	// with comparables its identity and the comparable's name after it.
	label        string
	drive, run   string
	identity     string
	otherTestbed bool
	table        *ProfileResult
}

// entries lists the tables of profile name: this run's drives first, then
// each comparable's, in order.
func (s *Summary) entries(name string) []entry {
	var out []entry
	compared := len(s.Comparables) > 0
	for i := range s.Results {
		if t := &s.Results[i]; t.Profile == name {
			e := entry{label: t.Drive, drive: t.Drive, table: t}
			if compared {
				e.identity = identityOf(s.Drives, t.Drive)
				e.label = labelled(t.Drive, e.identity)
			}
			out = append(out, e)
		}
	}
	for ci := range s.Comparables {
		c := &s.Comparables[ci]
		for i := range c.Results {
			if t := &c.Results[i]; t.Profile == name {
				id := identityOf(c.Drives, t.Drive)
				out = append(out, entry{
					label: labelled(t.Drive, id, c.Name), drive: t.Drive, run: c.Name, identity: id,
					otherTestbed: !c.SameTestbed, table: t,
				})
			}
		}
	}
	return out
}

// peakRow is the table's peak row, the one Build marked (peakOf), or in
// a table made otherwise the one its headline picks out; nil when no row
// completed.
func (t *ProfileResult) peakRow() *Row {
	i := slices.IndexFunc(t.Rows, func(r Row) bool { return r.Peak })
	if i < 0 {
		i = peakIndex(t.Rows, t.Headline)
	}
	if i < 0 {
		return nil
	}
	return &t.Rows[i]
}

// shapeOf tells what the table's points are.
func shapeOf(t *ProfileResult) string {
	if slices.ContainsFunc(t.Rows, func(r Row) bool { return r.RatePct != nil }) {
		return shapeRateCurve
	}
	switch dims := sweptParams(t.Rows); {
	case len(dims) == 0:
		return shapeSingle
	case len(dims) == 1:
		return shapeSweep
	case len(dims) == 2:
		return shapeMatrix
	}
	return shapeMulti
}

// sweptParams lists, in order, the parameters that take more than one
// value across the rows.
func sweptParams(rows []Row) []string {
	var names []string
	values := map[string][]string{}
	for _, r := range rows {
		for _, p := range r.Params {
			text := fmt.Sprint(p.Value)
			if !slices.Contains(names, p.Name) {
				names = append(names, p.Name)
			}
			if !slices.Contains(values[p.Name], text) {
				values[p.Name] = append(values[p.Name], text)
			}
		}
	}
	return slices.DeleteFunc(names, func(n string) bool { return len(values[n]) < 2 })
}

// paramValue is the value of parameter name at a row.
func paramValue(r Row, name string) (any, bool) {
	for _, p := range r.Params {
		if p.Name == name {
			return p.Value, true
		}
	}
	return nil, false
}

// headlineValue is a figure's headline: bandwidth or IOPS.
func headlineValue(f *Figures, headline string) float64 {
	if headline == headlineBW {
		return f.BWBytes
	}
	return f.IOPS
}

// ranking orders the entries' peak rows by the first entry's headline
// figure, best first (the lowest latency first when it leads with
// latency); entries without a completed row are left out.
func ranking(entries []entry) []Rank {
	headline := entries[0].table.Headline
	ranks := []Rank{}
	for _, e := range entries {
		peak := e.table.peakRow()
		if peak == nil {
			continue
		}
		ranks = append(ranks, Rank{
			Drive: e.drive, Run: e.run, StepID: peak.StepID, Point: peak.Point,
			Identity: e.identity, Total: *peak.Total, Flags: peak.Flags, OtherTestbed: e.otherTestbed,
		})
	}
	slices.SortStableFunc(ranks, func(a, b Rank) int {
		if headline == headlineLat {
			return compareHeadline(&a.Total, &b.Total, headline)
		}
		return cmp.Compare(headlineValue(&b.Total, headline), headlineValue(&a.Total, headline))
	})
	for i := range ranks {
		ranks[i].Rank = i + 1
	}
	return ranks
}

// rankLabel names a ranked drive as charts do, with a dagger when it was
// measured on another testbed.
func rankLabel(r Rank) string {
	label := labelled(r.Drive, r.Identity, r.Run)
	if r.OtherTestbed {
		label += " †"
	}
	return label
}

// rankingSentence places each of this run's drives among the others:
// "nvme0 leads the 3 drives by peak IOPS, 12.3% ahead of cd6 (base).";
// by latency, "nvme0 leads the 3 drives by lowest mean latency, 8.1%
// below cd6 (base)."
func rankingSentence(ranks []Rank, headline string) string {
	if len(ranks) < 2 {
		return ""
	}
	metric, ahead, behind := "peak IOPS", "ahead of", "behind"
	switch headline {
	case headlineBW:
		metric = "peak bandwidth"
	case headlineLat:
		metric, ahead, behind = "lowest mean latency", "below", "above"
	}
	// lead is how far r is better than other, in percent of other's.
	lead := func(r, other *Figures) float64 {
		if headline == headlineLat {
			return -relativeChange(latencyOrInf(r), latencyOrInf(other))
		}
		return relativeChange(headlineValue(r, headline), headlineValue(other, headline))
	}
	var sentences []string
	for _, r := range ranks {
		if r.Run != "" {
			continue
		}
		other := ranks[0]
		if r.Rank == 1 {
			other = ranks[1]
		}
		diff := lead(&r.Total, &other.Total)
		name, otherName := labelled(r.Drive, r.Identity)+flagNote(r.Flags), rankLabel(other)+flagNote(other.Flags)
		if r.Rank == 1 {
			sentences = append(sentences, fmt.Sprintf("%s leads the %d drives by %s, %s %s %s.",
				name, len(ranks), metric, percentText(diff), ahead, otherName))
		} else {
			sentences = append(sentences, fmt.Sprintf("%s ranks %s of %d by %s, %s %s %s.",
				name, ordinal(r.Rank), len(ranks), metric, percentText(-diff), behind, otherName))
		}
	}
	return strings.Join(sentences, " ")
}

// relativeChange is how far v is from base, in percent of base; 0 when
// base is 0.
func relativeChange(v, base float64) float64 {
	if base == 0 {
		return 0
	}
	return (v - base) / base * 100
}

// percentText writes a percentage with one decimal: "12.3%".
func percentText(pct float64) string {
	if math.IsNaN(pct) || math.IsInf(pct, 0) {
		return format.Dash
	}
	return format.Grouped(pct, 1) + "%"
}

// ordinal writes 2 as "2nd", 11 as "11th".
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}
