package main

import (
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/reporttruth"
	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/reports"
	"github.com/drivebench/drivebench/results"
)

// exampleRuns are example plans run in-process on small scratch files
// with short runtimes, so that what their reports say is checked on
// real runs: best-of rounds with their rounds' warnings
// (CrystalDiskMark), a spec sheet judged (vendor acceptance), an adaptive
// search and a steady-state search under the plan's own rule (latency
// QoS). The quickstart is run by TestRunShortQuickstart.
var exampleRuns = []struct {
	name string
	plan string
	vars []string
}{
	{"crystaldiskmark", "crystaldiskmark/crystaldiskmark.hcl", []string{"runtime=300ms", "interval=1ms", "loops=2", "size=32MiB"}},
	{"vendor-acceptance", "acceptance/vendor-acceptance.hcl", []string{"target=", "size=32MiB", "runtime=300ms", "ramp=0s"}},
	{"latency-qos", "acceptance/latency-qos.hcl", []string{"target=", "size=32MiB", "runtime=300ms", "limit_us=3000", "max_depth=64"}},
	{"vdi-replay", "vdi-replay/vdi-replay.hcl", []string{"speed=10"}},
}

// aiRuns are the AI example plans, scaled by their smoke.vars.hcl, on
// the file systems they are documented to run on: ext4 (/tmp) and tmpfs
// (/dev/shm).
var aiRuns = []struct{ name, plan, fsRoot string }{
	{"dataloader on ext4", "ai/dataloader.hcl", os.TempDir()},
	{"dataloader on tmpfs", "ai/dataloader.hcl", "/dev/shm"},
	{"checkpoint on ext4", "ai/checkpoint.hcl", os.TempDir()},
	{"checkpoint on tmpfs", "ai/checkpoint.hcl", "/dev/shm"},
}

// TestAIExamplesOnFileSystems runs each AI example scaled down on a
// scratch folder of each file system: each report carries its figures
// (AU, samples/s, batch waits) and says them truly, and no file of the
// run is left in the folder.
func TestAIExamplesOnFileSystems(t *testing.T) {
	if testing.Short() {
		t.Skip("runs example plans (-short)")
	}
	for _, ex := range aiRuns {
		t.Run(ex.name, func(t *testing.T) {
			if _, err := os.Stat(ex.fsRoot); err != nil {
				testenv.Require(t, ex.fsRoot, "the example runs on that file system: %v", err)
			}
			scratch, err := os.MkdirTemp(ex.fsRoot, "drivebench-ai-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.RemoveAll(scratch) })
			dir := filepath.Join(t.TempDir(), "out")
			plan := filepath.Join("..", "..", "examples", ex.plan)
			code, out, errOut := runCLI(t, "run", "-out", dir, "-var-file", filepath.Join(filepath.Dir(plan), "smoke.vars.hcl"),
				"-var", "directory="+filepath.Join(scratch, "set"), plan)
			if code != exitOK && code != exitCheckFailed {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
			}
			checkReportTrue(t, dir)
			checkAIFigures(t, dir)
			checkNoFilesLeft(t, scratch)
		})
	}
}

// checkNoFilesLeft fails when a file is left under dir.
func checkNoFilesLeft(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			t.Errorf("%s is left after the run", path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkAIFigures fails when a dataloader or a checkpoint of the report
// in dir lacks its figures (AU and its verdict, samples/s, seconds per
// epoch, bandwidth, batch waits; seconds per pass and bandwidth of each
// phase) or the file operations of its file sets.
func checkAIFigures(t *testing.T, dir string) {
	t.Helper()
	s, err := reports.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Dataloaders)+len(s.Checkpoints) == 0 {
		t.Fatal("the report has no dataloader and no checkpoint")
	}
	for _, d := range s.Dataloaders {
		if d.Status != "ok" || d.AU <= 0 || d.AU > 1 || d.SamplesPerSec <= 0 || d.EpochSeconds <= 0 || d.ReadBW <= 0 || d.BatchWait == nil || d.AUTarget == nil || d.Verdict == "" {
			t.Errorf("dataloader %s: %+v", d.Name, d)
		}
	}
	for _, c := range s.Checkpoints {
		for _, p := range []*reports.CheckpointPhaseRow{c.Write, c.Read} {
			if c.Status != "ok" || p == nil || p.Seconds <= 0 || p.LowestBW <= 0 || p.AggregateBW < p.LowestBW {
				t.Errorf("checkpoint %s: %+v, a phase %+v", c.Name, c, p)
			}
		}
	}
	for _, f := range s.FileSets {
		if len(f.Metadata) == 0 {
			t.Errorf("file set of %s: no file operation timed", f.Step)
		}
	}
}

// TestExampleReportsTrue runs each example plan of exampleRuns and
// checks every number in the sentences of its report.md against its
// report.json and records (internal/reporttruth).
func TestExampleReportsTrue(t *testing.T) {
	if testing.Short() {
		t.Skip("runs example plans (-short)")
	}
	for _, ex := range exampleRuns {
		t.Run(ex.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			args := []string{"run", "-out", dir}
			for _, v := range ex.vars {
				args = append(args, "-var", v)
			}
			code, out, errOut := runCLI(t, append(args, filepath.Join("..", "..", "examples", ex.plan))...)
			if code != exitOK && code != exitCheckFailed {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
			}
			checkReportTrue(t, dir)
		})
	}
}

// checkReportTrue fails on every sentence of the report in dir that says
// another figure than its report.json and records hold.
func checkReportTrue(t *testing.T, dir string) {
	t.Helper()
	r, err := reporttruth.Load(dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range reporttruth.Check(r) {
		t.Error(f)
	}
}

// TestCheckpointExpectationsJudged runs the checkpoint example on a
// scratch folder with a write limit every pass meets and a read-back
// claim none can (1 PB/s): the run exits 1, and its closing list,
// report.json, report.md and report.html give both verdicts.
func TestCheckpointExpectationsJudged(t *testing.T) {
	if testing.Short() {
		t.Skip("runs an example plan (-short)")
	}
	scratch := t.TempDir()
	dir := filepath.Join(t.TempDir(), "out")
	plan := filepath.Join("..", "..", "examples", "ai", "checkpoint.hcl")
	code, out, errOut := runCLI(t, "run", "-out", dir, "-var-file", filepath.Join(filepath.Dir(plan), "smoke.vars.hcl"),
		"-var", "directory="+filepath.Join(scratch, "set"), "-var", "max_write_s=3600", "-var", "min_read_gbps=1000000", plan)
	if code != exitCheckFailed {
		t.Fatalf("exit %d, want %d for a failed expectation\nstdout:\n%s\nstderr:\n%s", code, exitCheckFailed, out, errOut)
	}
	const (
		holds  = "checkpoint: result.checkpoint.write.slowest_job_s <= var.max_write_s in its one pass (pass 1: result.checkpoint.write.slowest_job_s = "
		misses = "checkpoint: result.checkpoint.read.lowest_job_bw >= var.min_read_gbps * 1e9 does not hold in pass 1 of 1 (pass 1: result.checkpoint.read.lowest_job_bw = "
	)
	for _, want := range []string{"  pass  expect checkpoint on fs: " + holds, "  fail  expect checkpoint on fs: " + misses} {
		if !strings.Contains(out, want) {
			t.Errorf("the run's closing output lacks %q:\n%s", want, out)
		}
	}
	s, err := reports.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]string{}
	for _, v := range s.Checks {
		codes[v.Code] = v.Message
	}
	if !strings.HasPrefix(codes[results.CodeHolds], holds) || !strings.HasPrefix(codes[results.CodeDoesNotHold], misses) {
		t.Errorf("report.json's checks %+v lack the checkpoint's verdicts", s.Checks)
	}
	for file, wants := range map[string][]string{
		"report.md":   {"| expect checkpoint | fs | ✅ pass | `checkpoint.hcl:", "| expect checkpoint | fs | ❌ fail | `checkpoint.hcl:", misses},
		"report.html": {misses},
	} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range wants {
			if !strings.Contains(html.UnescapeString(string(b)), want) {
				t.Errorf("%s lacks %q", file, want)
			}
		}
	}
	checkNoFilesLeft(t, scratch)
}
