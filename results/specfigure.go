package results

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/figure"
)

// SpecFigure says how acceptance compares a figure of a spec sheet, as
// the figure registry (figure.SpecFigure) knows it: its unit in
// acceptance rows ("IOPS", "B/s", "µs") and whether a higher value is
// better. ok is false for a figure drivebench does not measure
// (endurance, power). The engine judges figures and the reports list the
// ones no accept block judged by this one rule.
func SpecFigure(key string) (unit string, higher, ok bool) {
	f, ok := figure.SpecFigure(key)
	if !ok {
		return "", false, false
	}
	return f.UnitIn(figure.Spec), f.Better == figure.Higher, true
}

// SpecFigureOrder lists a spec entry's figures in the order acceptance
// rows give them: the registry's order (IOPS, bandwidth, mean latency,
// latency percentiles), then other percentiles, then the figures
// drivebench does not measure, each group by name.
func SpecFigureOrder(values map[string]float64) []string {
	keys := figure.Keys(figure.Spec)
	rank := func(k string) int {
		if i := slices.Index(keys, k); i >= 0 {
			return i
		}
		if _, measured := figure.SpecFigure(k); measured {
			return len(keys)
		}
		return len(keys) + 1
	}
	return slices.SortedFunc(maps.Keys(values), func(a, b string) int {
		return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a, b))
	})
}
