package reports

import (
	"cmp"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/plot"
	"github.com/drivebench/drivebench/results"
)

// SetSummaryHook adds what the plan's summary hook returned (the content
// of summary.json) to the report: its sections, shown after the report's
// own, or its error, listed with the problems. A nil h removes them.
func (s *Summary) SetSummaryHook(h *results.Summary) {
	s.Problems = slicesWithout(s.Problems, func(p Problem) bool { return p.Kind == kindSummaryHook })
	s.SummaryHook = nil
	if h != nil {
		s.SummaryHook = hookReport(h)
		if h.Error != "" {
			s.Problems = append(s.Problems, hookProblem(s.SummaryHook))
		}
	}
	s.arrange()
}

// kindSummaryHook is the kind of the problem a failed summary hook is.
const kindSummaryHook = "summary"

func hookReport(h *results.Summary) *HookReport {
	r := &HookReport{Hook: h.Hook, Sections: []HookSection{}, Error: h.Error, Where: h.Where, Kept: h.Kept, Log: append([]string{}, h.Log...)}
	for _, sec := range h.Sections {
		out := HookSection{Title: sec.Title, Text: sec.Text}
		if t := sec.Table; t != nil {
			out.Table = &SummaryTable{Columns: append([]string{}, t.Columns...), Rows: hookRows(t)}
		}
		if c := sec.Chart; c != nil {
			out.Chart = &HookChart{Title: c.Title, XLabel: c.XLabel, YLabel: c.YLabel, Series: []SummarySeries{}}
			for _, sr := range c.Series {
				out.Chart.Series = append(out.Chart.Series, SummarySeries{Name: sr.Name, Points: finitePoints(sr.Points)})
			}
		}
		r.Sections = append(r.Sections, out)
	}
	return r
}

// hookRows copies a table's rows, each cut or padded to one cell per
// column.
func hookRows(t *results.SummaryTable) [][]string {
	rows := [][]string{}
	for _, r := range t.Rows {
		row := make([]string, len(t.Columns))
		copy(row, r)
		rows = append(rows, row)
	}
	return rows
}

// finitePoints drops the points JSON cannot carry; never nil.
func finitePoints(points [][2]float64) [][2]float64 {
	out := [][2]float64{}
	for _, p := range points {
		if finite(p[0]) == p[0] && finite(p[1]) == p[1] {
			out = append(out, p)
		}
	}
	return out
}

// hookProblem is the problem a failed summary hook is: "checks/summary.star:3:5:
// key "x" not found".
func hookProblem(h *HookReport) Problem {
	msg := h.Error
	if h.Where != "" {
		msg = h.Where + ": " + msg
	}
	lacks := " (the report lacks the hook's sections)"
	if h.Kept {
		lacks = " (the report shows the sections the hook returned before)"
	}
	return Problem{
		Name: "summary hook " + cmp.Or(h.Hook, "of the plan"), Kind: kindSummaryHook, Status: results.StatusFailed,
		Error: msg + lacks, Output: []OutputTail{},
	}
}

// slicesWithout is list without the elements drop picks; never nil.
func slicesWithout[T any](list []T, drop func(T) bool) []T {
	out := []T{}
	for _, v := range list {
		if !drop(v) {
			out = append(out, v)
		}
	}
	return out
}

// hookCharts plans the line charts of the summary hook's sections.
func hookCharts(s *Summary, used map[string]bool) []plannedChart {
	if s.SummaryHook == nil {
		return nil
	}
	var out []plannedChart
	for i := range s.SummaryHook.Sections {
		sec := &s.SummaryHook.Sections[i]
		if sec.Chart == nil {
			continue
		}
		title := cmp.Or(sec.Chart.Title, sec.Title)
		out = append(out, plannedChart{
			place: func(s *Summary, ref ChartRef) { s.SummaryHook.Sections[i].Chart.File = ref.File },
			ref:   ChartRef{Kind: chartSummaryHook, Title: title, File: chartFile(used, title, chartSummaryHook, "")},
			draw:  func() *plot.Chart { return hookChart(title, sec.Chart) },
		})
	}
	return out
}

// hookChart draws a summary hook's line chart: each series a line with
// its points marked, in the order the hook gave them.
func hookChart(title string, hc *HookChart) *plot.Chart {
	c := &plot.Chart{Title: title}
	var xs, ys []float64
	for i, sr := range hc.Series {
		l := plot.Line{Name: sr.Name, Color: plot.SeriesColor(i), Markers: true}
		for _, p := range sr.Points {
			l.Points = append(l.Points, plot.Point{X: p[0], Y: p[1]})
			xs, ys = append(xs, p[0]), append(ys, p[1])
		}
		c.Lines = append(c.Lines, l)
	}
	c.X = plot.LinearAxis(cmp.Or(hc.XLabel, "x"), xs, false, format.ShortCount)
	c.Y = plot.LinearAxis(cmp.Or(hc.YLabel, "y"), ys, true, format.ShortCount)
	return c
}
