package catalog

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/metrics"
)

// TrendQuery asks how a figure of one point moved over firmware versions
// or over time, for each model.
type TrendQuery struct {
	Point
	Figure string
	// By is "firmware" (in the order the versions were first measured) or
	// "day", "month" (of the run's creation).
	By     string
	Filter Filter
}

// TrendRow is one model at one firmware version or date: every run of the
// point there, not only each drive's latest.
type TrendRow struct {
	Model  string  `json:"model"`
	X      string  `json:"x"`
	Runs   int     `json:"runs"`
	Drives int     `json:"drives"`
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
	// Merged is the figure read from the merged histogram of the runs,
	// for latency percentiles; nil otherwise or without histograms.
	Merged *float64 `json:"merged,omitempty"`
	first  string
}

// Trend is a figure over firmware versions or dates.
type Trend struct {
	Profile   string     `json:"profile"`
	Point     string     `json:"point"`
	Direction string     `json:"direction"`
	Figure    string     `json:"figure"`
	Unit      string     `json:"unit"`
	By        string     `json:"by"`
	Rows      []TrendRow `json:"rows"`
}

// Trend groups every matching run of the point by model and by firmware
// or date.
func (c *Catalog) Trend(ctx context.Context, q TrendQuery) (*Trend, error) {
	fig, err := figureIndex(q.Figure)
	if err != nil {
		return nil, err
	}
	var xOf func(s measurement) string
	switch q.By {
	case "firmware":
		xOf = func(s measurement) string { return s.firmware }
	case "day":
		xOf = func(s measurement) string { return s.created[:min(10, len(s.created))] }
	case "month":
		xOf = func(s measurement) string { return s.created[:min(7, len(s.created))] }
	default:
		return nil, fmt.Errorf("trend by %q: use firmware, day or month", q.By)
	}
	pct := figures[fig].Percentile
	all, err := c.samples(ctx, q.Point, fig, q.Filter, pct > 0, false)
	if err != nil {
		return nil, err
	}
	point, _ := c.resolvePoint(ctx, q.Point)
	type acc struct {
		row    TrendRow
		vals   []float64
		drives map[string]bool
		hist   metrics.Histogram
		hists  int
	}
	merger := &histogramMerger{where: c.Where}
	groups := map[[2]string]*acc{}
	for _, s := range all {
		k := [2]string{s.model, xOf(s)}
		a := groups[k]
		if a == nil {
			a = &acc{row: TrendRow{Model: k[0], X: k[1], first: s.created}, drives: map[string]bool{}}
			groups[k] = a
		}
		a.row.Runs++
		a.drives[s.driveID] = true
		a.row.first = min(a.row.first, s.created)
		if s.valid {
			a.vals = append(a.vals, s.value)
		}
		had, err := merger.add(&a.hist, s)
		if err != nil {
			return nil, err
		}
		if had {
			a.hists++
		}
	}
	out := &Trend{Profile: q.Profile, Point: point, Direction: q.Direction, Figure: figures[fig].Key(figure.Option), Unit: string(figures[fig].Unit), By: q.By}
	for _, a := range groups {
		r := a.row
		r.Drives = len(a.drives)
		if len(a.vals) > 0 {
			slices.Sort(a.vals)
			r.Min, r.Median, r.Max = a.vals[0], median(a.vals), a.vals[len(a.vals)-1]
		}
		if a.hists > 0 {
			v := float64(a.hist.Percentile(pct))
			r.Merged = &v
		}
		out.Rows = append(out.Rows, r)
	}
	slices.SortFunc(out.Rows, func(a, b TrendRow) int {
		if q.By == "firmware" {
			return cmp.Or(cmp.Compare(a.Model, b.Model), cmp.Compare(a.first, b.first), cmp.Compare(a.X, b.X))
		}
		return cmp.Or(cmp.Compare(a.Model, b.Model), cmp.Compare(a.X, b.X))
	})
	return out, nil
}
