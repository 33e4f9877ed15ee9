package reports

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

var t0 = time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)

// sweepManifest lists a precondition, a profile swept over iodepth 1, 4
// and 16, a check and the report step, all on drive d.
func sweepManifest() *results.Manifest {
	point := func(qd int) []workload.Param { return []workload.Param{{Name: "iodepth", Value: float64(qd)}} }
	return &results.Manifest{
		Plan: "sweep", PlanHash: "h", Created: t0,
		Drives: []results.Drive{{Name: "d", Path: "/dev/null"}},
		Steps: []results.StepInfo{
			{ID: "fill", Kind: "precondition", Name: "d / fill / pass 1", Drive: "d", Source: "fill", Pass: 1},
			{ID: "qd1", Kind: "profile", Name: "d / mix / iodepth=1", Drive: "d", Source: "mix", Point: point(1)},
			{ID: "qd4", Kind: "profile", Name: "d / mix / iodepth=4", Drive: "d", Source: "mix", Point: point(4)},
			{ID: "qd16", Kind: "profile", Name: "d / mix / iodepth=16", Drive: "d", Source: "mix", Point: point(16)},
			{ID: "check", Kind: "check", Name: "d / limits", Drive: "d", Source: "limits"},
			{ID: "report", Kind: "report", Name: "report"},
		},
	}
}

func dir(iops, mean float64, ios uint64, pcts ...metrics.Percentile) *metrics.DirStats {
	return &metrics.DirStats{IOs: ios, IOPS: iops, BW: iops * 4096,
		Lat: metrics.LatencySummary{Mean: mean, Percentiles: pcts}}
}

func record(id, status string, finished time.Time, res *metrics.Result) *results.Record {
	return &results.Record{StepID: id, Status: status, Started: finished.Add(-time.Minute), Finished: finished, Result: res}
}

// render builds and renders a Summary, failing the test on any error.
func render(t *testing.T, m *results.Manifest, recs []*results.Record) (*Summary, string) {
	t.Helper()
	return renderSummary(t, Build(m, recs))
}

// checkLines fails t for each of lines that is not a whole line of
// report.md.
func checkLines(t *testing.T, md string, lines ...string) {
	t.Helper()
	for _, line := range lines {
		if !strings.Contains(md, line+"\n") {
			t.Errorf("report.md lacks the line\n%s\nin\n%s", line, md)
		}
	}
}

// renderSummary renders a Summary in every format and returns report.md.
// report.json must read back and meet the published schema.
func renderSummary(t *testing.T, s *Summary) (*Summary, string) {
	t.Helper()
	files, err := Render(s, Formats)
	if err != nil {
		t.Fatalf("Render: %v", err)
	}
	var md string
	for _, f := range files {
		switch f.Name {
		case "report.md":
			md = string(f.Data)
		case "report.json":
			var back Summary
			if err := json.Unmarshal(f.Data, &back); err != nil {
				t.Fatalf("report.json does not read back: %v", err)
			}
			validateReport(t, f.Data)
		}
	}
	return s, md
}

func TestBuildEmpty(t *testing.T) {
	for name, m := range map[string]*results.Manifest{"nil manifest": nil, "empty manifest": {}} {
		t.Run(name, func(t *testing.T) {
			s, md := render(t, m, []*results.Record{nil})
			if s.Schema != SchemaVersion || len(s.Results) != 0 || s.Counts.Steps.Total != 0 {
				t.Errorf("summary of nothing = %+v", s)
			}
			if !strings.HasPrefix(md, "# — — drivebench report\n") {
				t.Errorf("report of nothing starts %q", md[:min(len(md), 60)])
			}
		})
	}
}

// TestBuildPartialRecords feeds records with every part missing that can
// be: the report must still be made, with dashes for what is unknown.
func TestBuildPartialRecords(t *testing.T) {
	recs := []*results.Record{
		nil,
		record("fill", "ok", t0.Add(10*time.Minute), &metrics.Result{}),
		record("qd1", "ok", t0.Add(20*time.Minute), nil),
		record("qd4", "ok", t0.Add(30*time.Minute), &metrics.Result{Read: &metrics.DirStats{}, Write: nil}),
		record("qd16", "ok", t0.Add(40*time.Minute), &metrics.Result{Read: dir(1000, 90_000, 60_000)}),
		record("gone", "ok", t0.Add(99*time.Hour), nil),
		record("report", "failed", t0.Add(98*time.Hour), nil),
	}
	s, md := render(t, sweepManifest(), recs)
	if want := t0.Add(40 * time.Minute); !s.GeneratedAt.Equal(want) {
		t.Errorf("generated at %v, want the latest listed finish %v", s.GeneratedAt, want)
	}
	rows := s.Results[0].Rows
	if rows[0].Total != nil || rows[1].Total != nil {
		t.Errorf("rows without I/O have totals: %+v, %+v", rows[0].Total, rows[1].Total)
	}
	if f := rows[2].Total; f == nil || f.P99Ns != nil || *f.MeanLatNs != 90_000 || !rows[2].Peak {
		t.Errorf("row with empty percentiles = %+v", rows[2])
	}
	want := StepCounts{Total: 5, OK: 4, NotRun: 1, Unlisted: 1}
	if s.Counts.Steps != want {
		t.Errorf("step counts = %+v, want %+v", s.Counts.Steps, want)
	}
	if len(s.Problems) != 0 || strings.Contains(md, "## Problems") {
		t.Errorf("problems reported for a run without failures: %+v", s.Problems)
	}
	checkLines(t, md,
		"| iodepth=1 | ok | — | — | — | — | — | — | — | — |",
		"| **iodepth=16** (peak) | ok | 1,000 | 4.1 | 90.0 µs | — | — | — | — | — |",
		"| fill | d | 1 | ok | — | — | 1 min 00 s |",
		"- Kept from earlier revisions of the plan: 1 record of steps this plan no longer has, under Measurements of earlier plan revisions",
		"| gone | current | ok | — | — | — | — | 2026-03-18 12:00 UTC |",
	)
}

func TestBuildMixed(t *testing.T) {
	p := func(p float64, ns uint64) metrics.Percentile { return metrics.Percentile{P: p, Ns: ns} }
	recs := []*results.Record{
		record("qd1", "ok", t0, &metrics.Result{
			Read:  dir(7_000, 90_000, 420_000, p(50, 85_000), p(99, 200_000), p(99.9, 300_000)),
			Write: dir(3_000, 30_000, 180_000, p(50, 25_000), p(99, 80_000), p(99.9, 120_000)),
		}),
		record("qd4", "ok", t0, &metrics.Result{Read: dir(20_000, 150_000, 1_200_000, p(99, 400_000))}),
	}
	s, md := render(t, sweepManifest(), recs)
	table := s.Results[0]
	if !table.Mixed {
		t.Fatal("a table with a read-and-write row is not mixed")
	}
	total := table.Rows[0].Total
	if total.IOPS != 10_000 || *total.MeanLatNs != 72_000 || total.P99Ns != nil {
		t.Errorf("mixed total = %+v, mean %v; want 10,000 IOPS, 72 µs mean weighted by I/Os, no p99", total, *total.MeanLatNs)
	}
	if table.Rows[1].Write != nil || table.Rows[1].Read == nil {
		t.Errorf("read-only row in a mixed table: read %v, write %v", table.Rows[1].Read, table.Rows[1].Write)
	}
	checkLines(t, md,
		"| Point | Status | IOPS | Read IOPS | Write IOPS | MB/s | Mean latency | p50 read / write | p99 read / write | p99.9 read / write | p99.99 read / write | max read / write |",
		"| iodepth=1 | ok | 10,000 | 7,000 | 3,000 | 41.0 | 72.0 µs | 85.0 µs / 25.0 µs | 200.0 µs / 80.0 µs | 300.0 µs / 120.0 µs | — / — | — / — |",
		"| **iodepth=4** (peak) | ok | 20,000 | 20,000 | — | 81.9 | 150.0 µs | — / — | 400.0 µs / — | — / — | — / — | — / — |",
		"| iodepth=16 | not run | — | — | — | — | — | — | — | — | — | — |",
	)
}

func TestBuildProblems(t *testing.T) {
	check := record("check", "ok", t0, nil)
	check.Verdicts = []results.Verdict{
		{Status: "pass", Message: "fine"},
		{Check: "limits", Drive: "d", Status: "fail", Message: "p99 1.4 ms | over"},
		{Status: "PASS", Message: "shouting"},
	}
	recs := []*results.Record{
		record("fill", "interrupted", t0, nil),
		{StepID: "qd1", Status: "failed", Error: "line one\nline two | with a pipe"},
		{StepID: "qd4", Status: "running"},
		{StepID: "qd16"},
		check,
	}
	s, md := render(t, sweepManifest(), recs)
	wantSteps := StepCounts{Total: 5, OK: 1, Failed: 1, Interrupted: 1, Other: 2}
	wantChecks := VerdictCounts{Pass: 1, Fail: 1, Other: 1}
	if s.Counts.Steps != wantSteps || s.Counts.Checks != wantChecks {
		t.Errorf("counts = %+v, want %+v and %+v", s.Counts, wantSteps, wantChecks)
	}
	if len(s.Problems) != 4 {
		t.Errorf("problems = %+v, want fill, qd1, qd4, qd16", s.Problems)
	}
	if v := s.Checks[0]; v.Check != "limits" || v.Drive != "d" {
		t.Errorf("verdict without check or drive = %+v, want them from its step", v)
	}
	checkLines(t, md,
		"| d / mix / iodepth=1 | failed | line one<br>line two \\| with a pipe |",
		"| d / mix / iodepth=16 | unknown | — |",
		"| limits | d | ❌ fail | p99 1.4 ms \\| over |",
		"| limits | d | ❓ PASS | shouting |",
		"- 5 steps (1 ok, 1 failed, 1 interrupted, 2 other status)",
		"No measurements were recorded (1 failed, 1 running, 1 unknown).",
	)
}

// TestBuildNonFinite keeps figures JSON cannot carry out of report.json.
func TestBuildNonFinite(t *testing.T) {
	recs := []*results.Record{record("qd1", "ok", t0, &metrics.Result{
		Read:  dir(math.NaN(), math.Inf(1), 5),
		Write: &metrics.DirStats{IOPS: math.Inf(1), BW: math.NaN()},
	})}
	render(t, sweepManifest(), recs)
}

func TestWriteNilSummary(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, nil); err == nil {
		t.Error("WriteJSON(nil) gave no error")
	}
	if err := WriteMarkdown(&buf, nil); err == nil {
		t.Error("WriteMarkdown(nil) gave no error")
	}
	if err := WriteHTML(&buf, nil); err == nil {
		t.Error("WriteHTML(nil) gave no error")
	}
}

// FuzzBuild feeds arbitrary step records to Build and both renderers: a
// report is made from whatever the folder holds, and nothing panics.
func FuzzBuild(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "quickstart", "steps", "*.json"))
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint8(0))
	}
	f.Add([]byte(`{"status":"ok","result":{"read":{"iops":1,"lat_ns":{"percentiles":[{"p":99}]}}}}`), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, step uint8) {
		var rec results.Record
		if json.Unmarshal(data, &rec) != nil {
			return
		}
		m := sweepManifest()
		if i := int(step) % (len(m.Steps) + 1); i < len(m.Steps) {
			rec.StepID = m.Steps[i].ID
		}
		render(t, m, []*results.Record{&rec})
	})
}
