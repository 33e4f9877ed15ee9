package reports

import (
	"cmp"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/plot"
	"github.com/drivebench/drivebench/workload"
)

// A latency ladder is how Tom's Hardware draws a sweep over the load
// (workers and queue depth) of several mixes: latency against IOPS, one
// line per mix, with the mean and the tails. The parameters that are not
// the load tell the mixes apart.

// loadParams are the parameters that set the load, not the workload.
var loadParams = []string{"iodepth", "numjobs"}

// ladderGroups splits a table's completed rows by the values of the
// swept parameters that are not the load, in the order first seen; nil
// when the table does not sweep both a load and something else.
func ladderGroups(t *ProfileResult) (names []string, groups [][]Row) {
	dims := sweptParams(t.Rows)
	var other []string
	load := false
	for _, d := range dims {
		if slices.Contains(loadParams, d) {
			load = true
		} else {
			other = append(other, d)
		}
	}
	if !load || len(other) == 0 {
		return nil, nil
	}
	index := map[string]int{}
	for _, r := range completedRows(t) {
		var parts []string
		for _, p := range r.Params {
			if slices.Contains(other, p.Name) {
				parts = append(parts, workload.Param(p).String())
			}
		}
		key := strings.Join(parts, ", ")
		i, ok := index[key]
		if !ok {
			i = len(names)
			index[key] = i
			names, groups = append(names, key), append(groups, nil)
		}
		groups[i] = append(groups[i], r)
	}
	return names, groups
}

// ladderStats are the latencies a ladder draws: the mean, p99 and the
// deepest tail the rows hold (p99.99 when the report's columns have it).
func ladderStats(rows []Row) []ladderStat {
	stats := []ladderStat{
		{"mean", func(f *Figures) (float64, bool) { return ptrValue(f.MeanLatNs) }},
		{"p99", func(f *Figures) (float64, bool) {
			// Of both directions together when the table's columns hold it.
			if v, ok := tailValue(f, 99); ok {
				return v, true
			}
			return uintValue(f.P99Ns)
		}},
	}
	if slices.ContainsFunc(rows, func(r Row) bool { _, ok := tailValue(r.Total, 99.99); return ok }) {
		return append(stats, ladderStat{"p99.99", func(f *Figures) (float64, bool) { return tailValue(f, 99.99) }})
	}
	return append(stats, ladderStat{"p99.9", func(f *Figures) (float64, bool) { return uintValue(f.P999Ns) }})
}

// ladderStat is one latency a ladder draws.
type ladderStat struct {
	name  string
	value func(*Figures) (float64, bool)
}

// ladderChart draws a table's ladder: per group, the mean (solid), p99
// (dashed) and the deepest tail (dashed, with markers) against IOPS.
func ladderChart(profile string, t *ProfileResult) *plot.Chart {
	names, groups := ladderGroups(t)
	var all []Row
	for _, g := range groups {
		all = append(all, g...)
	}
	stats := ladderStats(all)
	c := &plot.Chart{Title: profile + ": latency against IOPS by " + strings.Join(otherParams(t), " and ")}
	var xs, ys []float64
	for i, g := range groups {
		rows := slices.Clone(g)
		slices.SortStableFunc(rows, func(a, b Row) int { return cmp.Compare(a.Total.IOPS, b.Total.IOPS) })
		for j, st := range stats {
			l := plot.Line{Name: names[i] + " " + st.name, Color: plot.SeriesColor(i), Dashed: j > 0, Markers: j != 1}
			for _, r := range rows {
				if v, ok := st.value(r.Total); ok && v > 0 {
					l.Points = append(l.Points, plot.Point{X: r.Total.IOPS, Y: v})
					xs, ys = append(xs, r.Total.IOPS), append(ys, v)
				}
			}
			if len(l.Points) > 0 {
				c.Lines = append(c.Lines, l)
			}
		}
	}
	c.X = plot.LinearAxis("IOPS", xs, true, format.ShortCount)
	c.Y = plot.LogAxis("Latency", ys, format.ShortLatency)
	return c
}

// otherParams are the swept parameters of a table that are not the load.
func otherParams(t *ProfileResult) []string {
	var out []string
	for _, d := range sweptParams(t.Rows) {
		if !slices.Contains(loadParams, d) {
			out = append(out, d)
		}
	}
	return out
}

func ptrValue(v *float64) (float64, bool) {
	if v == nil {
		return 0, false
	}
	return *v, true
}

func uintValue(v *uint64) (float64, bool) {
	if v == nil {
		return 0, false
	}
	return float64(*v), true
}

// tailValue is a percentile column's latency, when the figures have it.
func tailValue(f *Figures, p float64) (float64, bool) {
	if f == nil {
		return 0, false
	}
	for _, c := range f.Tail {
		if c.P == p && c.Ns != nil {
			return float64(*c.Ns), true
		}
	}
	return 0, false
}
