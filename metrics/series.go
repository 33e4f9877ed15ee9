package metrics

import "encoding/json"

// A series' intervals are of the engine's interval length (a second), but
// the last: the run ends between two ticks and its I/Os then in flight
// drain for a few milliseconds more. Stored as an interval of its own,
// that drain is a stub of 1 to 35 ms at a fraction of the run's rate (the
// quickstart's iodepth=16 series ended 124,838 IOPS at 10.000 s, then
// 38,187 IOPS at 10.001 s) that every reader would take for the run
// falling off at its end. So the engines fold a last interval shorter than
// half the longest into the one before it (FoldStub), and reading a
// record written before they did folds it there too: every series a
// reader sees has intervals within a factor of two of each other, each
// with its true length (Span), which statistics over time weight by.

// Span is the length in seconds of interval i of series: its end less the
// end of the interval before it, or its end for the first.
func Span(series []Sample, i int) float64 {
	if i == 0 {
		return series[0].T
	}
	return series[i].T - series[i-1].T
}

// Short reports whether an interval dt seconds long is short beside
// series: less than half as long as its longest interval.
func Short(dt float64, series []Sample) bool {
	return dt < longest(series)/2
}

func longest(series []Sample) float64 {
	var out float64
	for i := range series {
		out = max(out, Span(series, i))
	}
	return out
}

// WholeIntervals is series without its short intervals (Short). An
// interval cut short by a late tick holds too few I/Os to weigh as much
// as the others; a statistic over the intervals, their noise or their
// spread, leaves it out.
func WholeIntervals(series []Sample) []Sample {
	var out []Sample
	for i, s := range series {
		if !Short(Span(series, i), series) {
			out = append(out, s)
		}
	}
	return out
}

// FoldStub is series with its last interval folded into the one before
// it when it is short beside the others (the drain of the run's end);
// series itself otherwise.
func FoldStub(series []Sample) []Sample {
	n := len(series)
	if n < 2 || !Short(Span(series, n-1), series[:n-1]) {
		return series
	}
	out := append([]Sample(nil), series[:n-1]...)
	out[n-2] = Combine(series[n-2:], Span(series, n-2))
	return out
}

// Combine is the interval that spans the consecutive intervals samples,
// the first of them first seconds long: rates weighted by each interval's
// length, mean latency by the I/Os of the intervals that measured it, and the percentiles of the interval
// that holds the most I/Os, which percentiles of the parts cannot be
// merged into and of which the whole's lie near (between the parts'
// own). Its end and bytes written are the last interval's.
func Combine(samples []Sample, first float64) Sample {
	last := samples[len(samples)-1]
	out := Sample{T: last.T, BytesWritten: last.BytesWritten}
	var secs, latIOs, latSum, most float64
	for i, s := range samples {
		dt := first
		if i > 0 {
			dt = s.T - samples[i-1].T
		}
		n := (s.ReadIOPS + s.WriteIOPS) * dt
		secs += dt
		if s.MeanLatNs > 0 {
			latIOs += n
		}
		out.ReadIOPS += s.ReadIOPS * dt
		out.WriteIOPS += s.WriteIOPS * dt
		out.BW += s.BW * dt
		latSum += s.MeanLatNs * n
		if i == 0 || n > most {
			most = n
			out.P50Ns, out.P99Ns, out.P9999Ns = s.P50Ns, s.P99Ns, s.P9999Ns
		}
	}
	if secs > 0 {
		out.ReadIOPS, out.WriteIOPS, out.BW = out.ReadIOPS/secs, out.WriteIOPS/secs, out.BW/secs
	}
	if latIOs > 0 {
		out.MeanLatNs = latSum / latIOs
	}
	return out
}

// UnmarshalJSON reads a stored result, folding the stub that ends the
// series of a record written before the engines folded it (FoldStub).
func (r *Result) UnmarshalJSON(b []byte) error {
	type stored Result
	if err := json.Unmarshal(b, (*stored)(r)); err != nil {
		return err
	}
	r.Series = FoldStub(r.Series)
	return nil
}
