package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/results"
)

// claimFolder decides whether the run may write into the results folder
// dir (engine.CheckFolder): with -force whatever dir holds is moved aside
// first; -resume may go on with a finished run of its own plan. It
// returns false after saying why the folder is refused and what to do.
func claimFolder(io stdio, dir string, c checked, rf runFlags, lock *results.FolderLock) bool {
	if rf.force {
		return moveAside(io, dir, lock)
	}
	err := engine.CheckFolder(dir, c.plan, c.graph)
	var fe *engine.FolderError
	switch {
	case err == nil:
		return true
	case errors.As(err, &fe) && fe.Other == "" && rf.resume != "":
		return true // runs again what did not complete
	case errors.As(err, &fe):
		fmt.Fprintln(io.err, "drivebench run:", refusal(fe, rf.resume != ""))
	default:
		fmt.Fprintf(io.err, "drivebench run: %v. The folder is left as it is: give another folder (-out NEWDIR), or add -force to move it aside to %s.replaced-<timestamp> (nothing is deleted)\n", err, dir)
	}
	return false
}

// refusal says why a folder is refused and what to do instead.
func refusal(fe *engine.FolderError, resume bool) string {
	aside := fmt.Sprintf("add -force to move that run aside to %s.replaced-<timestamp> (nothing is deleted)", fe.Dir)
	switch {
	case fe.Other != "" && resume:
		return fmt.Sprintf("-resume %s: %v. The folder is left as it is: put back the plan it was made with to resume it, or run the new plan into another folder (-out NEWDIR)", fe.Dir, fe)
	case fe.Other != "":
		return fmt.Sprintf("%v. It is left as it is: give another folder (-out NEWDIR), or %s", fe, aside)
	}
	ended := ""
	if !fe.Ended.IsZero() {
		ended = " (ended " + fe.Ended.UTC().Format("2006-01-02 15:04:05 UTC") + ")"
	}
	again := ""
	if fe.Unfinished > 0 {
		again = fmt.Sprintf(", or run -resume %s to run again the %s that did not complete", fe.Dir, format.Counted(fe.Unfinished, "step"))
	}
	return fmt.Sprintf("%v%s: running into it would replace its records and report. It is left as it is: give another folder (-out NEWDIR), %s%s", fe, ended, aside, again)
}

// moveAside moves whatever dir holds to a sibling folder, for -force,
// and says where; nothing is deleted. A folder that does not exist or is
// empty (but for this run's lock file) is left alone. The lock moves with
// the folder, and dir is locked again before anything is written in it.
func moveAside(io stdio, dir string, lock *results.FolderLock) bool {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) || err == nil && !slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() != results.LockFile }) {
		return true
	}
	to, err := lock.MoveAside(time.Now())
	switch {
	case to == "":
		fmt.Fprintf(io.err, "drivebench run: -force: %v; nothing was changed\n", err)
		return false
	case err != nil:
		fmt.Fprintf(io.err, "drivebench run: -force: the earlier contents of %s are now in %s (nothing was deleted), but %v\n", dir, to, err)
		return false
	}
	fmt.Fprintf(io.err, "drivebench run: -force: the earlier contents of %s are now in %s (nothing was deleted); this run starts afresh in %s\n", dir, to, dir)
	return true
}
