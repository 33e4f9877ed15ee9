package reports

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/format"
)

// Verdicts of a compared figure.
const (
	// Regressed: worse than the threshold allows.
	Regressed = "regressed"
	// Improved: better by more than the threshold.
	Improved = "improved"
	// Noise: moved, but within the threshold.
	Noise = "noise"
	// Unchanged: the same value in both runs.
	Unchanged = "unchanged"
	// Lost: the base measured the point, the new run did not finish it.
	Lost = "lost"
)

// Thresholds are the changes, in percent of the base value, beyond which
// a figure counts as regressed or improved: Default for every figure,
// ByFigure for those named by the figure registry (iops, bw, mean, p50,
// p99, p99_9).
type Thresholds struct {
	Default  float64            `json:"default_pct"`
	ByFigure map[string]float64 `json:"by_figure_pct,omitempty"`
}

// of is the threshold of a figure.
func (t Thresholds) of(f *figure.Figure) float64 {
	if v, ok := t.ByFigure[f.Name]; ok {
		return v
	}
	return t.Default
}

// ThresholdKeys are the names -threshold takes for single figures.
func ThresholdKeys() []string {
	keys := make([]string, len(comparedFigures))
	for i, f := range comparedFigures {
		keys[i] = f.Key(figure.Option)
	}
	return keys
}

// ThresholdFigure is the figure a -threshold name stands for: its name in
// the figure registry, or an old name (p99.9), for which old is true and
// the caller warns. f is nil for a name compare does not judge.
func ThresholdFigure(name string) (f *figure.Figure, old bool) {
	f, old = figure.Resolve(figure.Option, name)
	if f == nil || !slices.Contains(comparedFigures, f) {
		return nil, false
	}
	return f, old
}

// Comparison is what changed between two runs of the same points, such as
// one drive before and after a firmware update.
type Comparison struct {
	// ThresholdPct is the default threshold; Thresholds every threshold.
	ThresholdPct float64    `json:"threshold_pct"`
	Thresholds   Thresholds `json:"thresholds"`
	// Changes lists every figure of every point both runs measured, in
	// the base run's order, then the points the new run lost.
	Changes []Change `json:"changes"`
	// OnlyInBase and OnlyInNew name the points one run has and the other
	// does not list at all: "nvme0 / 4k-random-read / iodepth=32".
	OnlyInBase []string `json:"only_in_base"`
	OnlyInNew  []string `json:"only_in_new"`
	// Matched counts the points both runs list.
	Matched int `json:"matched"`
	// WorkloadChanges are the points both runs list whose workloads
	// differ (another transfer size, pattern, queue depth, engine...):
	// Refusal refuses them unless allowed, and their figures are then
	// marked as compared across a workload change.
	WorkloadChanges []WorkloadChange `json:"workload_changes"`
	Counts          map[string]int   `json:"counts"`
	// Units is the unit the text, Markdown and JUnit outputs give
	// bandwidth in, "MB/s" or "MiB/s": the base run's, from its plan's
	// report block, unless the caller sets another. Base and New stay in
	// bytes per second.
	Units string `json:"units"`
}

// Change is one figure of one point in both runs.
type Change struct {
	Drive   string `json:"drive"`
	Profile string `json:"profile"`
	Point   string `json:"point"`
	// Figure names the measurement: iops, bw_bytes, mean_lat_ns, p50_ns,
	// p99_ns, p99_9_ns, with read_ or write_ before it for one direction
	// of a mixed point; Name says it for people: "p99 read latency".
	Figure string  `json:"figure"`
	Name   string  `json:"name"`
	Base   float64 `json:"base"`
	New    float64 `json:"new"`
	// ChangePct is (new - base) / base in percent; 0 for a lost point.
	ChangePct float64 `json:"change_pct"`
	// ThresholdPct is the threshold the change was judged against, and
	// NoisePct the change the two runs' own noise allows (1.96 standard
	// errors of the difference, from their rounds or else their interval
	// series: IOPS for rates, per-interval latency for mean, p50 and p99);
	// nil when neither run measured its noise (p99.9, runs without
	// series, a direction's latency in a mixed step).
	ThresholdPct float64  `json:"threshold_pct"`
	NoisePct     *float64 `json:"noise_pct,omitempty"`
	Verdict      string   `json:"verdict"`
	// WorkloadChanged marks a figure of a point whose workload differs
	// between the runs (see Comparison.WorkloadChanges).
	WorkloadChanged bool `json:"workload_changed,omitempty"`
	// of is the figure registry's row of Figure.
	of *figure.Figure
}

// Regressed reports whether any figure regressed or any point was lost:
// the comparison fails.
func (c *Comparison) Regressed() bool {
	return c.Counts[Regressed]+c.Counts[Lost] > 0
}

// listedPoints is how many points, workload changes and such a refusal
// names before it counts the rest.
const listedPoints = 5

// Refusal says why two runs cannot be compared, nil when they can: they
// share no point (two plans, or another drive's name: a gate aimed at the
// wrong folder would pass whatever it held); the base finished none of
// the points they share, so no figure could regress; or, unless
// allowWorkloadChange, points they share ran different workloads, whose
// figures measure different things.
func (c *Comparison) Refusal(allowWorkloadChange bool) error {
	switch {
	case c.Matched == 0:
		return fmt.Errorf("the runs share no point: base lists %s, new lists %s; points are matched by drive, profile and sweep point, so compare two runs of the same profiles on drives of the same names",
			pointList(c.OnlyInBase), pointList(c.OnlyInNew))
	case len(c.Changes) == 0:
		return fmt.Errorf("the base run finished none of the %d points both runs list, so there is no figure to compare; compare against a base run that completed", c.Matched)
	case len(c.WorkloadChanges) > 0 && !allowWorkloadChange:
		return fmt.Errorf("%d of the %d points both runs list ran different workloads in the two runs, so their figures measure different things:\n%s\ncompare runs of the same workload, or pass -allow-workload-change to compare these points anyway (they are then marked)",
			len(c.WorkloadChanges), c.Matched, workloadChangeLines(c.WorkloadChanges, "  "))
	}
	return nil
}

// pointList names the first points of a list and counts the rest:
// "7 points (a, b, c, d, e and 2 more)"; "no point".
func pointList(points []string) string {
	switch len(points) {
	case 0:
		return "no point"
	case 1:
		return "1 point (" + points[0] + ")"
	}
	shown := strings.Join(points[:min(len(points), listedPoints)], ", ")
	if more := len(points) - listedPoints; more > 0 {
		shown += fmt.Sprintf(" and %d more", more)
	}
	return fmt.Sprintf("%d points (%s)", len(points), shown)
}

// workloadChangeLines writes the first workload changes one a line, each
// after indent, then counts the rest: "nvme0 / 4k / iodepth=1: bs 4KiB →
// 16KiB".
func workloadChangeLines(changes []WorkloadChange, indent string) string {
	var lines []string
	for i, wc := range changes {
		if i == listedPoints {
			lines = append(lines, fmt.Sprintf("%sand %d more points", indent, len(changes)-listedPoints))
			break
		}
		lines = append(lines, indent+wc.Point+": "+paramChangesText(wc.Params))
	}
	return strings.Join(lines, "\n")
}

// paramChangesText writes changed parameters: "bs 4KiB → 16KiB, numjobs
// 4 → 1".
func paramChangesText(params []ParamChange) string {
	parts := make([]string, len(params))
	for i, p := range params {
		parts[i] = p.Param + " " + p.Base + " → " + p.New
	}
	return strings.Join(parts, ", ")
}

// pointKey identifies a point across runs: step IDs differ between plans,
// so points are matched by drive, profile and sweep point.
type pointKey struct{ drive, profile, point string }

func (k pointKey) String() string {
	return strings.Join([]string{k.drive, k.profile, cmp.Or(k.point, "single run")}, " / ")
}

// Compare matches the points of two runs by drive, profile and sweep point,
// notes those whose workloads differ, and judges every figure of the
// points both measured: higher is better
// for IOPS and bandwidth, lower for latency. A figure that moved by more
// than thresholdPct percent of its base value regressed or improved; one
// that moved less is noise. A point the base measured and the new run
// lists but did not finish is lost. Figures whose base value is zero are
// left out, as no percentage can be taken of them. IOPS and bandwidth
// regress or improve only when the change also exceeds the noise of the
// two runs. Bandwidth is written in the base run's unit.
func Compare(base, next *Summary, th Thresholds) *Comparison {
	c := &Comparison{ThresholdPct: th.Default, Thresholds: th, Changes: []Change{}, OnlyInBase: []string{}, OnlyInNew: []string{},
		WorkloadChanges: []WorkloadChange{},
		Counts:          map[string]int{Regressed: 0, Improved: 0, Noise: 0, Unchanged: 0, Lost: 0}, Units: string(base.unit())}
	newRows, newOrder := indexRows(next)
	baseRows, baseOrder := indexRows(base)
	var lost []Change
	for _, k := range baseOrder {
		b := baseRows[k]
		n, listed := newRows[k]
		if !listed {
			c.OnlyInBase = append(c.OnlyInBase, k.String())
			continue
		}
		c.Matched++
		diff := workloadDiff(b.workload, n.workload)
		if diff != nil {
			c.WorkloadChanges = append(c.WorkloadChanges, WorkloadChange{Point: k.String(), Params: diff})
		}
		var changes []Change
		switch {
		case b.completed() && !n.completed():
			iops := figure.Lookup("iops")
			lost = append(lost, Change{Drive: k.drive, Profile: k.profile, Point: k.point, Figure: iops.Key(figure.Report), Name: iops.Title,
				Base: b.Total.IOPS, ThresholdPct: th.of(iops), Verdict: Lost, WorkloadChanged: diff != nil, of: iops})
		case b.completed():
			changes = compareRows(k, b, n, th)
		}
		for i := range changes {
			changes[i].WorkloadChanged = diff != nil
		}
		c.Changes = append(c.Changes, changes...)
	}
	for _, k := range newOrder {
		if _, ok := baseRows[k]; !ok {
			c.OnlyInNew = append(c.OnlyInNew, k.String())
		}
	}
	c.Changes = append(c.Changes, lost...)
	for _, ch := range c.Changes {
		c.Counts[ch.Verdict]++
	}
	return c
}

// indexRows maps each point of a run to its row, and lists the points in
// report order. A rate curve's points without a sweep point are named by
// their rate.
func indexRows(s *Summary) (map[pointKey]Row, []pointKey) {
	rows := map[pointKey]Row{}
	var order []pointKey
	for i := range s.Results {
		t := &s.Results[i]
		curve := shapeOf(t) == shapeRateCurve
		for _, r := range t.Rows {
			k := pointKey{t.Drive, t.Profile, pointName(r, curve)}
			if _, seen := rows[k]; !seen {
				order = append(order, k)
			}
			rows[k] = r
		}
	}
	return rows, order
}

// comparedFigures are the figures compare judges: those of the figure
// registry a report row holds (figureOfRow) and -threshold names, in the
// registry's order.
var comparedFigures = func() []*figure.Figure {
	var out []*figure.Figure
	for _, f := range figure.In(figure.Option) {
		if _, ok := figureReaders[f.Key(figure.Report)]; ok {
			out = append(out, f)
		}
	}
	return out
}()

// figureReaders read a figure from a row's Figures, by its name in
// report.json.
var figureReaders = map[string]func(*Figures) (float64, bool){
	"iops":        func(f *Figures) (float64, bool) { return f.IOPS, true },
	"bw_bytes":    func(f *Figures) (float64, bool) { return f.BWBytes, true },
	"mean_lat_ns": func(f *Figures) (float64, bool) { return floatOf(f.MeanLatNs) },
	"p50_ns":      func(f *Figures) (float64, bool) { return uintOf(f.P50Ns) },
	"p99_ns":      func(f *Figures) (float64, bool) { return uintOf(f.P99Ns) },
	"p99_9_ns":    func(f *Figures) (float64, bool) { return uintOf(f.P999Ns) },
}

// figureOfRow reads figure f from a row's figures; ok is false when the
// row does not hold it.
func figureOfRow(f *figure.Figure, fs *Figures) (float64, bool) {
	read, ok := figureReaders[f.Key(figure.Report)]
	if !ok {
		return 0, false
	}
	return read(fs)
}

// noisePct is the change in percent that the two rows' own noise allows
// for a figure: 1.96 standard errors of the difference of their means,
// each from the spreads spreads gives for a row (its rounds, else its
// interval series); nil when neither row measured its noise.
func noisePct(b, n Row, spreads func(Row) []*Spread) *float64 {
	se := func(r Row) (float64, bool) {
		for _, s := range spreads(r) {
			if s != nil && s.N >= 2 {
				return s.CVPct / math.Sqrt(float64(s.N)), true
			}
		}
		return 0, false
	}
	sb, okB := se(b)
	sn, okN := se(n)
	if !okB && !okN {
		return nil
	}
	v := 1.96 * math.Sqrt(sb*sb+sn*sn)
	return &v
}

// rateSpreads are the spreads that give a rate figure's noise.
func rateSpreads(r Row) []*Spread { return []*Spread{r.RoundSpread, r.Intervals} }

// latencySpreadsOf gives, for a latency figure, the spread of its
// per-interval values; nil for figures the intervals do not measure
// (p99.9: an interval holds too few I/Os for it).
func latencySpreadsOf(name string) func(Row) []*Spread {
	return func(r Row) []*Spread { return []*Spread{r.LatencyIntervals[name]} }
}

// onlyDirection says whether both rows moved data in one direction only.
func onlyDirection(b, n Row) bool {
	return (b.Read == nil || b.Write == nil) && (n.Read == nil || n.Write == nil)
}

func floatOf(v *float64) (float64, bool) {
	if v == nil {
		return 0, false
	}
	return *v, true
}

func uintOf(v *uint64) (float64, bool) {
	if v == nil {
		return 0, false
	}
	return float64(*v), true
}

// compareRows judges the figures two completed rows share: the totals,
// and each direction's when both rows have it.
func compareRows(k pointKey, b, n Row, th Thresholds) []Change {
	parts := []struct {
		prefix, words string
		base, new     *Figures
	}{{"", "", b.Total, n.Total}, {"read_", "read", b.Read, n.Read}, {"write_", "write", b.Write, n.Write}}
	var out []Change
	for _, p := range parts {
		if p.base == nil || p.new == nil {
			continue
		}
		for _, f := range comparedFigures {
			bv, okB := figureOfRow(f, p.base)
			nv, okN := figureOfRow(f, p.new)
			if !okB || !okN || bv == 0 {
				continue
			}
			pct := (nv - bv) / bv * 100
			ch := Change{
				Drive: k.drive, Profile: k.profile, Point: k.point, Figure: p.prefix + f.Key(figure.Report),
				Name: f.Titled(p.words), Base: bv, New: nv, ChangePct: pct, ThresholdPct: th.of(f), of: f,
			}
			switch {
			case f.Merge == figure.Add:
				ch.NoisePct = noisePct(b, n, rateSpreads)
			case p.prefix == "" || onlyDirection(b, n):
				// The intervals' latency covers both directions: it is
				// the noise of a direction's figure only when the step
				// had no other.
				ch.NoisePct = noisePct(b, n, latencySpreadsOf(f.Key(figure.Report)))
			}
			ch.Verdict = judge(pct, max(ch.ThresholdPct, floatOr(ch.NoisePct)), f.Better == figure.Higher)
			out = append(out, ch)
		}
	}
	return out
}

func floatOr(v *float64) float64 {
	if v == nil {
		return 0
	}
	return *v
}

// judge gives the verdict of a change of pct percent, against the larger
// of the threshold and the noise.
func judge(pct, thresholdPct float64, higherBetter bool) string {
	better := pct
	if !higherBetter {
		better = -pct
	}
	switch {
	case pct == 0:
		return Unchanged
	case better < -thresholdPct:
		return Regressed
	case better > thresholdPct:
		return Improved
	}
	return Noise
}

// WriteComparison writes the figures that moved as a table for a
// terminal, followed by the points only one run has and a one-line
// tally. Unchanged figures are counted, not listed.
func WriteComparison(w io.Writer, c *Comparison) error {
	if c == nil {
		return errors.New("write comparison: nothing to write")
	}
	var moved []Change
	for _, ch := range c.Changes {
		if ch.Verdict != Unchanged {
			moved = append(moved, ch)
		}
	}
	if len(moved) == 0 {
		fmt.Fprintln(w, "No figure moved.")
	} else if err := writeChanges(w, moved, unitOf(c.Units)); err != nil {
		return err
	}
	for _, k := range c.OnlyInBase {
		fmt.Fprintf(w, "only in base: %s\n", k)
	}
	for _, k := range c.OnlyInNew {
		fmt.Fprintf(w, "only in new:  %s\n", k)
	}
	for _, line := range c.matchNotes() {
		fmt.Fprintln(w, line)
	}
	_, err := fmt.Fprintf(w, "%d figures compared at a %s%% threshold%s, and beyond the runs' noise: %d regressed, %d improved, %d noise, %d unchanged, %d lost\n",
		len(c.Changes), format.Plain(c.ThresholdPct), c.Thresholds.exceptions(),
		c.Counts[Regressed], c.Counts[Improved], c.Counts[Noise], c.Counts[Unchanged], c.Counts[Lost])
	return err
}

// workloadMark follows the point of a figure compared across a workload
// change.
const workloadMark = " †"

// matchNotes say how many points matched when some are in one run only,
// and which points were compared across a workload change.
func (c *Comparison) matchNotes() []string {
	var notes []string
	if len(c.OnlyInBase)+len(c.OnlyInNew) > 0 {
		notes = append(notes, fmt.Sprintf("%d points matched, of %d in base and %d in new",
			c.Matched, c.Matched+len(c.OnlyInBase), c.Matched+len(c.OnlyInNew)))
	}
	for _, wc := range c.WorkloadChanges {
		notes = append(notes, strings.TrimSpace(workloadMark)+" compared across a workload change: "+wc.Point+": "+paramChangesText(wc.Params))
	}
	return notes
}

// exceptions lists the per-figure thresholds: " (p99 10%)".
func (t Thresholds) exceptions() string {
	var parts []string
	for _, f := range comparedFigures {
		if v, ok := t.ByFigure[f.Name]; ok {
			parts = append(parts, f.Key(figure.Option)+" "+format.Plain(v)+"%")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// changeCells are a change's cells: point, figure, base, new, change,
// noise and verdict; bandwidths in unit u.
func changeCells(ch Change, u bwUnit) []string {
	change, newText, noise := fmt.Sprintf("%+.1f%%", ch.ChangePct), figureText(ch.of, ch.New, u), format.Dash
	if ch.Verdict == Lost {
		change, newText = format.Dash, format.Dash
	}
	if ch.NoisePct != nil {
		noise = fmt.Sprintf("±%.1f%%", *ch.NoisePct)
	}
	point := pointKey{ch.Drive, ch.Profile, ch.Point}.String()
	if ch.WorkloadChanged {
		point += workloadMark
	}
	return []string{point, ch.Name, figureText(ch.of, ch.Base, u), newText, change, noise, ch.Verdict}
}

var changeColumns = []string{"point", "figure", "base", "new", "change", "noise", "verdict"}

// writeChanges writes changes as an aligned table, bandwidths in unit u.
func writeChanges(w io.Writer, changes []Change, u bwUnit) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(changeColumns, "\t"))
	for _, ch := range changes {
		fmt.Fprintln(tw, strings.Join(changeCells(ch, u), "\t"))
	}
	return tw.Flush()
}

// WriteComparisonMarkdown writes every compared figure as a Markdown
// table, for a pull request or a CI summary page.
func WriteComparisonMarkdown(w io.Writer, c *Comparison) error {
	if c == nil {
		return errors.New("write comparison: nothing to write")
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(changeColumns, " | "), strings.Repeat("---|", len(changeColumns)))
	for _, ch := range c.Changes {
		fmt.Fprintf(w, "| %s |\n", strings.Join(changeCells(ch, unitOf(c.Units)), " | "))
	}
	for _, k := range c.OnlyInBase {
		fmt.Fprintf(w, "\nOnly in base: %s", k)
	}
	for _, k := range c.OnlyInNew {
		fmt.Fprintf(w, "\nOnly in new: %s", k)
	}
	for _, line := range c.matchNotes() {
		fmt.Fprintf(w, "\n%s", line)
	}
	_, err := fmt.Fprintf(w, "\n%d figures compared at a %s%% threshold%s, and beyond the runs' noise: %d regressed, %d improved, %d noise, %d unchanged, %d lost.\n",
		len(c.Changes), format.Plain(c.ThresholdPct), c.Thresholds.exceptions(),
		c.Counts[Regressed], c.Counts[Improved], c.Counts[Noise], c.Counts[Unchanged], c.Counts[Lost])
	return err
}

// ComparisonJUnit renders a comparison for CI: one test case per figure
// of each point, failed when it regressed or was lost. The case's name
// holds no value, so CI keeps one history per figure.
func ComparisonJUnit(c *Comparison, name string) ([]byte, error) {
	suite := junitSuite{Name: name}
	names := map[string]int{}
	for _, ch := range c.Changes {
		k := pointKey{ch.Drive, ch.Profile, ch.Point}
		jc := junitCase{ClassName: name + "." + ch.Drive + "." + ch.Profile, Name: k.String() + " / " + ch.Name}
		text := strings.Join(changeCells(ch, unitOf(c.Units)), " ")
		switch ch.Verdict {
		case Regressed:
			jc.Failure = &junitMessage{Message: fmt.Sprintf("%s regressed by %.1f%% (threshold %s%%)", ch.Name, math.Abs(ch.ChangePct), format.Plain(ch.ThresholdPct)), Type: "regressed", Text: text}
		case Lost:
			jc.Failure = &junitMessage{Message: "the new run did not finish this point", Type: "lost", Text: text}
		default:
			jc.SystemOut = text
		}
		suite.add(jc, names)
	}
	return marshalJUnit(suite)
}

// figureText writes a value of compared figure f in its unit, a
// bandwidth in u.
func figureText(f *figure.Figure, v float64, u bwUnit) string {
	switch {
	case math.IsNaN(v):
		return format.Dash
	case f.Unit == figure.Nanoseconds:
		return format.Latency(v)
	case f.Unit == figure.BytesPerSec:
		return u.text(v)
	}
	return format.Count(v)
}
