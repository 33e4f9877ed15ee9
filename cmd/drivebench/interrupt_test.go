package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/drivebench/drivebench/results"
)

// startRun starts this test binary as drivebench running the interrupt
// plan, and waits until the long step has begun.
// interruptedRecords waits for the run cmd into dir to end as interrupted
// and returns its two records: the quick step's and the interrupted one's.
func interruptedRecords(t *testing.T, cmd *exec.Cmd, out *lockedBuffer, dir string) []*results.Record {
	t.Helper()
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
		t.Fatalf("exit %v, want %d\n%s", err, exitInterrupted, out.String())
	}
	folder, err := results.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := folder.Records()
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records (%v), want the quick step's and the interrupted one's", len(recs), err)
	}
	return recs
}

func startRun(t *testing.T, dir string) (*exec.Cmd, *lockedBuffer) {
	t.Helper()
	cmd, out := startLong(t, "run", "-out", dir, "testdata/interrupt.hcl")
	// The step has started; give it time to measure something, so that
	// there is a partial result to keep (it runs for a minute).
	time.Sleep(500 * time.Millisecond)
	return cmd, out
}

// startLong starts this test binary as drivebench with args, running a
// plan with a step "long", and waits until that step has begun.
func startLong(t *testing.T, args ...string) (*exec.Cmd, *lockedBuffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "DRIVEBENCH_TEST_AS_COMMAND=1")
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "long: started") {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the long step never started:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return cmd, &out
}

// TestInterruptKeepsResults: SIGINT, SIGTERM and SIGHUP (an ssh session
// dropping) each stop the running step, keep its partial record marked
// interrupted with the signal as its reason, write the report, whose run
// history says the run was interrupted and why, and exit 130.
func TestInterruptKeepsResults(t *testing.T) {
	for _, tc := range []struct {
		sig    syscall.Signal
		reason string
	}{
		{syscall.SIGINT, "interrupt signal received"},
		{syscall.SIGTERM, "terminated signal received"},
		{syscall.SIGHUP, "hangup signal received"},
	} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			cmd, out := startRun(t, dir)
			cmd.Process.Signal(tc.sig)
			recs := interruptedRecords(t, cmd, out, dir)
			if recs[0].Status != results.StatusOK || recs[1].Status != results.StatusInterrupted || recs[1].Result == nil {
				t.Errorf("statuses %s, %s; partial result %v", recs[0].Status, recs[1].Status, recs[1].Result != nil)
			}
			if recs[1].Error != tc.reason {
				t.Errorf("interrupted step's reason %q, want %q", recs[1].Error, tc.reason)
			}
			md, err := os.ReadFile(filepath.Join(dir, "report.md"))
			if err != nil {
				t.Fatalf("no report after the interruption: %v", err)
			}
			if !strings.Contains(string(md), "## Run history") || !strings.Contains(string(md), " | interrupted: "+tc.reason+" | 2 | current |") {
				t.Errorf("the report's run history does not say the run was interrupted (%s):\n%s", tc.reason, md)
			}
		})
	}
}

// TestClosedStdoutRunCompletes: drivebench run PLAN | head closes the
// pipe early; the run goes on, writes its reports and exits 0.
func TestClosedStdoutRunCompletes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command(os.Args[0], "run", "-out", dir, "testdata/pipe.hcl")
	cmd.Env = append(os.Environ(), "DRIVEBENCH_TEST_AS_COMMAND=1")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // the reader is gone before the first line
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Run(); err != nil {
		t.Fatalf("run with a closed stdout and stderr: %v", err)
	}
	w.Close()
	folder, err := results.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := folder.Records()
	if len(recs) != 3 {
		t.Errorf("%d records, want all 3 steps", len(recs))
	}
	for _, f := range []string{"report.md", "report.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("no %s: %v", f, err)
		}
	}
}

// TestSecondInterruptExitsAtOnce: a second SIGINT ends the process at
// once; the steps completed before stay on disk.
func TestSecondInterruptExitsAtOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	cmd, out := startRun(t, dir)
	cmd.Process.Signal(syscall.SIGINT)
	time.Sleep(5 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("the process did not stop on two interrupts: %v\n%s", err, out.String())
	}
	folder, err := results.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := folder.Records()
	if len(recs) == 0 || recs[0].Status != results.StatusOK {
		t.Errorf("the completed step was lost: %+v", recs)
	}
}

// lockedBuffer collects a child's output while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
