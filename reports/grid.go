package reports

import (
	"math"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/plot"
	"github.com/drivebench/drivebench/results"
)

// A grid is the table shape of CrystalDiskMark and its kin: each row a
// test (SEQ1M Q8T1, RND4K Q1T1, ...), the read and the write of it side by
// side, in MB/s. A profile is a test when its only swept parameter is rw
// and it runs the read and the write of one pattern; a drive with two or
// more such profiles gets a grid.

// rwPairs are the patterns a test pairs.
var rwPairs = [][2]string{{"read", "write"}, {"randread", "randwrite"}}

// buildGrids makes a grid of each drive's tests, in the order of the
// tables.
func buildGrids(tables []ProfileResult) []Grid {
	out := []Grid{}
	index := map[string]int{}
	for _, t := range tables {
		row, ok := gridRow(t)
		if !ok {
			continue
		}
		i, seen := index[t.Drive]
		if !seen {
			i = len(out)
			index[t.Drive] = i
			out = append(out, Grid{Drive: t.Drive, Rows: []GridRow{}})
		}
		out[i].Rows = append(out[i].Rows, row)
	}
	out = slices.DeleteFunc(out, func(g Grid) bool { return len(g.Rows) < 2 })
	for i := range out {
		nameTests(out[i].Rows)
	}
	return out
}

// gridRow is a table's read and write, when the table is a test.
func gridRow(t ProfileResult) (GridRow, bool) {
	if len(t.Rows) != 2 {
		return GridRow{}, false
	}
	modes := make([]string, 2)
	for i, r := range t.Rows {
		if len(r.Params) != 1 || r.Params[0].Name != "rw" {
			return GridRow{}, false
		}
		modes[i], _ = r.Params[0].Value.(string)
	}
	for _, pair := range rwPairs {
		if modes[0] == pair[0] && modes[1] == pair[1] {
			read, write := t.Rows[0], t.Rows[1]
			return GridRow{Profile: t.Profile, Read: completedTotal(read), Write: completedTotal(write), At: gridNote(read, write)}, true
		}
	}
	return GridRow{}, false
}

// completedTotal is a row's figures when it finished.
func completedTotal(r Row) *Figures {
	if r.Status != results.StatusOK || r.Total == nil {
		return nil
	}
	return r.Total
}

// gridNote says what a grid's figures stand for, "best of 5 rounds", and
// the flags of its read and its write: "single run; ⚠ host stalls".
func gridNote(read, write Row) string {
	note := "single run"
	if notes := rowNotes(read); len(notes) > 0 {
		note = notes[0]
	}
	return joinNonEmpty("; ", note, flagText(addFlags(slices.Clone(read.Flags), write.Flags...)))
}

// nameTests names each row by its profile without the part the grid's
// profiles share, as a for_each names its instances ("cdm.SEQ1M-Q8T1" is
// test "SEQ1M Q8T1").
func nameTests(rows []GridRow) {
	prefix := rows[0].Profile
	for _, r := range rows[1:] {
		for !strings.HasPrefix(r.Profile, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	if i := strings.LastIndexAny(prefix, "./"); i >= 0 {
		prefix = prefix[:i+1]
	} else {
		prefix = ""
	}
	for i := range rows {
		rows[i].Test = strings.ReplaceAll(cmpOrProfile(strings.TrimPrefix(rows[i].Profile, prefix), rows[i].Profile), "-", " ")
	}
}

// cmpOrProfile is name, or the profile when nothing is left of it.
func cmpOrProfile(name, profile string) string {
	if name == "" {
		return profile
	}
	return name
}

// gridChart draws a grid as CrystalDiskMark's bars: read and write of each
// test in the report's unit.
func gridChart(g *Grid, u bwUnit) *plot.Chart {
	bars := &plot.Bars{Metric: u.column(), Value: u.number}
	read := plot.BarSeries{Name: "Read", Color: plot.SeriesColor(0)}
	write := plot.BarSeries{Name: "Write", Color: plot.SeriesColor(1)}
	for _, r := range g.Rows {
		bars.Categories = append(bars.Categories, r.Test)
		read.Values = append(read.Values, bandwidthOf(r.Read))
		write.Values = append(write.Values, bandwidthOf(r.Write))
	}
	bars.Series = []plot.BarSeries{read, write}
	return &plot.Chart{Title: "Read and write on " + g.Drive, Bars: bars}
}

// bandwidthOf is a figure's bandwidth, NaN when it was not measured.
func bandwidthOf(f *Figures) float64 {
	if f == nil {
		return math.NaN()
	}
	return f.BWBytes
}

// docGrids writes each drive's grid: the tests, read and write side by
// side in MB/s, with IOPS for the random tests' readers.
func docGrids(d *document, s *Summary) {
	for _, g := range s.Grids {
		d.heading(2, plain("Read and write on "+g.Drive))
		if g.Chart != "" {
			d.figure(ChartRef{Kind: chartGrid, File: g.Chart, Title: "Read and write on " + g.Drive})
		}
		u := s.unit()
		cols := []column{{title: "Test"}, {"Read " + u.column(), true}, {"Write " + u.column(), true}, {"Read IOPS", true}, {"Write IOPS", true}, {title: "Figures"}}
		var rows [][]string
		for _, r := range g.Rows {
			rows = append(rows, []string{r.Test, gridBandwidth(r.Read, u), gridBandwidth(r.Write, u), gridIOPS(r.Read), gridIOPS(r.Write), r.At})
		}
		d.table(cols, rows)
	}
}

func gridBandwidth(f *Figures, u bwUnit) string {
	if f == nil {
		return format.Dash
	}
	return u.number(f.BWBytes)
}

func gridIOPS(f *Figures) string {
	if f == nil {
		return format.Dash
	}
	return format.Count(f.IOPS)
}
