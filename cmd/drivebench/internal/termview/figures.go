package termview

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// liveFigures are the last interval's figures: "12,000 IOPS (read 9,000,
// write 3,000)", "48.0 MB/s", "p99 210.0 µs" (the mean latency when the
// engine keeps no interval histogram); none before the first interval.
func (v *View) liveFigures(s *metrics.Sample) []string {
	if s == nil {
		return nil
	}
	iops := format.Count(s.ReadIOPS+s.WriteIOPS) + " IOPS"
	if s.ReadIOPS > 0 && s.WriteIOPS > 0 {
		iops += fmt.Sprintf(" (read %s, write %s)", format.Count(s.ReadIOPS), format.Count(s.WriteIOPS))
	}
	parts := []string{iops, v.bandwidth(s.BW)}
	if s.P99Ns > 0 {
		parts = append(parts, "p99 "+format.Latency(float64(s.P99Ns)))
	} else if s.MeanLatNs > 0 {
		parts = append(parts, "mean latency "+format.Latency(s.MeanLatNs))
	}
	return parts
}

// heartbeat is a running step's log line: "[3/12] scratch / read: running
// 00:20, 12,000 IOPS, 48.0 MB/s, p99 210.0 µs, step 3/12 40%, plan 22%
// ETA 04:10".
func (v *View) heartbeat(l *lane) string {
	parts := append([]string{"running " + clock(v.opt.Now().Sub(l.from))}, v.liveFigures(l.last)...)
	parts = append(parts, v.stepLabel(l), v.planLabel())
	return stepTag(l.start) + ": " + strings.Join(parts, ", ")
}

// outcome says how a finished step ended: its figures with their
// latency and its time, "12,345 IOPS, 48.2 MB/s, p50 80.0 µs, p99 210.0
// µs in 12.0 s", then its verdicts; or why it did not.
func (v *View) outcome(e engine.Event) string {
	r := e.Record
	if r.Status != results.StatusOK {
		return v.paint(red, r.Status) + ": " + r.Error
	}
	var parts []string
	switch {
	case r.Result != nil && len(r.Result.Metrics) > 0:
		parts = append(parts, metricsLine(r.Result.Metrics))
	case r.Command != nil:
		parts = append(parts, fmt.Sprintf("exit %d", r.Command.ExitCode))
	case r.Result != nil:
		if h := headlineOf(r.Result); h.ios > 0 {
			parts = append(parts, format.Count(h.iops)+" IOPS", v.bandwidth(h.bw))
			parts = append(parts, h.latency()...)
		}
	}
	s := strings.Join(parts, ", ")
	if d := r.Finished.Sub(r.Started); !r.Started.IsZero() && d > 0 && s != "" {
		s += " in " + format.Duration(int64(d))
	}
	var verdicts []string
	for _, c := range verdictParts(r.Verdicts) {
		verdicts = append(verdicts, v.paint(c.color, c.text))
	}
	if len(verdicts) > 0 {
		s = strings.TrimPrefix(s+"; "+strings.Join(verdicts, ", "), "; ")
	}
	if s == "" {
		return "done"
	}
	return s
}

// headline is a step's figures over both directions.
type headline struct {
	ios      uint64
	iops, bw float64
	// p50, p99 are of both directions' I/Os together; mean when the
	// result keeps no percentiles.
	p50, p99, mean float64
}

func headlineOf(res *metrics.Result) headline {
	var h headline
	var hist metrics.Histogram
	merged := true
	for _, d := range []*metrics.DirStats{res.Read, res.Write} {
		if d == nil || d.IOs == 0 {
			continue
		}
		h.iops, h.bw = h.iops+d.IOPS, h.bw+d.BW
		h.mean = (h.mean*float64(h.ios) + d.Lat.Mean*float64(d.IOs)) / float64(h.ios+d.IOs)
		h.ios += d.IOs
		// Without histograms, both directions' percentiles cannot be
		// merged: the worse one is shown.
		h.p50, h.p99 = max(h.p50, float64(d.Quantile(50))), max(h.p99, float64(d.Quantile(99)))
		if d.Hist == nil || d.Hist.Count() == 0 {
			merged = false
		} else {
			hist.Merge(d.Hist)
		}
	}
	if merged && hist.Count() > 0 {
		h.p50, h.p99 = float64(hist.Percentile(50)), float64(hist.Percentile(99))
	}
	return h
}

// latency is "p50 80.0 µs", "p99 210.0 µs", or "mean latency 95.0 µs"
// when there are no percentiles.
func (h headline) latency() []string {
	if h.p99 > 0 {
		return []string{"p50 " + format.Latency(h.p50), "p99 " + format.Latency(h.p99)}
	}
	if h.mean > 0 {
		return []string{"mean latency " + format.Latency(h.mean)}
	}
	return nil
}

// metricsLine lists the named figures of an external command's step,
// such as "latency_avg_ms 18.9, tps 843.2".
func metricsLine(m map[string]float64) string {
	names := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %.4g", n, m[n])
	}
	return strings.Join(parts, ", ")
}
