package reports

import (
	"math"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
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

// TestTailLeftOut: the p99.999 column is left out of a table with a
// sentence that says why: no point had the 1,000,000 I/Os it needs, or
// the points that had them did not record it (a fio import without its
// histogram keeps the percentiles fio printed, up to p99.99).
func TestTailLeftOut(t *testing.T) {
	printed := func(ios uint64) *metrics.DirStats {
		return &metrics.DirStats{IOs: ios, IOPS: float64(ios) / 60, Lat: metrics.LatencySummary{
			Mean: 100_000, Max: 900_000, Percentiles: []metrics.Percentile{{P: 99, Ns: 200_000}, {P: 99.99, Ns: 800_000}},
		}}
	}
	cases := []struct {
		name string
		read *metrics.DirStats
		want string
	}{
		{"too few I/Os", histogramOf(20000), "p99.999 is not shown: no point had the 1,000,000 I/Os it needs for 10 of them to lie beyond it."},
		{"too few, no histogram", printed(20000), "p99.999 is not shown: no point had the 1,000,000 I/Os it needs for 10 of them to lie beyond it."},
		{"enough, no histogram", printed(2_833_101), "p99.999 is not shown: the points with the 1,000,000 I/Os it needs did not record it (their records keep no latency histogram to read it from)."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Build(sweepManifest(), []*results.Record{record("qd1", "ok", t0, &metrics.Result{Read: tc.read})})
			if got := s.Results[0].TailNote; !strings.HasPrefix(got, tc.want) {
				t.Errorf("tail note\n%s\nwant it to begin\n%s", got, tc.want)
			}
		})
	}
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

func TestSpreadOf(t *testing.T) {
	s := spreadOf([]float64{100, 110, 90, 100}, true)
	// mean 100, sample sd 8.165, t(3) 3.182: half width 12.99
	if s.N != 4 || s.Min != 90 || s.Max != 110 || s.Mean != 100 || math.Abs(s.CVPct-8.165) > 0.001 ||
		math.Abs(*s.CI95Low-87.01) > 0.01 || math.Abs(*s.CI95High-112.99) > 0.01 {
		t.Errorf("spread %+v, CI %.2f to %.2f", s, *s.CI95Low, *s.CI95High)
	}
	if spreadOf([]float64{5}, true) != nil {
		t.Error("a spread of one value")
	}
}

// TestRateCurveFlags: the rate points more than 1 % short of their
// target are flagged.
func TestRateCurveFlags(t *testing.T) {
	steady := func(iops float64) []metrics.Sample {
		return []metrics.Sample{{T: 1, ReadIOPS: iops}, {T: 2, ReadIOPS: iops * 1.01}, {T: 3, ReadIOPS: iops * 0.99}, {T: 3.5, ReadIOPS: iops}}
	}
	table := ProfileResult{Rows: []Row{
		{StepID: "max", Total: &Figures{IOPS: 1000}},
		{StepID: "r120", Total: &Figures{IOPS: 1150}, RatePct: ptr(120.0)},
		{StepID: "r50", Total: &Figures{IOPS: 450}, RatePct: ptr(50.0)},
		{StepID: "r25", Total: &Figures{IOPS: 249}, RatePct: ptr(25.0)},
	}}
	recs := map[string]*results.Record{
		"max":  {Result: &metrics.Result{Series: steady(1000)}},
		"r120": {Workload: &workload.Workload{RateIOPS: 1200}, Result: &metrics.Result{}},
		"r50":  {Workload: &workload.Workload{RateIOPS: 500}, Result: &metrics.Result{}},
		"r25":  {Workload: &workload.Workload{RateIOPS: 250}, Result: &metrics.Result{}},
	}
	setNoise(&table, recs)
	var got []string
	for _, w := range table.Warnings {
		got = append(got, w.Point+": "+w.Message[:20])
	}
	want := []string{"120% rate: The drive did not ke", "50% rate: The drive did not ke"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("warnings %q, want %q", got, want)
	}
}

func ptr[T any](v T) *T { return &v }
