package engine

import (
	"fmt"
	"math"

	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// resolveRate turns a rate-curve point's percentage into an IOPS target
// from what the curve's uncontrolled run measured.
func (r *runner) resolveRate(w *workload.Workload) error {
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
// noise (judging.IOPSNoise): then the maximum was not the drive's peak,
// and every rate of the curve was set too low. When the maximum ran too
// few whole intervals for its noise to be known, a point above it says
// that whether the maximum was the peak cannot be judged.
func (r *runner) rateAboveMax(w *workload.Workload, res *metrics.Result) *results.Warning {
	if w.RatePct <= 0 || w.RateBase == "" || res == nil {
		return nil
	}
	base := r.record(w.RateBase)
	if base == nil || base.Result == nil {
		return nil
	}
	peak, got := judging.TotalIOPS(base.Result), judging.TotalIOPS(res)
	noise, n, known := judging.IOPSNoise(base.Result)
	switch {
	case peak <= 0 || got <= peak+noise:
		return nil
	case !known:
		return &results.Warning{Kind: results.WarnNoiseUnknown, Message: fmt.Sprintf(
			"At %g%% of the maximum this step completed %.0f IOPS, %.2f%% more than the curve's uncontrolled maximum of %.0f IOPS, but the maximum ran %s, and its noise needs %d, so whether the maximum was the peak cannot be judged: lengthen the rate_curve's max_runtime to %d s or more.",
			w.RatePct, got, 100*(got-peak)/peak, peak, wholeIntervals(n), judging.MinNoiseIntervals, judging.MinNoiseIntervals)}
	}
	return &results.Warning{Kind: results.WarnRateAboveMax, Message: fmt.Sprintf(
		"At %g%% of the maximum this step completed %.0f IOPS, %.1f%% more than the curve's uncontrolled maximum of %.0f IOPS (noise ±%.1f%%), so the maximum was not the peak and every rate of the curve is set low: either the uncontrolled run had not settled (lengthen the rate_curve's max_ramp or max_runtime) or the target completes more when paced than with every I/O slot kept full (lower iodepth).",
		w.RatePct, got, 100*(got-peak)/peak, peak, 100*noise/peak)}
}

// wholeIntervals is "1 whole interval", "2 whole intervals".
func wholeIntervals(n int) string {
	if n == 1 {
		return "1 whole interval"
	}
	return fmt.Sprintf("%d whole intervals", n)
}
