package reports

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// buildResults makes one table per profile and drive, in the order their
// first steps appear, with one row per point in step order: a repeated
// point's row stands for its rounds (see groupPoints), and the points of
// an adaptive search follow in the order it measured them.
func buildResults(steps []step, rev *revisions, headlines map[string]string, u bwUnit) []ProfileResult {
	var tables [][]step
	index := map[[2]string]int{}
	for _, s := range steps {
		if !s.is(kindProfile) && !s.is(kindAggregate) && !s.is(kindAdaptive) || s.info.Phase != "" {
			continue
		}
		key := [2]string{s.source(), s.info.Drive}
		i, ok := index[key]
		if !ok {
			i = len(tables)
			index[key] = i
			tables = append(tables, nil)
		}
		tables[i] = append(tables[i], s)
	}
	out := []ProfileResult{}
	for _, ts := range tables {
		out = append(out, buildTable(ts, rev, headlines[ts[0].source()], u))
	}
	return out
}

// buildTable makes the table of one profile on one drive from its steps:
// its points and, for an adaptive profile, the search that chose them.
// lead is the headline the plan gave the profile, "" to choose one by
// transfer size.
func buildTable(steps []step, rev *revisions, lead string, u bwUnit) ProfileResult {
	t := ProfileResult{Profile: steps[0].source(), Drive: steps[0].info.Drive, Rows: []Row{}, units: u}
	searches, points := splitSearches(steps)
	w := steadyWindow(points)
	var shown []step
	for _, p := range groupPoints(points) {
		row := buildRow(p.shown, rev)
		setRounds(&row, p, w, rev)
		t.Rows = append(t.Rows, row)
		shown = append(shown, p.shown)
	}
	t.Search = buildSearch(searches, t.Rows)
	finishTable(&t, shown, cmp.Or(lead, headline(points)))
	return t
}

func buildRow(s step, rev *revisions) Row {
	row := Row{
		StepID:   s.info.ID,
		Point:    s.info.Point.String(),
		Params:   buildParams(s.info.Point),
		Status:   s.status(),
		PlanHash: rev.earlier(s.rec),
		Rounds:   []RoundResult{},
		workload: s.workload(),
	}
	if w := s.workload(); w != nil && w.RatePct > 0 {
		pct := w.RatePct
		row.RatePct = &pct
	}
	if s.rec == nil {
		return row
	}
	row.Error, row.skipped = s.rec.Error, s.rec.Skipped
	row.EndedBy = s.rec.EndedBy
	row.Thermal, row.throttled = thermalText(s.rec.Thermal), s.rec.Thermal != nil && s.rec.Thermal.Throttled()
	if res := s.rec.Result; res != nil {
		row.Read = dirFigures(res.Read)
		row.Write = dirFigures(res.Write)
		row.Total = totalFigures(res.Read, res.Write)
		row.Replay = replayOf(s.workload(), res)
		if row.Replay != nil && !row.pacedReplay() {
			unpaced(row.Read, row.Write, row.Total)
		}
	}
	return row
}

// unpaced drops the service latencies of a replay at speed 0: its I/Os
// are due when a slot takes them, so the latency it records from their
// due time is their service time, and no figure counts from a schedule.
func unpaced(figs ...*Figures) {
	for _, f := range figs {
		if f != nil {
			f.ServiceMeanNs, f.ServiceP99Ns = nil, nil
		}
	}
}

// finishTable decides whether the table is mixed, keeps the per-direction
// figures only if it is, marks the peak, takes the peak's latency curves
// and time series. steps holds the step each row
// shows; it may be shorter than the rows, or nil, when no records stand
// behind them. headline is the table's headline figure.
func finishTable(t *ProfileResult, steps []step, headline string) {
	t.Mixed = slices.ContainsFunc(t.Rows, func(r Row) bool { return r.Read != nil && r.Write != nil })
	if !t.Mixed {
		for i := range t.Rows {
			t.Rows[i].Read, t.Rows[i].Write = nil, nil
		}
	}
	t.Headline = headline
	t.Latency, t.Series = []LatencyCurve{}, []SeriesSample{}
	if i := peakOf(t, steps); i >= 0 {
		t.Rows[i].Peak = true
		if res := resultOf(steps, i); res != nil {
			t.Latency = latencyCurves(res)
			t.Series = seriesSamples(res.Series)
			t.Thermal = thermalReadings(res.Thermal)
		}
	}
}

// writeHighlight writes the sentences under a table, once its rows carry
// their flags.
func writeHighlight(t *ProfileResult) {
	t.Highlight = joinSentences(highlight(t), searchSentence(t.Search), lightestSentence(t), seriesSentence(t), skippedSentence(t))
}

// resultOf is the result recorded by the i-th step, nil when there is
// none.
func resultOf(steps []step, i int) *metrics.Result {
	if i >= len(steps) || steps[i].rec == nil {
		return nil
	}
	return steps[i].rec.Result
}

// Headline figures.
const (
	headlineIOPS = "iops"
	headlineBW   = "bw"
	// headlineLat leads with the mean latency: the point it picks out is
	// the one with the lowest, and drives rank by it, lowest first; charts
	// still draw IOPS, the load each latency was measured at.
	headlineLat = "lat"
)

// largeBlock is the block size from which reviews quote bandwidth rather
// than IOPS.
const largeBlock = 64 << 10

// headline is "bw" when every step with a known workload moved blocks of
// largeBlock or more, "iops" otherwise.
func headline(steps []step) string {
	known := false
	for _, s := range steps {
		w := s.workload()
		if w == nil {
			continue
		}
		if w.BS < largeBlock || len(w.BSSplit) > 0 {
			return headlineIOPS
		}
		known = true
	}
	if known {
		return headlineBW
	}
	return headlineIOPS
}

// latencyCurves are the percentile lists of each direction of a result.
func latencyCurves(res *metrics.Result) []LatencyCurve {
	curves := []LatencyCurve{}
	for _, d := range []struct {
		name  string
		stats *metrics.DirStats
	}{{"read", res.Read}, {"write", res.Write}} {
		if !measured(d.stats) || len(d.stats.Lat.Percentiles) == 0 {
			continue
		}
		c := LatencyCurve{Direction: d.name, Percentiles: []PercentileValue{}}
		for _, p := range d.stats.Lat.Percentiles {
			if !math.IsNaN(p.P) && !math.IsInf(p.P, 0) {
				c.Percentiles = append(c.Percentiles, PercentileValue{P: p.P, Ns: p.Ns})
			}
		}
		curves = append(curves, c)
	}
	return curves
}

// maxSeries is the most samples a table keeps of a time series: enough
// for a chart, small enough for report.json.
const maxSeries = 600

// seriesSamples merges a time series into at most maxSeries intervals
// (metrics.Combine): rates weighted by each interval's length, mean
// latency by its I/Os, p99 the worst of the merged intervals, time and
// bytes written those at the end of the last.
func seriesSamples(series []metrics.Sample) []SeriesSample {
	out := []SeriesSample{}
	per := (len(series) + maxSeries - 1) / maxSeries
	for start := 0; start < len(series); start += per {
		group := series[start:min(start+per, len(series))]
		c := metrics.Combine(group, metrics.Span(series, start))
		s := SeriesSample{T: finite(c.T), IOPS: finite(c.ReadIOPS) + finite(c.WriteIOPS), BWBytes: finite(c.BW),
			MeanLatNs: finite(c.MeanLatNs), BytesWritten: c.BytesWritten}
		for _, smp := range group {
			s.P99Ns = max(s.P99Ns, smp.P99Ns)
		}
		out = append(out, s)
	}
	return out
}

// maxThermal is the most temperature readings a table keeps: a drive's
// temperature moves slowly, and the engine reads it every 5 s.
const maxThermal = 240

// thermalReadings merges a step's temperature readings into at most
// maxThermal: each group the last of its readings, with the hottest
// temperature of the group; nil for none.
func thermalReadings(samples []metrics.ThermalSample) []metrics.ThermalSample {
	var out []metrics.ThermalSample
	per := (len(samples) + maxThermal - 1) / maxThermal
	for start := 0; start < len(samples); start += per {
		group := samples[start:min(start+per, len(samples))]
		r := group[len(group)-1]
		r.T = finite(r.T)
		for _, smp := range group {
			r.TempC = max(r.TempC, smp.TempC)
		}
		out = append(out, r)
	}
	return out
}

// completed reports whether a row may be compared: the step finished well
// and measured something.
func (r Row) completed() bool { return r.Status == results.StatusOK && r.Total != nil }

// peakIndex is the row a table's headline picks out, -1 when no row
// completed: the first completed row with the highest IOPS or, when the
// table leads with latency, with the lowest mean latency.
func peakIndex(rows []Row, headline string) int {
	peak := -1
	for i, r := range rows {
		if r.completed() && (peak < 0 || compareHeadline(r.Total, rows[peak].Total, headline) < 0) {
			peak = i
		}
	}
	return peak
}

// peakOf is the row a table's headline picks out (peakIndex), and on a
// rate curve led by IOPS its uncontrolled maximum, unless a rate row beat
// the maximum by more than the maximum's noise (judging.IOPSNoise): a
// rate row a hair above it, 225,097 IOPS at 110 % beside a maximum of
// 225,029, is the maximum's own noise, not a higher peak, and a maximum
// whose noise is unknown is not beaten. steps holds the step of each row.
func peakOf(t *ProfileResult, steps []step) int {
	i := peakIndex(t.Rows, t.Headline)
	if i < 0 || t.Headline == headlineLat || shapeOf(t) != shapeRateCurve {
		return i
	}
	m := slices.IndexFunc(t.Rows, func(r Row) bool { return r.RatePct == nil && r.completed() })
	if m < 0 || m == i || resultOf(steps, m) == nil {
		return i
	}
	if noise, _, known := judging.IOPSNoise(resultOf(steps, m)); known && t.Rows[i].Total.IOPS > t.Rows[m].Total.IOPS+noise {
		return i
	}
	return m
}

// compareHeadline orders two figures by a headline, the better first:
// higher IOPS, or lower mean latency (an unknown one last) and of equal
// latencies the higher IOPS. Bandwidth follows IOPS, since a profile's
// points move blocks of one size.
func compareHeadline(a, b *Figures, headline string) int {
	if headline == headlineLat {
		if c := cmp.Compare(latencyOrInf(a), latencyOrInf(b)); c != 0 {
			return c
		}
	}
	return cmp.Compare(b.IOPS, a.IOPS)
}

// latencyOrInf is a figure's mean latency, +Inf when it is unknown.
func latencyOrInf(f *Figures) float64 {
	if f.MeanLatNs == nil {
		return math.Inf(1)
	}
	return *f.MeanLatNs
}

func buildParams(point []workload.Param) []Param {
	out := []Param{}
	for _, p := range point {
		v := p.Value
		if n, ok := v.(int64); ok {
			v = float64(n) // the report's numbers are float64 throughout
		}
		out = append(out, Param{Name: p.Name, Value: v})
	}
	return out
}

// measured reports whether a direction did any I/O.
func measured(d *metrics.DirStats) bool {
	return d != nil && (d.IOs > 0 || d.IOPS > 0)
}

// dirFigures are one direction's figures, nil when it did no I/O.
func dirFigures(d *metrics.DirStats) *Figures {
	if !measured(d) {
		return nil
	}
	f := &Figures{IOPS: finite(d.IOPS), BWBytes: finite(d.BW)}
	if mean := finite(d.Lat.Mean); d.IOs > 0 || mean > 0 {
		f.MeanLatNs = &mean
	}
	f.P50Ns = percentile(d.Lat.Percentiles, 50)
	f.P99Ns = percentile(d.Lat.Percentiles, 99)
	f.P999Ns = percentile(d.Lat.Percentiles, 99.9)
	if s := d.Service; s != nil {
		mean := finite(s.Mean)
		f.ServiceMeanNs, f.ServiceP99Ns = &mean, percentile(s.Percentiles, 99)
	}
	return f
}

// totalFigures add both directions. Percentiles of a mix cannot be made
// from each direction's percentiles, so a mixed total has none.
func totalFigures(read, write *metrics.DirStats) *Figures {
	r, w := dirFigures(read), dirFigures(write)
	switch {
	case r == nil:
		return w
	case w == nil:
		return r
	}
	total := &Figures{
		IOPS:      r.IOPS + w.IOPS,
		BWBytes:   r.BWBytes + w.BWBytes,
		MeanLatNs: mixedMean(read, write),
	}
	if read.Service != nil && write.Service != nil {
		total.ServiceMeanNs = mixedMean(&metrics.DirStats{IOs: read.IOs, IOPS: read.IOPS, Lat: *read.Service},
			&metrics.DirStats{IOs: write.IOs, IOPS: write.IOPS, Lat: *write.Service})
	}
	return total
}

// mixedMean is the mean latency of all I/Os of both directions, each
// direction weighted by its I/O count (by its IOPS when counts are absent).
func mixedMean(read, write *metrics.DirStats) *float64 {
	weight := func(d *metrics.DirStats) float64 {
		if read.IOs+write.IOs > 0 {
			return float64(d.IOs)
		}
		return finite(d.IOPS)
	}
	wr, ww := weight(read), weight(write)
	if wr+ww <= 0 {
		return nil
	}
	mean := (wr*finite(read.Lat.Mean) + ww*finite(write.Lat.Mean)) / (wr + ww)
	return &mean
}

// percentile finds the latency at p in a summary's list, nil when the list
// does not have it.
func percentile(ps []metrics.Percentile, p float64) *uint64 {
	for _, q := range ps {
		if math.Abs(q.P-p) < 1e-9 {
			ns := q.Ns
			return &ns
		}
	}
	return nil
}

// finite replaces a NaN or infinite figure, which JSON cannot carry, by 0.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// thermalText says how hot an NVMe drive ran during a step and whether
// it throttled: "drive temperature 43 to 81 °C over 1443 readings;
// THROTTLED: light thermal throttling 6 times (2265 s), heavy thermal
// throttling once (105 s)"; "" for a step without readings.
func thermalText(t *metrics.ThermalSummary) string {
	if t == nil {
		return ""
	}
	line := fmt.Sprintf("drive temperature %d to %d °C over %d readings", t.MinC, t.MaxC, t.Readings)
	if t.MinC == t.MaxC {
		line = fmt.Sprintf("drive temperature %d °C over %d readings", t.MinC, t.Readings)
	}
	var events []string
	if t.Throttle1 > 0 {
		events = append(events, fmt.Sprintf("light thermal throttling %s (%d s)", times(t.Throttle1), t.Throttle1Sec))
	}
	if t.Throttle2 > 0 {
		events = append(events, fmt.Sprintf("heavy thermal throttling %s (%d s)", times(t.Throttle2), t.Throttle2Sec))
	}
	if t.WarningMin > 0 {
		events = append(events, fmt.Sprintf("%d min above the warning temperature", t.WarningMin))
	}
	if t.CriticalMin > 0 {
		events = append(events, fmt.Sprintf("%d min above the critical temperature", t.CriticalMin))
	}
	if len(events) == 0 {
		return line + "; no thermal throttling"
	}
	return line + "; THROTTLED: " + strings.Join(events, ", ")
}

// times says how often something happened: "once", "6 times".
func times(n uint32) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}
