package results

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/metrics"
)

// SpecFigure says how acceptance compares a figure of a spec sheet: its
// unit in acceptance rows ("IOPS", "B/s", "µs") and whether a higher
// value is better. ok is false for a figure drivebench does not measure
// (endurance, power). The engine judges figures and the reports list the
// ones no accept block judged by this one rule.
func SpecFigure(key string) (unit string, higher, ok bool) {
	switch key {
	case "iops":
		return "IOPS", true, true
	case "bw":
		return "B/s", true, true
	case "lat_us":
		return "µs", false, true
	}
	if _, ok := metrics.LatencyPercentile(key); ok {
		return "µs", false, true
	}
	return "", false, false
}

// SpecFigureOrder lists a spec entry's figures in the order acceptance
// rows give them: IOPS, bandwidth, mean latency, latency percentiles,
// then the figures drivebench does not measure, each group by name.
func SpecFigureOrder(values map[string]float64) []string {
	rank := func(k string) int {
		switch _, _, measured := SpecFigure(k); {
		case k == "iops":
			return 0
		case k == "bw":
			return 1
		case k == "lat_us":
			return 2
		case measured:
			return 3
		}
		return 4
	}
	return slices.SortedFunc(maps.Keys(values), func(a, b string) int {
		return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a, b))
	})
}
