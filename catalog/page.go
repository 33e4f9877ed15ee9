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

// WritePage writes the fleet page into dir and returns its path.
func (c *Catalog) WritePage(ctx context.Context, dir string, q PageQuery) (string, error) {
	page, err := c.Page(ctx, q)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, PageFile)
	return path, results.WriteFileAtomic(path, page)
}

// Page renders the fleet page: one self-contained HTML file, its charts
// inline SVG, no script and nothing loaded from elsewhere.
func (c *Catalog) Page(ctx context.Context, q PageQuery) ([]byte, error) {
	fleet, err := c.Fleet(ctx, FleetQuery{Point: q.Point, Figure: q.Figure, GroupBy: "model", Filter: q.Filter})
	if err != nil {
		return nil, err
	}
	byFW, err := c.Fleet(ctx, FleetQuery{Point: q.Point, Figure: q.Figure, GroupBy: "firmware", Filter: q.Filter})
	if err != nil {
		return nil, err
	}
	trend, err := c.Trend(ctx, TrendQuery{Point: q.Point, Figure: q.Figure, By: "firmware", Filter: q.Filter})
	if err != nil {
		return nil, err
	}
	rollup, err := c.Rollup(ctx, q.Filter)
	if err != nil {
		return nil, err
	}
	v := pageView{
		Title:   fmt.Sprintf("Fleet: %s %s, %s", fleet.Profile, orNoSweep(fleet.Point), fleet.Direction),
		Fleet:   fleet,
		Figure:  q.Figure,
		Catalog: c.Where,
		Filter:  filterText(q.Filter),
		Dist:    template.HTML(distributionChart(fleet).SVG()),
		Spread:  template.HTML(spreadChart(fleet).SVG()),
		Trend:   template.HTML(trendChart(trend).SVG()),
		Groups:  FleetTable(fleet, true),
		ByFW:    FleetTable(byFW, true),
		TrendT:  TrendTable(trend, true),
		Rollup:  RollupTable(rollup),
		MADs:    OutlierMADs,
	}
	for _, g := range fleet.Groups {
		v.Members = append(v.Members, groupView{Name: g.Model, Median: FormatFigure(fleet.Unit, g.Median), MAD: FormatFigure(fleet.Unit, g.MAD), Drives: memberRows(fleet, g)})
	}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

type pageView struct {
	Title, Figure, Catalog, Filter string
	Fleet                          *Fleet
	Dist, Spread, Trend            template.HTML
	Groups, ByFW, TrendT, Rollup   *Table
	Members                        []groupView
	MADs                           float64
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
	c.X = plot.WholeAxis("Drive (rank in its model)", xs, format.Plain)
	c.Y = plot.LinearAxis(figureTitle(f.Figure), ys, f.Unit != "ns", unitLabel(f.Unit))
	return c
}

// trendChart draws each model's median figure over its firmware versions.
func trendChart(tr *Trend) *plot.Chart {
	c := &plot.Chart{Title: fmt.Sprintf("Median %s over firmware versions", tr.Figure)}
	var labels []string
	index := map[string]int{}
	for _, r := range tr.Rows {
		if _, ok := index[r.X]; !ok {
			index[r.X] = len(labels)
			labels = append(labels, r.X)
		}
	}
	var xs, ys []float64
	var lines []plot.Line
	model := ""
	for _, r := range tr.Rows {
		if len(lines) == 0 || r.Model != model {
			model = r.Model
			lines = append(lines, plot.Line{Name: r.Model, Color: plot.SeriesColor(len(lines)), Markers: true})
		}
		x := float64(index[r.X])
		lines[len(lines)-1].Points = append(lines[len(lines)-1].Points, plot.Point{X: x, Y: r.Median})
		xs, ys = append(xs, x), append(ys, r.Median)
	}
	c.Lines = lines
	c.X = plot.ValuesAxis("Firmware", xs, func(v float64) string {
		if i := int(v); i >= 0 && i < len(labels) {
			return labels[i]
		}
		return ""
	})
	c.Y = plot.LinearAxis(figureTitle(tr.Figure), ys, tr.Unit != "ns", unitLabel(tr.Unit))
	return c
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
<title>{{.Title}}</title>
<link rel="icon" href="data:,">
<style>
body { font: 15px/1.45 system-ui, sans-serif; color: #222; margin: 0; background: #fff; }
main { max-width: 1100px; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
.meta { color: #555; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: .5rem 0; font-variant-numeric: tabular-nums; }
th, td { padding: .2rem .6rem; border-bottom: 1px solid #eee; text-align: left; white-space: nowrap; }
th { background: #f4f4f4; }
tr.outlier td { background: #fde8e0; font-weight: 600; }
figure { margin: 1rem 0; } figure svg { display: block; width: 100%; max-width: 720px; height: auto; }
</style>
</head>
<body>
<main>
<h1>{{.Title}}</h1>
<p class="meta">Catalog {{.Catalog}}; {{.Filter}}. Each drive's latest run of the point. Percentiles are read from the merged
histogram of each group's I/Os, never averaged. Outliers are drives more than {{.MADs}} median absolute deviations of
their model's median {{.Figure}}.</p>
{{define "table"}}<div class="scroll"><table>
<tr>{{range .Columns}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{cell .}}</td>{{end}}</tr>
{{end}}</table></div>{{if not .Rows}}<p>No rows.</p>{{end}}{{end}}
<h2>Distribution per model</h2>
<figure>{{.Dist}}</figure>
{{template "table" .Groups}}
<h2>Per firmware</h2>
{{template "table" .ByFW}}
<h2>Spread and outliers</h2>
<figure>{{.Spread}}</figure>
{{range .Members}}<h3>{{.Name}}: median {{.Median}}, MAD {{.MAD}}</h3>
<div class="scroll"><table>
<tr><th>serial</th><th>firmware</th><th>{{$.Figure}}</th><th>MADs from median</th><th>run</th><th>created</th></tr>
{{range .Drives}}<tr{{if .Outlier}} class="outlier"{{end}}><td>{{.Serial}}</td><td>{{.Firmware}}</td><td>{{.Value}}</td><td>{{.Deviations}}</td><td>{{.Run}}</td><td>{{.Created}}</td></tr>
{{end}}</table></div>
{{end}}
<h2>Trend over firmware</h2>
<figure>{{.Trend}}</figure>
{{template "table" .TrendT}}
<h2>Roll-up of verdicts</h2>
{{template "table" .Rollup}}
</main>
</body>
</html>
`))
