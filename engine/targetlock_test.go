package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/blockdev"
	"github.com/drivebench/drivebench/blockdev/blockdevtest"
	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/plan"
	"golang.org/x/sys/unix"
)

// lockPlan writes a plan with one drive on path that reads it (or, with
// writable, fills it first), with the drive's extra attributes.
func lockPlan(t *testing.T, path string, writable bool, attrs string) (*plan.Plan, *plan.Graph) {
	t.Helper()
	src := fmt.Sprintf("drive \"d\" {\n  path = %q\n  writable = %v\n  %s\n}\n", path, writable, attrs)
	if writable {
		src += "precondition \"fill\" {\n  pattern = \"sequential_write\"\n}\n"
	}
	src += "profile \"read\" {\n  rw = \"randread\"\n  bs = \"4KiB\"\n  runtime = \"100ms\"\n}\n"
	file := filepath.Join(t.TempDir(), "plan.hcl")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return load(t, file, nil)
}

// testLocks are target locks for a test's resolveTarget calls, given
// back when the test ends.
func testLocks(t *testing.T) *targetLocks {
	t.Helper()
	locks, err := newTargetLocks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(locks.releaseAll)
	return locks
}

// holdTarget locks path as another run would, with its own lock files
// and descriptors (flocks taken through other descriptors of this
// process exclude each other as another process's do).
func holdTarget(t *testing.T, path string, d *plan.Drive) *targetLock {
	t.Helper()
	l, err := testLocks(t).lock(d, path, false)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func imageFile(t *testing.T, size int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "target.img")
	if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTargetLockRefusesSecondRun: a run on a file another run holds is
// refused before its first step, naming the holder; only reads that both
// runs mark shared go together.
func TestTargetLockRefusesSecondRun(t *testing.T) {
	cases := []struct {
		name           string
		holder         plan.Drive
		writable       bool
		attrs, refused string // refused is "" when the run may go on
	}{
		{"writer beside a writer", plan.Drive{Name: "w", Writable: true}, true, "", "in use by pid"},
		{"reader beside a writer", plan.Drive{Name: "w", Writable: true}, false, "", "in use by pid"},
		{"shared reader beside a writer", plan.Drive{Name: "w", Writable: true}, false, "shared = true", "in use by pid"},
		{"writer beside a shared reader", plan.Drive{Name: "r", Shared: true}, true, "", "in use by pid"},
		{"reader beside a reader", plan.Drive{Name: "r"}, false, "", "in use by pid"},
		{"reader beside a shared reader", plan.Drive{Name: "r", Shared: true}, false, "", "set shared = true on the drive"},
		{"shared readers", plan.Drive{Name: "r", Shared: true}, false, "shared = true", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := imageFile(t, 4<<20)
			holder := holdTarget(t, path, &c.holder)
			p, g := lockPlan(t, path, c.writable, c.attrs)
			dir := filepath.Join(t.TempDir(), "out")
			before, _ := os.ReadFile(path)
			out, err := Run(context.Background(), p, g, Options{Dir: dir})
			if c.refused == "" {
				if err != nil || out.Failed != 0 {
					t.Fatalf("a shared read was refused: %v", err)
				}
				return
			}
			want := fmt.Sprintf(`drive "d": %s is in use by pid %d (`, path, os.Getpid())
			if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), c.refused) ||
				!strings.Contains(err.Error(), fmt.Sprintf("for drive %q of results folder ", c.holder.Name)) {
				t.Fatalf("got %v\nwant %s...%s", err, want, c.refused)
			}
			if strings.Contains(err.Error(), "set shared") != strings.Contains(c.refused, "set shared") {
				t.Errorf("the shared hint is given when it helps, and only then: %v", err)
			}
			if out != nil {
				t.Errorf("a refused run has an outcome: %+v", out)
			}
			if after, _ := os.ReadFile(path); string(after) != string(before) {
				t.Error("the refused run wrote to the held file")
			}
			if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err == nil {
				t.Error("the refused run started a results folder")
			}
			if holder.refs != 1 {
				t.Errorf("the holder's lock changed: %+v", holder)
			}
		})
	}
}

// TestTargetLockFollowsTheFile: a symbolic link, a hard link and the path
// itself are one file, and one lock.
func TestTargetLockFollowsTheFile(t *testing.T) {
	path := imageFile(t, 4<<20)
	dir := filepath.Dir(path)
	symlink, hardlink := filepath.Join(dir, "symlink.img"), filepath.Join(dir, "hardlink.img")
	if err := os.Symlink(path, symlink); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(path, hardlink); err != nil {
		t.Fatal(err)
	}
	holdTarget(t, path, &plan.Drive{Name: "w", Writable: true})
	for _, other := range []string{symlink, hardlink} {
		p, g := lockPlan(t, other, true, "")
		_, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out")})
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%s is in use by pid %d", other, os.Getpid())) {
			t.Errorf("%s: got %v", other, err)
		}
	}
}

// TestTargetFlockWithoutLockFile: a flock on the target itself, taken by
// a process whose lock files are elsewhere (another user's run, flock(1)),
// refuses the run too.
func TestTargetFlockWithoutLockFile(t *testing.T) {
	path := imageFile(t, 4<<20)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_SH); err != nil {
		t.Fatal(err)
	}
	p, g := lockPlan(t, path, false, "")
	_, err = Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out")})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%s is in use by pid %d (", path, os.Getpid())) ||
		!strings.Contains(err.Error(), ") (it holds a flock on "+path+" but has no lock file in ") {
		t.Fatalf("got %v", err)
	}
	// The lock file taken before the refusal is given back.
	if entries, _ := filepath.Glob(filepath.Join(mustLockDir(t), "ino-*")); len(entries) > 0 {
		for _, e := range entries {
			if data, _ := os.ReadFile(e); strings.Contains(string(data), fmt.Sprintf(`"pid":%d,`, os.Getpid())) {
				t.Errorf("lock file %s of the refused run was left: %s", e, data)
			}
		}
	}
}

func mustLockDir(t *testing.T) string {
	t.Helper()
	dir, err := lockDir()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestTargetLockOneFileTwoDrives: two read-only drives of one plan on one
// file share the run's lock; one shared and one not is refused, as the
// two would ask for different locks.
func TestTargetLockOneFileTwoDrives(t *testing.T) {
	path := imageFile(t, 4<<20)
	locks := testLocks(t)
	a, err := locks.lock(&plan.Drive{Name: "a"}, path, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := locks.lock(&plan.Drive{Name: "b"}, path, false)
	if err != nil || a != b || a.refs != 2 {
		t.Fatalf("second drive: %v, refs %d", err, a.refs)
	}
	_, err = locks.lock(&plan.Drive{Name: "c", Shared: true}, path, false)
	if err == nil || !strings.Contains(err.Error(), `is also drive "a", and only one of the two is shared`) {
		t.Errorf("got %v", err)
	}
	locks.release(b)
	locks.release(a)
	if len(locks.held) != 0 {
		t.Errorf("locks still held: %v", locks.held)
	}
}

// TestTargetLockReleasedAfterRun: a run gives its locks back, so the next
// run on the same file goes, and the lock directory keeps nothing of it.
func TestTargetLockReleasedAfterRun(t *testing.T) {
	path := imageFile(t, 4<<20)
	key := fileLockKey(t, path)
	for i := range 2 {
		p, g := lockPlan(t, path, true, "")
		held := false
		observe := func(e Event) {
			if e.Kind == StepStarted {
				_, err := os.Stat(filepath.Join(mustLockDir(t), key+".lock"))
				held = held || err == nil
			}
		}
		if _, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out"), Observe: observe}); err != nil {
			t.Fatalf("run %d: %v", i+1, err)
		}
		if !held {
			t.Errorf("run %d: no lock file while its steps ran", i+1)
		}
	}
	if _, err := os.Stat(filepath.Join(mustLockDir(t), key+".lock")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file outlived the runs: %v", err)
	}
}

// TestTargetLockLoopDevice (root): a loop device another run holds is
// refused through its node and through a second node of the same device;
// a device opened exclusively (as a mount holds it) is refused as busy;
// and while a run writes the device, it holds it exclusively itself.
func TestTargetLockLoopDevice(t *testing.T) {
	loop := blockdevtest.LoopDevice(t, 16<<20)
	p, g := lockPlan(t, loop, true, "")
	run := func(observe func(Event)) error {
		_, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out"), Observe: observe})
		return err
	}

	t.Run("held by another run", func(t *testing.T) {
		l := holdTarget(t, loop, &plan.Drive{Name: "w", Writable: true})
		if err := run(nil); err == nil || !strings.Contains(err.Error(), loop+" is in use by pid ") {
			t.Fatalf("got %v", err)
		}
		var st unix.Stat_t
		unix.Stat(loop, &st)
		node := filepath.Join(t.TempDir(), "alias")
		if err := unix.Mknod(node, unix.S_IFBLK|0o600, int(st.Rdev)); err != nil {
			testenv.Require(t, "a device node", "cannot make a second node of %s: %v", loop, err)
		}
		p2, g2 := lockPlan(t, node, true, "")
		_, err := Run(context.Background(), p2, g2, Options{Dir: filepath.Join(t.TempDir(), "out")})
		if err == nil || !strings.Contains(err.Error(), node+" is in use by pid ") {
			t.Errorf("a second node of the held device: got %v", err)
		}
		_ = l
	})

	t.Run("opened exclusively", func(t *testing.T) {
		f, err := blockdev.Claim(loop)
		if err != nil {
			t.Fatal(err)
		}
		err = run(nil)
		f.Close()
		if err == nil || !strings.Contains(err.Error(), "is busy: the kernel or another program has it open exclusively") {
			t.Fatalf("got %v", err)
		}
	})

	t.Run("fio on the claimed device", func(t *testing.T) {
		testenv.Command(t, "fio", "fio")
		p, g := lockPlan(t, loop, true, `engine = "fio"`)
		var claimed []bool
		observe := func(e Event) {
			if e.Kind == StepStarted || e.Kind == StepFinished {
				f, err := blockdev.Claim(loop)
				if err == nil {
					f.Close()
				}
				claimed = append(claimed, err != nil)
			}
		}
		out, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out"), Observe: observe})
		if err != nil || out.Failed != 0 {
			t.Fatalf("fio on a device the run claims: %v, %+v", err, out)
		}
		for i, r := range out.Records {
			if r.Engine != "fio" || r.Result == nil {
				t.Errorf("step %d ran on %q with result %v", i, r.Engine, r.Result)
			}
		}
		if len(claimed) == 0 || slices.Contains(claimed, false) {
			t.Errorf("the device was free to others while fio steps ran: %v", claimed)
		}
		holdTarget(t, loop, &plan.Drive{Name: "w", Writable: true})
		if _, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out")}); err == nil ||
			!strings.Contains(err.Error(), loop+" is in use by pid ") {
			t.Errorf("a fio run on a held device: %v", err)
		}
	})

	t.Run("claimed while written", func(t *testing.T) {
		var claimed []string
		observe := func(e Event) {
			if e.Kind == StepLive {
				f, err := blockdev.Claim(loop)
				if err == nil {
					f.Close()
				}
				claimed = append(claimed, fmt.Sprint(err != nil))
			}
		}
		if err := run(observe); err != nil {
			t.Fatal(err)
		}
		if len(claimed) == 0 || strings.Contains(strings.Join(claimed, " "), "false") {
			t.Errorf("exclusive opens from outside while the steps ran, failed: %v", claimed)
		}
		f, err := blockdev.Claim(loop)
		if err != nil {
			t.Fatalf("the run kept its claim: %v", err)
		}
		f.Close()
	})
}

// fileLockKey is the lock key of the file at path.
func fileLockKey(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		t.Fatal(err)
	}
	return lockKey(int(f.Fd()), &st)
}

// TestLockKeyOfAReusedInode: a file made where another was removed is
// another target, even when it gets the removed file's inode number, as
// ext4 gives it at once.
func TestLockKeyOfAReusedInode(t *testing.T) {
	dir := t.TempDir()
	seen := map[string]bool{}
	for i := range 20 {
		path := filepath.Join(dir, "scratch.img")
		if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		key := fileLockKey(t, path)
		if seen[key] {
			t.Fatalf("file %d has the key of a removed file: %s", i+1, key)
		}
		seen[key] = true
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}
}
