package reports

import (
	"fmt"
	"slices"
	"strings"

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
	if len(done) == 0 {
		return "No measurements were recorded (" + tally(t.Rows) + ")."
	}
	sentence := peakClause(t.Rows[peakIndex(t.Rows)], len(done) > 1)
	if tail := tailClause(done, t.Mixed); tail != "" {
		sentence += "; " + tail
	}
	return sentence + "."
}

// peakClause states the best point: "Peak of 41,230 IOPS (168.9 MB/s) at
// iodepth=16 with 388.2 µs mean latency".
func peakClause(peak Row, swept bool) string {
	lead := "Measured "
	if swept {
		lead = "Peak of "
	}
	clause := lead + formatCount(peak.Total.IOPS) + " IOPS (" + formatBandwidth(peak.Total.BWBytes) + ")"
	if peak.Point != "" {
		clause += " at " + peak.Point
	}
	if peak.Total.MeanLatNs != nil {
		clause += " with " + formatLatency(*peak.Total.MeanLatNs) + " mean latency"
	}
	return clause
}

// tail is a row's p99 latency: in a mixed table the worse direction's,
// named.
type tail struct {
	point string
	dir   string
	ns    uint64
}

func rowTail(r Row, mixed bool) (tail, bool) {
	if !mixed {
		if r.Total.P99Ns == nil {
			return tail{}, false
		}
		return tail{point: r.Point, ns: *r.Total.P99Ns}, true
	}
	worst, found := tail{}, false
	for _, d := range []struct {
		name string
		f    *Figures
	}{{"read", r.Read}, {"write", r.Write}} {
		if d.f != nil && d.f.P99Ns != nil && (!found || *d.f.P99Ns > worst.ns) {
			worst, found = tail{point: r.Point, dir: d.name, ns: *d.f.P99Ns}, true
		}
	}
	return worst, found
}

// tailClause says how p99 stood against the 1 ms line over the completed
// rows; empty when no row has a p99.
func tailClause(done []Row, mixed bool) string {
	var tails []tail
	for _, r := range done {
		if t, ok := rowTail(r, mixed); ok {
			tails = append(tails, t)
		}
	}
	if len(tails) == 0 {
		return ""
	}
	if len(done) == 1 {
		return tails[0].subject() + " was " + formatLatency(float64(tails[0].ns))
	}
	isOver := func(t tail) bool { return t.ns > tailLimitNs }
	first := slices.IndexFunc(tails, isOver)
	switch {
	case first < 0:
		return "p99 stayed under 1 ms throughout"
	case !slices.ContainsFunc(tails, func(t tail) bool { return !isOver(t) }):
		return "p99 was above 1 ms at every point"
	}
	t := tails[first]
	return fmt.Sprintf("%s exceeded 1 ms at %s (%s)", t.subject(), t.point, formatLatency(float64(t.ns)))
}

// subject names the figure: "p99", or "write p99" in a mixed table.
func (t tail) subject() string {
	return strings.TrimSpace(t.dir + " p99")
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
