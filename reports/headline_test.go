package reports

import (
	"strings"
	"testing"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// TestPlanHeadline: a profile's headline = "bw" or "lat" leads its table,
// its highlight and the conclusion, whatever its transfer size.
func TestPlanHeadline(t *testing.T) {
	res := func(iops float64) *metrics.Result { return &metrics.Result{Read: dir(iops, 85000, 1000)} }
	recs := []*results.Record{
		record("qd1", "ok", t0, res(11700)), record("qd4", "ok", t0, res(40000)), record("qd16", "ok", t0, res(90000)),
	}
	tests := []struct{ headline, table, sentence string }{
		{"", "iops", "Peak of 90,000 IOPS (368.6 MB/s) at iodepth=16"},
		{"bw", "bw", "Peak of 368.6 MB/s (90,000 IOPS) at iodepth=16"},
		{"lat", "lat", "Measured 85.0 µs mean latency (90,000 IOPS, 368.6 MB/s) at iodepth=16."},
	}
	for _, tt := range tests {
		m := sweepManifest()
		m.Profiles = []results.Method{{Name: "mix"}}
		if tt.headline != "" {
			m.Profiles[0].Params = []results.KV{{Key: "headline", Value: tt.headline}}
		}
		s, md := render(t, m, recs)
		if got := s.Results[0].Headline; got != tt.table {
			t.Errorf("headline %q: table leads with %q", tt.headline, got)
		}
		if !strings.Contains(s.Results[0].Highlight, tt.sentence) {
			t.Errorf("headline %q: highlight %q lacks %q", tt.headline, s.Results[0].Highlight, tt.sentence)
		}
		if tt.headline == "lat" && !strings.Contains(md, "| 85.0 µs mean |") {
			t.Errorf("the conclusion does not lead with the latency:\n%s", md)
		}
	}
}

// TestMiBps: report { units = "MiB/s" } writes bandwidth in MiB/s in the
// text, the tables and the grid, and says what the unit is.
func TestMiBps(t *testing.T) {
	m := sweepManifest()
	m.Units = "MiB/s"
	recs := []*results.Record{record("qd1", "ok", t0, &metrics.Result{Read: dir(256, 85000, 1000)})}
	s, md := render(t, m, recs)
	// 256 IOPS of 4096 bytes is 1 MiB/s, 1.05 MB/s.
	for _, want := range []string{"(1.0 MiB/s)", "| IOPS | MiB/s |", "Bandwidth is in MiB/s (binary"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	if s.Units != "MiB/s" || strings.Contains(s.Results[0].Highlight, "MB/s") {
		t.Errorf("units %q, highlight %q", s.Units, s.Results[0].Highlight)
	}
}
