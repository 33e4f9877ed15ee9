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
func startRun(t *testing.T, dir string) (*exec.Cmd, *lockedBuffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "run", "-out", dir, "testdata/interrupt.hcl")
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

// TestInterruptKeepsResults: SIGINT stops the running step, keeps its
// partial record marked interrupted, writes the report and exits 130.
func TestInterruptKeepsResults(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	cmd, out := startRun(t, dir)
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
		t.Fatalf("exit %v, want %d\n%s", err, exitInterrupted, out.String())
	}
	t.Logf("stopped %v after SIGINT", time.Since(sent).Round(time.Millisecond))
	folder, err := results.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := folder.Records()
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records (%v), want the quick step's and the interrupted one's", len(recs), err)
	}
	if recs[0].Status != results.StatusOK || recs[1].Status != results.StatusInterrupted || recs[1].Result == nil {
		t.Errorf("statuses %s, %s; partial result %v", recs[0].Status, recs[1].Status, recs[1].Result != nil)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.md")); err != nil {
		t.Errorf("no report after the interruption: %v", err)
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
