package judging

import (
	"fmt"
	"sort"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
)

// figure is how a spec key is measured: its unit, which way is better,
// and how to read it from a point.
type figure struct {
	unit   string
	higher bool
	read   func(*metrics.DirStats) float64
}

// figureOf returns how to measure a spec key; ok is false for a figure
// drivebench does not measure (endurance, power).
func figureOf(key string) (figure, bool) {
	switch key {
	case "iops":
		return figure{"IOPS", true, func(d *metrics.DirStats) float64 { return d.IOPS }}, true
	case "bw":
		return figure{"B/s", true, func(d *metrics.DirStats) float64 { return d.BW }}, true
	case "lat_us":
		return figure{"µs", false, func(d *metrics.DirStats) float64 { return d.Lat.Mean / 1e3 }}, true
	}
	if p, ok := plan.LatencyPercentile(key); ok {
		return figure{"µs", false, func(d *metrics.DirStats) float64 { return float64(d.Quantile(p)) / 1e3 }}, true
	}
	return figure{}, false
}

// figureOrder lists an entry's figures: the measured ones in a fixed
// order, then the others by name.
func figureOrder(values map[string]float64) []string {
	rank := func(k string) int {
		switch k {
		case "iops":
			return 0
		case "bw":
			return 1
		case "lat_us":
			return 2
		}
		if _, ok := plan.LatencyPercentile(k); ok {
			return 3
		}
		return 4
	}
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if ri, rj := rank(keys[i]), rank(keys[j]); ri != rj {
			return ri < rj
		}
		return keys[i] < keys[j]
	})
	return keys
}

// showFigure writes a figure in its unit: "812,345 IOPS", "6,123 MB/s",
// "81.2 µs".
func showFigure(v float64, unit string) string {
	switch unit {
	case "IOPS":
		return format.Count(v) + " IOPS"
	case "B/s":
		return format.Count(v/1e6) + " MB/s"
	}
	return fmt.Sprintf("%.1f %s", v, unit)
}
