package judging

import (
	"math"

	"github.com/drivebench/drivebench/metrics"
)

// MinNoiseIntervals is the fewest whole intervals a run's noise is
// estimated from. From one interval the noise reads ±0 and from two its
// standard error rests on one degree of freedom, so a figure 0.03 %
// above a one-interval maximum would count as beyond its noise.
const MinNoiseIntervals = 3

// IOPSNoise is the noise of a run's IOPS: twice the standard error of the
// mean of its whole intervals' IOPS (metrics.WholeIntervals), and n the
// number of those intervals. ok is false with fewer than
// MinNoiseIntervals of them: then the noise is unknown, and no figure can
// be said to lie beyond it.
func IOPSNoise(res *metrics.Result) (noise float64, n int, ok bool) {
	whole := metrics.WholeIntervals(res.Series)
	n = len(whole)
	if n < MinNoiseIntervals {
		return 0, n, false
	}
	var sum, sumSq float64
	for _, s := range whole {
		v := s.ReadIOPS + s.WriteIOPS
		sum += v
		sumSq += v * v
	}
	k := float64(n)
	mean := sum / k
	variance := max(0, (sumSq-k*mean*mean)/(k-1))
	return 2 * math.Sqrt(variance/k), n, true
}
