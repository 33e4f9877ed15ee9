package catalog

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/plot"
	"github.com/drivebench/drivebench/results"
)

// PageFile is the fleet page's file name.
const PageFile = "fleet.html"

// PageQuery chooses what the fleet page shows: one point and figure, over
// the drives of a filter.
type PageQuery struct {
	Point
	Figure string
	Filter Filter
}

// distributionPercentiles are the points of each group's latency curve.
var distributionPercentiles = []float64{1, 5, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99}

// WritePage writes the fleet page into dir, with each of its charts
// beside it as an SVG and a PNG file (charts/fleet-spread.svg,
// charts/fleet-spread.png), for a page or a post that takes no SVG; it
// removes the chart files of an earlier page it no longer draws, and
// returns the page's path.
func (c *Catalog) WritePage(ctx context.Context, dir string, q PageQuery) (string, error) {
	page, charts, err := c.page(ctx, q)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(dir, pageChartsDir), 0o755); err != nil {
		return "", err
	}
	keep := map[string]bool{}
	for _, ch := range charts {
		img, err := ch.chart.PNG()
		if err != nil {
			return "", err
		}
		for file, data := range map[string][]byte{ch.file(".svg"): ch.svg, ch.file(".png"): img} {
			path := filepath.Join(dir, filepath.FromSlash(file))
			if err := results.WriteFileAtomic(path, data); err != nil {
				return "", err
			}
			keep[path] = true
		}
	}
	stale, err := filepath.Glob(filepath.Join(dir, pageChartsDir, "fleet-*"))
	if err != nil {
		return "", err
	}
	for _, path := range stale {
		if !keep[path] {
			if err := os.Remove(path); err != nil {
				return "", err
			}
		}
	}
	path := filepath.Join(dir, PageFile)
	return path, results.WriteFileAtomic(path, page)
}

// pageChartsDir is the folder beside the fleet page of its chart files.
const pageChartsDir = "charts"

// pageChart is a chart of the fleet page: inline in it as SVG, and
// written beside it as files named by name.
type pageChart struct {
	name  string
	chart *plot.Chart
	svg   []byte
}

func newPageChart(name string, c *plot.Chart) pageChart {
	return pageChart{name: name, chart: c, svg: c.SVG()}
}

// file is the chart's file with the extension, relative to the page.
func (ch pageChart) file(ext string) string { return pageChartsDir + "/" + ch.name + ext }

// SVG is the chart inline, for the template.
func (ch pageChart) SVG() template.HTML { return template.HTML(ch.svg) }

// PNG and SVGFile are the chart's files, for the template's links.
func (ch pageChart) PNG() string     { return ch.file(".png") }
func (ch pageChart) SVGFile() string { return ch.file(".svg") }

// page renders the fleet page: one self-contained HTML file, its charts
// inline SVG, no script and nothing loaded from elsewhere; and its charts,
// which WritePage writes beside it.
func (c *Catalog) page(ctx context.Context, q PageQuery) ([]byte, []pageChart, error) {
	fleet, err := c.Fleet(ctx, FleetQuery{Point: q.Point, Figure: q.Figure, GroupBy: "model", Filter: q.Filter})
	if err != nil {
		return nil, nil, err
	}
	byFW, err := c.Fleet(ctx, FleetQuery{Point: q.Point, Figure: q.Figure, GroupBy: "firmware", Filter: q.Filter})
	if err != nil {
		return nil, nil, err
	}
	trend, err := c.Trend(ctx, TrendQuery{Point: q.Point, Figure: q.Figure, By: "firmware", Filter: q.Filter})
	if err != nil {
		return nil, nil, err
	}
	rollup, err := c.Rollup(ctx, q.Filter)
	if err != nil {
		return nil, nil, err
	}
	v := pageView{
		Title:   fmt.Sprintf("Fleet: %s %s, %s", fleet.Profile, orNoSweep(fleet.Point), fleet.Direction),
		Fleet:   fleet,
		Figure:  q.Figure,
		Catalog: c.Where,
		Filter:  filterText(q.Filter),
		Dist:    newPageChart("fleet-distribution", distributionChart(fleet)),
		Spread:  newPageChart("fleet-spread", spreadChart(fleet)),
		Groups:  splitFleetTable(FleetTable(fleet, true), fleet),
		ByFW:    splitFleetTable(FleetTable(byFW, true), byFW),
		TrendT:  TrendTable(trend, true),
		Rollup:  RollupTable(rollup),
		MADs:    OutlierMADs,
	}
	for i, c := range trendCharts(trend) {
		v.Trends = append(v.Trends, newPageChart(fmt.Sprintf("fleet-trend-%d", i+1), c))
	}
	for _, g := range fleet.Groups {
		v.Members = append(v.Members, groupView{Name: g.Model, Median: FormatFigure(fleet.Unit, g.Median), MAD: FormatFigure(fleet.Unit, g.MAD), Drives: memberRows(fleet, g)})
	}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, v); err != nil {
		return nil, nil, err
	}
	return b.Bytes(), append([]pageChart{v.Dist, v.Spread}, v.Trends...), nil
}

type pageView struct {
	Title, Figure, Catalog, Filter string
	Fleet                          *Fleet
	Dist, Spread                   pageChart
	Trends                         []pageChart
	Groups, ByFW                   []*Table
	TrendT, Rollup                 *Table
	Members                        []groupView
	MADs                           float64
}

// splitFleetTable cuts a fleet table in two for the page, the merged
// percentiles and the spread of the drives' figures (min, median, max,
// MAD, outliers), each led by the group's columns (model, firmware,
// drives), so that every column is seen without scrolling on a laptop
// and on paper, where the one table of sixteen columns was cut at the
// right.
func splitFleetTable(t *Table, f *Fleet) []*Table {
	keys := 2 // model, drives
	if f.GroupBy == "firmware" {
		keys = 3
	}
	spread := keys + 1 + len(FleetPercentiles) // after I/Os and the percentiles
	if len(t.Columns) < spread {
		return []*Table{t}
	}
	head := seq(0, keys)
	return []*Table{
		pickColumns(t, seq(0, spread)),
		pickColumns(t, append(head, seq(spread, len(t.Columns))...)),
	}
}

// seq is the indexes from, from+1, ..., to-1.
func seq(from, to int) []int {
	var out []int
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// pickColumns is the table of t's columns at the indexes cols.
func pickColumns(t *Table, cols []int) *Table {
	out := &Table{}
	for _, c := range cols {
		out.Columns = append(out.Columns, t.Columns[c])
	}
	for _, row := range t.Rows {
		picked := make([]any, len(cols))
		for i, c := range cols {
			picked[i] = row[c]
		}
		out.Rows = append(out.Rows, picked)
	}
	return out
}

type groupView struct {
	Name, Median, MAD string
	Drives            []memberRow
}

type memberRow struct {
	Serial, Firmware, Value, Deviations, Run, Created string
	Outlier                                           bool
}

func memberRows(f *Fleet, g FleetGroup) []memberRow {
	var out []memberRow
	outlier := map[string]bool{}
	for _, o := range g.Outliers {
		outlier[o.Serial+"\x00"+o.RunID] = true
	}
	for _, m := range g.Members {
		dev := format.Dash
		if g.MAD > 0 {
			dev = fmt.Sprintf("%+.1f", m.Deviations)
		}
		out = append(out, memberRow{Serial: m.Serial, Firmware: m.Firmware, Value: FormatFigure(f.Unit, m.Value), Deviations: dev,
			Run: m.RunID, Created: m.Created, Outlier: outlier[m.Serial+"\x00"+m.RunID]})
	}
	return out
}

func orNoSweep(point string) string {
	if point == "" {
		return "(no sweep)"
	}
	return point
}

func filterText(f Filter) string {
	var parts []string
	for _, kv := range [][2]string{{"model", f.Model}, {"firmware", f.Firmware}, {"serial", f.Serial}, {"plan", f.Plan}, {"testbed", f.Testbed}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+" "+kv[1])
		}
	}
	if !f.Since.IsZero() {
		parts = append(parts, "since "+timeText(f.Since))
	}
	if !f.Until.IsZero() {
		parts = append(parts, "until "+timeText(f.Until))
	}
	if len(parts) == 0 {
		return "every run"
	}
	return strings.Join(parts, ", ")
}

// distributionChart draws each group's merged latency histogram as
// latency against percentile.
func distributionChart(f *Fleet) *plot.Chart {
	c := &plot.Chart{Title: "Latency distribution per model (merged histograms)"}
	var ps, ys []float64
	for i, g := range f.Groups {
		if g.hist == nil || g.hist.Count() == 0 {
			continue
		}
		l := plot.Line{Name: fmt.Sprintf("%s (%d drives)", g.Model, g.HistogramDrives), Color: plot.SeriesColor(i), Markers: true}
		for j, v := range g.hist.Percentiles(distributionPercentiles) {
			l.Points = append(l.Points, plot.Point{X: distributionPercentiles[j], Y: float64(v)})
			ps, ys = append(ps, distributionPercentiles[j]), append(ys, float64(v))
		}
		c.Lines = append(c.Lines, l)
	}
	c.X = plot.NinesAxis("Percentile", ps)
	c.Y = plot.LogAxis("Latency", ys, format.ShortLatency)
	return c
}

// spreadChart draws each drive's figure, drives of a group in rank order.
func spreadChart(f *Fleet) *plot.Chart {
	c := &plot.Chart{Title: fmt.Sprintf("%s of each drive, best first", f.Figure)}
	var xs, ys []float64
	for i, g := range f.Groups {
		l := plot.Line{Name: g.Model, Color: plot.SeriesColor(i), Markers: true}
		for j, m := range g.Members {
			l.Points = append(l.Points, plot.Point{X: float64(j + 1), Y: m.Value})
			xs, ys = append(xs, float64(j+1)), append(ys, m.Value)
		}
		for _, o := range g.Outliers {
			for j, m := range g.Members {
				if m.Serial == o.Serial && m.RunID == o.RunID {
					c.Marks = append(c.Marks, plot.Mark{At: plot.Point{X: float64(j + 1), Y: m.Value}, Label: "outlier " + m.Serial, Color: plot.SeriesColor(i)})
				}
			}
		}
		c.Lines = append(c.Lines, l)
	}
	c.MarkKey = fmt.Sprintf("outlier: more than %s MADs from its model's median", format.Trim(OutlierMADs))
	c.X = plot.WholeAxis("Drive (rank in its model)", xs, format.Plain)
	c.Y = plot.LinearAxis(figureTitle(f.Figure), ys, f.Unit != "ns", unitLabel(f.Unit))
	return c
}

// trendCharts draws the trend as small multiples: one chart per model,
// its median figure over its own firmware versions with the lowest and
// highest drive's beside it, all on the same value axis so the charts
// compare at a glance. One axis for every model put each model's
// firmware names on one line, as if the models shared them.
func trendCharts(tr *Trend) []*plot.Chart {
	var all []float64
	for _, r := range tr.Rows {
		all = append(all, r.Min, r.Median, r.Max)
	}
	y := plot.LinearAxis(figureTitle(tr.Figure), all, tr.Unit != "ns", unitLabel(tr.Unit))
	var charts []*plot.Chart
	for i, rows := range trendByModel(tr.Rows) {
		model := rows[0].Model
		color := plot.SeriesColor(i)
		median := plot.Line{Name: "median of its drives", Color: color, Markers: true}
		low := plot.Line{Name: "lowest and highest drive", Color: color, Dashed: true}
		high := plot.Line{Color: color, Dashed: true}
		var xs []float64
		for j, r := range rows {
			x := float64(j)
			xs = append(xs, x)
			median.Points = append(median.Points, plot.Point{X: x, Y: r.Median})
			low.Points = append(low.Points, plot.Point{X: x, Y: r.Min})
			high.Points = append(high.Points, plot.Point{X: x, Y: r.Max})
		}
		charts = append(charts, &plot.Chart{
			Title: fmt.Sprintf("%s: %s over %s", model, tr.Figure, tr.By),
			X: plot.ValuesAxis(trendAxisTitle(tr.By), xs, func(v float64) string {
				if i := int(v); i >= 0 && i < len(rows) {
					return rows[i].X
				}
				return ""
			}),
			Y:     y,
			Lines: []plot.Line{median, low, high},
		})
	}
	return charts
}

// trendByModel splits the trend's rows, which come model by model, into
// one run of rows per model.
func trendByModel(rows []TrendRow) [][]TrendRow {
	var out [][]TrendRow
	for i, r := range rows {
		if i == 0 || r.Model != rows[i-1].Model {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], r)
	}
	return out
}

// trendAxisTitle is the title of a trend's x axis: "Firmware", "Date".
func trendAxisTitle(by string) string {
	if by == "" {
		return ""
	}
	return strings.ToUpper(by[:1]) + by[1:]
}

// figureTitle names a figure on a chart's axis, as the figure registry
// titles it: "p99 latency", "IOPS".
func figureTitle(name string) string {
	if i, err := figureIndex(name); err == nil {
		return figures[i].Title
	}
	return name
}

func unitLabel(unit string) func(float64) string {
	switch unit {
	case "ns":
		return format.ShortLatency
	case "B/s":
		return format.ShortBandwidth
	}
	return format.ShortCount
}

var pageTemplate = template.Must(template.New("fleet").Funcs(template.FuncMap{
	// wide says a cell holds text that may wrap, such as a roll-up's
	// line or a list of serials, where figures stay on one line.
	"wide": func(v any) bool {
		text, ok := v.(string)
		return ok && len(text) > 24
	},
	"cell": func(v any) string {
		if v == nil {
			return format.Dash
		}
		if f, ok := v.(float64); ok {
			return format.Plain(f)
		}
		return fmt.Sprint(v)
	},
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{{.Title}}</title>
<link rel="icon" href="data:,">
<style>
:root { color-scheme: light dark; --fg: #222; --muted: #555; --bg: #fff; --rule: #ddd; --cell-rule: #eee; --head: #f4f4f4; --outlier: #fde8e0; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e6e6; --muted: #b0b0b0; --bg: #121212; --rule: #3a3a3a; --cell-rule: #2e2e2e; --head: #1f1f1f; --outlier: #4a2418; }
  figure svg { border-radius: 4px; }
}
body { font: 15px/1.45 system-ui, sans-serif; color: var(--fg); margin: 0; background: var(--bg); }
main { max-width: 1240px; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid var(--rule); }
h3 { font-size: 1rem; }
.meta { color: var(--muted); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: .5rem 0; font-size: .875rem; font-variant-numeric: tabular-nums; }
th, td { padding: .2rem .6rem; border-bottom: 1px solid var(--cell-rule); text-align: left; vertical-align: top; }
th { background: var(--head); }
td { white-space: nowrap; }
td.text { white-space: normal; overflow-wrap: anywhere; min-width: 12rem; }
tr.outlier td { background: var(--outlier); font-weight: 600; }
figure { margin: 1rem 0; } figure svg { display: block; width: 100%; max-width: 720px; height: auto; }
.multiples { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 440px), 1fr)); gap: .5rem 1.5rem; }
.multiples figure { margin: .5rem 0; }
.files { font-size: .8rem; color: var(--muted); }
@media print {
  :root { color-scheme: light; --fg: #000; --muted: #333; --bg: #fff; --rule: #999; --cell-rule: #bbb; --head: #eee; --outlier: #fde8e0; }
  @page { margin: 15mm 12mm; }
  body { font-size: 10pt; }
  main { max-width: none; padding: 0; }
  h2 { break-before: page; } h1 + .meta + h2 { break-before: auto; }
  h2, h3 { break-after: avoid; }
  .scroll { overflow: visible; }
  table { width: 100%; font-size: 7.5pt; }
  th, td { padding: .1rem .25rem; white-space: normal; overflow-wrap: break-word; }
  td.text { min-width: 0; }
  tr, figure { break-inside: avoid; }
  figure svg { max-width: 100%; max-height: 110mm; }
  .multiples { grid-template-columns: 1fr 1fr; }
  .files { display: none; }
}
</style>
</head>
<body>
<main>
<h1>{{.Title}}</h1>
<p class="meta">Catalog {{.Catalog}}; {{.Filter}}. Each drive's latest run of the point. Percentiles are read from the merged
histogram of each group's I/Os, never averaged. Outliers are drives more than {{.MADs}} median absolute deviations of
their model's median {{.Figure}}.</p>
{{define "figure"}}<figure>{{.SVG}}<figcaption class="files"><a href="{{.PNG}}">PNG</a> · <a href="{{.SVGFile}}">SVG</a></figcaption></figure>
{{end}}{{define "table"}}<div class="scroll"><table>
<tr>{{range .Columns}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td{{if wide .}} class="text"{{end}}>{{cell .}}</td>{{end}}</tr>
{{end}}</table></div>{{if not .Rows}}<p>No rows.</p>{{end}}{{end}}
<h2>Distribution per model</h2>
{{template "figure" .Dist}}
{{range .Groups}}{{template "table" .}}
{{end}}
<h2>Per firmware</h2>
{{range .ByFW}}{{template "table" .}}
{{end}}
<h2>Spread and outliers</h2>
{{template "figure" .Spread}}
{{range .Members}}<h3>{{.Name}}: median {{.Median}}, MAD {{.MAD}}</h3>
<div class="scroll"><table>
<tr><th>serial</th><th>firmware</th><th>{{$.Figure}}</th><th>MADs from median</th><th>run</th><th>created</th></tr>
{{range .Drives}}<tr{{if .Outlier}} class="outlier"{{end}}><td>{{.Serial}}</td><td>{{.Firmware}}</td><td>{{.Value}}</td><td>{{.Deviations}}</td><td>{{.Run}}</td><td>{{.Created}}</td></tr>
{{end}}</table></div>
{{end}}
<h2>Trend over firmware</h2>
<div class="multiples">{{range .Trends}}{{template "figure" .}}{{end}}</div>
{{template "table" .TrendT}}
<h2>Roll-up of verdicts</h2>
{{template "table" .Rollup}}
</main>
</body>
</html>
`))
