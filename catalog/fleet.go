package catalog

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/metrics"
)

// OutlierMADs is how many median absolute deviations from its group's
// median a drive's figure must be to be called an outlier.
const OutlierMADs = 3.0

// FleetPercentiles are the percentiles a fleet reads from each group's
// merged histogram.
var FleetPercentiles = []float64{50, 90, 99, 99.9, 99.99}

// FleetQuery asks for one profile point across drives.
type FleetQuery struct {
	Point
	// Figure is the per-drive figure whose spread and outliers are shown
	// (FigureNames); GroupBy is "model" or "firmware".
	Figure  string
	GroupBy string
	Filter  Filter
}

// Fleet is one profile point across drives, grouped.
type Fleet struct {
	Profile   string       `json:"profile"`
	Point     string       `json:"point"`
	Direction string       `json:"direction"`
	Figure    string       `json:"figure"`
	Unit      string       `json:"unit"`
	GroupBy   string       `json:"group_by"`
	Groups    []FleetGroup `json:"groups"`
}

// FleetGroup is the drives of one model (or one model and firmware).
type FleetGroup struct {
	Model    string `json:"model"`
	Firmware string `json:"firmware,omitempty"`
	Drives   int    `json:"drives"`
	// IOs is the number of I/Os in the merged histogram; Merged holds the
	// percentiles read from it, in ns, nil when no drive kept a histogram.
	// HistogramDrives says how many drives contributed one.
	IOs             uint64               `json:"ios"`
	Merged          []metrics.Percentile `json:"merged_percentiles"`
	HistogramDrives int                  `json:"histogram_drives"`
	// The spread of the drives' figures.
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
	MAD    float64 `json:"mad"`
	// Members are the drives, best figure first; Outliers those beyond
	// OutlierMADs median absolute deviations of the median.
	Members  []FleetDrive `json:"drives_list"`
	Outliers []FleetDrive `json:"outliers"`
	// hist is the merged histogram, for the HTML page's distribution.
	hist *metrics.Histogram
}

// FleetDrive is one drive's figure at the point, from its latest run.
type FleetDrive struct {
	Serial   string  `json:"serial"`
	Model    string  `json:"model"`
	Firmware string  `json:"firmware"`
	RunID    string  `json:"run_id"`
	Created  string  `json:"created"`
	Value    float64 `json:"value"`
	// Deviations is (Value - Median) / MAD (for latency, at least the
	// histogram's bucket width at the median); 0 when that is 0.
	Deviations float64 `json:"deviations"`
}

// Fleet gathers the point's measurement on every matching drive (each
// drive's latest run), groups the drives, merges each group's histograms
// and finds the outliers.
func (c *Catalog) Fleet(ctx context.Context, q FleetQuery) (*Fleet, error) {
	fig, err := figureIndex(q.Figure)
	if err != nil {
		return nil, err
	}
	if q.GroupBy != "model" && q.GroupBy != "firmware" {
		return nil, fmt.Errorf("group by %q: use model or firmware", q.GroupBy)
	}
	latest, err := c.samples(ctx, q.Point, fig, q.Filter, true, true)
	if err != nil {
		return nil, err
	}
	point, _ := c.resolvePoint(ctx, q.Point)
	out := &Fleet{Profile: q.Profile, Point: point, Direction: q.Direction, Figure: figures[fig].Key(figure.Option), Unit: string(figures[fig].Unit), GroupBy: q.GroupBy}
	merger := &histogramMerger{where: c.Where}
	groups := map[[2]string]*FleetGroup{}
	var keys [][2]string
	for _, s := range latest {
		key := [2]string{s.model, ""}
		if q.GroupBy == "firmware" {
			key[1] = s.firmware
		}
		g := groups[key]
		if g == nil {
			g = &FleetGroup{Model: key[0], Firmware: key[1], hist: new(metrics.Histogram)}
			groups[key] = g
			keys = append(keys, key)
		}
		g.Drives++
		had, err := merger.add(g.hist, s)
		if err != nil {
			return nil, err
		}
		if had {
			g.HistogramDrives++
		}
		if s.valid {
			g.Members = append(g.Members, FleetDrive{Serial: s.serial, Model: s.model, Firmware: s.firmware, RunID: s.runID, Created: s.created, Value: s.value})
		}
	}
	slices.SortFunc(keys, func(a, b [2]string) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	for _, k := range keys {
		g := groups[k]
		g.IOs = g.hist.Count()
		if g.IOs > 0 {
			g.Merged = g.hist.Summary(FleetPercentiles).Percentiles
		}
		spread(g, figures[fig].Unit != figure.Nanoseconds, figures[fig].Unit == figure.Nanoseconds)
		out.Groups = append(out.Groups, *g)
	}
	return out, nil
}

// spread sets the group's min, median, max and MAD, and its outliers.
// Members are sorted best first: highest for IOPS and bandwidth, lowest
// for latency. For a latency figure a deviation is measured in units of
// at least the histogram's resolution at the median (a bucket is 1/64 of
// its power of two wide): drives one bucket apart are not outliers
// however alike the rest of the group is.
func spread(g *FleetGroup, higherIsBetter, latency bool) {
	if len(g.Members) == 0 {
		return
	}
	vals := make([]float64, len(g.Members))
	for i, m := range g.Members {
		vals[i] = m.Value
	}
	slices.Sort(vals)
	g.Min, g.Max, g.Median = vals[0], vals[len(vals)-1], median(vals)
	dev := make([]float64, len(vals))
	for i, v := range vals {
		dev[i] = math.Abs(v - g.Median)
	}
	slices.Sort(dev)
	g.MAD = median(dev)
	unit := g.MAD
	if latency {
		unit = max(unit, bucketWidth(g.Median))
	}
	for i := range g.Members {
		m := &g.Members[i]
		if unit > 0 {
			m.Deviations = (m.Value - g.Median) / unit
		}
	}
	slices.SortStableFunc(g.Members, func(a, b FleetDrive) int {
		if higherIsBetter {
			return cmp.Or(cmp.Compare(b.Value, a.Value), cmp.Compare(a.Serial, b.Serial))
		}
		return cmp.Or(cmp.Compare(a.Value, b.Value), cmp.Compare(a.Serial, b.Serial))
	})
	for _, m := range g.Members {
		if unit > 0 && math.Abs(m.Deviations) > OutlierMADs {
			g.Outliers = append(g.Outliers, m)
		}
	}
}

// bucketWidth is the width of the histogram bucket that holds ns.
func bucketWidth(ns float64) float64 {
	i := metrics.BucketIndex(uint64(ns))
	if i+1 >= metrics.NumBuckets {
		return 0
	}
	return float64(metrics.BucketValue(i+1) - metrics.BucketValue(i))
}

// median of sorted values.
func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}
