package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/internal/testenv"
)

// TestQuickstartInTmux runs the README's first command, the quickstart
// (shortened: -var runtime=4s), on a real terminal, a tmux pane of 120 by
// 40, and reads the pane as a user sees it: while it runs, a progress bar
// with the step's and the plan's progress labelled and the last
// interval's IOPS, MB/s and p99; at the end, each
// step's line with its latency, the closing table and no trace of the
// redrawn block. The live figures are the last measured interval's: after
// a profile's 2 s ramp they show from the first second of its runtime to
// its end, so a runtime of 1 s would show them for an instant, a moment
// the pane may never be captured in (a CI run missed it in 300 s); 4 s
// shows them for 3 s in each of four steps.
func TestQuickstartInTmux(t *testing.T) {
	tmux := testenv.Command(t, "tmux", "tmux")
	dir := t.TempDir()
	socket := filepath.Join(dir, "tmux.sock")
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(tmux, append([]string{"-S", socket, "-f", "/dev/null"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	command := fmt.Sprintf("cd %s && env DRIVEBENCH_TEST_AS_COMMAND=1 TERM=xterm-256color NO_COLOR= %s run -var runtime=4s -out %s examples/quickstart.hcl; echo \"[exit $?]\"; sleep 3600",
		root, os.Args[0], filepath.Join(dir, "out"))
	run("new-session", "-d", "-x", "120", "-y", "40", command)
	t.Cleanup(func() { exec.Command(tmux, "-S", socket, "kill-server").Run() })

	bar := regexp.MustCompile(`(?m)^  \[[█░]{30}\] step \d/8 \d+%`)
	figures := regexp.MustCompile(`(?m)^  \[[█░]{30}\] step \d/8 \d+%  [\d,]+ IOPS  [\d,.]+ MB/s  p99 [\d,.]+ .s$`)
	plan := regexp.MustCompile(`(?m)^plan \d+% ETA \d\d:\d\d$`)
	mid := waitPane(t, func() string { return run("capture-pane", "-p") }, func(s string) bool {
		return figures.MatchString(s) && plan.MatchString(s) && strings.Contains(s, "4k-random-read")
	})
	t.Logf("the pane while the quickstart runs:\n%s", mid)

	end := waitPane(t, func() string { return run("capture-pane", "-p", "-S", "-100") }, func(s string) bool { return strings.Contains(s, "[exit ") })
	t.Logf("the pane at the end:\n%s", end)
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^\[5/8\] scratch / 4k-random-read / iodepth=16: [\d,]+ IOPS, [\d,.]+ MB/s, p50 [\d.,]+ .s, p99 [\d.,]+ .s in \d`),
		regexp.MustCompile(`(?m)^step +status +IOPS +MB/s +p50 +p99 +verdicts +warnings$`),
		regexp.MustCompile(`(?m)^scratch / 4k-random-read / iodepth=16 +ok +[\d,]+ +[\d,.]+ +[\d.,]+ .s +[\d.,]+ .s`),
		// The check's three verdicts: a machine loaded enough to push a
		// p99 over the plan's 20 ms fails one, and the run exits 1.
		regexp.MustCompile(`(?m)^scratch / latency +ok .* (3 pass|\d pass, \d fail|3 fail)`),
		regexp.MustCompile(`(?m)^Results: `),
		regexp.MustCompile(`(?m)^\[exit [01]\]$`),
	} {
		if !want.MatchString(end) {
			t.Errorf("the pane at the end has no line matching %s", want)
		}
	}
	if bar.MatchString(end) || plan.MatchString(end) {
		t.Errorf("the live block is left on the screen at the end")
	}
}

// waitPane captures the pane until ok holds. It waits as long as a
// loaded machine may take: the test asserts what the pane shows, never
// how soon.
func waitPane(t *testing.T, capture func() string, ok func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		s := capture()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pane never showed what the test waits for:\n%s", s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
