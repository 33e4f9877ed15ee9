package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/drivebench/drivebench/results"
)

// TestResumeKeepsDriveState stops a run during the read after its fill
// (SIGINT, or SIGKILL that leaves no chance to clean up), resumes it and
// checks that the resumed read hits the data the fill wrote: the scratch
// file is kept, and when it is gone all the same the fill runs again and
// the terminal says so.
func TestResumeKeepsDriveState(t *testing.T) {
	tests := []struct {
		name          string
		sig           syscall.Signal
		deleteScratch bool
	}{
		{"sigint", syscall.SIGINT, false},
		{"sigkill", syscall.SIGKILL, false},
		{"scratch deleted", syscall.SIGINT, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "out")
			scratch := filepath.Join(dir, "scratch-scratch.img")
			first := startCommand(t, "read: started", "run", "-out", dir, "testdata/resume-state.hcl")
			stop(t, first, tt.sig)
			if _, err := os.Stat(scratch); err != nil {
				t.Fatalf("the scratch file of the unfinished run is gone: %v\n%s", err, first.out.String())
			}
			if tt.deleteScratch {
				os.Remove(scratch)
			}
			resumed := startCommand(t, "read: started", "run", "-resume", dir)
			stop(t, resumed, syscall.SIGINT)
			out := resumed.out.String()
			fill, read := stepRecords(t, dir)
			if read.DriveState == nil || read.DriveState.UnwrittenPct == nil || *read.DriveState.UnwrittenPct != 0 {
				t.Fatalf("the resumed read's drive state %+v, want no unwritten space\n%s", read.DriveState, out)
			}
			if len(read.DriveState.Preconditions) != 1 || !strings.HasSuffix(read.DriveState.Preconditions[0], "fill") {
				t.Errorf("the resumed read ran after preconditions %q, want the fill", read.DriveState.Preconditions)
			}
			rerun := fill.DriveState != nil && fill.DriveState.Rerun != ""
			warned := strings.Contains(out, "warning: drive scratch: the scratch file "+scratch+" was gone")
			if rerun != tt.deleteScratch || warned != tt.deleteScratch {
				t.Errorf("fill run again: %v, warned: %v; want %v\n%s", rerun, warned, tt.deleteScratch, out)
			}
			if kept := strings.Contains(out, "fill: already done in this folder, kept"); kept == tt.deleteScratch {
				t.Errorf("fill kept: %v\n%s", kept, out)
			}
		})
	}
}

// child is a drivebench process this test binary runs.
type child struct {
	*exec.Cmd
	out *lockedBuffer
}

// startCommand runs drivebench with args and waits until its output holds
// want.
func startCommand(t *testing.T, want string, args ...string) child {
	t.Helper()
	c := child{exec.Command(os.Args[0], args...), &lockedBuffer{}}
	c.Env = append(os.Environ(), "DRIVEBENCH_TEST_AS_COMMAND=1")
	c.Stdout, c.Stderr = c.out, c.out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(c.out.String(), want) {
		if time.Now().After(deadline) {
			c.Process.Kill()
			c.Wait()
			t.Fatalf("%q never appeared:\n%s", want, c.out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return c
}

// stop sends sig and waits for the process to end of it.
func stop(t *testing.T, c child, sig syscall.Signal) {
	t.Helper()
	c.Process.Signal(sig)
	var exit *exec.ExitError
	if err := c.Wait(); !errors.As(err, &exit) {
		t.Fatalf("the run did not stop on %v: %v\n%s", sig, err, c.out.String())
	}
}

// stepRecords reads the fill's and the read's records.
func stepRecords(t *testing.T, dir string) (fill, read *results.Record) {
	t.Helper()
	folder, err := results.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := folder.Records()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		switch r.Kind {
		case "precondition":
			fill = r
		case "profile":
			read = r
		}
	}
	if fill == nil || read == nil {
		t.Fatalf("records %+v", recs)
	}
	return fill, read
}
