//go:build linux

// Package blockdevtest builds crafted sysfs trees, mount tables and swap
// lists for the tests of packages that read them (blockdev, nvme), so a
// test can put a disk, its partitions, holders and mounts in any state
// without a real device.
package blockdevtest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/drivebench/drivebench/internal/testenv"
	"golang.org/x/sys/unix"
)

// Tree is a crafted sysfs tree (Sysfs), mount table (Mountinfo) and swap
// list (Swaps) under a temporary folder.
type Tree struct {
	t    testing.TB
	Root string
}

// New makes a tree with only a root filesystem mounted and no swap.
func New(t testing.TB) *Tree {
	f := &Tree{t: t, Root: t.TempDir()}
	f.File("mountinfo", "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n")
	f.File("swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n")
	return f
}

// Sysfs, Mountinfo and Swaps are the paths that stand in for /sys,
// /proc/self/mountinfo and /proc/swaps.
func (f *Tree) Sysfs() string     { return filepath.Join(f.Root, "sys") }
func (f *Tree) Mountinfo() string { return filepath.Join(f.Root, "mountinfo") }
func (f *Tree) Swaps() string     { return filepath.Join(f.Root, "swaps") }

// File writes a file under the root.
func (f *Tree) File(rel, content string) {
	f.t.Helper()
	path := filepath.Join(f.Root, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// Link makes a symlink under the root pointing at another path under it,
// as sysfs does.
func (f *Tree) Link(rel, target string) {
	f.t.Helper()
	path := filepath.Join(f.Root, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(f.Root, target), path); err != nil {
		f.t.Fatal(err)
	}
}

// Block adds a block device directory (relative to sys/devices) with its
// sys/dev/block link.
func (f *Tree) Block(dir, devNum string) {
	f.File(filepath.Join("sys/devices", dir, "dev"), devNum+"\n")
	if err := os.MkdirAll(filepath.Join(f.Root, "sys/devices", dir, "holders"), 0o755); err != nil {
		f.t.Fatal(err)
	}
	f.Link(filepath.Join("sys/dev/block", devNum), filepath.Join("sys/devices", dir))
}

// Disk builds sdz (8:240), with partition sdz1 (8:241) when asked, and
// dm-3 (253:3).
func (f *Tree) Disk(withPartition bool) {
	f.Block("pci0/block/sdz", "8:240")
	f.File("sys/devices/pci0/block/sdz/queue/rotational", "1\n")
	f.File("sys/devices/pci0/block/sdz/queue/nr_requests", "64\n")
	f.File("sys/devices/pci0/block/sdz/queue/scheduler", "[mq-deadline] none\n")
	f.File("sys/devices/pci0/block/sdz/device/model", "Fake Disk 2000 \n")
	f.File("sys/devices/pci0/block/sdz/device/vendor", "ATA     \n")
	f.File("sys/devices/pci0/block/sdz/device/rev", "FW01\n")
	f.File("sys/devices/pci0/block/sdz/device/queue_depth", "32\n")
	f.Block("virtual/block/dm-3", "253:3")
	f.File("sys/devices/virtual/block/dm-3/dm/name", "vg0-data\n")
	if withPartition {
		f.Block("pci0/block/sdz/sdz1", "8:241")
		f.File("sys/devices/pci0/block/sdz/sdz1/partition", "1\n")
	}
}

// Loop adds loop device name (e.g. "loop97", number devNum) attached to
// backing, as sysfs shows it: under virtual/block, linked from sys/block,
// with loop/backing_file.
func (f *Tree) Loop(name, devNum, backing string) {
	dir := filepath.Join("virtual/block", name)
	f.Block(dir, devNum)
	f.File(filepath.Join("sys/devices", dir, "loop/backing_file"), backing+"\n")
	f.Link(filepath.Join("sys/block", name), filepath.Join("sys/devices", dir))
}

// Holder makes the block device holder (under virtual/block) hold dir.
func (f *Tree) Holder(dir, holder string) {
	f.Link(filepath.Join("sys/devices", dir, "holders", holder), filepath.Join("sys/devices/virtual/block", holder))
}

// Image writes a zero-filled file of size bytes with data at the given
// offsets, standing in for a device's contents.
func Image(t testing.TB, size int, at map[int]string) string {
	t.Helper()
	b := make([]byte, size)
	for off, data := range at {
		copy(b[off:], data)
	}
	path := filepath.Join(t.TempDir(), "image")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// LoopDevice attaches a sparse file of size bytes to a free loop device
// and detaches it when the test ends. Extra args go to losetup.
func LoopDevice(t testing.TB, size int64, args ...string) string {
	t.Helper()
	requireLoopDevices(t)
	img := filepath.Join(t.TempDir(), "disk.img")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, size); err != nil {
		t.Fatal(err)
	}
	dev, _ := Attach(t, img, args...)
	return dev
}

// Attach attaches file to a free loop device and returns it with a
// function that detaches it, which runs when the test ends unless the
// test called it first. Extra args go to losetup.
func Attach(t testing.TB, file string, args ...string) (dev string, detach func()) {
	t.Helper()
	requireLoopDevices(t)
	out, err := exec.Command("losetup", append(append([]string{"--find", "--show"}, args...), file)...).CombinedOutput()
	if err != nil {
		testenv.Require(t, "a loop device", "losetup could not attach one: %v: %s", err, out)
	}
	dev = strings.TrimSpace(string(out))
	var once sync.Once
	detach = func() {
		once.Do(func() {
			if out, err := exec.Command("losetup", "--detach", dev).CombinedOutput(); err != nil {
				t.Errorf("losetup --detach %s: %v: %s", dev, err, out)
			}
		})
	}
	t.Cleanup(detach)
	return dev, detach
}

// Ext4 makes an ext4 file system on a fresh loop device of size bytes
// (extra args go to losetup, e.g. "--sector-size", "4096"), mounts it
// and returns the mount point; everything is undone when the test ends.
func Ext4(t testing.TB, size int64, args ...string) string {
	t.Helper()
	dev := LoopDevice(t, size, args...)
	testenv.Command(t, "mkfs.ext4", "e2fsprogs")
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", dev).CombinedOutput(); err != nil {
		t.Fatalf("mkfs.ext4 %s: %v: %s", dev, err, out)
	}
	return Mount(t, dev, "ext4")
}

// Mount mounts dev on a fresh folder, unmounted when the test ends.
func Mount(t testing.TB, dev, fstype string) string {
	t.Helper()
	dir := t.TempDir()
	if err := unix.Mount(dev, dir, fstype, 0, ""); err != nil {
		testenv.Require(t, "a mount", "mount %s (%s) on %s: %v", dev, fstype, dir, err)
	}
	t.Cleanup(func() { unmount(t, dir) })
	return dir
}

// unmount unmounts dir, waiting while it is busy: the kernel drops an
// io_uring ring's files after the ring is closed, not at once.
func unmount(t testing.TB, dir string) {
	t.Helper()
	var err error
	for wait := time.Millisecond; wait < 10*time.Second; wait *= 2 {
		if err = unix.Unmount(dir, 0); !errors.Is(err, unix.EBUSY) {
			break
		}
		time.Sleep(wait)
	}
	if err != nil {
		t.Errorf("unmount %s: %v", dir, err)
	}
}

// requireLoopDevices ends the test unless it can create loop devices.
func requireLoopDevices(t testing.TB) {
	t.Helper()
	testenv.Root(t, "attaching a loop device needs root")
	testenv.Command(t, "losetup", "mount")
}
