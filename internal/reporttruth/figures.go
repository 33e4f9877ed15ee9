package reporttruth

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/reports"
	"github.com/drivebench/drivebench/results"
)

// The figures sentences quote, recomputed from the rows of report.json and
// from the records, by the rules docs/figures.md writes down.

// scope is where a sentence is: the report, and the table or the
// steady-state search of the section it is in.
type scope struct {
	r     *Report
	u     unit
	table *reports.ProfileResult
}

func newScope(r *Report, u unit) *scope {
	sc := &scope{r: r, u: u}
	for i := range r.Summary.Results {
		t := &r.Summary.Results[i]
		if u.h3 == t.Profile+" on "+t.Drive || u.h3 == t.Profile && u.h4 == t.Drive {
			sc.table = t
		}
	}
	return sc
}

// names are the words with digits a sentence may hold that name things
// rather than state figures.
func (sc *scope) names() []string {
	s := sc.r.Summary
	names := []string{s.Plan.Name, s.Plan.File}
	add := func(tables []reports.ProfileResult) {
		for _, t := range tables {
			names = append(names, t.Profile, t.Drive)
			for _, row := range t.Rows {
				names = append(names, pointName(row, isCurve(&t)))
			}
		}
	}
	add(s.Results)
	for _, c := range s.Comparables {
		names = append(names, c.Name)
		add(c.Results)
	}
	for _, d := range s.Drives {
		names = append(names, d.Name, d.Path)
	}
	for _, rec := range sc.r.Records {
		names = append(names, rec.Name, rec.Source)
	}
	names = slices.DeleteFunc(names, func(n string) bool { return n == "" })
	// Longest first, so that a name is not cut by one it contains.
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return names
}

// unit is the report's bandwidth unit.
func (sc *scope) bw(bytesPerSec float64) string {
	if sc.r.Summary.Units == "MiB/s" {
		return format.BandwidthMiB(bytesPerSec)
	}
	return format.Bandwidth(bytesPerSec)
}

// completed are the rows of a table that finished with figures, the
// only ones sentences speak of.
func completed(t *reports.ProfileResult) []reports.Row {
	var out []reports.Row
	for _, r := range t.Rows {
		if r.Status == results.StatusOK && r.Total != nil {
			out = append(out, r)
		}
	}
	return out
}

// isCurve reports whether a table is a rate curve.
func isCurve(t *reports.ProfileResult) bool {
	return slices.ContainsFunc(t.Rows, func(r reports.Row) bool { return r.RatePct != nil })
}

// pointName names a row as sentences do: its point, or on a rate curve
// without points its rate ("25% rate", "max rate"); "" for a single run.
func pointName(r reports.Row, curve bool) string {
	switch {
	case r.Point != "":
		return r.Point
	case r.RatePct != nil:
		return format.Plain(*r.RatePct) + "% rate"
	case curve:
		return "max rate"
	}
	return ""
}

// loadParams set a point's load, the I/Os it keeps in flight.
var loadParams = []string{"iodepth", "numjobs"}

// inFlight is iodepth x numjobs at a point; ok is false when the point
// sets neither.
func inFlight(r reports.Row) (float64, bool) {
	load, ok := 1.0, false
	for _, p := range r.Params {
		if v, num := p.Value.(float64); num && slices.Contains(loadParams, p.Name) {
			load *= v
			ok = true
		}
	}
	return load, ok
}

// load is a row's load: on a rate curve the rate it was held to, the
// uncontrolled maximum counting as 100 %; elsewhere the I/Os in flight.
func load(r reports.Row, curve bool) (float64, bool) {
	if curve {
		if r.RatePct != nil {
			return *r.RatePct, true
		}
		return 100, true
	}
	return inFlight(r)
}

// paramText writes a parameter's value as a point names it.
func paramText(p reports.Param) string {
	if v, ok := p.Value.(float64); ok {
		return format.Plain(v)
	}
	return fmt.Sprint(p.Value)
}

// mixes splits the completed rows of a table by the values of the swept
// parameters that are not the load (the read share, the block size);
// nil when the table does not sweep both a load and something else.
func mixes(t *reports.ProfileResult) (names []string, groups [][]reports.Row) {
	values := map[string][]string{}
	var order []string
	for _, r := range t.Rows {
		for _, p := range r.Params {
			if !slices.Contains(order, p.Name) {
				order = append(order, p.Name)
			}
			if v := paramText(p); !slices.Contains(values[p.Name], v) {
				values[p.Name] = append(values[p.Name], v)
			}
		}
	}
	var other []string
	swept := false
	for _, name := range order {
		switch {
		case len(values[name]) < 2:
		case slices.Contains(loadParams, name):
			swept = true
		default:
			other = append(other, name)
		}
	}
	if !swept || len(other) == 0 {
		return nil, nil
	}
	for _, r := range completed(t) {
		var parts []string
		for _, p := range r.Params {
			if slices.Contains(other, p.Name) {
				parts = append(parts, p.Name+"="+paramText(p))
			}
		}
		key := strings.Join(parts, ", ")
		i := slices.Index(names, key)
		if i < 0 {
			i = len(names)
			names, groups = append(names, key), append(groups, nil)
		}
		groups[i] = append(groups[i], r)
	}
	return names, groups
}

// loadName names a row within its mix: by its load parameters alone.
func loadName(r reports.Row, curve bool) string {
	var parts []string
	for _, p := range r.Params {
		if slices.Contains(loadParams, p.Name) {
			parts = append(parts, p.Name+"="+paramText(p))
		}
	}
	if len(parts) == 0 || len(parts) == len(r.Params) {
		return pointName(r, curve)
	}
	return strings.Join(parts, ", ")
}

// findRow is the row of rows a sentence names: by its point or, within a
// mix, its load; a row without a point by the words the table gives it
// ("single run", "window avg of rounds 2-6"), which a sentence may
// follow with notes in brackets.
func findRow(rows []reports.Row, name string, curve bool) (reports.Row, bool) {
	for _, try := range []string{name, strings.TrimSpace(strings.SplitN(name, " (", 2)[0])} {
		for _, r := range rows {
			if p := pointName(r, curve); p != "" && (p == try || loadName(r, curve) == try) {
				return r, true
			}
		}
	}
	var unnamed []reports.Row
	for _, r := range rows {
		if pointName(r, curve) == "" {
			unnamed = append(unnamed, r)
		}
	}
	if len(unnamed) == 1 {
		return unnamed[0], true
	}
	return reports.Row{}, false
}

// peak is the row a table's headline quotes (docs/figures.md, The peak):
// the completed row with the highest IOPS, or with the lowest mean
// latency when the table leads with latency; on a rate curve its
// uncontrolled maximum unless a rate row completed more IOPS than the
// maximum by more than the maximum's noise.
func (sc *scope) peak(t *reports.ProfileResult) (reports.Row, bool) {
	done := completed(t)
	if len(done) == 0 {
		return reports.Row{}, false
	}
	best := done[0]
	for _, r := range done[1:] {
		if better(r.Total, best.Total, t.Headline) {
			best = r
		}
	}
	if t.Headline == "lat" || !isCurve(t) {
		return best, true
	}
	i := slices.IndexFunc(done, func(r reports.Row) bool { return r.RatePct == nil })
	if i < 0 || done[i].StepID == best.StepID {
		return best, true
	}
	maxRow := done[i]
	rec := sc.r.Records[maxRow.StepID]
	if rec == nil || rec.Result == nil {
		return best, true
	}
	if noise, _, known := judging.IOPSNoise(rec.Result); known && best.Total.IOPS > maxRow.Total.IOPS+noise {
		return best, true
	}
	return maxRow, true
}

// better reports whether a is a better headline figure than b: higher
// IOPS, or lower mean latency (then higher IOPS) when the headline is
// latency.
func better(a, b *reports.Figures, headline string) bool {
	if headline == "lat" {
		la, lb := latOrInf(a), latOrInf(b)
		if la != lb {
			return la < lb
		}
	}
	return a.IOPS > b.IOPS
}

func latOrInf(f *reports.Figures) float64 {
	if f.MeanLatNs == nil {
		return math.Inf(1)
	}
	return *f.MeanLatNs
}

// p99 is the p99 a sentence quotes for a row: its total's, or in a mixed
// table the worse direction's, with that direction's name.
func p99(r reports.Row, mixed bool) (ns uint64, dir string, ok bool) {
	if !mixed {
		if r.Total.P99Ns == nil {
			return 0, "", false
		}
		return *r.Total.P99Ns, "", true
	}
	for _, d := range []struct {
		name string
		f    *reports.Figures
	}{{"read", r.Read}, {"write", r.Write}} {
		if d.f != nil && d.f.P99Ns != nil && (!ok || *d.f.P99Ns > ns) {
			ns, dir, ok = *d.f.P99Ns, d.name, true
		}
	}
	return ns, dir, ok
}

// combined reports whether a row stands for several rounds combined.
func combined(r reports.Row) bool { return r.Averaged > 0 || r.WindowFirst > 0 }

// recordIOPS is the IOPS of a step's record, both directions.
func recordIOPS(rec *results.Record) (float64, bool) {
	if rec == nil || rec.Result == nil || rec.Result.Read == nil && rec.Result.Write == nil {
		return 0, false
	}
	var v float64
	for _, d := range []*metrics.DirStats{rec.Result.Read, rec.Result.Write} {
		if d != nil {
			v += d.IOPS
		}
	}
	return v, true
}

// intervalIOPS are the IOPS of a record's whole intervals (an interval
// less than half as long as the longest is left out: docs/figures.md,
// A time series).
func intervalIOPS(rec *results.Record) []float64 {
	if rec == nil || rec.Result == nil {
		return nil
	}
	series := rec.Result.Series
	span := func(i int) float64 {
		if i == 0 {
			return series[0].T
		}
		return series[i].T - series[i-1].T
	}
	longest := 0.0
	for i := range series {
		longest = max(longest, span(i))
	}
	var out []float64
	for i, s := range series {
		if span(i) >= longest/2 {
			out = append(out, s.ReadIOPS+s.WriteIOPS)
		}
	}
	return out
}

// spread is how values varied: their range, mean, coefficient of
// variation (sample standard deviation over the mean, in percent) and
// the 95 % confidence interval of the mean (Student's t).
type spread struct {
	n                  int
	min, max, mean, cv float64
	lo, hi             float64
}

// spreadOf is the spread of two values or more.
func spreadOf(values []float64) (spread, bool) {
	n := len(values)
	if n < 2 {
		return spread{}, false
	}
	s := spread{n: n, min: slices.Min(values), max: slices.Max(values)}
	for _, v := range values {
		s.mean += v / float64(n)
	}
	var sq float64
	for _, v := range values {
		sq += (v - s.mean) * (v - s.mean)
	}
	sd := math.Sqrt(sq / float64(n-1))
	if s.mean > 0 {
		s.cv = 100 * sd / s.mean
	}
	half := t975(n-1) * sd / math.Sqrt(float64(n))
	s.lo, s.hi = max(s.mean-half, 0), s.mean+half
	return s, true
}

// t975 is Student's t at 97.5 % for df degrees of freedom.
func t975(df int) float64 {
	t := []float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	if df >= 1 && df <= len(t) {
		return t[df-1]
	}
	return 1.960
}

// roundIOPS are the IOPS, from their records, of the rounds a row's
// spread is of: the rounds it combines, or all of them when it shows
// one (docs/figures.md, A row).
func (sc *scope) roundIOPS(r reports.Row) []float64 {
	var out []float64
	for _, round := range r.Rounds {
		if round.Status != results.StatusOK || combined(r) && !round.Used {
			continue
		}
		if v, ok := recordIOPS(sc.r.Records[round.StepID]); ok {
			out = append(out, v)
		}
	}
	return out
}

// tenths are the length-weighted mean IOPS of the first and the last
// tenth of a record's intervals, and the series' length in seconds.
func tenths(rec *results.Record) (first, last, secs float64, ok bool) {
	if rec == nil || rec.Result == nil || len(rec.Result.Series) < 10 {
		return 0, 0, 0, false
	}
	series := rec.Result.Series
	n := len(series)
	tenth := n / 10
	mean := func(from, to int) float64 {
		start := 0.0
		if from > 0 {
			start = series[from-1].T
		}
		sum := 0.0
		for i := from; i < to; i++ {
			prev := start
			if i > from {
				prev = series[i-1].T
			}
			sum += (series[i].ReadIOPS + series[i].WriteIOPS) * (series[i].T - prev)
		}
		return sum / (series[to-1].T - start)
	}
	return mean(0, tenth), mean(n-tenth, n), series[n-1].T, true
}

// skipReason is why a skipped step was not run, as its record says.
func skipReason(rec *results.Record) string {
	if rec.Skipped != "" {
		return rec.Skipped
	}
	return strings.TrimSpace(strings.TrimPrefix(rec.Error, "not run: "))
}
