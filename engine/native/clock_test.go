package native

import (
	"os/exec"
	"regexp"
	"testing"
)

// TestClockIsInlined: the compiler inlines the run's clock, so reading it
// as a system call returns is no preemption point (see clock). Its test
// of the virtual clock brought it near the inlining budget.
func TestClockIsInlined(t *testing.T) {
	out, err := exec.Command("go", "build", "-gcflags=-m=2", "-o", "/dev/null", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m=2: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`(?m)^\S+clock\.go:\d+:\d+: can inline \(\*run\)\.clock with cost`).Match(out) {
		t.Errorf("the compiler no longer inlines (*run).clock:\n%s", regexp.MustCompile(`(?m)^.*\(\*run\)\.clock\b.*$`).Find(out))
	}
}
