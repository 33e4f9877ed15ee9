package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/drivebench/drivebench/internal/lockfile"
	"github.com/drivebench/drivebench/results"
)

// stopRun interrupts a run that startLong started and checks what it left
// in its folder: every step's record once, the journal naming each step
// once, none of another run's.
func stopRun(t *testing.T, cmd *exec.Cmd, out *lockedBuffer, dir string) {
	t.Helper()
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
		t.Fatalf("the first run: exit %v, want %d\n%s", err, exitInterrupted, out.String())
	}
	if strings.Contains(out.String(), "running again") {
		t.Errorf("the first run saw its steps disturbed:\n%s", out.String())
	}
	folder, err := results.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := folder.Records()
	if err != nil || len(recs) != 2 || recs[0].Status != results.StatusOK || recs[1].Status != results.StatusInterrupted {
		t.Fatalf("the first run's records: %d (%v), want quick ok and long interrupted", len(recs), err)
	}
	journal, _ := os.ReadFile(filepath.Join(dir, results.JournalFile))
	for _, r := range recs {
		if n := strings.Count(string(journal), `"`+r.StepID+`"`); n != 1 {
			t.Errorf("the journal names step %s %d times:\n%s", r.Name, n, journal)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, results.LockFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the folder's lock file outlived the run: %v", err)
	}
}

// TestSecondRunOnOneFolderRefused: while a run writes a results folder,
// another run, a resume of it and a report of it are refused, naming the
// run; the run goes on undisturbed.
func TestSecondRunOnOneFolderRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	cmd, out := startLong(t, "run", "-out", dir, "testdata/interrupt.hcl")
	holder := fmt.Sprintf("results folder %s is in use by pid %d (%s run -out %s testdata/interrupt.hcl) since ",
		dir, cmd.Process.Pid, lockfile.CommandLine(os.Args[:1]), dir)
	for _, c := range []struct {
		args   []string
		remedy string
	}{
		{[]string{"run", "-out", dir, "testdata/interrupt.hcl"}, "; wait for it to end, or give this run another folder with -out\n"},
		{[]string{"run", "-resume", dir}, "; wait for it to end, then resume the run if it did not finish\n"},
		{[]string{"report", dir}, "; wait for it to end: a run writes its reports itself when it ends\n"},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != exitUsage || !strings.Contains(errOut, holder) || !strings.HasSuffix(errOut, c.remedy) {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant %s...%s", c.args, code, errOut, holder, c.remedy)
		}
	}
	stopRun(t, cmd, out, dir)
}

// TestHeldFolderLockRefuses: a results folder whose lock is held is left
// exactly as it is by run, run -resume and report, which exit 2; once it
// is released they go on, and a lock file left by a killed process does
// not block.
func TestHeldFolderLockRefuses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if code, _, errOut := runCLI(t, "run", "-out", dir, "testdata/pipe.hcl"); code != exitOK {
		t.Fatalf("first run: exit %d: %s", code, errOut)
	}
	before := folderContent(t, dir)
	lock, err := results.Lock(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"run", "-out", dir, "testdata/pipe.hcl"}, {"run", "-force", "-out", dir, "testdata/pipe.hcl"},
		{"run", "-resume", dir}, {"report", dir}} {
		code, _, errOut := runCLI(t, args...)
		if code != exitUsage || !strings.Contains(errOut, fmt.Sprintf("is in use by pid %d (", os.Getpid())) {
			t.Errorf("%v: exit %d: %s", args, code, errOut)
		}
	}
	lock.Release()
	if after := folderContent(t, dir); after != before {
		t.Errorf("the refused commands changed the folder:\n%s\n---\n%s", before, after)
	}
	if aside, _ := filepath.Glob(dir + ".replaced-*"); len(aside) > 0 {
		t.Errorf("-force moved a held folder aside: %v", aside)
	}
	stale := fmt.Sprintf(`{"pid":%d,"command":["drivebench","run"],"started":"2026-05-01T13:04:05Z"}`+"\n", 1<<22+1)
	if err := os.WriteFile(filepath.Join(dir, results.LockFile), []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "report", dir); code != exitOK {
		t.Errorf("report with a stale lock file: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, results.LockFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stale lock file is still there: %v", err)
	}

	// -force moves the run aside with the lock held, and neither folder
	// keeps a lock file afterwards.
	if code, _, errOut := runCLI(t, "run", "-force", "-out", dir, "testdata/pipe.hcl"); code != exitOK {
		t.Fatalf("run -force: exit %d: %s", code, errOut)
	}
	aside, _ := filepath.Glob(dir + ".replaced-*")
	if len(aside) != 1 {
		t.Fatalf("folders moved aside: %v", aside)
	}
	for _, d := range []string{dir, aside[0]} {
		if _, err := os.Stat(filepath.Join(d, results.LockFile)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s keeps a lock file: %v", d, err)
		}
	}
	if after := folderContent(t, aside[0]); after != strings.ReplaceAll(before, dir+"/", aside[0]+"/") {
		t.Errorf("the run moved aside is not the run as it was:\n%s\n---\n%s", before, after)
	}
}

// folderContent lists a results folder's files with their content.
func folderContent(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(path)
			fmt.Fprintf(&b, "%s %d %x\n", path, len(data), data[:min(len(data), 64)])
		}
		return err
	})
	return b.String()
}

// TestSecondRunOnOneTargetRefused: while a run measures a file, a run of
// another folder on that file, through its path, a symbolic link or a
// hard link, is refused naming the run, and leaves no folder; the first
// run goes on undisturbed.
func TestSecondRunOnOneTargetRefused(t *testing.T) {
	work := t.TempDir()
	target := filepath.Join(work, "target.img")
	if err := os.WriteFile(target, make([]byte, 16<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink, hardlink := filepath.Join(work, "symlink.img"), filepath.Join(work, "hardlink.img")
	if err := os.Symlink(target, symlink); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(target, hardlink); err != nil {
		t.Fatal(err)
	}
	first := filepath.Join(work, "first")
	cmd, out := startLong(t, "run", "-out", first, "-var", "target="+target, "testdata/lock-target.hcl")
	for _, path := range []string{target, symlink, hardlink} {
		second := filepath.Join(work, "second")
		code, _, errOut := runCLI(t, "run", "-out", second, "-var", "target="+path, "testdata/lock-target.hcl")
		want := fmt.Sprintf(`drivebench: drive "d": %s is in use by pid %d (`, path, cmd.Process.Pid)
		if code != exitUsage || !strings.HasPrefix(errOut, want) ||
			!strings.Contains(errOut, fmt.Sprintf(`for drive "d" of results folder %s: `, first)) {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant %s...", path, code, errOut, want)
		}
		if _, err := os.Stat(second); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: the refused run left its folder: %v", path, err)
		}
	}
	stopRun(t, cmd, out, first)
}
