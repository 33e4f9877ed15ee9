package metrics

import (
	"regexp"
	"strconv"
)

// percentileName is a latency percentile's name in µs: p99_us, p999_us.
var percentileName = regexp.MustCompile(`^p([0-9]{2,})_us$`)

// LatencyPercentile returns the percentile a latency statistic's name
// stands for: the first two digits are whole percent, the rest decimals,
// so p50_us is 50, p99_us 99 and p9999_us 99.99. ok is false for a name
// that is not a percentile. Plans name expectations and spec sheets name
// their figures this way.
func LatencyPercentile(name string) (p float64, ok bool) {
	m := percentileName.FindStringSubmatch(name)
	if m == nil {
		return 0, false
	}
	digits := m[1]
	p, err := strconv.ParseFloat(digits[:2]+"."+digits[2:], 64)
	return p, err == nil && p > 0
}
