package judging

import (
	"fmt"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
)

// specFigure is how a spec key is measured: its unit, which way is
// better, and how to read it from a point, in the spec sheet's unit.
type specFigure struct {
	unit   string
	higher bool
	read   func(*metrics.DirStats) float64
}

// figureOf returns how to measure a spec key, as the figure registry
// (figure.SpecFigure) knows it; ok is false for a figure drivebench does
// not measure (endurance, power).
func figureOf(key string) (specFigure, bool) {
	f, ok := figure.SpecFigure(key)
	if !ok {
		return specFigure{}, false
	}
	return specFigure{
		unit: f.UnitIn(figure.Spec), higher: f.Better == figure.Higher,
		read: func(d *metrics.DirStats) float64 { return f.Value(figure.Spec, d) },
	}, true
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
