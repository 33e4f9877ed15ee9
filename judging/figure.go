package judging

import (
	"fmt"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// figure is how a spec key is measured: its unit, which way is better,
// and how to read it from a point.
type figure struct {
	unit   string
	higher bool
	read   func(*metrics.DirStats) float64
}

// figureOf returns how to measure a spec key, its unit and direction as
// results.SpecFigure gives them; ok is false for a figure drivebench does
// not measure (endurance, power).
func figureOf(key string) (figure, bool) {
	unit, higher, ok := results.SpecFigure(key)
	if !ok {
		return figure{}, false
	}
	f := figure{unit: unit, higher: higher}
	switch key {
	case "iops":
		f.read = func(d *metrics.DirStats) float64 { return d.IOPS }
	case "bw":
		f.read = func(d *metrics.DirStats) float64 { return d.BW }
	case "lat_us":
		f.read = func(d *metrics.DirStats) float64 { return d.Lat.Mean / 1e3 }
	default:
		p, _ := metrics.LatencyPercentile(key)
		f.read = func(d *metrics.DirStats) float64 { return float64(d.Quantile(p)) / 1e3 }
	}
	return f, true
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
