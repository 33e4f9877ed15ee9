//go:build linux

package blockdev

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/blockdev/blockdevtest"
	"github.com/drivebench/drivebench/internal/testenv"
	"golang.org/x/sys/unix"
)

// TestCheckFileWritableFakeSystem: a file is matched to the loop devices
// in a crafted sysfs by device and inode, whatever name sysfs gives it,
// and refused with what uses the loop device. The loop devices are named
// past any real one, so the real /dev has no node for them.
func TestCheckFileWritableFakeSystem(t *testing.T) {
	tests := []struct {
		name    string
		backing func(file, other string) string // what sysfs says loop97 is attached to
		setup   func(f *fakeSys)
		want    string // "" for allowed
	}{
		{name: "mounted", backing: func(file, _ string) string { return file },
			setup: func(f *fakeSys) {
				f.File("mountinfo", "27 1 254:0 / / rw - ext4 /dev/vda rw\n90 27 7:97 / /mnt/img rw - ext4 /dev/loop97 rw\n")
			}, want: "is the backing file of loop device /dev/loop97, which is mounted at /mnt/img"},
		{name: "mounted, attached by another name (a hard link)", backing: func(file, _ string) string {
			link := filepath.Join(filepath.Dir(file), "link.img")
			if err := os.Link(file, link); err != nil {
				panic(err)
			}
			return link
		}, setup: func(f *fakeSys) {
			f.File("mountinfo", "90 27 7:97 / /mnt/my\\040img rw - ext4 /dev/loop97 rw\n")
		}, want: "is the backing file of loop device /dev/loop97, which is mounted at /mnt/my img"},
		{name: "held by device-mapper", backing: func(file, _ string) string { return file },
			setup: func(f *fakeSys) {
				f.Disk(false)
				f.Holder("virtual/block/loop97", "dm-3")
			}, want: `is the backing file of loop device /dev/loop97, which is held by dm-3 (device-mapper "vg0-data"`},
		{name: "the loop device backs onto another file", backing: func(_, other string) string { return other },
			setup: func(f *fakeSys) {
				f.File("mountinfo", "90 27 7:97 / /mnt/img rw - ext4 /dev/loop97 rw\n")
			}},
		{name: "deleted file of the same name", backing: func(file, _ string) string { return file + " (deleted)" },
			setup: func(f *fakeSys) {
				f.File("mountinfo", "90 27 7:97 / /mnt/img rw - ext4 /dev/loop97 rw\n")
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file, other := filepath.Join(dir, "disk.img"), filepath.Join(dir, "other.img")
			for _, p := range []string{file, other} {
				if err := os.WriteFile(p, make([]byte, 1<<20), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f := newFakeSys(t)
			f.Loop("loop97", "7:97", tt.backing(file, other))
			f.Block("virtual/block/loop98", "7:98") // attached to nothing
			if tt.setup != nil {
				tt.setup(f)
			}
			checkUnsafe(t, f.sys.checkFileWritable(file), tt.want, true)
		})
	}
}

// TestCheckFileWritableSignatures: an image file that is not attached is
// refused for what it holds, made by the real tools where installed, or
// crafted as mdadm writes it (md needs the kernel's md driver to create).
func TestCheckFileWritableSignatures(t *testing.T) {
	tests := []struct {
		name string
		make func(t *testing.T, img string)
		want string
	}{
		{name: "zero-filled", make: func(*testing.T, string) {}},
		{name: "ext4", make: func(t *testing.T, img string) {
			testenv.Command(t, "mkfs.ext4", "e2fsprogs")
			run(t, "", "mkfs.ext4", "-q", "-F", img)
		}, want: "holds an ext4 filesystem"},
		{name: "GPT", make: func(t *testing.T, img string) {
			testenv.Command(t, "sfdisk", "fdisk")
			run(t, "label: gpt\n,8M\n", "sfdisk", "-q", img)
		}, want: "has a GPT partition table"},
		{name: "MBR", make: func(t *testing.T, img string) {
			testenv.Command(t, "sfdisk", "fdisk")
			run(t, "label: dos\n,8M\n", "sfdisk", "-q", img)
		}, want: "has an MBR partition table"},
		{name: "md RAID 1.2", make: func(t *testing.T, img string) {
			writeAt(t, img, mdV1(4096))
		}, want: "is a member of an md RAID array"},
		{name: "md RAID 0.90 at the end", make: func(t *testing.T, img string) {
			writeAt(t, img, md090(32<<20-64<<10, binary.NativeEndian))
		}, want: "is a member of an md RAID array"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img := craftImage(t, 32<<20, nil)
			tt.make(t, img)
			checkUnsafe(t, CheckFileWritable(img), tt.want, false)
		})
	}
}

// writeAt writes the crafted writes into an existing image.
func writeAt(t *testing.T, img string, writes []write) {
	t.Helper()
	f, err := os.OpenFile(img, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, w := range writes {
		if _, err := f.WriteAt([]byte(w.data), int64(w.off)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCheckFileWritableLoopExt4 is the case of issue 25: an ext4 image
// file attached to a loop device is refused while the loop device is
// mounted, as in use (allow_existing_data does not lift it, as for a
// mounted device), naming the loop device and its mount point.
func TestCheckFileWritableLoopExt4(t *testing.T) {
	testenv.Command(t, "mkfs.ext4", "e2fsprogs")
	img := craftImage(t, 32<<20, nil)
	run(t, "", "mkfs.ext4", "-q", "-F", img)
	loop, _ := blockdevtest.Attach(t, img)
	mnt := blockdevtest.Mount(t, loop, "ext4")
	checkUnsafe(t, CheckFileWritable(img), "is the backing file of loop device "+loop+", which is mounted at "+mnt, true)
}

// TestCheckFileWritableLoop covers a file on a loop device that nothing
// mounts, and the names a file can go by.
func TestCheckFileWritableLoop(t *testing.T) {
	t.Run("idle loop device", func(t *testing.T) {
		img := craftImage(t, 8<<20, nil)
		loop, detach := blockdevtest.Attach(t, img)
		checkUnsafe(t, CheckFileWritable(img), "is the backing file of loop device "+loop+" (losetup --detach "+loop+" frees it)", false)
		// The kernel's own record of the backing file matches by device
		// and inode, where no name leads to the file.
		dev, _ := blockDevNum(loop)
		n, err := Host.Find(dev)
		if err != nil {
			t.Fatal(err)
		}
		var st, other unix.Stat_t
		unix.Stat(img, &st)
		unix.Stat(zeroImage(t), &other)
		if !loopStatusNames(n, st.Dev, st.Ino) || loopStatusNames(n, other.Dev, other.Ino) {
			t.Errorf("LOOP_GET_STATUS64 of %s: matches its file %v, another file %v; want true, false",
				loop, loopStatusNames(n, st.Dev, st.Ino), loopStatusNames(n, other.Dev, other.Ino))
		}
		detach()
		checkUnsafe(t, CheckFileWritable(img), "", false)
	})
	t.Run("idle loop device on an ext4 image", func(t *testing.T) {
		testenv.Command(t, "mkfs.ext4", "e2fsprogs")
		img := craftImage(t, 8<<20, nil)
		run(t, "", "mkfs.ext4", "-q", "-F", img)
		loop, _ := blockdevtest.Attach(t, img)
		checkUnsafe(t, CheckFileWritable(img), "is the backing file of loop device "+loop+" (losetup --detach "+loop+" frees it) and holds an ext4 filesystem", false)
	})
	t.Run("attached through a symlink", func(t *testing.T) {
		img := craftImage(t, 8<<20, nil)
		link := filepath.Join(t.TempDir(), "link.img")
		if err := os.Symlink(img, link); err != nil {
			t.Fatal(err)
		}
		loop, _ := blockdevtest.Attach(t, link)
		checkUnsafe(t, CheckFileWritable(img), "is the backing file of loop device "+loop, false)
	})
	t.Run("a new file where a deleted one is attached", func(t *testing.T) {
		img := craftImage(t, 8<<20, nil)
		loop, _ := blockdevtest.Attach(t, img)
		if err := os.Remove(img); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile("/sys/block/" + filepath.Base(loop) + "/loop/backing_file"); !strings.HasSuffix(strings.TrimSpace(string(b)), " (deleted)") {
			t.Logf("sysfs names the deleted backing file %q", b)
		}
		if err := os.WriteFile(img, make([]byte, 8<<20), 0o644); err != nil {
			t.Fatal(err)
		}
		checkUnsafe(t, CheckFileWritable(img), "", false)
	})
	t.Run("LVM physical volume", func(t *testing.T) {
		testenv.Command(t, "pvcreate", "lvm2")
		img := craftImage(t, 16<<20, nil)
		loop, detach := blockdevtest.Attach(t, img)
		run(t, "", "pvcreate", "-q", "-f", loop)
		detach()
		checkUnsafe(t, CheckFileWritable(img), "is an LVM2 physical volume", false)
	})
	t.Run("partition of the loop device mounted", func(t *testing.T) {
		testenv.Command(t, "sfdisk", "fdisk")
		testenv.Command(t, "partx", "util-linux")
		testenv.Command(t, "mkfs.ext4", "e2fsprogs")
		img := craftImage(t, 32<<20, nil)
		run(t, "label: gpt\n,8M\n", "sfdisk", "-q", img)
		loop, _ := blockdevtest.Attach(t, img, "--partscan")
		part := loop + "p1"
		if _, err := os.Stat(part); err != nil {
			run(t, "", "partx", "--add", loop)
		}
		t.Cleanup(func() { exec.Command("partx", "--delete", loop).Run() })
		run(t, "", "mkfs.ext4", "-q", "-F", part)
		mnt := blockdevtest.Mount(t, part, "ext4")
		checkUnsafe(t, CheckFileWritable(img), "is the backing file of loop device "+loop+", which has partition "+part+" mounted at "+mnt, true)
	})
}
