package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/drivebench/drivebench/results"
)

// TestMain lets the crash test run this test binary as the drivebench
// command, so it can be killed like the real one.
func TestMain(m *testing.M) {
	if os.Getenv("DRIVEBENCH_TEST_AS_COMMAND") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// TestCrashAndResume kills a run with SIGKILL at random moments, resumes
// it each time, and checks that the results hold every step exactly once,
// each record complete and readable.
func TestCrashAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	dir := filepath.Join(t.TempDir(), "out")
	rng := rand.New(rand.NewPCG(7, 11))
	command := func(args ...string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "DRIVEBENCH_TEST_AS_COMMAND=1")
		return cmd
	}
	kills := 0
	for kills < 20 {
		// Until the first run got as far as its manifest, there is nothing
		// to resume: a kill that early (likely on a loaded machine) is
		// followed by the same run again.
		args := []string{"run", "-out", dir, "testdata/crash.hcl"}
		if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err == nil {
			args = []string{"run", "-resume", dir}
		}
		cmd := command(args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(20+rng.IntN(300)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err == nil {
			break // the run finished before the kill
		}
		kills++
	}
	if kills < 20 {
		t.Fatalf("the run finished after %d kills; the test needs 20", kills)
	}
	if out, err := command("run", "-resume", dir).CombinedOutput(); err != nil {
		t.Fatalf("final resume: %v\n%s", err, out)
	}

	folder, err := results.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, s := range folder.Manifest.Steps {
		if s.Kind != "report" {
			want[s.ID] = true
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "steps", "*"))
	if len(files) != len(want) {
		t.Errorf("%d files in steps/, want one per step: %d", len(files), len(want))
	}
	for id := range want {
		rec, err := folder.ReadRecord(id)
		if err != nil {
			t.Errorf("step %s: %v", id, err)
			continue
		}
		if rec.Status != results.StatusOK || rec.Result == nil {
			t.Errorf("step %s (%s): status %s, error %q", id, rec.Name, rec.Status, rec.Error)
		}
	}
	journal, err := folder.Journal()
	if err != nil {
		t.Fatal(err)
	}
	for id := range want {
		if journal[id] != results.StatusOK {
			t.Errorf("journal says %q for step %s", journal[id], id)
		}
	}
	var report map[string]any
	raw, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil || json.Unmarshal(raw, &report) != nil {
		t.Errorf("report.json after the final resume: %v", err)
	}
	if scratch, _ := filepath.Glob(filepath.Join(dir, "scratch-*")); len(scratch) != 0 {
		t.Errorf("scratch files left: %v", scratch)
	}
}
