package reports

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

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

// Comparison is what changed between two runs of the same points, such as
// one drive before and after a firmware update.
type Comparison struct {
	// ThresholdPct is the change, in percent of the base value, beyond
	// which a figure counts as regressed or improved.
	ThresholdPct float64 `json:"threshold_pct"`
	// Changes lists every figure of every point both runs measured, in
	// the base run's order, then the points the new run lost.
	Changes []Change `json:"changes"`
	// OnlyInBase and OnlyInNew name the points one run has and the other
	// does not list at all: "nvme0 / 4k-random-read / iodepth=32".
	OnlyInBase []string       `json:"only_in_base"`
	OnlyInNew  []string       `json:"only_in_new"`
	Counts     map[string]int `json:"counts"`
}

// Change is one figure of one point in both runs.
type Change struct {
	Drive   string `json:"drive"`
	Profile string `json:"profile"`
	Point   string `json:"point"`
	// Figure names the measurement: iops, bw_bytes, mean_lat_ns, p50_ns,
	// p99_ns, p99_9_ns, with read_ or write_ before it for one direction
	// of a mixed point.
	Figure string  `json:"figure"`
	Base   float64 `json:"base"`
	New    float64 `json:"new"`
	// ChangePct is (new - base) / base in percent; 0 for a lost point.
	ChangePct float64 `json:"change_pct"`
	Verdict   string  `json:"verdict"`
}

// Regressed reports whether any figure regressed or any point was lost:
// the comparison fails.
func (c *Comparison) Regressed() bool {
	return c.Counts[Regressed]+c.Counts[Lost] > 0
}

// pointKey identifies a point across runs: step IDs differ between plans,
// so points are matched by drive, profile and sweep point.
type pointKey struct{ drive, profile, point string }

func (k pointKey) String() string {
	return strings.Join([]string{k.drive, k.profile, cmp.Or(k.point, "single run")}, " / ")
}

// Compare matches the points of two runs by drive, profile and sweep point
// and judges every figure of the points both measured: higher is better
// for IOPS and bandwidth, lower for latency. A figure that moved by more
// than thresholdPct percent of its base value regressed or improved; one
// that moved less is noise. A point the base measured and the new run
// lists but did not finish is lost. Figures whose base value is zero are
// left out, as no percentage can be taken of them.
func Compare(base, next *Summary, thresholdPct float64) *Comparison {
	c := &Comparison{ThresholdPct: thresholdPct, Changes: []Change{}, OnlyInBase: []string{}, OnlyInNew: []string{},
		Counts: map[string]int{Regressed: 0, Improved: 0, Noise: 0, Unchanged: 0, Lost: 0}}
	newRows, newOrder := indexRows(next)
	baseRows, baseOrder := indexRows(base)
	var lost []Change
	for _, k := range baseOrder {
		b := baseRows[k]
		n, listed := newRows[k]
		switch {
		case !listed:
			c.OnlyInBase = append(c.OnlyInBase, k.String())
		case b.completed() && !n.completed():
			lost = append(lost, Change{Drive: k.drive, Profile: k.profile, Point: k.point, Figure: "iops",
				Base: b.Total.IOPS, Verdict: Lost})
		case b.completed():
			c.Changes = append(c.Changes, compareRows(k, b, n, thresholdPct)...)
		}
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

// figure is a named measurement and which way is better.
type figure struct {
	name         string
	higherBetter bool
	value        func(*Figures) (float64, bool)
}

var comparedFigures = []figure{
	{"iops", true, func(f *Figures) (float64, bool) { return f.IOPS, true }},
	{"bw_bytes", true, func(f *Figures) (float64, bool) { return f.BWBytes, true }},
	{"mean_lat_ns", false, func(f *Figures) (float64, bool) { return floatOf(f.MeanLatNs) }},
	{"p50_ns", false, func(f *Figures) (float64, bool) { return uintOf(f.P50Ns) }},
	{"p99_ns", false, func(f *Figures) (float64, bool) { return uintOf(f.P99Ns) }},
	{"p99_9_ns", false, func(f *Figures) (float64, bool) { return uintOf(f.P999Ns) }},
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
func compareRows(k pointKey, b, n Row, thresholdPct float64) []Change {
	parts := []struct {
		prefix    string
		base, new *Figures
	}{{"", b.Total, n.Total}, {"read_", b.Read, n.Read}, {"write_", b.Write, n.Write}}
	var out []Change
	for _, p := range parts {
		if p.base == nil || p.new == nil {
			continue
		}
		for _, f := range comparedFigures {
			bv, okB := f.value(p.base)
			nv, okN := f.value(p.new)
			if !okB || !okN || bv == 0 {
				continue
			}
			pct := (nv - bv) / bv * 100
			out = append(out, Change{
				Drive: k.drive, Profile: k.profile, Point: k.point, Figure: p.prefix + f.name,
				Base: bv, New: nv, ChangePct: pct, Verdict: judge(pct, thresholdPct, f.higherBetter),
			})
		}
	}
	return out
}

// judge gives the verdict of a change of pct percent.
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
	} else if err := writeChanges(w, moved); err != nil {
		return err
	}
	for _, k := range c.OnlyInBase {
		fmt.Fprintf(w, "only in base: %s\n", k)
	}
	for _, k := range c.OnlyInNew {
		fmt.Fprintf(w, "only in new:  %s\n", k)
	}
	_, err := fmt.Fprintf(w, "%d figures compared at a %s%% threshold: %d regressed, %d improved, %d noise, %d unchanged, %d lost\n",
		len(c.Changes), format.Plain(c.ThresholdPct),
		c.Counts[Regressed], c.Counts[Improved], c.Counts[Noise], c.Counts[Unchanged], c.Counts[Lost])
	return err
}

// writeChanges writes changes as an aligned table.
func writeChanges(w io.Writer, changes []Change) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "point\tfigure\tbase\tnew\tchange\tverdict")
	for _, ch := range changes {
		change, newText := fmt.Sprintf("%+.1f%%", ch.ChangePct), figureText(ch.Figure, ch.New)
		if ch.Verdict == Lost {
			change, newText = format.Dash, format.Dash
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n",
			pointKey{ch.Drive, ch.Profile, ch.Point}, ch.Figure, figureText(ch.Figure, ch.Base), newText, change, ch.Verdict)
	}
	return tw.Flush()
}

// figureText writes a compared figure in its unit.
func figureText(name string, v float64) string {
	switch {
	case math.IsNaN(v):
		return format.Dash
	case strings.HasSuffix(name, "_ns"):
		return format.Latency(v)
	case strings.HasSuffix(name, "bw_bytes"):
		return format.Bandwidth(v)
	}
	return format.Count(v)
}
