package judging

import (
	"reflect"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// point is a randread record at a block size, queue depth and job
// count with the given IOPS, as acceptance sees it.
func point(bs int64, qd, jobs int, iops float64) Candidate {
	name := "p " + depthText(qd, jobs)
	rec := &results.Record{StepID: name, Name: name, Status: results.StatusOK, Result: &metrics.Result{Read: &metrics.DirStats{IOPS: iops}}}
	return CandidateOf(rec, &workload.Workload{RW: "randread", BS: bs, IODepth: qd, NumJobs: jobs}, "")[0]
}

// TestConditionKinds: each condition says what it is about and whether
// the spec (or, for the link, the accept block) leaves it unstated, so a
// program can tell a block size that differs from a depth never stated.
func TestConditionKinds(t *testing.T) {
	tests := []struct {
		name  string
		entry plan.SpecEntry
		cands []Candidate
		want  []results.Condition
	}{
		{"nothing stated", plan.SpecEntry{Name: "r", RW: "randread", PCIeGen: 4, Values: map[string]float64{"iops": 1}},
			[]Candidate{point(4096, 8, 1, 90e3)}, []results.Condition{
				{Kind: "block_size", Unstated: true}, {Kind: "queue_depth", Unstated: true}, {Kind: "link", Unstated: true}}},
		{"other size and depth", plan.SpecEntry{Name: "r", RW: "randread", BS: 4096, IODepth: 1, State: "steady", Values: map[string]float64{"iops": 1}},
			[]Candidate{point(65536, 8, 1, 90e3)}, []results.Condition{
				{Kind: "block_size"}, {Kind: "queue_depth"}, {Kind: "drive_state"}}},
	}
	for _, tt := range tests {
		row := acceptRow(&plan.Accept{Name: "sheet", TolerancePct: 5}, &tt.entry, "iops", tt.cands, "dut")
		var got []results.Condition
		for _, c := range row.Conditions {
			if c.Text == "" {
				t.Errorf("%s: a %s condition without words", tt.name, c.Kind)
			}
			got = append(got, results.Condition{Kind: c.Kind, Unstated: c.Unstated})
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: conditions %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// The CM9-R review's matrix ran up to QD32 x 16 jobs; its sheet claims
// 3.4M random-read IOPS without saying at which depth. The report must be
// able to say that the best point is at the edge of the matrix, and when
// a spec states a depth, how far from it the comparison is.
func TestAcceptanceConditions(t *testing.T) {
	matrix := []Candidate{point(4096, 1, 1, 20e3), point(4096, 32, 1, 600e3), point(4096, 32, 16, 2.9e6), point(4096, 16, 16, 2.7e6)}
	a := &plan.Accept{Name: "sheet", TolerancePct: 5, PCIeGen: 5}
	tests := []struct {
		name       string
		entry      plan.SpecEntry
		cands      []Candidate
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
			[]Candidate{point(4096, 1, 1, 20e3), point(4096, 32, 1, 3e6), point(4096, 64, 1, 2.9e6)}, "p QD32 x 1 job", "warn",
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
			[]Candidate{point(65536, 1, 1, 15e3), point(4096, 8, 1, 90e3)}, "p QD8 x 1 job", "pass",
			[]string{"spec at QD1 (1 outstanding I/O); the closest measured is QD8 x 1 job (8)"}},
		// Block sizes read as the bs row of workload.Options writes them
		// in tables and step names: 1536 bytes is 1536B, not 1.5KiB.
		{"other block size",
			plan.SpecEntry{Name: "r", RW: "randread", BS: 1536, IODepth: 32, NumJobs: 1, Values: map[string]float64{"iops": 1}},
			[]Candidate{point(3<<19, 32, 1, 15e3)}, "p QD32 x 1 job", "pass",
			[]string{"spec at 1536B blocks, measured at 1536KiB: no step ran rw = randread at 1536B"}},
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
			if row.Step != tt.step || row.Verdict != tt.verdict || strings.Join(results.ConditionTexts(row.Conditions), "|") != strings.Join(tt.conditions, "|") {
				t.Errorf("compared with %q: %s, %q\nconditions %q\nwant %q, %s, %q", row.Step, row.Verdict, row.Reason, results.ConditionTexts(row.Conditions), tt.step, tt.verdict, tt.conditions)
			}
		})
	}
}

func TestAcceptanceLatencyIsLowerBetter(t *testing.T) {
	e := plan.SpecEntry{Name: "qd1_read", RW: "randread", BS: 4096, IODepth: 1, Values: map[string]float64{"lat_us": 80}}
	fast := point(4096, 1, 1, 10e3)
	fast.Total.Lat.Mean = 82e3 // 82 µs, within 5 % over 80
	slow := point(4096, 1, 1, 10e3)
	slow.Total.Lat.Mean = 90e3
	a := &plan.Accept{TolerancePct: 5}
	if row := acceptRow(a, &e, "lat_us", []Candidate{fast}, "dut"); row.Verdict != "pass" || row.Better != "lower" || row.Unit != "µs" {
		t.Errorf("82 µs against 80: %+v", row)
	}
	if row := acceptRow(a, &e, "lat_us", []Candidate{slow}, "dut"); row.Verdict != "fail" || !strings.Contains(row.Reason, "90.0 µs measured against 80.0 µs claimed (112.5%): more than 5% over") {
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

// Accept gives a row for every figure of the entries the accept block
// names, the measured figures first, and a verdict for each row it did
// not skip.
func TestAccept(t *testing.T) {
	p := point(4096, 32, 1, 600e3)
	p.Total.Lat.Mean = 40e3
	p.Total.Lat.Percentiles = []metrics.Percentile{{P: 99, Ns: 150e3}}
	spec := []*plan.SpecEntry{
		{Name: "rand_read_4k", RW: "randread", BS: 4096, IODepth: 32, NumJobs: 1, Values: map[string]float64{"dwpd": 1, "p99_us": 200, "lat_us": 50, "iops": 500e3}},
		{Name: "other", RW: "randread", Values: map[string]float64{"iops": 1}},
		{Name: "seq_write", RW: "write", BS: 131072, Values: map[string]float64{"bw": 5e9}},
	}
	a := &plan.Accept{Name: "sheet", TolerancePct: 10, Entries: []string{"rand_read_4k", "seq_write"}}
	rows, verdicts := Accept(a, spec, "dut", []Candidate{p})
	var got []string
	for _, row := range rows {
		got = append(got, row.Spec+" "+row.Metric+" "+row.Verdict)
	}
	want := []string{"rand_read_4k iops pass", "rand_read_4k lat_us pass", "rand_read_4k p99_us pass", "rand_read_4k dwpd skip", "seq_write bw warn"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("rows %q\nwant %q", got, want)
	}
	if len(verdicts) != 4 {
		t.Fatalf("%d verdicts, want one per row not skipped: 4", len(verdicts))
	}
	measured, ratio := 600000.0, 1.2
	first := results.Verdict{Check: "sheet", Drive: "dut", Subject: "rand_read_4k iops", Status: "pass", Code: "within",
		Message: "rand_read_4k iops: 600,000 IOPS measured against 500,000 IOPS claimed (120.0%): within the 10% tolerance",
		Figure:  &results.Comparison{Metric: "iops", Unit: "IOPS", Better: "higher", Claimed: 500000, Measured: &measured, Ratio: &ratio, TolerancePct: 10}}
	if !reflect.DeepEqual(verdicts[0], first) {
		t.Errorf("verdict %+v %+v\nwant %+v %+v", verdicts[0], verdicts[0].Figure, first, first.Figure)
	}
	if codes := []string{rows[3].Code, rows[4].Code}; codes[0] != "not_measurable" || codes[1] != "not_measured" {
		t.Errorf("codes of dwpd and seq_write bw %q, want not_measurable and not_measured", codes)
	}
	if last := verdicts[3]; last.Status != "warn" || last.Code != "not_measured" || last.Message != "seq_write bw: not measured: no profile of this plan ran rw = write on drive dut; add one to check this figure" {
		t.Errorf("verdict %+v", last)
	}
}

// A spec figure in steady state or fresh out of the box is compared with
// a point in that state when there is one, and otherwise says how the
// drive's state differed.
func TestAcceptanceDriveState(t *testing.T) {
	inState := func(state, writtenBy string, iops float64) Candidate {
		c := point(4096, 32, 1, iops)
		c.State, c.WrittenBy = state, writtenBy
		c.Record.Name += " " + state + writtenBy
		return c
	}
	tests := []struct {
		name      string
		state     string
		cands     []Candidate
		step      string
		verdict   string
		condition string
	}{
		{"steady, like with like", "steady", []Candidate{inState("", "fill", 900e3), inState("steady", "fill", 600e3)},
			"p QD32 x 1 job steadyfill", "fail", ""},
		{"steady not reached", "steady", []Candidate{inState("unsteady", "fill", 600e3)},
			"p QD32 x 1 job unsteadyfill", "warn", "spec in steady state; this profile's steady-state search ended without reaching it"},
		{"no steady-state search", "steady", []Candidate{inState("", "fill", 600e3)},
			"p QD32 x 1 job fill", "warn", "spec in steady state; this step ran without a steady-state search (a steady_state block in its profile)"},
		{"fresh, like with like", "fresh", []Candidate{inState("", "fill", 900e3), inState("", "", 600e3)},
			"p QD32 x 1 job ", "fail", ""},
		{"written before", "fresh", []Candidate{inState("", "fill", 600e3)},
			"p QD32 x 1 job fill", "warn", "spec fresh out of the box; the drive had been written before this step (by fill)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := plan.SpecEntry{Name: "r", RW: "randread", BS: 4096, IODepth: 32, NumJobs: 1, State: tt.state, Values: map[string]float64{"iops": 1e6}}
			row := acceptRow(&plan.Accept{TolerancePct: 5}, &e, "iops", tt.cands, "dut")
			texts := results.ConditionTexts(row.Conditions)
			if row.Step != tt.step || row.Verdict != tt.verdict || strings.Join(texts, "|") != tt.condition {
				t.Errorf("compared with %q: %s, %q\nwant %q, %s, %q", row.Step, row.Verdict, texts, tt.step, tt.verdict, tt.condition)
			}
		})
	}
}

func TestCandidateOf(t *testing.T) {
	w := &workload.Workload{RW: "randrw", BS: 4096}
	rec := &results.Record{Result: &metrics.Result{Read: &metrics.DirStats{IOPS: 3, BW: 30}, Write: &metrics.DirStats{IOPS: 1, BW: 10}}}
	if c := CandidateOf(rec, w, "steady"); len(c) != 1 || c[0].Total.IOPS != 4 || c[0].Total.BW != 40 || c[0].State != "steady" || c[0].Record != rec {
		t.Errorf("both directions: %+v", c)
	}
	for _, tt := range []struct {
		name string
		rec  *results.Record
		w    *workload.Workload
	}{
		{"no workload", rec, nil}, {"no result", &results.Record{}, w}, {"no I/O", &results.Record{Result: &metrics.Result{}}, w},
	} {
		if c := CandidateOf(tt.rec, tt.w, ""); c != nil {
			t.Errorf("%s: %+v", tt.name, c)
		}
	}
}
