package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnderAddressSpaceLimit runs drivebench as a child under ulimit -v
// 6000000 (5.7 GiB), which once ended every command with a Go trace
// because every process reserved Starlark's 4 GiB, and under 3000000:
// commands run, hooks run in their worker, and a hook over its memory
// limit is reported, naming both limits, without a trace.
func TestUnderAddressSpaceLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs drivebench as a child process; skipped in -short mode")
	}
	dir := t.TempDir()
	memoryError := func(limit, ulimit string) string {
		return "memory-bomb.star:1:5: hook stopped: bomb used more than the memory limit of " + limit + "; " +
			"look for a list or string that grows without bound, or raise hook_memory in the plan if the hook needs more " +
			"(the hook worker also runs under drivebench's address-space limit, ulimit -v " + ulimit + ", which may have stopped it first: " +
			"raise that limit too if the hook needs more than it leaves)"
	}
	cases := []struct {
		name   string
		ulimit string
		args   []string
		code   int
		want   []string
	}{
		{"validate", "6000000", []string{"validate", "testdata/memory-bomb.hcl"}, exitOK, []string{"Read Of Never-Written Space"}},
		{"run", "6000000", []string{"run", "-out", filepath.Join(dir, "out"), "testdata/memory-bomb.hcl"}, exitStepFailed,
			[]string{"pass fine on scratch", memoryError("128 MiB", "6000000")}},
		// The worker's own cap (what it maps, 2 GiB and headroom) is above
		// the user's limit: it keeps the user's instead of failing to
		// raise it.
		{"run, hook memory above the limit", "3000000", []string{"run", "-hook-memory", "2GiB", "-out", filepath.Join(dir, "out2"), "testdata/memory-bomb.hcl"}, exitStepFailed,
			[]string{"pass fine on scratch", memoryError("2 GiB", "3000000")}},
		{"catalog init", "6000000", []string{"catalog", "init", "-catalog", filepath.Join(dir, "catalog.db")}, exitOK, []string{": created, sqlite, schema version"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("sh", append([]string{"-c", `ulimit -v ` + tc.ulimit + ` && exec "$0" "$@"`, os.Args[0]}, tc.args...)...)
			cmd.Env = append(os.Environ(), "DRIVEBENCH_TEST_AS_COMMAND=1")
			out, _ := cmd.CombinedOutput()
			text := string(out)
			if code := cmd.ProcessState.ExitCode(); code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			for _, trace := range []string{"goroutine ", "runtime:", "fatal error", "Starlark failed"} {
				if strings.Contains(text, trace) {
					t.Errorf("output holds %q", trace)
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(strings.Join(strings.Fields(text), " "), w) {
					t.Errorf("output lacks %q", w)
				}
			}
			if t.Failed() {
				t.Logf("drivebench %s:\n%s", strings.Join(tc.args, " "), text)
			}
		})
	}
}
