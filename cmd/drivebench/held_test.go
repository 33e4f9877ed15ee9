package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/drivebench/drivebench/results"
)

// TestHeldProcessIsFlagged stops a child drivebench (SIGSTOP, as a
// debugger or a paused virtual machine stops it) for 3 s in the middle of
// a step's measured phase, then lets it go on and interrupts it: the
// step's record says how long the process was held and carries the held
// warning, which the run printed too. The stop lasts at least 3 s however
// loaded the machine is, and the step measures for a minute, so it is
// stopped inside its measured phase.
func TestHeldProcessIsFlagged(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command(os.Args[0], "run", "-json", "-out", dir, "testdata/interrupt.hcl")
	cmd.Env = append(os.Environ(), "DRIVEBENCH_TEST_AS_COMMAND=1")
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	measuring := func() bool {
		for line := range strings.SplitSeq(out.String(), "\n") {
			if strings.Contains(line, `"type":"interval"`) && strings.Contains(line, "long") {
				return true
			}
		}
		return false
	}
	deadline := time.Now().Add(30 * time.Second)
	for !measuring() {
		if time.Now().After(deadline) {
			t.Fatalf("the long step never sampled an interval:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	const stopped = 3 * time.Second
	if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	time.Sleep(stopped)
	if err := cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	long := interruptedRecords(t, cmd, &out, dir)[1]
	// The probe's wake-up comes at least the stop less one nap late; an
	// interval spans the stop less the one before it.
	if long.Host == nil || long.Host.HeldS < (stopped-time.Second).Seconds() {
		t.Errorf("host %+v: want at least %v held", long.Host, stopped-time.Second)
	}
	var warning string
	for _, w := range long.Warnings {
		if w.Kind == results.WarnHeld {
			warning = w.Message
		}
	}
	if !strings.HasPrefix(warning, "The process was held for ") || !strings.Contains(warning, "its figures: they do not describe the drive; run it again") {
		t.Errorf("warning %q, want the held warning; warnings %+v", warning, long.Warnings)
	}
	if !strings.Contains(out.String(), `"type":"step_warning"`) || !strings.Contains(out.String(), "The process was held for ") ||
		!strings.Contains(out.String(), `"warning_kind":"held"`) {
		t.Errorf("the run did not print the held warning:\n%s", out.String())
	}
	if long.Host != nil {
		t.Logf("held %.2f s (%.0f %%): %s", long.Host.HeldS, long.Host.HeldPct, warning)
	}
}
