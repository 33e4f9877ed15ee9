package main

import (
	"path/filepath"
	"testing"

	"github.com/drivebench/drivebench/internal/reporttruth"
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
