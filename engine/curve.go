package engine

import (
	"fmt"
	"math"

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
	peak := totalIOPS(base.Result)
	if peak <= 0 {
		return fmt.Errorf("the curve's uncontrolled run (step %s) completed no I/O", w.RateBase)
	}
	w.RateIOPS = math.Round(peak * w.RatePct / 100)
	return nil
}

func totalIOPS(res *metrics.Result) float64 {
	return sumDirections(res, func(d *metrics.DirStats) float64 { return d.IOPS })
}

func totalBW(res *metrics.Result) float64 {
	return sumDirections(res, func(d *metrics.DirStats) float64 { return d.BW })
}

// sumDirections adds a figure over the directions a result has.
func sumDirections(res *metrics.Result, figure func(*metrics.DirStats) float64) float64 {
	var sum float64
	for _, d := range []*metrics.DirStats{res.Read, res.Write} {
		if d != nil {
			sum += figure(d)
		}
	}
	return sum
}

// combinedHistogram merges both directions' latency histograms.
func combinedHistogram(res *metrics.Result) *metrics.Histogram {
	var h metrics.Histogram
	for _, d := range []*metrics.DirStats{res.Read, res.Write} {
		if d != nil && d.Hist != nil {
			h.Merge(d.Hist)
		}
	}
	return &h
}

// stopReason says why a rate curve ends after rec, or "" to go on.
func stopReason(stop *plan.StopCondition, rec *results.Record) string {
	if stop == nil || rec.Status != results.StatusOK || rec.Result == nil {
		return ""
	}
	h := combinedHistogram(rec.Result)
	var got float64
	switch stop.Stat {
	case "p99":
		got = float64(h.Percentile(99))
	default:
		got = h.Mean()
	}
	if got <= float64(stop.LimitNs) {
		return ""
	}
	return fmt.Sprintf("%s latency %.1f µs at %s exceeded the curve's limit of %.1f µs", stop.Stat, got/1e3, rec.Name, float64(stop.LimitNs)/1e3)
}
