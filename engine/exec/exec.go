package exec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"syscall"
	"time"
)

// Command is one command to run.
type Command struct {
	// Args is the program and its arguments; a program without a "/" is
	// looked up in PATH.
	Args []string
	// Dir is the working directory; it must exist.
	Dir string
	// Env holds "NAME=value" entries added to drivebench's environment;
	// they win over the inherited ones.
	Env []string
	// User runs the command as this account; "" runs it as drivebench.
	// Another account needs drivebench to run as root.
	User string
	// Timeout bounds the command; zero means no bound.
	Timeout time.Duration
}

// Outcome is how a command ended.
type Outcome struct {
	// ExitCode is the command's exit status; -1 when it was killed.
	ExitCode int
	Duration time.Duration
	// TimedOut is set when the timeout killed the command.
	TimedOut bool
}

// KillGrace is how long a command's process group has, after SIGTERM,
// before it is sent SIGKILL.
const KillGrace = 5 * time.Second

// Run runs c with its output written to stdout and stderr, and waits for
// it. Give *os.File writers: a daemon the command starts then writes to
// the file directly, and Run does not wait for it to close a pipe.
//
// The error is for a command that could not start (no such program, an
// unknown user) or that ctx cancelled; an exit status other than zero and
// a timeout are reported in the Outcome.
func Run(ctx context.Context, c Command, stdout, stderr io.Writer) (Outcome, error) {
	out := Outcome{ExitCode: -1}
	if len(c.Args) == 0 {
		return out, errors.New("no command to run")
	}
	cmd := exec.Command(c.Args[0], c.Args[1:]...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = c.Dir, stdout, stderr
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = time.Second
	if c.User != "" {
		if err := runAs(cmd, c.User); err != nil {
			return out, err
		}
	}
	if err := ctx.Err(); err != nil {
		return out, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return out, startError(c, err)
	}
	timedOut, err := wait(ctx, cmd, c.Timeout)
	out.Duration, out.TimedOut = time.Since(start), timedOut
	if cmd.ProcessState != nil && !timedOut {
		out.ExitCode = cmd.ProcessState.ExitCode()
	}
	return out, err
}

// wait waits for cmd; when the timeout passes or ctx is done first it
// stops the command's process group and reports which.
func wait(ctx context.Context, cmd *exec.Cmd, timeout time.Duration) (timedOut bool, err error) {
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		close(done)
	}()
	var expired <-chan time.Time
	if timeout > 0 {
		timer := time.NewTimer(timeout)
		defer timer.Stop()
		expired = timer.C
	}
	select {
	case <-done:
		return false, nil
	case <-expired:
		stopGroup(cmd.Process.Pid, done)
		return true, nil
	case <-ctx.Done():
		stopGroup(cmd.Process.Pid, done)
		return false, ctx.Err()
	}
}

// stopGroup sends the process group SIGTERM, then SIGKILL if it has not
// ended after KillGrace, and waits for the command to be reaped.
func stopGroup(pgid int, done <-chan struct{}) {
	syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(KillGrace):
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	<-done
}

// runAs makes cmd run as the named account, with its groups and its
// HOME, USER and LOGNAME.
func runAs(cmd *exec.Cmd, name string) error {
	u, err := user.Lookup(name)
	if err != nil {
		return fmt.Errorf("cannot run as %s: %w", name, err)
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	if euid := os.Geteuid(); euid != 0 && uint64(euid) != uid {
		return fmt.Errorf("cannot run as %s: running a command as another account needs root, and drivebench runs as uid %d", name, euid)
	}
	var groups []uint32
	if ids, err := u.GroupIds(); err == nil {
		for _, g := range ids {
			if n, err := strconv.ParseUint(g, 10, 32); err == nil {
				groups = append(groups, uint32(n))
			}
		}
	}
	cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: groups}
	cmd.Env = append(cmd.Env, "HOME="+u.HomeDir, "USER="+u.Username, "LOGNAME="+u.Username)
	return nil
}

// startError explains a command that could not start.
func startError(c Command, err error) error {
	var ee *exec.Error
	var pe *os.PathError
	switch {
	case errors.As(err, &ee):
		err = ee.Err
	case errors.As(err, &pe):
		err = pe.Err
	}
	if errors.Is(err, syscall.EACCES) && c.User != "" {
		return fmt.Errorf("cannot start %s as %s: %w; the account must be able to run the program and to enter the working folder %s and every folder above it",
			c.Args[0], c.User, err, c.Dir)
	}
	return fmt.Errorf("cannot start %s: %w", c.Args[0], err)
}
