package reports

import (
	"fmt"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/results"
)

// tailLimitNs is the line the highlight holds p99 latency against: 1 ms,
// the line reviews of flash drives draw.
const tailLimitNs = 1_000_000

// highlight is the one sentence a reviewer would write under the table:
// the peak, its latency, and how p99 behaved across the sweep.
func highlight(t *ProfileResult) string {
	var done []Row
	for _, r := range t.Rows {
		if r.completed() {
			done = append(done, r)
		}
	}
	partial := partialSentence(t)
	switch {
	case len(done) == 0 && partial != "":
		return "No point finished (" + tally(t.Rows) + "). " + partial
	case len(done) == 0:
		return "No measurements were recorded (" + tally(t.Rows) + ")."
	}
	curve := shapeOf(t) == shapeRateCurve
	peak := *t.peakRow()
	sentence := peakClause(peak, len(done) > 1, t.Headline, t.unit(), curve) + flagNote(peak.Flags)
	if tail := tailClause(t, done, curve); tail != "" {
		sentence += "; " + tail
	}
	return joinSentences(sentence+".", partial)
}

// partialSentence says that interrupted points kept partial results,
// which the table shows but nothing compares.
func partialSentence(t *ProfileResult) string {
	n := 0
	for _, r := range t.Rows {
		if r.Status == results.StatusInterrupted && r.Total != nil {
			n++
		}
	}
	switch n {
	case 0:
		return ""
	case 1:
		return "The interrupted point's partial result is shown but not ranked or charted."
	}
	return "The interrupted points' partial results are shown but not ranked or charted."
}

// peakClause states the best point: "Peak of 41,230 IOPS (168.9 MB/s) at
// iodepth=16 with 388.2 µs mean latency", bandwidth first when it is the
// profile's headline; "Lowest mean latency of 18.4 µs (54,100 IOPS, 221.6
// MB/s) at iodepth=1" when latency is.
func peakClause(peak Row, swept bool, headline string, u bwUnit, curve bool) string {
	lead := "Measured "
	if swept {
		lead = "Peak of "
	}
	if headline == headlineLat && peak.Total.MeanLatNs != nil {
		at := ""
		if name := pointName(peak, curve); name != "" {
			at = " at " + name
		}
		if swept {
			return "Lowest mean latency of " + format.Latency(*peak.Total.MeanLatNs) + " (" + loadText(peak.Total, u) + ")" + at
		}
		return "Measured " + figuresText(peak.Total, headline, u) + at
	}
	return lead + figuresText(peak.Total, headline, u) + pointAndLatency(peak, pointName(peak, curve))
}

// figuresText writes IOPS and bandwidth, the headline first:
// "41,230 IOPS (168.9 MB/s)" or "2,418.4 MB/s (18,450 IOPS)".
func figuresText(f *Figures, headline string, u bwUnit) string {
	iops, bw := format.Count(f.IOPS)+" IOPS", u.text(f.BWBytes)
	switch {
	case headline == headlineBW:
		return bw + " (" + iops + ")"
	case headline == headlineLat && f.MeanLatNs != nil:
		return format.Latency(*f.MeanLatNs) + " mean latency (" + loadText(f, u) + ")"
	}
	return iops + " (" + bw + ")"
}

// loadText writes the load a latency was measured at: "54,100 IOPS,
// 221.6 MB/s".
func loadText(f *Figures, u bwUnit) string {
	return format.Count(f.IOPS) + " IOPS, " + u.text(f.BWBytes)
}

// pointAndLatency writes " at iodepth=16 with 388.2 µs mean latency",
// leaving out what the row does not have; name is the row's point. A
// paced row's is its service latency, the one a review quotes, with the
// latency from each I/O's due time beside it: " at 110% rate with 568.0
// µs mean service latency (39.06 ms from each I/O's due time)".
func pointAndLatency(r Row, name string) string {
	var text string
	if name != "" {
		text += " at " + name
	}
	switch f := r.Total; {
	case f.ServiceMeanNs != nil && f.MeanLatNs != nil:
		text += " with " + format.Latency(*f.ServiceMeanNs) + " mean service latency (" + format.Latency(*f.MeanLatNs) + " from each I/O's due time)"
	case f.MeanLatNs != nil:
		text += " with " + format.Latency(*f.MeanLatNs) + " mean latency"
	}
	return text
}

// minSeries is the length from which a time series is charted and
// described, ten intervals: shorter runs say little about behaviour over
// time.
const minSeries = 10

// seriesSentence says how IOPS moved over a long run, comparing its first
// and last tenth, each interval weighted by its length: "Over 6 h 00 min,
// IOPS fell from 520,113 (first tenth of the run) to 161,002 (last
// tenth)." A replay on its trace's schedule has none: its IOPS are the
// trace's.
func seriesSentence(t *ProfileResult) string {
	n := len(t.Series)
	if n < minSeries || slices.ContainsFunc(t.Rows, func(r Row) bool { return r.Peak && r.pacedReplay() }) {
		return ""
	}
	tenth := max(n/10, 1)
	first, last := meanIOPS(t.Series, 0, tenth), meanIOPS(t.Series, n-tenth, n)
	verb := "held near"
	switch {
	case first <= 0:
		return ""
	case last < first*0.8:
		verb = "fell from"
	case last > first*1.2:
		verb = "rose from"
	}
	span := format.Duration(int64(t.Series[n-1].T * 1e9))
	return fmt.Sprintf("Over %s, IOPS %s %s (first tenth of the run) to %s (last tenth).",
		span, verb, format.Count(first), format.Count(last))
}

// meanIOPS is the mean IOPS of the intervals series[from:to], each
// weighted by its length; 0 when they last no time.
func meanIOPS(series []SeriesSample, from, to int) float64 {
	start := 0.0
	if from > 0 {
		start = series[from-1].T
	}
	sum, prev := 0.0, start
	for _, s := range series[from:to] {
		sum += s.IOPS * (s.T - prev)
		prev = s.T
	}
	if prev <= start {
		return 0
	}
	return sum / (prev - start)
}

// joinSentences joins the non-empty sentences with a space.
func joinSentences(sentences ...string) string {
	return strings.Join(slices.DeleteFunc(sentences, func(s string) bool { return s == "" }), " ")
}

// skippedSentence says why points of the table were not run: "1 point
// was skipped: p99 latency ... exceeded the curve's limit of 2000.0 µs."
// Skipped points are neither failures nor measurements, so the rest of
// the highlight leaves them out.
func skippedSentence(t *ProfileResult) string {
	var reasons []string
	n := 0
	for _, r := range t.Rows {
		if r.Status != results.StatusSkipped {
			continue
		}
		n++
		if reason := r.skipped; reason != "" && !slices.Contains(reasons, reason) {
			reasons = append(reasons, reason)
		}
	}
	if n == 0 {
		return ""
	}
	verb := " points were skipped"
	if n == 1 {
		verb = " point was skipped"
	}
	text := format.Count(float64(n)) + verb
	if len(reasons) > 0 {
		text += ": " + strings.Join(reasons, "; ")
	}
	return strings.TrimSuffix(text, ".") + "."
}

// tally counts rows by status for people: "1 failed, 2 not run".
func tally(rows []Row) string {
	var order []string
	counts := map[string]int{}
	for _, r := range rows {
		word := statusWord(r.Status)
		if counts[word] == 0 {
			order = append(order, word)
		}
		counts[word]++
	}
	parts := make([]string, len(order))
	for i, word := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[word], word)
	}
	if len(parts) == 0 {
		return "no points"
	}
	return strings.Join(parts, ", ")
}

// statusWord is a row status in words; an ok row that is not completed
// finished without measuring anything.
func statusWord(status string) string {
	if status == results.StatusOK {
		return "finished without data"
	}
	return statusText(status)
}
