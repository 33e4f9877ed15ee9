package engine

import (
	"fmt"
	"math"

	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// resolveRate turns a rate-curve point's percentage into an IOPS target
// from what the curve's uncontrolled run measured.
func (r *runner) resolveRate(w *plan.Workload) error {
	if w.RatePct <= 0 || w.RateBase == "" {
		return nil
	}
	base := r.record(w.RateBase)
	if base == nil || base.Status != results.StatusOK || base.Result == nil {
		return fmt.Errorf("the curve's uncontrolled run (step %s) has no result, so %g%% of its maximum is unknown", w.RateBase, w.RatePct)
	}
	peak := judging.TotalIOPS(base.Result)
	if peak <= 0 {
		return fmt.Errorf("the curve's uncontrolled run (step %s) completed no I/O", w.RateBase)
	}
	w.RateIOPS = math.Round(peak * w.RatePct / 100)
	return nil
}

// rateAboveMax warns when a rate-curve point completed more I/Os a second
// than the curve's uncontrolled maximum, by more than that maximum's own
// noise (see peakNoise): then the maximum was not the drive's peak, and
// every rate of the curve was set too low.
func (r *runner) rateAboveMax(w *plan.Workload, res *metrics.Result) *results.Warning {
	if w.RatePct <= 0 || w.RateBase == "" || res == nil {
		return nil
	}
	base := r.record(w.RateBase)
	if base == nil || base.Result == nil {
		return nil
	}
	peak, got := judging.TotalIOPS(base.Result), judging.TotalIOPS(res)
	noise := peakNoise(base.Result)
	if peak <= 0 || got <= peak+noise {
		return nil
	}
	return &results.Warning{Kind: results.WarnRateAboveMax, Message: fmt.Sprintf(
		"At %g%% of the maximum this step completed %.0f IOPS, %.1f%% more than the curve's uncontrolled maximum of %.0f IOPS (noise ±%.1f%%), so the maximum was not the peak and every rate of the curve is set low: either the uncontrolled run had not settled (lengthen the rate_curve's max_ramp or max_runtime) or the target completes more when paced than with every I/O slot kept full (lower iodepth).",
		w.RatePct, got, 100*(got-peak)/peak, peak, 100*noise/peak)}
}

// peakNoise is the noise of a run's IOPS: twice the standard error of the
// mean of its whole intervals' IOPS (metrics.WholeIntervals); zero with
// fewer than two. With the stub of the run's end counted, a 3-interval
// maximum's noise came to ±40 %, and no rate step could beat it.
func peakNoise(res *metrics.Result) float64 {
	whole := metrics.WholeIntervals(res.Series)
	n := float64(len(whole))
	if n < 2 {
		return 0
	}
	var sum, sumSq float64
	for _, s := range whole {
		v := s.ReadIOPS + s.WriteIOPS
		sum += v
		sumSq += v * v
	}
	mean := sum / n
	variance := max(0, (sumSq-n*mean*mean)/(n-1))
	return 2 * math.Sqrt(variance/n)
}
