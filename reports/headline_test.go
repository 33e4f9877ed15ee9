package reports

import (
	"path/filepath"
	"regexp"
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
		// Of equal latencies, the most IOPS.
		{"lat", "lat", "Lowest mean latency of 85.0 µs (90,000 IOPS, 368.6 MB/s) at iodepth=16. At the lightest load, iodepth=1: 85.0 µs mean latency (11,700 IOPS, 47.9 MB/s)."},
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

// TestLatencyHeadline: with headline = "lat" the point a table picks out
// is its lowest mean latency, as the highlight says, and drives rank by
// that latency, lowest first; the table, the ranking and the charts say
// so.
func TestLatencyHeadline(t *testing.T) {
	sweep := func(lat1, lat4, lat16 float64) []*results.Record {
		read := func(iops, lat float64) *metrics.Result {
			return &metrics.Result{Read: dir(iops, lat, 1000, metrics.Percentile{P: 50, Ns: uint64(lat)}, metrics.Percentile{P: 99, Ns: uint64(3 * lat)})}
		}
		return []*results.Record{
			record("qd1", "ok", t0, read(11700, lat1)), record("qd4", "ok", t0, read(40000, lat4)), record("qd16", "ok", t0, read(90000, lat16)),
		}
	}
	manifest := func(headline string) *results.Manifest {
		m := sweepManifest()
		m.Profiles = []results.Method{{Name: "mix", Params: []results.KV{{Key: "headline", Value: headline}}}}
		return m
	}
	// lats are the mean latencies at QD1, QD4 and QD16, this run's and
	// the comparable's.
	tests := []struct {
		name, headline string
		lats, others   [3]float64
		peak           string
		want           []string
	}{
		{"lowest latency at the lightest load", "lat", [3]float64{85000, 100000, 180000}, [3]float64{95000, 120000, 200000}, "iodepth=1", []string{
			"Lowest mean latency of 85.0 µs (11,700 IOPS, 47.9 MB/s) at iodepth=1",
			"| **iodepth=1** (lowest latency) |",
			"| Rank | Drive | Lowest latency at |",
			"d leads the 2 drives by lowest mean latency, 10.5% below d (slow).",
			"| mix | d | 85.0 µs mean | iodepth=1 |",
			"mix: latency percentiles at the lowest-latency point",
		}},
		{"lowest latency at a deeper queue", "lat", [3]float64{150000, 90000, 180000}, [3]float64{60000, 70000, 80000}, "iodepth=4", []string{
			"Lowest mean latency of 90.0 µs (40,000 IOPS, 163.8 MB/s) at iodepth=4",
			"| **iodepth=4** (lowest latency) |",
			"d ranks 2nd of 2 by lowest mean latency, 50.0% above d (slow).",
		}},
		{"IOPS headline keeps the highest IOPS", "iops", [3]float64{85000, 100000, 180000}, [3]float64{95000, 120000, 200000}, "iodepth=16", []string{
			"Peak of 90,000 IOPS", "| **iodepth=16** (peak) |", "| Rank | Drive | Peak at |", "by peak IOPS",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Build(manifest(tt.headline), sweep(tt.lats[0], tt.lats[1], tt.lats[2]))
			s.AddComparable("slow", Build(manifest(tt.headline), sweep(tt.others[0], tt.others[1], tt.others[2])))
			_, md := renderSummary(t, s)
			for _, r := range s.Results[0].Rows {
				if r.Peak != (r.Point == tt.peak) {
					t.Errorf("row %s: peak = %v, want the peak at %s", r.Point, r.Peak, tt.peak)
				}
			}
			if missing := lacking(md, tt.want...); len(missing) > 0 {
				t.Errorf("report.md lacks %q", missing)
			}
			if testing.Verbose() {
				t.Log(md)
			}
		})
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

// TestMiBpsEverywhere: in a MiB/s report every bandwidth a reader sees
// follows the unit: the spec sheet's claims (beside the sheet's own MB/s),
// acceptance's measured figures and reasons, the checks' messages of
// acceptance rows and the preconditioning table. A figure in MB/s is
// only ever a sheet's, with its MiB/s beside it.
func TestMiBpsEverywhere(t *testing.T) {
	m, recs := loadRun(t, filepath.Join("testdata", "vendor-acceptance"))
	m.Units = "MiB/s"
	s, md := render(t, m, recs)
	if missing := lacking(md,
		"| seq_read | bw | 6,200 MB/s (5,912.8 MiB/s) | 1,780.2 MiB/s",
		"1,780.2 MiB/s measured against 6,200 MB/s (5,912.8 MiB/s) claimed (30.1%): more than 5% short",
		"| Precondition | Drive | Pass | Status | Written | MiB/s | Duration |",
	); len(missing) > 0 {
		t.Errorf("report.md lacks %q", missing)
	}
	if loose := regexp.MustCompile(`[0-9] MB/s(?: [^(]|[^ ]|$)`).FindAllString(md, -1); len(loose) > 0 {
		t.Errorf("report.md gives bandwidth in MB/s: %q", loose)
	}
	found := false
	for _, v := range s.Checks {
		if v.Subject == "seq_read bw" {
			found = true
			if !strings.Contains(v.Message, "1,780.2 MiB/s measured against 6,200 MB/s (5,912.8 MiB/s) claimed") {
				t.Errorf("the check's message is not in MiB/s: %q", v.Message)
			}
		}
	}
	if !found {
		t.Error("no check verdict for seq_read bw")
	}
}

// lacking lists the parts that text does not contain.
func lacking(text string, parts ...string) []string {
	var out []string
	for _, p := range parts {
		if !strings.Contains(text, p) {
			out = append(out, p)
		}
	}
	return out
}
