package reports

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// What a table says about how far its figures can be trusted: which
// latency each holds, the tail columns and whether enough I/Os stand
// behind them, and the warnings the run recorded on its steps (space
// never written, a drive whose state was lost, a busy host, the page
// cache).

// defaultTail are the latency columns of a table when the plan's report
// block does not choose them; 100 is the maximum. optionalTail is left
// out of a table in which no point has the I/Os it needs.
var defaultTail = []float64{50, 99, 99.9, 99.99, 99.999, 100}

const optionalTail = 99.999

// beyondNeeded is how many I/Os must lie beyond a percentile for it to
// stand for a rate rather than for the slowest few I/Os.
const beyondNeeded = 10

// PercentileCell is one latency column of a row. P is 100 for the
// maximum; Ns is nil when the step did not record the figure. Few is set
// when fewer than 10 I/Os lie beyond the percentile.
type PercentileCell struct {
	P   float64 `json:"p"`
	Ns  *uint64 `json:"ns,omitempty"`
	Few bool    `json:"few,omitempty"`
}

// TableWarning is a warning the run recorded on the step behind a row or
// on a round the row combines.
type TableWarning struct {
	Point string `json:"point"`
	// Round is set on the warning of a round the row combines with
	// others (an aggregate's, a steady-state window's): that round.
	Round   int    `json:"round,omitempty"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// annotateResults adds the tail columns, latency definitions, warnings
// and flags to every table, then writes its highlight.
func annotateResults(tables []ProfileResult, steps []step, asked []float64) {
	recs := map[string]*results.Record{}
	for _, s := range steps {
		if s.rec != nil {
			recs[s.info.ID] = s.rec
		}
	}
	for i := range tables {
		annotateTable(&tables[i], recs, asked)
		flagRows(&tables[i])
		writeHighlight(&tables[i])
	}
}

func annotateTable(t *ProfileResult, recs map[string]*results.Record, asked []float64) {
	cols := asked
	if len(cols) == 0 {
		cols = defaultTail
	}
	latencies := map[string][]string{}
	curve := shapeOf(t) == shapeRateCurve
	for i := range t.Rows {
		row := &t.Rows[i]
		rec := recs[row.StepID]
		if rec == nil || rec.Result == nil {
			continue
		}
		res := cmp.Or(row.result, rec.Result)
		setTail(row.Total, res.Read, res.Write, cols)
		setTail(row.Read, res.Read, nil, cols)
		setTail(row.Write, res.Write, nil, cols)
		if measured(res.Read) || measured(res.Write) {
			def := res.LatencyOf()
			switch {
			case def == metrics.LatencyEngine && row.pacedReplay():
				def += " replay"
			case def == metrics.LatencyEngine && row.RatePct != nil || def == metrics.LatencyEngine && rateLimited(rec):
				def += " paced"
			}
			latencies[def] = append(latencies[def], pointText(*row, curve))
		}
		t.Warnings = append(t.Warnings, rowWarnings(*row, recs, curve)...)
		if rec.Host != nil {
			row.Host = rec.Host
		}
		row.Target = rowTarget(rec, row, recs)
	}
	warnOtherTargets(t, curve)
	t.Columns = cols
	if len(asked) == 0 && !tailMeasured(t, optionalTail) {
		t.Columns = slices.DeleteFunc(slices.Clone(cols), func(p float64) bool { return p == optionalTail })
		dropColumn(t, optionalTail)
		if slices.ContainsFunc(t.Rows, func(r Row) bool { return len(rowFigures(r)) > 0 }) {
			t.TailNote = tailLeftOut(t, optionalTail)
		}
	}
	if tailFew(t) {
		t.TailNote = joinSentences(t.TailNote, fmt.Sprintf(
			"† fewer than %d I/Os of the point lie beyond this percentile, so it shows one of the slowest few I/Os rather than a rate.", beyondNeeded))
	}
	t.LatencyNote = latencySentence(latencies, len(t.Rows))
	setNoise(t, recs)
}

// rowWarnings are the warnings of the records a row's figures come
// from: its step's, and those of every round it stands for (the rounds an
// aggregate combined, a steady-state window's), each with its round.
func rowWarnings(row Row, recs map[string]*results.Record, curve bool) []TableWarning {
	var out []TableWarning
	add := func(rec *results.Record, round int) {
		if rec == nil {
			return
		}
		for _, w := range rec.Warnings {
			out = append(out, TableWarning{Point: pointText(row, curve), Round: round, Kind: w.Kind, Message: w.Message})
		}
	}
	combined := row.combined()
	if !combined || !slices.ContainsFunc(row.Rounds, func(r RoundResult) bool { return r.Used && r.StepID == row.StepID }) {
		add(recs[row.StepID], 0)
	}
	for _, r := range row.Rounds {
		if combined && r.Used {
			add(recs[r.StepID], r.Round)
		}
	}
	return out
}

// rateLimited reports whether the step ran under a rate limit.
func rateLimited(rec *results.Record) bool {
	w := step{rec: rec}.workload()
	return w != nil && (w.RateIOPS > 0 || w.RateBW > 0 || w.RatePct > 0)
}

// ioNeeded is the number of I/Os a percentile needs for beyondNeeded of
// them to lie beyond it.
func ioNeeded(p float64) float64 {
	return beyondNeeded / (1 - p/100)
}

// setTail fills f's percentile columns from the direction's histogram,
// or its recorded percentiles when it kept no histogram. A mixed total
// (both directions) has none: percentiles of a mix are not those of
// either direction.
func setTail(f *Figures, d, other *metrics.DirStats, cols []float64) {
	if f == nil {
		return
	}
	if measured(d) && measured(other) {
		d = mergedDirections(d, other)
		if d == nil {
			return
		}
	}
	if !measured(d) {
		d = other
	}
	if !measured(d) {
		return
	}
	f.IOs = d.IOs
	f.Tail = make([]PercentileCell, 0, len(cols))
	for _, p := range cols {
		c := PercentileCell{P: p}
		switch {
		case p == 100 && d.Lat.Max > 0:
			v := d.Lat.Max
			c.Ns = &v
		case d.Hist != nil && d.Hist.Count() > 0:
			v := d.Quantile(p)
			c.Ns = &v
		default:
			c.Ns = percentile(d.Lat.Percentiles, p)
		}
		c.Few = p < 100 && d.IOs > 0 && float64(d.IOs) < ioNeeded(p)
		f.Tail = append(f.Tail, c)
	}
}

// tailLeftOut says why percentile p is not shown: no point had the I/Os
// it needs, or the points that had them did not record it (a record
// without a latency histogram keeps only the percentiles its engine
// printed, fio's stopping at p99.99).
func tailLeftOut(t *ProfileResult, p float64) string {
	enough := slices.ContainsFunc(t.Rows, func(r Row) bool {
		return slices.ContainsFunc(rowFigures(r), func(f *Figures) bool { return float64(f.IOs) >= ioNeeded(p) })
	})
	if enough {
		return fmt.Sprintf("%s is not shown: the points with the %s I/Os it needs did not record it (their records keep no latency histogram to read it from).",
			tailTitle(p), format.Count(ioNeeded(p)))
	}
	return fmt.Sprintf("%s is not shown: no point had the %s I/Os it needs for %d of them to lie beyond it.",
		tailTitle(p), format.Count(ioNeeded(p)), beyondNeeded)
}

// rowFigures are a row's figures that carry percentile columns.
func rowFigures(r Row) []*Figures {
	return slices.DeleteFunc([]*Figures{r.Total, r.Read, r.Write}, func(f *Figures) bool { return f == nil || f.Tail == nil })
}

// tailMeasured reports whether some row has enough I/Os for p.
func tailMeasured(t *ProfileResult, p float64) bool {
	for _, r := range t.Rows {
		for _, f := range rowFigures(r) {
			for _, c := range f.Tail {
				if c.P == p && c.Ns != nil && !c.Few {
					return true
				}
			}
		}
	}
	return false
}

// tailFew reports whether some shown cell rests on too few I/Os.
func tailFew(t *ProfileResult) bool {
	for _, r := range t.Rows {
		for _, f := range rowFigures(r) {
			if slices.ContainsFunc(f.Tail, func(c PercentileCell) bool { return c.Few && c.Ns != nil }) {
				return true
			}
		}
	}
	return false
}

// dropColumn removes percentile p from every row.
func dropColumn(t *ProfileResult, p float64) {
	for _, r := range t.Rows {
		for _, f := range rowFigures(r) {
			f.Tail = slices.DeleteFunc(f.Tail, func(c PercentileCell) bool { return c.P == p })
		}
	}
}

// latencyDefinitions say in words what each latency definition measures.
var latencyDefinitions = map[string]string{
	metrics.LatencyEngine:             "drivebench's own, from each I/O's submission to its completion",
	metrics.LatencyEngine + " paced":  "drivebench's own under a rate limit, from the moment each I/O was due to its completion, so time spent queued behind slow I/Os counts",
	metrics.LatencyEngine + " replay": "drivebench's own for a trace replay, from the moment the trace scheduled each I/O to its completion, so an I/O that waited for a free slot counts its wait",
	metrics.LatencyFioLat:             "fio's total latency (lat), from each I/O's submission to its completion: the span drivebench measures",
	metrics.LatencyFioClat:            "fio's completion latency (clat), from the moment the kernel accepted each I/O to its completion; it leaves out the submission time (slat), so it reads lower than drivebench's latency or fio's lat",
}

// latencySentence says which latency a table's figures hold: one
// definition for the whole table, or which points hold which.
func latencySentence(byDef map[string][]string, rows int) string {
	if len(byDef) == 0 {
		return ""
	}
	defs := make([]string, 0, len(byDef))
	for def := range byDef {
		defs = append(defs, def)
	}
	slices.Sort(defs)
	words := func(def string) string {
		if w, ok := latencyDefinitions[def]; ok {
			return w
		}
		return def
	}
	if len(defs) == 1 && len(byDef[defs[0]]) == rows {
		return "Latency is " + words(defs[0]) + "."
	}
	var parts []string
	for _, def := range defs {
		parts = append(parts, fmt.Sprintf("at %s, %s", strings.Join(byDef[def], ", "), words(def)))
	}
	return "Latency is, " + strings.Join(parts, "; ") + "."
}

// tailTitle is a percentile column's title.
func tailTitle(p float64) string {
	if p == 100 {
		return "max"
	}
	return "p" + strconv.FormatFloat(p, 'f', -1, 64)
}

// tailText is a cell of a percentile column.
func tailText(f *Figures, p float64) string {
	if f == nil {
		return format.Dash
	}
	for _, c := range f.Tail {
		if c.P == p {
			if c.Ns == nil {
				return format.Dash
			}
			text := nsText(c.Ns)
			if c.Few {
				text += " †"
			}
			return text
		}
	}
	return format.Dash
}

// Spread is how a figure varied over repeated measurements: the rounds of
// a point, or the intervals of one step.
type Spread struct {
	N   int     `json:"n"`
	Min float64 `json:"min"`
	Max float64 `json:"max"`
	// Mean and CVPct (the coefficient of variation, the standard deviation
	// over the mean, in percent).
	Mean  float64 `json:"mean"`
	CVPct float64 `json:"cv_pct"`
	// CI95Low and CI95High bound the 95 % confidence interval of the
	// mean (Student's t); set for the rounds of a point only.
	CI95Low  *float64 `json:"ci95_low,omitempty"`
	CI95High *float64 `json:"ci95_high,omitempty"`
}

// spreadOf is the spread of values; nil for fewer than two.
func spreadOf(values []float64, withCI bool) *Spread {
	n := len(values)
	if n < 2 {
		return nil
	}
	s := &Spread{N: n, Min: values[0], Max: values[0]}
	var sum float64
	for _, v := range values {
		sum += v
		s.Min, s.Max = min(s.Min, v), max(s.Max, v)
	}
	s.Mean = sum / float64(n)
	var sq float64
	for _, v := range values {
		sq += (v - s.Mean) * (v - s.Mean)
	}
	sd := math.Sqrt(sq / float64(n-1))
	if s.Mean > 0 {
		s.CVPct = 100 * sd / s.Mean
	}
	if withCI {
		half := tQuantile975(n-1) * sd / math.Sqrt(float64(n))
		lo, hi := max(s.Mean-half, 0), s.Mean+half // a rate is never negative
		s.CI95Low, s.CI95High = &lo, &hi
	}
	return s
}

// tQuantile975 is Student's t at 97.5 % for df degrees of freedom, the
// factor of a two-sided 95 % interval.
func tQuantile975(df int) float64 {
	table := []float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	if df >= 1 && df <= len(table) {
		return table[df-1]
	}
	return 1.960
}

// seriesIOPS lists a step's per-interval IOPS, of its whole intervals
// (metrics.WholeIntervals).
func seriesIOPS(res *metrics.Result) []float64 {
	var out []float64
	for _, s := range metrics.WholeIntervals(res.Series) {
		out = append(out, s.ReadIOPS+s.WriteIOPS)
	}
	return out
}

// latencySpreads are the spreads of a step's per-interval latency
// figures, those the figure registry has in both an interval and
// report.json (mean, p50, p99), by the report.json name of the figure
// each is the noise of; nil without two whole intervals that measured
// latency.
func latencySpreads(res *metrics.Result) map[string]*Spread {
	out := map[string]*Spread{}
	for _, f := range figure.In(figure.Interval) {
		if f.Unit != figure.Nanoseconds || f.In&figure.Report == 0 {
			continue
		}
		var values []float64
		for _, s := range metrics.WholeIntervals(res.Series) {
			if v := f.ReadInterval(&s); v > 0 {
				values = append(values, v)
			}
		}
		if sp := spreadOf(values, false); sp != nil {
			out[f.Key(figure.Report)] = sp
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// roundIOPS lists the IOPS of a row's rounds that have figures: of the
// rounds it combines (an aggregate's, a steady-state window's), whose
// mean is the row's figure, or of all its rounds when it shows one.
func roundIOPS(r Row) []float64 {
	combined := r.combined()
	var out []float64
	for _, round := range r.Rounds {
		if round.Total != nil && round.Status == results.StatusOK && (round.Used || !combined) {
			out = append(out, round.Total.IOPS)
		}
	}
	return out
}

// setNoise sets each row's spreads and writes what they say: how steady
// each point's IOPS were over its intervals and rounds, and, on a rate
// curve, the points that missed their target rate.
func setNoise(t *ProfileResult, recs map[string]*results.Record) {
	var steady, rounds []string
	curve := shapeOf(t) == shapeRateCurve
	for i := range t.Rows {
		row := &t.Rows[i]
		if rec := recs[row.StepID]; rec != nil && rec.Result != nil {
			row.Intervals = spreadOf(seriesIOPS(rec.Result), false)
			row.LatencyIntervals = latencySpreads(rec.Result)
		}
		row.RoundSpread = spreadOf(roundIOPS(*row), true)
		name := pointText(*row, curve)
		if s := row.Intervals; s != nil && !row.combined() && !row.pacedReplay() {
			steady = append(steady, fmt.Sprintf("%s %.1f %%", name, s.CVPct))
		}
		if s := row.RoundSpread; s != nil {
			rounds = append(rounds, fmt.Sprintf("%s: %s to %s IOPS over %d rounds (CV %.1f %%), mean %s, 95 %% confidence %s to %s",
				name, format.Count(s.Min), format.Count(s.Max), s.N, s.CVPct, format.Count(s.Mean), format.Count(*s.CI95Low), format.Count(*s.CI95High)))
		}
	}
	var notes []string
	if len(steady) > 0 {
		notes = append(notes, "Per-interval IOPS varied (coefficient of variation) by "+strings.Join(steady, ", ")+".")
	}
	if len(rounds) > 0 {
		notes = append(notes, "Rounds: "+strings.Join(rounds, "; ")+".")
	}
	t.NoiseNote = strings.Join(notes, " ")
	if curve {
		t.Warnings = append(t.Warnings, curveWarnings(t, recs)...)
	}
}

// curveWarnings flag the points of a rate curve that missed their
// target rate by more than 1 %: the drive did not keep up. (A point that
// beat the uncontrolled maximum carries the engine's own warning.)
func curveWarnings(t *ProfileResult, recs map[string]*results.Record) []TableWarning {
	var out []TableWarning
	for _, row := range t.Rows {
		w := step{rec: recs[row.StepID]}.workload()
		if row.RatePct == nil || row.Total == nil || w == nil || w.RateIOPS <= 0 || row.Total.IOPS >= 0.99*w.RateIOPS {
			continue
		}
		out = append(out, TableWarning{Point: pointText(row, true), Kind: results.WarnRateShort, Message: fmt.Sprintf(
			"The drive did not keep up: %s IOPS of the %s asked (%.1f %% short).",
			format.Count(row.Total.IOPS), format.Count(w.RateIOPS), 100*(1-row.Total.IOPS/w.RateIOPS))})
	}
	return out
}

// mergedDirections is the latency distribution of both directions' I/Os
// together, read from their full histograms, so that a mixed point has
// exact percentiles over all its I/Os; nil when either direction lacks a
// histogram, as percentiles of the two cannot be combined otherwise.
func mergedDirections(read, write *metrics.DirStats) *metrics.DirStats {
	if read.Hist == nil || write.Hist == nil || read.Hist.Count() == 0 || write.Hist.Count() == 0 {
		return nil
	}
	var h metrics.Histogram
	h.Merge(read.Hist)
	h.Merge(write.Hist)
	return &metrics.DirStats{IOs: read.IOs + write.IOs, Hist: &h, Lat: metrics.LatencySummary{Max: max(read.Lat.Max, write.Lat.Max)}}
}
