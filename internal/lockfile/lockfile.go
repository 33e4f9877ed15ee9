// Package lockfile keeps two drivebench processes from using one thing
// at once: a results folder, or a drive under test. A lock is flock(2) on
// a lock file, so the kernel releases it when its holder exits, however
// it exits: a lock file left by a killed process never blocks anyone. The
// file's content only says who holds the lock (its pid, command line and
// since when, see Holder), so that a process refused can name the one it
// waits for; when it names no one, the kernel's list of locks does
// (FlockHolders).
//
// flock, not fcntl: a POSIX record lock is dropped when its process
// closes any descriptor of the file, which the engines do between steps;
// a flock belongs to the one open file description that took it, and is
// not passed to fio, hook workers or exec steps (Go opens files
// close-on-exec). Every lock is taken without waiting: a second process
// is refused at once with the holder's name, never left hanging behind a
// run that may last hours.
//
// A lock file is removed when its last holder releases it. A process that
// opened the file just before it was removed would then lock a file that
// no longer has a name, so Acquire checks after locking that the path
// still leads to the file it locked, and starts again when it does not.
package lockfile

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// Lock is a held lock file.
type Lock struct {
	f      *os.File
	path   string
	shared bool
}

// maxAttempts bounds Acquire's retries when the lock file is removed or
// replaced between its open and its lock.
const maxAttempts = 10

// Acquire locks the file at path, creating it, exclusively or (shared)
// together with other shared holders, and writes self in it. A lock held
// in a way that excludes this one gives a *BusyError naming its holders.
func Acquire(path string, shared bool, self Holder) (*Lock, error) {
	self.Shared = shared
	for range maxAttempts {
		l, err := try(path, shared)
		if err != nil {
			return nil, err
		}
		if l == nil {
			continue
		}
		if err := l.write(self); err != nil {
			l.f.Close()
			return nil, fmt.Errorf("write lock file %s: %w", path, err)
		}
		return l, nil
	}
	return nil, fmt.Errorf("lock %s: the file was removed or replaced %d times while it was being locked; "+
		"find what keeps removing it", path, maxAttempts)
}

// try opens and locks path once; nil and no error when path no longer
// leads to the file locked.
func try(path string, shared bool) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND|unix.O_NOFOLLOW, 0o644)
	if errors.Is(err, unix.ELOOP) {
		return nil, fmt.Errorf("lock file %s is a symbolic link, which drivebench does not follow: remove it", path)
	}
	if err != nil {
		return nil, fmt.Errorf("open lock file: %w", err)
	}
	how := unix.LOCK_EX
	if shared {
		how = unix.LOCK_SH
	}
	if err := unix.Flock(int(f.Fd()), how|unix.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			data, _ := io.ReadAll(io.LimitReader(f, maxContent))
			holders := Live(Parse(data))
			if len(holders) == 0 {
				holders = FlockHolders(f)
			}
			return nil, &BusyError{Path: path, Holders: holders}
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if !names(path, f) {
		f.Close()
		return nil, nil
	}
	return &Lock{f: f, path: path, shared: shared}, nil
}

// maxContent is as much of a lock file as is read: far more than the
// holders of one lock ever write.
const maxContent = 1 << 20

// names reports whether path leads to the open file f.
func names(path string, f *os.File) bool {
	var byPath, byFile unix.Stat_t
	return unix.Lstat(path, &byPath) == nil && unix.Fstat(int(f.Fd()), &byFile) == nil &&
		byPath.Dev == byFile.Dev && byPath.Ino == byFile.Ino
}

// write puts self in the lock file: alone for an exclusive lock, after
// the other holders for a shared one.
func (l *Lock) write(self Holder) error {
	if !l.shared {
		if err := l.f.Truncate(0); err != nil {
			return err
		}
	}
	_, err := l.f.Write(self.line())
	return err
}

// Moved tells the lock that its file is now at path, its folder having
// been renamed, so that Release removes it there.
func (l *Lock) Moved(path string) { l.path = path }

// Release gives the lock up. The last holder removes the lock file, so
// that a folder or the lock directory keeps no trace of a finished run.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	f := l.f
	l.f = nil
	defer f.Close()
	if l.shared && unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
		return nil // other shared holders remain: the file stays theirs
	}
	if names(l.path, f) {
		if err := os.Remove(l.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove lock file: %w", err)
		}
	}
	return nil
}
