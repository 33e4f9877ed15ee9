package engine

import (
	"strings"
	"testing"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// point is a synthetic candidate: a randread point at a queue depth and
// job count with the given IOPS.
func point(bs int64, qd, jobs int, iops float64) candidate {
	name := "p " + depthText(qd, jobs)
	return candidate{
		rec:   &results.Record{StepID: name, Name: name},
		w:     results.Workload{RW: "randread", BS: bs, IODepth: qd, NumJobs: jobs},
		total: &metrics.DirStats{IOPS: iops},
	}
}

// The CM9-R review's matrix ran up to QD32 x 16 jobs; its sheet claims
// 3.4M random-read IOPS without saying at which depth. The report must be
// able to say that the best point is at the edge of the matrix, and when
// a spec states a depth, how far from it the comparison is.
func TestAcceptanceConditions(t *testing.T) {
	matrix := []candidate{point(4096, 1, 1, 20e3), point(4096, 32, 1, 600e3), point(4096, 32, 16, 2.9e6), point(4096, 16, 16, 2.7e6)}
	a := &plan.Accept{Name: "sheet", TolerancePct: 5, PCIeGen: 5}
	tests := []struct {
		name       string
		entry      plan.SpecEntry
		cands      []candidate
		step       string
		verdict    string
		conditions []string
	}{
		{"no depth stated, best at the edge",
			plan.SpecEntry{Name: "rand_read_4k", RW: "randread", BS: 4096, PCIeGen: 5, Values: map[string]float64{"iops": 3.4e6}},
			matrix, "p QD32 x 16 jobs", "warn",
			[]string{"the spec does not state a queue depth, so its own conditions are unknown; compared with the best point, QD32 x 16 jobs, the deepest this plan measured, so the drive may reach more beyond it"}},
		{"no depth stated, saturated before the edge",
			plan.SpecEntry{Name: "r", RW: "randread", BS: 4096, Values: map[string]float64{"iops": 3.4e6}},
			[]candidate{point(4096, 1, 1, 20e3), point(4096, 32, 1, 3e6), point(4096, 64, 1, 2.9e6)}, "p QD32 x 1 job", "warn",
			[]string{"the spec does not state a queue depth, so its own conditions are unknown; compared with the best point, QD32 x 1 job"}},
		{"spec deeper than the matrix",
			plan.SpecEntry{Name: "r", RW: "randread", BS: 4096, IODepth: 64, NumJobs: 32, Values: map[string]float64{"iops": 3.4e6}},
			matrix, "p QD32 x 16 jobs", "warn",
			[]string{"spec at QD64 x 32 jobs (2048 outstanding I/Os), beyond this plan's deepest point, QD32 x 16 jobs (512)"}},
		{"same outstanding I/Os, other split",
			plan.SpecEntry{Name: "r", RW: "randread", BS: 4096, IODepth: 512, NumJobs: 1, Values: map[string]float64{"iops": 1e6}},
			matrix, "p QD32 x 16 jobs", "pass",
			[]string{"spec at QD512 x 1 job (512 outstanding I/Os); measured at QD32 x 16 jobs (512)"}},
		{"closest depth",
			plan.SpecEntry{Name: "r", RW: "randread", BS: 4096, IODepth: 32, NumJobs: 4, Values: map[string]float64{"iops": 3.4e6}},
			matrix, "p QD16 x 16 jobs", "warn",
			[]string{"spec at QD32 x 4 jobs (128 outstanding I/Os); the closest measured is QD16 x 16 jobs (256)"}},
		{"exact point, like with like",
			plan.SpecEntry{Name: "r", RW: "randread", BS: 4096, IODepth: 32, NumJobs: 1, Values: map[string]float64{"iops": 3.4e6}},
			matrix, "p QD32 x 1 job", "fail", nil},
		{"block size first",
			plan.SpecEntry{Name: "r", RW: "randread", BS: 4096, IODepth: 1, Values: map[string]float64{"iops": 10e3}},
			[]candidate{point(65536, 1, 1, 15e3), point(4096, 8, 1, 90e3)}, "p QD8 x 1 job", "pass",
			[]string{"spec at QD1 (1 outstanding I/O); the closest measured is QD8 x 1 job (8)"}},
		{"link not stated",
			plan.SpecEntry{Name: "r", RW: "randread", BS: 4096, IODepth: 32, NumJobs: 1, PCIeGen: 4, Values: map[string]float64{"iops": 1}},
			matrix, "p QD32 x 1 job", "pass",
			[]string{"the spec is for a PCIe Gen 4 link; the link of the drive under test is not stated (set pcie_gen in the accept block)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acc := *a
			if tt.name == "link not stated" {
				acc.PCIeGen = 0
			}
			row := acceptRow(&acc, &tt.entry, "iops", tt.cands, "dut")
			if row.Step != tt.step || row.Verdict != tt.verdict || strings.Join(row.Conditions, "|") != strings.Join(tt.conditions, "|") {
				t.Errorf("compared with %q: %s, %q\nconditions %q\nwant %q, %s, %q", row.Step, row.Verdict, row.Reason, row.Conditions, tt.step, tt.verdict, tt.conditions)
			}
		})
	}
}

func TestAcceptanceLatencyIsLowerBetter(t *testing.T) {
	e := plan.SpecEntry{Name: "qd1_read", RW: "randread", BS: 4096, IODepth: 1, Values: map[string]float64{"lat_us": 80}}
	fast := point(4096, 1, 1, 10e3)
	fast.total.Lat.Mean = 82e3 // 82 µs, within 5 % over 80
	slow := point(4096, 1, 1, 10e3)
	slow.total.Lat.Mean = 90e3
	a := &plan.Accept{TolerancePct: 5}
	if row := acceptRow(a, &e, "lat_us", []candidate{fast}, "dut"); row.Verdict != "pass" || row.Better != "lower" || row.Unit != "µs" {
		t.Errorf("82 µs against 80: %+v", row)
	}
	if row := acceptRow(a, &e, "lat_us", []candidate{slow}, "dut"); row.Verdict != "fail" || !strings.Contains(row.Reason, "90.0 µs measured against 80.0 µs claimed (112.5%): more than 5% over") {
		t.Errorf("90 µs against 80: %s %q", row.Verdict, row.Reason)
	}
}

func TestShowFigure(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		unit string
		want string
	}{
		{3.4e6, "IOPS", "3,400,000 IOPS"}, {6.2e9, "B/s", "6,200 MB/s"}, {81.25, "µs", "81.2 µs"}, {999, "IOPS", "999 IOPS"},
	} {
		if got := showFigure(tt.v, tt.unit); got != tt.want {
			t.Errorf("showFigure(%g, %s) = %q, want %q", tt.v, tt.unit, got, tt.want)
		}
	}
}
