package exec

import (
	"context"
	"errors"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/drivebench/drivebench/internal/testenv"
)

// run runs c with its output in files of a temporary folder and returns
// the outcome, the output and the error.
func run(t *testing.T, ctx context.Context, c Command) (Outcome, string, string, error) {
	t.Helper()
	dir := t.TempDir()
	if c.Dir == "" {
		c.Dir = dir
	}
	stdout, _ := os.Create(filepath.Join(dir, "stdout"))
	stderr, _ := os.Create(filepath.Join(dir, "stderr"))
	defer stdout.Close()
	defer stderr.Close()
	out, err := Run(ctx, c, stdout, stderr)
	o, _ := os.ReadFile(stdout.Name())
	e, _ := os.ReadFile(stderr.Name())
	return out, string(o), string(e), err
}

func TestRunExitStatusAndOutput(t *testing.T) {
	c := Command{
		Args: []string{"sh", "-c", `echo "dir=$(pwd) x=$X"; echo oops >&2; exit 3`},
		Env:  []string{"X=from-plan"},
	}
	out, stdout, stderr, err := run(t, context.Background(), c)
	if err != nil || out.ExitCode != 3 || out.TimedOut {
		t.Fatalf("outcome %+v, %v", out, err)
	}
	if !strings.Contains(stdout, "x=from-plan") || !strings.Contains(stdout, "dir=/") || stderr != "oops\n" {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
}

func TestRunCannotStart(t *testing.T) {
	_, _, _, err := run(t, context.Background(), Command{Args: []string{"drivebench-no-such-program"}})
	if err == nil || !strings.Contains(err.Error(), "cannot start drivebench-no-such-program: executable file not found") {
		t.Errorf("err = %v", err)
	}
	_, _, _, err = run(t, context.Background(), Command{Args: []string{"true"}, User: "drivebench-no-such-user"})
	if err == nil || !strings.Contains(err.Error(), "cannot run as drivebench-no-such-user") {
		t.Errorf("err = %v", err)
	}
}

// TestRunTimeoutKillsTheGroup: a command that outlives its timeout is
// stopped with every process it started. The timeout is short and the
// command would sleep for a minute, so the test does not depend on the
// machine's speed.
func TestRunTimeoutKillsTheGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	c := Command{
		Args:    []string{"sh", "-c", `sleep 60 & echo $! > child.pid; wait`},
		Dir:     dir,
		Timeout: 200 * time.Millisecond,
	}
	start := time.Now()
	out, _, _, err := run(t, context.Background(), c)
	if err != nil || !out.TimedOut || out.ExitCode != -1 {
		t.Fatalf("outcome %+v, %v", out, err)
	}
	if time.Since(start) > 30*time.Second {
		t.Errorf("took %v to stop", time.Since(start))
	}
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(raw)))
	// A signal is delivered after kill returns, so the child may take a
	// moment to die; it is not waited for, being init's to reap.
	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if alive(pid) {
		t.Errorf("the command's child %d outlived the timeout", pid)
	}
}

// alive reports whether a process exists and is not a zombie waiting to
// be reaped by init.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	return err == nil && !strings.Contains(string(stat), ") Z ")
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	out, _, _, err := run(t, ctx, Command{Args: []string{"sleep", "60"}})
	if !errors.Is(err, context.Canceled) || out.ExitCode != -1 {
		t.Errorf("outcome %+v, %v", out, err)
	}
}

func TestRunAsAnotherUser(t *testing.T) {
	testenv.Root(t, "running as another account needs root")
	u, err := user.Lookup("nobody")
	if err != nil {
		testenv.Require(t, "the account nobody", "%v", err)
	}
	// t.TempDir's parent is private to root; this folder is not.
	dir, err := os.MkdirTemp("", "drivebench-exec-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	out, stdout, _, err := run(t, context.Background(), Command{Args: []string{"sh", "-c", "id -u; echo $USER"}, Dir: dir, User: "nobody"})
	if err != nil || out.ExitCode != 0 || stdout != u.Uid+"\nnobody\n" {
		t.Errorf("outcome %+v, %v, stdout %q", out, err, stdout)
	}
	private := t.TempDir()
	_, _, _, err = run(t, context.Background(), Command{Args: []string{"true"}, Dir: private, User: "nobody"})
	if err == nil || !strings.Contains(err.Error(), "must be able to run the program and to enter the working folder") {
		t.Errorf("a folder the account cannot enter: %v", err)
	}
}

func TestReadTailAndLastLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out")
	os.WriteFile(path, []byte("one\ntwo\r\nthree\n"), 0o644)
	text, truncated, err := ReadTail(path, 9)
	if err != nil || text != "o\r\nthree\n" || !truncated {
		t.Errorf("ReadTail = %q, %v, %v", text, truncated, err)
	}
	if got := LastLines("one\ntwo\r\nthree\n", 2); !slices.Equal(got, []string{"two", "three"}) {
		t.Errorf("LastLines = %q", got)
	}
	if got := LastLines("", 2); got != nil {
		t.Errorf("LastLines of nothing = %q", got)
	}
}
