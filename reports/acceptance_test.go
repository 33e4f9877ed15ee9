package reports

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// TestAcceptanceRendered checks the vendor-acceptance run's figures in the
// report: every row of the acceptance step, skipped ones included, with
// its verdict, reason and conditions, and the sentence on a figure
// measured at the deepest point of the sweep.
func TestAcceptanceRendered(t *testing.T) {
	s := mustLoad(t, "vendor-acceptance")
	if len(s.Acceptance) != 9 {
		t.Fatalf("%d acceptance rows, want the 9 figures of the CD6-R's sheet", len(s.Acceptance))
	}
	_, md := renderSummary(t, s)
	beyond := "the spec does not state a queue depth; compared with the best point, QD64 x 4 jobs, the deepest this plan measured, so the drive may reach more beyond it"
	checkLines(t, md,
		"Accept block `spec-sheet`, tolerance 5%: 9 figures (1 pass, 3 warn, 5 skip).",
		"| rand_read_4k | iops | 1,000,000 IOPS | 87,243 IOPS<br>at random.randread / iodepth=64, numjobs=4 | 8.7% | ⚠️ warn | "+
			"87,243 IOPS measured against 1,000,000 IOPS claimed (8.7%): more than 5% short, but under other conditions than the spec's, so not like with like.<br>• "+beyond+" |",
		"| seq_read_gen3 | bw | 3,500 MB/s | — | — | ⏭ skip | the figure is for a PCIe Gen 3 link, and the drive under test is on Gen 4. |",
		"| endurance | dwpd | 1 dwpd | — | — | ⏭ skip | drivebench does not measure dwpd; check it by other means. |",
		"| random.randread | dut | 87,243 IOPS | iodepth=64, numjobs=4 | 2.88 ms | 7.50 ms | WARN rand_read_4k iops: 8.7% |",
		"| qd1-latency | dut | 3,279 IOPS | single run | 304.1 µs | 921.6 µs |  |",
		"Spec sheet of dut (spec-sheet): 9 figures (1 pass, 3 warn, 5 skip).",
	)
	page := renderFile(t, s, FormatHTML)
	if !strings.Contains(page, beyond) {
		t.Error("report.html lacks the sentence on the deepest point")
	}
}

// TestAcceptanceVerdictsAreChecks checks that the acceptance rows that
// are judged, and the expectations, are verdicts of the Checks section.
func TestAcceptanceVerdictsAreChecks(t *testing.T) {
	s := mustLoad(t, "vendor-acceptance")
	got := map[string]int{}
	for _, v := range s.Checks {
		got[v.Check+" "+v.Status]++
	}
	want := map[string]int{"spec-sheet warn": 3, "spec-sheet pass": 1, "expect qd1-latency fail": 1}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%d verdicts %q, want %d (all: %v)", got[k], k, n, got)
		}
	}
	if c := s.Counts.Checks; c.Pass != 1 || c.Warn != 3 || c.Fail != 1 {
		t.Errorf("verdict counts = %+v", c)
	}
}

func TestAcceptValue(t *testing.T) {
	tests := []struct {
		unit, metric string
		v            float64
		measured     bool
		report       bwUnit
		want         string
	}{
		{"IOPS", "iops", 87243.42, true, unitMBps, "87,243 IOPS"},
		{"B/s", "bw", 6.2e9, false, unitMBps, "6,200 MB/s"},
		{"B/s", "bw", 1866682797.6, true, unitMBps, "1,866.7 MB/s"},
		{"B/s", "bw", 2.4e9, true, unitMBps, "2,400.0 MB/s"},
		// In a MiB/s report the claim keeps the sheet's own figure.
		{"B/s", "bw", 6.2e9, false, unitMiBps, "6,200 MB/s (5,912.8 MiB/s)"},
		{"B/s", "bw", 2.4e9, true, unitMiBps, "2,288.8 MiB/s"},
		{"µs", "p99_us", 921.6, true, unitMiBps, "921.6 µs"},
		{"µs", "lat_us", 1500, false, unitMBps, "1.50 ms"},
		{"", "dwpd", 1, false, unitMBps, "1 dwpd"},
		{"", "watts_typical", 12.5, false, unitMBps, "12.5 watts_typical"},
	}
	for _, tt := range tests {
		a := AcceptanceRow{Unit: tt.unit, Metric: tt.metric}
		if got := acceptValue(a, tt.v, tt.measured, tt.report); got != tt.want {
			t.Errorf("acceptValue(%s %s, %v, %s) = %q, want %q", tt.unit, tt.metric, tt.v, tt.report, got, tt.want)
		}
	}
}

func TestAcceptGroups(t *testing.T) {
	rows := []AcceptanceRow{
		{Drive: "a", Accept: "sheet", Verdict: "pass", TolerancePct: 5},
		{Drive: "b", Accept: "sheet", Verdict: "fail", TolerancePct: 5},
		{Drive: "a", Accept: "sheet", Verdict: "mystery", TolerancePct: 5},
		{Drive: "a", Accept: "strict", Verdict: "skip", TolerancePct: 1},
		{Drive: "a", Accept: "strict", Verdict: "warn", TolerancePct: 2},
	}
	groups := acceptGroups(rows)
	var got []string
	for _, g := range groups {
		tol, same := g.tolerance()
		got = append(got, g.drive+"/"+g.accept+": "+g.tallyText()+" "+format.Plain(tol)+" "+yesNo(same))
	}
	want := []string{
		"a/sheet: 2 figures (1 pass, 1 mystery) 5 yes",
		"b/sheet: 1 figure (1 fail) 5 yes",
		"a/strict: 2 figures (1 warn, 1 skip) 0 no",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("groups:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestAcceptanceJSON checks the row of a skipped figure: no measurement,
// its reason, and conditions as an empty list.
func TestAcceptanceJSON(t *testing.T) {
	s := mustLoad(t, "vendor-acceptance")
	var buf bytes.Buffer
	if err := WriteJSON(&buf, &Summary{Acceptance: s.Acceptance[8:]}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"metric": "dwpd"`, `"unit": ""`, `"verdict": "skip"`, `"conditions": []`, `"tolerance_pct": 5`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("report.json lacks %s in\n%s", want, buf.String())
		}
	}
	if strings.Contains(buf.String(), `"measured"`) {
		t.Error("a skipped figure has a measurement")
	}
}

// renderFile renders one format of s and returns its main file.
func renderFile(t *testing.T, s *Summary, format string) string {
	t.Helper()
	files, err := Render(s, []string{format})
	if err != nil {
		t.Fatal(err)
	}
	return string(files[0].Data)
}

// TestAcceptanceIdentity: the sheet's identity stands beside the drive's,
// with a warning when the target is a file or another model.
func TestAcceptanceIdentity(t *testing.T) {
	sheet := &results.SpecSheet{Name: "kioxia-cm9-r", Vendor: "KIOXIA", Model: "CM9-R", Capacity: 15_360_000_000_000, Interface: "PCIe 5.0 x4 NVMe"}
	tests := []struct {
		drive results.Drive
		want  string
	}{
		{results.Drive{Name: "dut", Path: "scratch-dut.img", Scratch: true, Size: 134 << 20, SpecSheet: sheet},
			"the target is a file, not a KIOXIA CM9-R"},
		{results.Drive{Name: "dut", Path: "/dev/nvme0n1", Size: 1 << 30, Facts: map[string]string{"model": "QEMU NVMe Ctrl"}, SpecSheet: sheet},
			"the drive reports model QEMU NVMe Ctrl, which names neither the sheet's vendor nor its model (KIOXIA CM9-R)"},
		{results.Drive{Name: "dut", Path: "/dev/nvme0n1", Size: 1 << 30, Facts: map[string]string{"model": "KIOXIA KCMYXRUG15T3"}, SpecSheet: sheet},
			""},
	}
	for _, tt := range tests {
		m := &results.Manifest{Plan: "p", Drives: []results.Drive{tt.drive},
			Steps: []results.StepInfo{{ID: "acc", Kind: "acceptance", Name: "dut / spec", Drive: "dut", Source: "spec"}}}
		rec := &results.Record{StepID: "acc", Kind: "acceptance", Status: "ok", Finished: t0,
			Acceptance: []results.AcceptanceRow{{Spec: "rand_read_4k", Comparison: results.Comparison{Metric: "iops", Unit: "IOPS", Better: "higher", Claimed: 2e6}, Verdict: "skip", Reason: "no profile measures it"}}}
		_, md := render(t, m, []*results.Record{rec})
		if !strings.Contains(md, "Held to spec sheet `kioxia-cm9-r`: KIOXIA, CM9-R, 15.36 TB, PCIe 5.0 x4 NVMe.") {
			t.Errorf("no identity line in:\n%s", md)
		}
		if tt.want != "" && !strings.Contains(md, tt.want) {
			t.Errorf("no warning %q", tt.want)
		}
		if tt.want == "" && strings.Contains(md, "**Warning:** the") {
			t.Errorf("a warning for the sheet's own model:\n%s", md)
		}
	}
}

// TestUnjudgedFigures: every figure of a drive's sheet that no accept
// block judged is listed, skipped, with why: no profile ran its
// conditions, one ran them and nothing compared it, the accept block
// left the entry out, or drivebench does not measure it.
func TestUnjudgedFigures(t *testing.T) {
	m := sweepManifest()
	m.Drives[0].Spec = []results.SpecEntry{
		{Name: "judged", Values: map[string]float64{"iops": 50000}, RW: "randread", BS: 4096},
		{Name: "qd4", Values: map[string]float64{"iops": 50000, "p99_us": 300, "dwpd": 1}, RW: "randread", BS: 4096, IODepth: 4},
		{Name: "qd32x4", Values: map[string]float64{"iops": 900000}, RW: "randread", BS: 4096, IODepth: 32, NumJobs: 4},
		{Name: "seq", Values: map[string]float64{"bw": 6.2e9}, RW: "read", BS: 128 << 10},
		{Name: "no_rw", Values: map[string]float64{"iops": 1e6}},
	}
	var recs []*results.Record
	for _, qd := range []int{1, 4, 16} {
		r := record(fmt.Sprintf("qd%d", qd), "ok", t0, &metrics.Result{Read: dir(1000*float64(qd), 85000, 1000)})
		r.Workload = &workload.Workload{RW: "randread", BS: 4096, IODepth: qd, NumJobs: 1}
		recs = append(recs, r)
	}
	rows := func(s *Summary) map[string]AcceptanceRow {
		out := map[string]AcceptanceRow{}
		for _, a := range s.Acceptance {
			out[a.Spec+" "+a.Metric] = a
		}
		return out
	}
	noBlock := "; the plan has no accept block for drive d to judge its sheet"
	left := "; accept block sheet leaves this entry out"
	tests := []struct {
		name   string
		accept bool // an accept block judged the entry "judged"
		want   map[string]string
	}{
		{"no accept block", false, map[string]string{
			"judged iops": "not judged: mix / iodepth=1 ran its conditions" + noBlock,
			"qd4 iops":    "not judged: mix / iodepth=4 ran its conditions" + noBlock,
			"qd4 p99_us":  "not judged: mix / iodepth=4 ran its conditions" + noBlock,
			"qd4 dwpd":    "not measured: drivebench does not measure dwpd" + noBlock,
			"qd32x4 iops": "not measured: no profile on d ran 4KiB random read at QD32 x 4 jobs (mix ran it at other queue depths)" + noBlock,
			"seq bw":      "not measured: no profile on d ran 128KiB sequential read" + noBlock,
			"no_rw iops":  "not measured: the spec entry states no rw, so no step can be matched with it" + noBlock,
		}},
		{"an accept block that names one entry", true, map[string]string{
			"judged iops": "1,000 IOPS measured against 50,000 IOPS claimed",
			"qd4 iops":    "not judged: mix / iodepth=4 ran its conditions" + left,
			"seq bw":      "not measured: no profile on d ran 128KiB sequential read" + left,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := *m
			m.Steps = slices.Clone(m.Steps)
			recs := slices.Clone(recs)
			if tt.accept {
				m.Steps = append(m.Steps, results.StepInfo{ID: "acc", Kind: "acceptance", Name: "d / sheet", Drive: "d", Source: "sheet"})
				acc := record("acc", "ok", t0, nil)
				acc.Acceptance = []results.AcceptanceRow{{Spec: "judged", Comparison: results.Comparison{Metric: "iops", Unit: "IOPS", Better: "higher", Claimed: 50000},
					Verdict: "fail", Code: results.CodeShort, Reason: "1,000 IOPS measured against 50,000 IOPS claimed (2.0%): more than 5% short, under the spec's own conditions"}}
				recs = append(recs, acc)
			}
			s, md := render(t, &m, recs)
			got := rows(s)
			for key, want := range tt.want {
				if a, ok := got[key]; !ok || !strings.HasPrefix(a.Reason, want) {
					t.Errorf("%s: reason %q, want %q", key, a.Reason, want)
				} else if a.Accept == "" && a.Verdict != results.VerdictSkip {
					t.Errorf("%s: verdict %q, want skip", key, a.Verdict)
				}
			}
			var order []string
			for _, a := range s.Acceptance {
				if a.Spec == "qd4" {
					order = append(order, a.Metric)
				}
			}
			if !slices.Equal(order, []string{"iops", "p99_us", "dwpd"}) {
				t.Errorf("the figures of qd4 come in the order %v", order)
			}
			if !strings.Contains(md, "Not judged by an accept block: ") || !strings.Contains(md, "no accept block judged.") {
				t.Errorf("report.md does not count the figures no block judged:\n%s", md)
			}
		})
	}
}

// TestSpecText: a spec line in the spec-sheet table, its conditions in
// one pair of brackets whatever the unit.
func TestSpecText(t *testing.T) {
	seq := SpecEntry{Values: map[string]float64{"bw": 6.2e9}, RW: "read"}
	rand := SpecEntry{Values: map[string]float64{"iops": 1e6}, RW: "randread", BS: 4096}
	for _, tc := range []struct {
		e    SpecEntry
		u    bwUnit
		want string
	}{
		{seq, unitMBps, "6,200 MB/s (sequential read)"},
		{seq, unitMiBps, "6,200 MB/s (5,912.8 MiB/s; sequential read)"},
		{rand, unitMiBps, "1,000,000 IOPS (4KiB random read)"},
		{SpecEntry{Values: map[string]float64{"bw": 6.2e9}}, unitMiBps, "6,200 MB/s (5,912.8 MiB/s)"},
	} {
		if got := specText(tc.e, tc.u); got != tc.want {
			t.Errorf("specText(%+v, %s) = %q, want %q", tc.e, tc.u, got, tc.want)
		}
	}
}
