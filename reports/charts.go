package reports

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plot"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// Chart kinds, as ChartRef.Kind names them.
const (
	chartSweepIOPS     = "sweep_iops"
	chartSweepLatency  = "sweep_latency"
	chartHeatmap       = "heatmap"
	chartRateCurve     = "rate_curve"
	chartSeriesTime    = "series_time"
	chartThermal       = "thermal_time"
	chartSeriesWritten = "series_written"
	chartPercentiles   = "percentiles"
	chartSteadyState   = "steady_state"
	chartSummaryHook   = "summary_chart"
	chartGrid          = "grid"
	chartLadder        = "latency_ladder"
	chartReplayLag     = "replay_lag"
	chartReplayTrace   = "replay_trace_time"
	chartCheckpoint    = "checkpoint"
)

// chartsDir is the folder beside the report that holds the chart files.
const chartsDir = "charts"

// plannedChart is a chart the report will hold: where it goes, its file
// and how to draw it.
type plannedChart struct {
	// place records the chart in the Summary, where the report shows it:
	// a section's charts, a steady-state search, a summary hook's section.
	place func(*Summary, ChartRef)
	ref   ChartRef
	// name tells charts of one kind in one section apart (the drive of a
	// heat map); empty when the kind occurs once.
	name string
	draw func() *plot.Chart
}

// planCharts decides every chart of the report from its data, in report
// order, with file names unique within the report. The same Summary
// always gives the same plan.
func planCharts(s *Summary) []plannedChart {
	used := map[string]bool{}
	var out []plannedChart
	for i, sec := range s.Sections {
		for _, pc := range sectionCharts(sec, s.entries(sec.Profile)) {
			pc.place = func(s *Summary, ref ChartRef) { s.Sections[i].Charts = append(s.Sections[i].Charts, ref) }
			pc.ref.File = chartFile(used, sec.Profile, pc.ref.Kind, pc.name)
			out = append(out, pc)
		}
	}
	for i := range s.SteadyState {
		ss := &s.SteadyState[i]
		out = append(out, plannedChart{
			place: func(s *Summary, ref ChartRef) { s.SteadyState[i].Chart = ref.File },
			ref: ChartRef{
				Kind: chartSteadyState, Title: ss.Profile + " on " + ss.Drive + ": steady-state rounds",
				File: chartFile(used, ss.Profile, chartSteadyState, ss.Drive),
			},
			draw: func() *plot.Chart { return steadyStateChart(ss, s.unit()) },
		})
	}
	for i := range s.Grids {
		g := &s.Grids[i]
		out = append(out, plannedChart{
			place: func(s *Summary, ref ChartRef) { s.Grids[i].Chart = ref.File },
			ref:   ChartRef{Kind: chartGrid, Title: "Read and write on " + g.Drive, File: chartFile(used, "read-write", chartGrid, g.Drive)},
			draw:  func() *plot.Chart { return gridChart(g, s.unit()) },
		})
	}
	for i := range s.Checkpoints {
		c := &s.Checkpoints[i]
		if len(c.Passes) == 0 || c.Write == nil {
			continue
		}
		out = append(out, plannedChart{
			place: func(s *Summary, ref ChartRef) { s.Checkpoints[i].Chart = ref.File },
			ref:   ChartRef{Kind: chartCheckpoint, Title: checkpointChartTitle(*c), File: chartFile(used, c.Name, chartCheckpoint, c.Drive)},
			draw:  func() *plot.Chart { return checkpointChart(c) },
		})
	}
	return append(out, hookCharts(s, used)...)
}

// chartFile names a chart's file, charts/<profile>-<kind>[-<name>].svg,
// numbering it when that name is taken.
func chartFile(used map[string]bool, profile, kind, name string) string {
	base := results.Slug(profile) + "-" + strings.ReplaceAll(kind, "_", "-")
	if name != "" {
		base += "-" + results.Slug(name)
	}
	file := base
	for i := 2; used[file]; i++ {
		file = base + "-" + strconv.Itoa(i)
	}
	used[file] = true
	return chartsDir + "/" + file + ".svg"
}

// sectionCharts decides a section's charts from its data: the shape of
// its points gives the main chart, long series add time series, and
// recorded percentiles add a percentile plot.
func sectionCharts(sec Section, entries []entry) []plannedChart {
	var out []plannedChart
	add := func(kind, name, title string, draw func() *plot.Chart) {
		out = append(out, plannedChart{ref: ChartRef{Kind: kind, Title: title}, name: name, draw: draw})
	}
	headline := entries[0].table.Headline
	switch dims := sweptParams(entries[0].table.Rows); {
	case sec.Shape == shapeRateCurve:
		add(chartRateCurve, "", sec.Profile+": average latency against IOPS", func() *plot.Chart { return rateCurveChart(sec.Profile, entries) })
	case sec.Shape == shapeSweep && numericParam(entries[0].table.Rows, dims[0]):
		add(chartSweepIOPS, "", sec.Profile+": "+metricName(headline)+" by "+dims[0], func() *plot.Chart { return sweepChart(sec.Profile, entries, dims[0]) })
		add(chartSweepLatency, "", sec.Profile+": latency by "+dims[0], func() *plot.Chart { return sweepLatencyChart(sec.Profile, entries, dims[0]) })
	case sec.Shape == shapeMatrix:
		for _, e := range entries {
			if e.table.peakRow() != nil {
				title := sec.Profile + " on " + e.label + ": " + metricName(headline) + " by " + dims[0] + " and " + dims[1]
				add(chartHeatmap, labelled(e.drive, "", e.run), title, func() *plot.Chart { return heatMapChart(title, e, dims, headline) })
			}
		}
	}
	if t := entries[0].table; len(t.Rows) > 0 {
		if names, _ := ladderGroups(t); len(names) > 1 {
			add(chartLadder, "", sec.Profile+": latency against IOPS by "+strings.Join(otherParams(t), " and "), func() *plot.Chart { return ladderChart(sec.Profile, t) })
		}
	}
	long, hot := withLongSeries(entries), withThermal(entries)
	if len(long) > 0 {
		lat := seriesLatency(long).Title
		add(chartSeriesTime, "", sec.Profile+": IOPS and "+lat+" over time", func() *plot.Chart { return seriesChart(sec.Profile, long, false) })
	}
	if len(hot) > 0 {
		add(chartThermal, "", sec.Profile+": drive temperature over time", func() *plot.Chart { return thermalChart(sec.Profile, hot, long) })
	}
	if slices.ContainsFunc(long, func(e entry) bool { return e.table.Series[len(e.table.Series)-1].BytesWritten > 0 }) {
		lat := seriesLatency(long).Title
		add(chartSeriesWritten, "", sec.Profile+": IOPS and "+lat+" against data written", func() *plot.Chart { return seriesChart(sec.Profile, long, true) })
	}
	if slices.ContainsFunc(entries, func(e entry) bool { rp := replayOfEntry(e); return rp != nil && len(rp.TraceSeries) >= 2 }) {
		add(chartReplayTrace, "", traceTimeTitle(sec.Profile), func() *plot.Chart { return replayTraceChart(sec.Profile, entries) })
	}
	if slices.ContainsFunc(entries, func(e entry) bool { return len(lagSeries(e)) >= 2 }) {
		add(chartReplayLag, "", sec.Profile+": issue lag over the schedule", func() *plot.Chart { return replayLagChart(sec.Profile, entries) })
	}
	if slices.ContainsFunc(entries, func(e entry) bool { return len(tailPercentiles(e.table.Latency)) > 0 }) {
		add(chartPercentiles, "", percentileTitle(sec.Profile, headline, entries), func() *plot.Chart { return percentileChart(sec.Profile, entries) })
	}
	return out
}

// metricName names a headline figure in a title.
func metricName(headline string) string {
	if headline == headlineBW {
		return "bandwidth"
	}
	return "IOPS"
}

// numericParam reports whether every value of parameter name is a number.
func numericParam(rows []Row, name string) bool {
	for _, r := range rows {
		if v, ok := paramValue(r, name); ok {
			if _, isNum := v.(float64); !isNum {
				return false
			}
		}
	}
	return true
}

// completedRows are the rows that may be drawn.
func completedRows(t *ProfileResult) []Row {
	var out []Row
	for _, r := range t.Rows {
		if r.completed() {
			out = append(out, r)
		}
	}
	return out
}

// headlineAxis is a y axis for the headline figure, from zero.
func headlineAxis(values []float64, headline string, u bwUnit) *plot.Axis {
	if headline == headlineBW {
		return plot.LinearAxis("Bandwidth", values, true, u.short)
	}
	return plot.LinearAxis("IOPS", values, true, format.ShortCount)
}

// shortHeadline writes a headline figure for a mark or a cell.
func shortHeadline(v float64, headline string, u bwUnit) string {
	if headline == headlineBW {
		return u.short(v)
	}
	return format.Significant(v, format.CountUnits) + " IOPS"
}

func rateCurveChart(profile string, entries []entry) *plot.Chart {
	c := &plot.Chart{Title: profile + ": average latency against IOPS"}
	var xs, ys []float64
	for i, e := range entries {
		l := plot.Line{Name: e.label, Color: plot.SeriesColor(i), Markers: true}
		rows := completedRows(e.table)
		slices.SortStableFunc(rows, func(a, b Row) int { return cmp.Compare(a.Total.IOPS, b.Total.IOPS) })
		for _, r := range rows {
			if r.Total.MeanLatNs != nil {
				l.Points = append(l.Points, plot.Point{X: r.Total.IOPS, Y: *r.Total.MeanLatNs})
				xs, ys = append(xs, r.Total.IOPS), append(ys, *r.Total.MeanLatNs)
			}
		}
		c.Lines = append(c.Lines, l)
		if p := e.table.peakRow(); e.run == "" && p != nil && p.Total.MeanLatNs != nil {
			iops, lat := format.Significant(p.Total.IOPS, format.CountUnits)+" IOPS", format.ShortLatency(math.Round(*p.Total.MeanLatNs/100)*100)
			label := "peak " + iops + " at " + lat
			if e.table.Headline == headlineLat {
				label = "lowest latency " + lat + " at " + iops
			}
			c.Marks = append(c.Marks, plot.Mark{At: plot.Point{X: p.Total.IOPS, Y: *p.Total.MeanLatNs}, Color: plot.SeriesColor(i), Label: label})
		}
	}
	c.X = plot.LinearAxis("IOPS", xs, true, format.ShortCount)
	c.Y = plot.LinearAxis("Average latency", ys, true, format.ShortLatency)
	return c
}

// sweepPoints are a table's completed rows as (parameter value, figure)
// points in parameter order.
func sweepPoints(t *ProfileResult, param string, figure func(*Figures) (float64, bool)) []plot.Point {
	var pts []plot.Point
	for _, r := range completedRows(t) {
		v, ok := paramValue(r, param)
		x, isNum := v.(float64)
		y, has := figure(r.Total)
		if ok && isNum && has {
			pts = append(pts, plot.Point{X: x, Y: y})
		}
	}
	slices.SortStableFunc(pts, func(a, b plot.Point) int { return cmp.Compare(a.X, b.X) })
	return pts
}

// paramAxis puts a tick at each value the sweep took.
func paramAxis(param string, entries []entry) *plot.Axis {
	var xs []float64
	for _, e := range entries {
		for _, r := range e.table.Rows {
			if v, ok := paramValue(r, param); ok {
				if x, isNum := v.(float64); isNum {
					xs = append(xs, x)
				}
			}
		}
	}
	return plot.ValuesAxis(param, xs, func(v float64) string { return workload.Param{Name: param, Value: v}.ValueText() })
}

func sweepChart(profile string, entries []entry, param string) *plot.Chart {
	headline := entries[0].table.Headline
	c := &plot.Chart{Title: profile + ": " + metricName(headline) + " by " + param, X: paramAxis(param, entries)}
	var ys []float64
	for i, e := range entries {
		pts := sweepPoints(e.table, param, func(f *Figures) (float64, bool) { return headlineValue(f, headline), true })
		for _, p := range pts {
			ys = append(ys, p.Y)
		}
		c.Lines = append(c.Lines, plot.Line{Name: e.label, Color: plot.SeriesColor(i), Points: pts, Markers: true})
		// A table that leads with latency marks its point on the latency
		// chart.
		if peak := e.table.peakRow(); e.run == "" && peak != nil && headline != headlineLat {
			if x, ok := paramValue(*peak, param); ok {
				if xv, isNum := x.(float64); isNum {
					v := headlineValue(peak.Total, headline)
					c.Marks = append(c.Marks, plot.Mark{At: plot.Point{X: xv, Y: v}, Color: plot.SeriesColor(i), Label: "peak " + shortHeadline(v, headline, entries[0].table.unit())})
				}
			}
		}
	}
	c.Y = headlineAxis(ys, headline, entries[0].table.unit())
	return c
}

func sweepLatencyChart(profile string, entries []entry, param string) *plot.Chart {
	c := &plot.Chart{Title: profile + ": latency by " + param, X: paramAxis(param, entries)}
	var ys []float64
	for i, e := range entries {
		mean := sweepPoints(e.table, param, func(f *Figures) (float64, bool) {
			if f.MeanLatNs == nil {
				return 0, false
			}
			return *f.MeanLatNs, true
		})
		p99 := sweepPoints(e.table, param, func(f *Figures) (float64, bool) {
			if f.P99Ns == nil {
				return 0, false
			}
			return float64(*f.P99Ns), true
		})
		for _, p := range slices.Concat(mean, p99) {
			ys = append(ys, p.Y)
		}
		c.Lines = append(c.Lines, plot.Line{Name: e.label + " mean", Color: plot.SeriesColor(i), Points: mean, Markers: true})
		if m, ok := lowestLatencyMark(e, param); ok {
			m.Color = plot.SeriesColor(i)
			c.Marks = append(c.Marks, m)
		}
		if len(p99) > 0 {
			c.Lines = append(c.Lines, plot.Line{Name: e.label + " p99", Color: plot.SeriesColor(i), Points: p99, Markers: true, Dashed: true})
		}
	}
	c.Y = plot.LogAxis("Latency", ys, format.ShortLatency)
	return c
}

// lowestLatencyMark marks, on a sweep's latency chart, the point a table
// that leads with latency picks out; ok is false for other tables and
// for comparables.
func lowestLatencyMark(e entry, param string) (plot.Mark, bool) {
	peak := e.table.peakRow()
	if e.run != "" || peak == nil || e.table.Headline != headlineLat || peak.Total.MeanLatNs == nil {
		return plot.Mark{}, false
	}
	x, ok := paramValue(*peak, param)
	xv, isNum := x.(float64)
	if !ok || !isNum {
		return plot.Mark{}, false
	}
	return plot.Mark{At: plot.Point{X: xv, Y: *peak.Total.MeanLatNs}, Label: "lowest mean " + format.ShortLatency(*peak.Total.MeanLatNs)}, true
}

// percentileTitle names the percentile chart after the point it draws:
// the peak, or the lowest-latency point, of a table of several; a table
// of one run has no peak among its points (and "at the peak" of a run
// over time reads as its busiest moment).
func percentileTitle(profile, headline string, entries []entry) string {
	if !slices.ContainsFunc(entries, func(e entry) bool { return len(e.table.Rows) > 1 }) {
		return profile + ": latency percentiles"
	}
	return profile + ": latency percentiles at the " + cond(headline == headlineLat, "lowest-latency point", "peak")
}

func heatMapChart(title string, e entry, dims []string, headline string) *plot.Chart {
	rows := e.table.Rows
	h := &plot.HeatMap{
		XTitle: dims[0], YTitle: dims[1], PeakRow: -1, PeakCol: -1,
		Metric: metricName(headline), PeakName: peakWord(headline),
		Cell: func(v float64) string { return shortHeadline(v, headline, e.table.unit()) },
	}
	if headline != headlineBW {
		h.Cell = func(v float64) string { return format.Significant(v, format.CountUnits) }
	}
	colVals, rowVals := categories(rows, dims[0]), categories(rows, dims[1])
	for _, v := range colVals {
		h.Cols = append(h.Cols, workload.Param{Name: dims[0], Value: v}.ValueText())
	}
	for _, v := range rowVals {
		h.Rows = append(h.Rows, workload.Param{Name: dims[1], Value: v}.ValueText())
	}
	h.Cells = make([][]float64, len(rowVals))
	for i := range h.Cells {
		h.Cells[i] = slices.Repeat([]float64{math.NaN()}, len(colVals))
	}
	for _, r := range rows {
		xv, _ := paramValue(r, dims[0])
		yv, _ := paramValue(r, dims[1])
		ci, ri := slices.IndexFunc(colVals, sameValue(xv)), slices.IndexFunc(rowVals, sameValue(yv))
		if ci < 0 || ri < 0 || !r.completed() {
			continue
		}
		h.Cells[ri][ci] = headlineValue(r.Total, headline)
		if r.Peak {
			h.PeakRow, h.PeakCol = ri, ci
		}
	}
	return &plot.Chart{Title: title, Heat: h}
}

func sameValue(v any) func(any) bool {
	return func(w any) bool { return v == w }
}

// categories lists the values parameter name takes across the rows:
// numbers in increasing order, anything else in order of appearance.
func categories(rows []Row, name string) []any {
	var vals []any
	for _, r := range rows {
		if v, ok := paramValue(r, name); ok && !slices.ContainsFunc(vals, sameValue(v)) {
			vals = append(vals, v)
		}
	}
	if numericParam(rows, name) {
		slices.SortFunc(vals, func(a, b any) int { return cmp.Compare(a.(float64), b.(float64)) })
	}
	return vals
}

// withLongSeries are the entries whose time series is long enough to
// chart.
func withLongSeries(entries []entry) []entry {
	var out []entry
	for _, e := range entries {
		if len(e.table.Series) >= minSeries {
			out = append(out, e)
		}
	}
	return out
}

// seriesLatency is the latency the time series charts draw, a row of the
// figure registry: p99 when the engine recorded it per interval, the mean
// otherwise.
func seriesLatency(entries []entry) *figure.Figure {
	if seriesHasP99(entries) {
		return figure.Lookup("p99")
	}
	return figure.Lookup("mean")
}

func seriesHasP99(entries []entry) bool {
	return slices.ContainsFunc(entries, func(e entry) bool {
		return slices.ContainsFunc(e.table.Series, func(s SeriesSample) bool { return s.P99Ns > 0 })
	})
}

// timeUnit picks the unit of a time axis that spans seconds.
func timeUnit(seconds float64) (factor float64, name string) {
	switch {
	case seconds >= 3*3600:
		return 3600, "h"
	case seconds >= 600:
		return 60, "min"
	}
	return 1, "s"
}

// seriesEnd is when the last of the long series ends, in seconds.
func seriesEnd(long []entry) float64 {
	lastT := 0.0
	for _, e := range long {
		lastT = max(lastT, e.table.Series[len(e.table.Series)-1].T)
	}
	return lastT
}

// seriesChart draws IOPS (left axis) and latency (right axis) of each
// long series, against time or against the data written.
func seriesChart(profile string, entries []entry, byWritten bool) *plot.Chart {
	p99 := seriesHasP99(entries)
	latFigure := seriesLatency(entries)
	c := &plot.Chart{Title: profile + ": IOPS and " + latFigure.Title + " over time"}
	if byWritten {
		c.Title = profile + ": IOPS and " + latFigure.Title + " against data written"
	}
	factor, tname := timeUnit(seriesEnd(entries))
	var xs, iops, lats []float64
	for i, e := range entries {
		iopsLine := plot.Line{Name: e.label + " IOPS", Color: plot.SeriesColor(i)}
		latLine := plot.Line{Name: e.label + " " + strings.TrimSuffix(latFigure.Title, " latency"), Color: plot.SeriesColor(i), Dashed: true, OnY2: true}
		for _, smp := range e.table.Series {
			x := smp.T / factor
			if byWritten {
				x = float64(smp.BytesWritten)
			}
			lat := smp.MeanLatNs
			if p99 {
				lat = float64(smp.P99Ns)
			}
			xs, iops = append(xs, x), append(iops, smp.IOPS)
			iopsLine.Points = append(iopsLine.Points, plot.Point{X: x, Y: smp.IOPS})
			if lat > 0 {
				lats = append(lats, lat)
				latLine.Points = append(latLine.Points, plot.Point{X: x, Y: lat})
			}
		}
		c.Lines = append(c.Lines, iopsLine, latLine)
	}
	if byWritten {
		c.X = plot.LinearAxis("Data written", xs, true, format.ShortBytes)
	} else {
		c.X = plot.LinearAxis("Time ("+tname+")", xs, true, format.Trim)
	}
	c.Y = plot.LinearAxis("IOPS", iops, true, format.ShortCount)
	c.Y2 = plot.LogAxis(axisTitle(latFigure), lats, format.ShortLatency)
	return c
}

// minThermal is the number of temperature readings from which a step's
// temperature is charted: the engine reads it at the step's start, every
// 5 s and at its end, so a step of some seconds has three.
const minThermal = 3

// withThermal are the entries with enough temperature readings to chart.
func withThermal(entries []entry) []entry {
	var out []entry
	for _, e := range entries {
		if len(e.table.Thermal) >= minThermal {
			out = append(out, e)
		}
	}
	return out
}

// thermalChart draws each drive's composite temperature against time,
// each transition into thermal throttling marked (see throttleLabel). Under the IOPS and
// latency of the long series (long; none when the section has none) it
// takes their time axis, their colours and their right margin, so the
// two charts line up, and draws the readings within their span: the
// reading before the ramp and the one as sampling stopped fall outside
// it. On its own it draws the measured phase's readings.
func thermalChart(profile string, hot, long []entry) *plot.Chart {
	c := &plot.Chart{Title: profile + ": drive temperature over time", Y2Room: len(long) > 0}
	end := seriesEnd(long)
	if len(long) == 0 {
		for _, e := range hot {
			end = max(end, e.table.Thermal[len(e.table.Thermal)-1].T)
		}
	}
	factor, tname := timeUnit(end)
	var xs, temps []float64
	for i, e := range hot {
		color := plot.SeriesColor(len(long) + i)
		if j := slices.IndexFunc(long, func(l entry) bool { return l.table == e.table }); j >= 0 {
			color = plot.SeriesColor(j)
		}
		l := plot.Line{Name: e.label + " composite temperature", Color: color}
		readings := e.table.Thermal
		// Each kind of throttling is named where it first occurs; later
		// transitions are marked without a label, which would crowd.
		named := map[string]bool{}
		for k, r := range readings {
			if r.T < 0 || r.T > end {
				continue
			}
			at := plot.Point{X: r.T / factor, Y: float64(r.TempC)}
			l.Points = append(l.Points, at)
			if k > 0 {
				if label := throttleLabel(readings[k-1], r); label != "" {
					c.Marks = append(c.Marks, plot.Mark{At: at, Color: color, Label: cond(named[label], "", label)})
					named[label] = true
				}
			}
		}
		for _, p := range l.Points {
			temps = append(temps, p.Y)
		}
		c.Lines = append(c.Lines, l)
	}
	if len(long) > 0 {
		for _, e := range long {
			for _, smp := range e.table.Series {
				xs = append(xs, smp.T/factor)
			}
		}
	} else {
		for _, l := range c.Lines {
			for _, p := range l.Points {
				xs = append(xs, p.X)
			}
		}
	}
	c.X = plot.LinearAxis("Time ("+tname+")", xs, true, format.Trim)
	c.Y = plot.LinearAxis("Composite temperature (°C)", temps, false, format.Trim)
	return c
}

// throttleLabel names the throttling a drive went into between two
// readings: "light throttling", "heavy throttling x2"; "" for none.
func throttleLabel(prev, r metrics.ThermalSample) string {
	var parts []string
	for _, t := range []struct {
		name     string
		from, to uint32
	}{{"light", prev.Throttle1, r.Throttle1}, {"heavy", prev.Throttle2, r.Throttle2}} {
		switch n := t.to - t.from; {
		case t.to <= t.from:
		case n == 1:
			parts = append(parts, t.name)
		default:
			parts = append(parts, t.name+" x"+strconv.FormatUint(uint64(n), 10))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, " and ") + " throttling"
}

// tailPercentiles are the points of a latency curve from the median up,
// where percentile plots look.
func tailPercentiles(curves []LatencyCurve) []LatencyCurve {
	var out []LatencyCurve
	for _, c := range curves {
		var pts []PercentileValue
		for _, p := range c.Percentiles {
			if p.P >= 50 && p.P < 100 && p.Ns > 0 {
				pts = append(pts, p)
			}
		}
		if len(pts) >= 2 {
			out = append(out, LatencyCurve{Direction: c.Direction, Percentiles: pts})
		}
	}
	return out
}

func percentileChart(profile string, entries []entry) *plot.Chart {
	c := &plot.Chart{Title: percentileTitle(profile, entries[0].table.Headline, entries)}
	var ps, ys []float64
	for i, e := range entries {
		curves := tailPercentiles(e.table.Latency)
		for _, curve := range curves {
			l := plot.Line{Name: e.label, Color: plot.SeriesColor(i), Markers: true}
			if len(curves) > 1 {
				l.Name += " " + curve.Direction
				l.Dashed = curve.Direction == "write"
			}
			for _, p := range curve.Percentiles {
				l.Points = append(l.Points, plot.Point{X: p.P, Y: float64(p.Ns)})
				ps, ys = append(ps, p.P), append(ys, float64(p.Ns))
			}
			c.Lines = append(c.Lines, l)
		}
	}
	c.X = plot.NinesAxis("Percentile", ps)
	c.Y = plot.LogAxis("Latency", ys, format.ShortLatency)
	return c
}

// steadyStateChart draws the tracked figure of every round, the
// measurement window shaded (or, when the search did not reach steady
// state, the last window judged, named so), its average with the ±10%
// band the criteria allow, and the best-fit line over the window.
func steadyStateChart(ss *SteadyState, u bwUnit) *plot.Chart {
	c := &plot.Chart{Title: ss.Profile + " on " + ss.Drive + ": steady-state rounds"}
	var rounds, values []float64
	rl := plot.Line{Name: variableTitle(ss.Variable) + " per round", Color: plot.SeriesColor(0), Markers: true}
	for _, r := range ss.Rounds {
		rounds, values = append(rounds, float64(r.Round)), append(values, r.Value)
		rl.Points = append(rl.Points, plot.Point{X: float64(r.Round), Y: r.Value})
	}
	c.Lines = append(c.Lines, rl)
	if ss.WindowFirst > 0 && ss.WindowLast >= ss.WindowFirst {
		first, last := float64(ss.WindowFirst), float64(ss.WindowLast)
		c.Band = &plot.Band{From: first - 0.5, To: last + 0.5, Label: "measurement window"}
		if !ss.Reached {
			c.Band.Label = "last window, not steady"
		}
		fit := func(x float64) float64 { return ss.Intercept + ss.Slope*x }
		c.Lines = append(c.Lines,
			plot.Line{Name: "best-fit line", Color: plot.SeriesColor(1), Points: []plot.Point{{X: first, Y: fit(first)}, {X: last, Y: fit(last)}}},
			plot.Line{Name: "±10% of the window average", Color: "#777777", Dashed: true, Points: []plot.Point{{X: first, Y: ss.Average * 1.1}, {X: last, Y: ss.Average * 1.1}}},
			plot.Line{Color: "#777777", Dashed: true, Points: []plot.Point{{X: first, Y: ss.Average * 0.9}, {X: last, Y: ss.Average * 0.9}}},
			plot.Line{Name: "window average", Color: "#777777", Points: []plot.Point{{X: first, Y: ss.Average}, {X: last, Y: ss.Average}}},
		)
		values = append(values, ss.Average*1.1, ss.Average*0.9, fit(first), fit(last))
		rounds = append(rounds, first-0.5, last+0.5)
	}
	c.X = plot.WholeAxis("Round", rounds, format.Trim)
	c.Y = plot.LinearAxis(variableTitle(ss.Variable), values, false, variableTick(ss.Variable, u))
	return c
}

// variableTitle names a tracked figure as a chart's axis title.
func variableTitle(v string) string {
	if f := variableFigure(v); f != nil {
		return axisTitle(f)
	}
	return "value"
}

// axisTitle names a figure as a chart's axis title: "iops" as "IOPS",
// "mean" as "Mean latency", "p99" as "p99 latency".
func axisTitle(f *figure.Figure) string {
	if f.Percentile > 0 {
		return f.Title
	}
	return format.UpperFirst(f.Title)
}

// variableTick writes a tick of a tracked figure's axis in its unit,
// bandwidth in the report's.
func variableTick(v string, u bwUnit) func(float64) string {
	switch f := variableFigure(v); {
	case f != nil && f.Unit == figure.BytesPerSec:
		return u.tick
	case f != nil && f.Unit == figure.Nanoseconds:
		return format.ShortLatency
	}
	return format.ShortCount
}
