package reports

import (
	"strings"
	"testing"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// histogramOf records n I/Os of 100 µs and one of 5 ms.
func histogramOf(n int) *metrics.DirStats {
	h := new(metrics.Histogram)
	for range n {
		h.Record(100_000)
	}
	h.Record(5_000_000)
	d := metrics.Summarize(h, uint64(n+1)*4096, 1e9)
	return d
}

// TestTablesSayWhatTheyHold: each table names its latency definition,
// carries p99.99 and max, p99.999 only with enough I/Os, and lists the
// warnings of its steps.
func TestTablesSayWhatTheyHold(t *testing.T) {
	m := sweepManifest()
	recs := []*results.Record{
		record("qd1", "ok", t0, &metrics.Result{Read: histogramOf(20000)}),
		record("qd4", "ok", t0, &metrics.Result{Read: histogramOf(20000), Latency: metrics.LatencyFioClat}),
	}
	recs[0].Warnings = []results.Warning{{Kind: results.WarnUnwritten, Message: "All of the region this step reads had never been written."}}
	recs[1].Warnings = []results.Warning{{Kind: results.WarnHostCPU, Message: "The host's processors were 97 % busy over the step."}}
	s, md := render(t, m, recs)
	table := s.Results[0]
	if len(table.Columns) != 5 || table.Columns[3] != 99.99 || table.Columns[4] != 100 {
		t.Errorf("columns %v, want p50, p99, p99.9, p99.99 and max", table.Columns)
	}
	for _, line := range []string{
		"| Point | Status | IOPS | MB/s | Mean latency | p50 | p99 | p99.9 | p99.99 | max |",
		"Latency is, at iodepth=1, drivebench's own, from each I/O's submission to its completion; at iodepth=4, fio's completion latency (clat)",
		"p99.999 is not shown: no point had the 1,000,000 I/Os",
		"- **Warning (iodepth=1):** All of the region this step reads had never been written.",
		"- **Warning (iodepth=4):** The host's processors were 97 % busy over the step.",
	} {
		if !strings.Contains(md, line) {
			t.Errorf("report.md lacks\n%s\nin\n%s", line, md)
		}
	}
}
