package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/drivebench/drivebench/blockdev"
	"github.com/drivebench/drivebench/internal/lockfile"
	"github.com/drivebench/drivebench/plan"
	"golang.org/x/sys/unix"
)

// A run locks every drive's file, block device or folder from the moment
// it resolves the drive until the run ends, so that two drivebench
// processes never write or measure one target at once: each would see the
// drive loaded by the other, and a writer would destroy what the other
// measures. The whole run, not each step, because a plan's steps build on
// one another (a fill, then the profiles measured on it).
//
// A target is locked twice, both without waiting:
//   - a lock file named by the target's device and inode (a block
//     device's by its device number) in a directory every run on the host
//     shares (lockDir): two paths to one file, a symbolic or a hard link,
//     or two device nodes of one disk, meet there, and the file names the
//     holder for the message of the run refused;
//   - flock(2) on the target itself, which runs that keep their lock files
//     elsewhere (another user's) still meet on, as does a tool that
//     follows systemd's convention for block devices (udevadm lock).
//
// A drive the plan only reads and marks shared = true is locked shared, so
// other such runs may read it too; any other drive, read-only ones
// included, exclusively: a measurement beside a writer is worthless.
// A writable block device is also claimed (blockdev.Claim, O_EXCL) while
// the run's own I/O steps run on it, so nothing mounts it or formats it
// meanwhile; the claim is let go for a purge, which checks that nothing
// holds the device, and for an exec step, which may format or mount it.
//
// Steps a fio server runs on another host (testbed hosts) use that host's
// device, which is not locked.

// targetLock is the run's hold on one file, device or folder.
type targetLock struct {
	key    string
	file   *lockfile.Lock
	node   *os.File // the target itself, flocked
	shared bool
	// drive is the first drive that took the lock; refs counts the drives
	// that share it.
	drive string
	refs  int
}

// targetLocks are the target locks of one run, by key: two drives of one
// plan on one target share one.
type targetLocks struct {
	dir     string
	results string
	held    map[string]*targetLock
}

// newTargetLocks prepares the target locks of the run whose results
// folder is results.
func newTargetLocks(results string) (*targetLocks, error) {
	dir, err := lockDir()
	if err != nil {
		return nil, err
	}
	if abs, err := filepath.Abs(results); err == nil {
		results = abs
	}
	return &targetLocks{dir: dir, results: results, held: map[string]*targetLock{}}, nil
}

// systemLockDir is where root's runs keep their target lock files.
const systemLockDir = "/run/drivebench"

// lockDir is where target lock files are kept: /run/drivebench for root;
// for another user $XDG_RUNTIME_DIR/drivebench, or a folder of the user's
// own in the temporary directory. A user's runs meet root's through the
// flock on the target itself.
func lockDir() (string, error) {
	if os.Geteuid() == 0 {
		if err := os.MkdirAll(systemLockDir, 0o755); err != nil {
			return "", fmt.Errorf("create the lock directory: %w", err)
		}
		return systemLockDir, nil
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("drivebench-%d", os.Getuid()))
	if runtime := os.Getenv("XDG_RUNTIME_DIR"); runtime != "" {
		dir = filepath.Join(runtime, "drivebench")
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("create the lock directory: %w", err)
	}
	var st unix.Stat_t
	if err := unix.Lstat(dir, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR || int(st.Uid) != os.Getuid() {
		return "", fmt.Errorf("the lock directory %s is not a folder of your own: remove it, or set XDG_RUNTIME_DIR to one", dir)
	}
	return dir, nil
}

// lockKey names the target open as fd by what it is, not by its path: a
// block device by its device number, anything else by its file system,
// inode and, where the file system keeps it, birth time. An inode number
// is reused once its file is gone, and a run removes its scratch file
// before it gives its locks back: without the birth time, a new file that
// took that number in the meantime was "in use" by the run that removed
// the old one.
func lockKey(fd int, st *unix.Stat_t) string {
	if st.Mode&unix.S_IFMT == unix.S_IFBLK {
		return fmt.Sprintf("blk-%d:%d", unix.Major(st.Rdev), unix.Minor(st.Rdev))
	}
	key := fmt.Sprintf("ino-%d:%d-%d", unix.Major(st.Dev), unix.Minor(st.Dev), st.Ino)
	var sx unix.Statx_t
	if unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_BTIME, &sx) == nil && sx.Mask&unix.STATX_BTIME != 0 {
		key += fmt.Sprintf("-%d.%09d", sx.Btime.Sec, sx.Btime.Nsec)
	}
	return key
}

// lock locks the file, device or folder at path for drive d, creating the
// file first when create is set.
func (ls *targetLocks) lock(d *plan.Drive, path string, create bool) (*targetLock, error) {
	flags := os.O_RDONLY
	if create {
		flags |= os.O_CREATE
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		return nil, fmt.Errorf("drive %q: %w", d.Name, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		f.Close()
		return nil, fmt.Errorf("drive %q: %s: %w", d.Name, path, err)
	}
	shared := d.Shared && !d.Writable
	key := lockKey(int(f.Fd()), &st)
	if l := ls.held[key]; l != nil {
		f.Close()
		return ls.share(l, d, path, shared)
	}
	l, err := ls.acquire(d, path, key, f, shared, st.Mode&unix.S_IFMT == unix.S_IFBLK)
	if err != nil {
		f.Close()
		return nil, err
	}
	ls.held[key] = l
	return l, nil
}

// share gives drive d the lock another drive of the run holds on the same
// target, when both lock it the same way.
func (ls *targetLocks) share(l *targetLock, d *plan.Drive, path string, shared bool) (*targetLock, error) {
	if l.shared != shared {
		return nil, fmt.Errorf("drive %q: %s is also drive %q, and only one of the two is shared: set shared = true on both or on neither",
			d.Name, path, l.drive)
	}
	l.refs++
	return l, nil
}

// acquire takes the lock file of key, then the flock on the target f.
func (ls *targetLocks) acquire(d *plan.Drive, path, key string, f *os.File, shared, device bool) (*targetLock, error) {
	self := lockfile.Self(fmt.Sprintf("drive %q of results folder %s", d.Name, ls.results))
	file, err := lockfile.Acquire(filepath.Join(ls.dir, key+".lock"), shared, self)
	var busy *lockfile.BusyError
	if errors.As(err, &busy) {
		return nil, targetBusy(d, path, busy.Who(), busy.Shared())
	}
	if err != nil {
		return nil, fmt.Errorf("drive %q: lock %s: %w", d.Name, path, err)
	}
	if err := flockTarget(f, shared, device); err != nil {
		file.Release()
		if errors.Is(err, unix.EWOULDBLOCK) {
			who := "another process"
			if holders := lockfile.FlockHolders(f); len(holders) > 0 {
				who = lockfile.Names(holders)
			}
			return nil, targetBusy(d, path, who+" (it holds a flock on "+path+
				" but has no lock file in "+ls.dir+": a run of another user, or a tool such as flock(1) or udevadm lock)", false)
		}
		return nil, fmt.Errorf("drive %q: lock %s: %w", d.Name, path, err)
	}
	return &targetLock{key: key, file: file, node: f, shared: shared, drive: d.Name, refs: 1}, nil
}

// targetBusy says that who holds drive d's target at path, and what to
// do: wait, point the drive elsewhere, or, when the holders only read it
// and so does this run, share it.
func targetBusy(d *plan.Drive, path, who string, sharedHolders bool) error {
	msg := fmt.Sprintf("drive %q: %s is in use by %s: two runs on one drive each measure it while the other loads it, "+
		"and a writer destroys what the other measures; wait for that run to end, or point the drive elsewhere", d.Name, path, who)
	if sharedHolders && !d.Writable {
		msg += "; or, as both runs only read it, set shared = true on the drive"
	}
	return errors.New(msg)
}

// Waiting for the flock on a block device: udev takes it shared for a
// moment while it probes a device that changed, and gives it back at
// once.
const (
	deviceFlockTries = 20
	deviceFlockPause = 100 * time.Millisecond
)

// flockTarget flocks the target itself. A block device is tried a few
// times over two seconds, for udev's probes; anything else once.
func flockTarget(f *os.File, shared, device bool) error {
	how := unix.LOCK_EX
	if shared {
		how = unix.LOCK_SH
	}
	tries := 1
	if device {
		tries = deviceFlockTries
	}
	var err error
	for i := range tries {
		if i > 0 {
			time.Sleep(deviceFlockPause)
		}
		if err = unix.Flock(int(f.Fd()), how|unix.LOCK_NB); !errors.Is(err, unix.EWOULDBLOCK) {
			return err
		}
	}
	return err
}

// release gives up one drive's share of the lock; the last one unlocks
// the target.
func (ls *targetLocks) release(l *targetLock) {
	if l == nil {
		return
	}
	if l.refs--; l.refs > 0 {
		return
	}
	l.node.Close()
	l.file.Release()
	delete(ls.held, l.key)
}

// releaseAll unlocks every target, when the run ends.
func (ls *targetLocks) releaseAll() {
	for _, l := range ls.held {
		l.refs = 1
		ls.release(l)
	}
}

// claimDevice claims the target's block device (O_EXCL) for the run's own
// I/O, when the run writes it and has not claimed it yet.
func (t *target) claimDevice() error {
	if t.claimPath == "" || t.claim != nil {
		return nil
	}
	f, err := blockdev.Claim(t.claimPath)
	if err != nil {
		return fmt.Errorf("drive %q: %w", t.drive.Name, err)
	}
	t.claim = f
	return nil
}

// unclaimDevice lets the claim go.
func (t *target) unclaimDevice() {
	if t.claim != nil {
		t.claim.Close()
		t.claim = nil
	}
}

// holdDevice keeps a writable block device claimed while the run's own
// I/O steps run on it, and lets it go for a purge or an exec step (see
// the comment at the top of this file).
func (r *runner) holdDevice(n *plan.Node) error {
	t := r.targets[n.Drive]
	switch {
	case t == nil:
		return nil
	case n.Exec != nil || n.PurgeMethod != "":
		t.unclaimDevice()
		return nil
	case n.Workload != nil || n.Kind == plan.KindAdaptive:
		return t.claimDevice()
	}
	return nil
}

// unlockTargets lets every claim and lock of the run go.
func (r *runner) unlockTargets() {
	for _, t := range r.targets {
		t.unclaimDevice()
	}
	if r.locks != nil {
		r.locks.releaseAll()
	}
}
