package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/results"
)

// copyPlan copies the files of a testdata plan folder into a temporary
// one, so a test can change them.
func copyPlan(t *testing.T, from string) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestReportRegeneratesSummaryHook: `drivebench report DIR` runs the
// plan's summary hook again on the folder, so a changed hook changes the
// report without running anything; without the plan the stored sections
// stay; a hook that fails says so and exits 3.
func TestReportRegeneratesSummaryHook(t *testing.T) {
	planDir := copyPlan(t, "testdata/summary")
	out := filepath.Join(t.TempDir(), "out")
	if code, stdout, stderr := runCLI(t, "run", "-out", out, filepath.Join(planDir, "summary.hcl")); code != exitOK {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if md := readFile(t, filepath.Join(out, "report.md")); !strings.Contains(md, "Steps measured") || !strings.Contains(md, "1 of 1 steps ran to the end; the report's tables hold 1 rows on a drive of 4194304 bytes (int)") {
		t.Fatalf("the run's report lacks the hook's section:\n%s", md)
	}

	star := filepath.Join(planDir, "summary.star")
	os.WriteFile(star, []byte(strings.Replace(readFile(t, star), `"Steps measured"`, `"Steps, again"`, 1)), 0o644)
	os.Remove(filepath.Join(out, results.SummaryFile))
	if code, _, stderr := runCLI(t, "report", out); code != exitOK {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	md := readFile(t, filepath.Join(out, "report.md"))
	if !strings.Contains(md, "Steps, again") || strings.Contains(md, "Steps measured") {
		t.Errorf("report did not run the changed hook:\n%s", md)
	}
	if !strings.Contains(readFile(t, filepath.Join(out, results.SummaryFile)), "Steps, again") {
		t.Error("summary.json was not rewritten")
	}

	os.WriteFile(star, []byte("def summary(report):\n    return report[\"no such key\"]\n"), 0o644)
	code, _, stderr := runCLI(t, "report", out)
	if code != exitStepFailed || !strings.Contains(stderr, "summary.star:2:") {
		t.Errorf("a failing hook: exit %d, stderr %q; want %d and the hook's line", code, stderr, exitStepFailed)
	}
	if md := readFile(t, filepath.Join(out, "report.md")); !strings.Contains(md, "no such key") {
		t.Errorf("the report does not show the hook's error:\n%s", md)
	}

	os.Remove(filepath.Join(planDir, "summary.hcl"))
	code, _, stderr = runCLI(t, "report", out)
	if code != exitOK || !strings.Contains(stderr, "kept from summary.json") {
		t.Errorf("without the plan: exit %d, stderr %q; want the stored sections kept, and a note", code, stderr)
	}
}

// TestRunFailsWhenItsSummaryHookFails: the summary hook runs as the run
// writes its reports, once every step is done; when it fails, the run
// lists its error among the checks, with the hook's line, and exits 3,
// and the report shows the error.
func TestRunFailsWhenItsSummaryHookFails(t *testing.T) {
	planDir := copyPlan(t, "testdata/summary")
	os.WriteFile(filepath.Join(planDir, "summary.star"), []byte("def summary(report):\n    return report[\"model\"][\"no such key\"]\n"), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runCLI(t, "run", "-out", out, filepath.Join(planDir, "summary.hcl"))
	if code != exitStepFailed || !strings.Contains(stdout, "error summary on : ") || !strings.Contains(stdout, "(summary.star:2:") {
		t.Errorf("run: exit %d, want %d and the hook's error among the checks\n%s\n%s", code, exitStepFailed, stdout, stderr)
	}
	if md := readFile(t, filepath.Join(out, "report.md")); !strings.Contains(md, "no such key") {
		t.Errorf("the report does not show the hook's error:\n%s", md)
	}
}

// TestReportKeepsHookLimits: a run whose summary hook needs more than the
// default 10,000,000 steps, run with -hook-steps 50000000, is reported
// again under the limits its manifest keeps; a folder whose manifest
// lacks them (as one written before) fails the hook, and the sections the
// hook returned before are kept in summary.json and the report, which,
// like stderr, says so.
func TestReportKeepsHookLimits(t *testing.T) {
	planDir := copyPlan(t, "testdata/summary")
	os.WriteFile(filepath.Join(planDir, "summary.star"), []byte(
		"def summary(report):\n    n = 0\n    for i in range(2500000):\n        n += i\n    return {\"title\": \"Heavy\", \"text\": \"sum %d\" % n}\n"), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	if code, stdout, stderr := runCLI(t, "run", "-hook-steps", "50000000", "-hook-timeout", "5m", "-out", out, filepath.Join(planDir, "summary.hcl")); code != exitOK {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	manifest := filepath.Join(out, results.ManifestFile)
	if m := readFile(t, manifest); !strings.Contains(m, `"max_steps": 50000000`) || !strings.Contains(m, `"timeout_ns": 300000000000`) {
		t.Fatalf("the manifest lacks the hook limits:\n%s", m)
	}
	if code, _, stderr := runCLI(t, "report", out); code != exitOK {
		t.Fatalf("report under the recorded limits: exit %d: %s", code, stderr)
	}
	if md := readFile(t, filepath.Join(out, "report.md")); !strings.Contains(md, "## Heavy\n\nsum 3124998750000") {
		t.Fatalf("the report lacks the hook's section:\n%s", md)
	}

	editJSON(t, manifest, func(m map[string]any) { delete(m, "hook_limits") })
	code, _, stderr := runCLI(t, "report", out)
	if code != exitStepFailed || !strings.Contains(stderr, "the sections it returned before are kept in summary.json and the report") {
		t.Errorf("report under the default limits: exit %d, stderr %q; want %d and the sections kept", code, stderr, exitStepFailed)
	}
	md := readFile(t, filepath.Join(out, "report.md"))
	for _, want := range []string{"## Heavy\n\n**Kept from an earlier call of the summary hook:** summary.star:summary failed at summary.star:", "sum 3124998750000"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	if s := readFile(t, filepath.Join(out, results.SummaryFile)); !strings.Contains(s, `"title": "Heavy"`) || !strings.Contains(s, `"kept": true`) {
		t.Errorf("summary.json lost the hook's sections:\n%s", s)
	}
}

// TestIntervalSeriesFiles: a run writes each step's interval series as
// series/<step>.csv, and fio's logs of it when the plan's report block
// asks (fio_logs); `report DIR` writes both again from the records, the
// logs because the folder's manifest says the plan asked.
func TestIntervalSeriesFiles(t *testing.T) {
	planDir := t.TempDir()
	planFile := filepath.Join(planDir, "series.hcl")
	os.WriteFile(planFile, []byte(`drive "scratch" {
  size     = "4MiB"
  writable = true
}

profile "read" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "1500ms"
}

report {
  formats  = ["json"]
  fio_logs = true
}
`), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	if code, stdout, stderr := runCLI(t, "run", "-out", out, planFile); code != exitOK {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	csvPath := filepath.Join(out, "series", "scratch-read.csv")
	logs := filepath.Join(out, "fio-logs", "scratch", "read", "randread-iodepth-1-numjobs-1_")
	csv := readFile(t, csvPath)
	if lines := strings.Split(strings.TrimSpace(csv), "\n"); len(lines) < 2 || lines[0] != strings.Join(results.SeriesColumns, ",") || !strings.HasPrefix(lines[1], "0.000,") {
		t.Errorf("series CSV:\n%s", csv)
	}
	iops := readFile(t, logs+"iops.1.log")
	for _, kind := range []string{"bw", "lat"} {
		readFile(t, logs+kind+".1.log")
	}

	os.RemoveAll(filepath.Join(out, "series"))
	os.RemoveAll(filepath.Join(out, "fio-logs"))
	if code, _, stderr := runCLI(t, "report", out); code != exitOK {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	if again := readFile(t, csvPath); again != csv {
		t.Errorf("report wrote the CSV\n%s\nthe run wrote\n%s", again, csv)
	}
	if again := readFile(t, logs+"iops.1.log"); again != iops {
		t.Errorf("report wrote the iops log\n%s\nthe run wrote\n%s", again, iops)
	}
}
