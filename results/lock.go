package results

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/drivebench/drivebench/internal/lockfile"
)

// LockFile is the lock of the process writing a results folder: flock(2)
// on it is the lock, and it names the holder (its pid, command line and
// since when) for as long as that process runs.
const LockFile = "drivebench.lock"

// FolderLock is a results folder this process holds: no other drivebench
// writes it until Release. Two runs writing one folder would fill one
// scratch file twice, journal every step twice and mix their records.
type FolderLock struct {
	lock *lockfile.Lock
	dir  string
	// made is set when Lock created the folder: Release removes it again
	// when nothing was written in it, as by a run refused before its
	// first step.
	made bool
}

// InUseError is a results folder another process holds.
type InUseError struct {
	Dir  string
	Busy *lockfile.BusyError
}

// Error names the holder; the command adds what to do.
func (e *InUseError) Error() string {
	return fmt.Sprintf("results folder %s is in use by %s: two processes writing one folder would mix their records", e.Dir, e.Busy.Who())
}

// Lock locks the results folder dir for this process, creating it when
// create is set; an *InUseError when another process holds it. Every
// command that writes a results folder holds its lock until it is done.
func Lock(dir string, create bool) (*FolderLock, error) {
	_, err := os.Stat(dir)
	made := errors.Is(err, fs.ErrNotExist) && create
	switch {
	case made:
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("create results folder: %w", err)
		}
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s is not a results folder: it does not exist", dir)
	case err != nil:
		return nil, err
	}
	l, err := lockfile.Acquire(filepath.Join(dir, LockFile), false, lockfile.Self(""))
	var busy *lockfile.BusyError
	if errors.As(err, &busy) {
		return nil, &InUseError{Dir: dir, Busy: busy}
	}
	if err != nil {
		return nil, fmt.Errorf("lock results folder %s: %w", dir, err)
	}
	return &FolderLock{lock: l, dir: dir, made: made}, nil
}

// Release unlocks the folder, and removes it when Lock made it and it
// is still empty.
func (l *FolderLock) Release() error {
	if l == nil {
		return nil
	}
	err := l.lock.Release()
	if l.made {
		os.Remove(l.dir) // fails, as it should, once the folder holds anything
	}
	return err
}

// MoveAside moves the run the locked folder holds aside (MoveAside) and
// locks the folder again, new and empty, in its place. The lock file
// moves with the run, still locked, so no other process takes the run
// meanwhile; it is removed from there once the folder is locked again.
// The returned path is "" when nothing was moved.
func (l *FolderLock) MoveAside(now time.Time) (string, error) {
	to, err := MoveAside(l.dir, now)
	if err != nil {
		return "", err
	}
	moved := l.lock
	moved.Moved(filepath.Join(to, LockFile))
	defer moved.Release()
	fresh, err := Lock(l.dir, true)
	if err != nil {
		return to, err
	}
	l.lock, l.made = fresh.lock, fresh.made
	return to, nil
}
