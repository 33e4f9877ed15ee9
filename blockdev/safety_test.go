//go:build linux

package blockdev

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/blockdev/blockdevtest"
	"github.com/drivebench/drivebench/internal/testenv"
	"golang.org/x/sys/unix"
)

// fakeSys is a crafted tree and the System that reads it.
type fakeSys struct {
	*blockdevtest.Tree
	sys System
}

func newFakeSys(t *testing.T) *fakeSys {
	tr := blockdevtest.New(t)
	return &fakeSys{Tree: tr, sys: System{Sysfs: tr.Sysfs(), Mountinfo: tr.Mountinfo(), Swaps: tr.Swaps()}}
}

// zeroImage returns a zero-filled file that stands in for the device's
// contents.
func zeroImage(t *testing.T) string {
	return craftImage(t, 1<<20, nil)
}

func TestCheckWritableFakeSystem(t *testing.T) {
	sdz, sdz1 := unix.Mkdev(8, 240), unix.Mkdev(8, 241)
	tests := []struct {
		name      string
		partition bool
		dev       uint64
		setup     func(f *fakeSys)
		want      string // "" for allowed
		inUse     bool
	}{
		{name: "clean disk", dev: sdz},
		{name: "partition mounted", partition: true, dev: sdz, setup: func(f *fakeSys) {
			f.File("mountinfo", "27 1 254:0 / / rw - ext4 /dev/vda rw\n40 27 8:241 / /srv/data rw,noatime shared:1 - xfs /dev/sdz1 rw\n")
		}, want: "has partition /dev/sdz1 mounted at /srv/data", inUse: true},
		{name: "disk mounted, escaped mount point", dev: sdz, setup: func(f *fakeSys) {
			f.File("mountinfo", "40 27 8:240 / /mnt/my\\040disk rw - ext4 /dev/sdz rw\n")
		}, want: "is mounted at /mnt/my disk", inUse: true},
		{name: "partition held by device-mapper", partition: true, dev: sdz, setup: func(f *fakeSys) {
			f.Holder("pci0/block/sdz/sdz1", "dm-3")
		}, want: `has partition /dev/sdz1 held by dm-3 (device-mapper "vg0-data", e.g. LVM or dm-crypt)`, inUse: true},
		{name: "disk held by md", dev: sdz, setup: func(f *fakeSys) {
			f.Block("virtual/block/md0", "9:0")
			f.Holder("pci0/block/sdz", "md0")
		}, want: "is held by md0 (md RAID)", inUse: true},
		{name: "partitioned", partition: true, dev: sdz, want: "has partitions (/dev/sdz1)"},
		{name: "the partition itself, held", partition: true, dev: sdz1, setup: func(f *fakeSys) {
			f.Holder("pci0/block/sdz/sdz1", "dm-3")
		}, want: "is held by dm-3", inUse: true},
		{name: "the partition itself, clean", partition: true, dev: sdz1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeSys(t)
			f.Disk(tt.partition)
			if tt.setup != nil {
				tt.setup(f)
			}
			err := f.sys.checkWritable(zeroImage(t), tt.dev)
			checkUnsafe(t, err, tt.want, tt.inUse)
		})
	}
}

// checkUnsafe checks that err is nil (want "") or an UnsafeError whose
// reason contains want and whose message says what to do.
func checkUnsafe(t *testing.T, err error, want string, inUse bool) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("refused: %v", err)
		}
		return
	}
	var ue *UnsafeError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v, want an UnsafeError containing %q", err, want)
	}
	if !strings.Contains(ue.Reason, want) || ue.InUse != inUse {
		t.Errorf("reason %q (in use %v), want %q (in use %v)", ue.Reason, ue.InUse, want, inUse)
	}
	remedy := "set allow_existing_data = true on the drive in the plan"
	if inUse {
		remedy = "unmount it or stop what holds it"
	}
	if !strings.Contains(err.Error(), remedy) || !strings.HasPrefix(err.Error(), ue.Path+" "+ue.Reason) {
		t.Errorf("message %q does not start with the path and reason or lacks %q", err, remedy)
	}
}

// TestCheckWritableMatchesSourceDevice covers mounts whose st_dev is
// anonymous (btrfs) and swap areas: both are matched by the source's
// device number. Creating the stand-in device node needs root.
func TestCheckWritableMatchesSourceDevice(t *testing.T) {
	testenv.Root(t, "creating a device node needs root")
	tests := []struct {
		name, mountinfo, swaps, want string
	}{
		{name: "btrfs with an anonymous device", mountinfo: "50 27 0:45 / /data rw - btrfs NODE rw\n",
			want: "has partition /dev/sdz1 mounted at /data"},
		{name: "swap", swaps: "Filename Type Size Used Priority\nNODE partition 1048572 0 -2\n",
			want: "has partition /dev/sdz1 in use as swap"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeSys(t)
			f.Disk(true)
			node := filepath.Join(t.TempDir(), "sdz1")
			if err := unix.Mknod(node, unix.S_IFBLK|0o600, int(unix.Mkdev(8, 241))); err != nil {
				testenv.Require(t, "a device node", "mknod %s: %v", node, err)
			}
			if tt.mountinfo != "" {
				f.File("mountinfo", strings.ReplaceAll(tt.mountinfo, "NODE", node))
			}
			if tt.swaps != "" {
				f.File("swaps", strings.ReplaceAll(tt.swaps, "NODE", node))
			}
			checkUnsafe(t, f.sys.checkWritable(zeroImage(t), unix.Mkdev(8, 240)), tt.want, true)
		})
	}
}

func TestCheckWritableSystemErrors(t *testing.T) {
	f := newFakeSys(t)
	f.Disk(false)
	f.File("mountinfo", "garbage line\n")
	err := f.sys.checkWritable(zeroImage(t), unix.Mkdev(8, 240))
	var ue *UnsafeError
	if err == nil || errors.As(err, &ue) || !strings.Contains(err.Error(), "mountinfo line 1") {
		t.Errorf("err = %v, want a mountinfo parse error", err)
	}
	if err := f.sys.checkWritable(zeroImage(t), unix.Mkdev(1, 99)); err == nil || !strings.Contains(err.Error(), "1:99") {
		t.Errorf("unknown device: err = %v", err)
	}
	if err := CheckWritable(zeroImage(t)); err == nil || !strings.Contains(err.Error(), "is not a block device") {
		t.Errorf("regular file: err = %v", err)
	}
}

// run runs a command, failing the test with its output on error.
func run(t *testing.T, stdin, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Stdin = strings.NewReader(stdin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

func TestCheckWritableLoopZeroed(t *testing.T) {
	loop := blockdevtest.LoopDevice(t, 32<<20)
	if err := CheckWritable(loop); err != nil {
		t.Errorf("zeroed loop device refused: %v", err)
	}
}

func TestCheckWritableLoopExt4(t *testing.T) {
	testenv.Command(t, "mkfs.ext4", "e2fsprogs")
	loop := blockdevtest.LoopDevice(t, 32<<20)
	run(t, "", "mkfs.ext4", "-q", "-F", loop)
	checkUnsafe(t, CheckWritable(loop), "holds an ext4 filesystem", false)

	dir := blockdevtest.Mount(t, loop, "ext4")
	checkUnsafe(t, CheckWritable(loop), "is mounted at "+dir, true)
}

func TestCheckWritableLoopPartitionTables(t *testing.T) {
	testenv.Command(t, "sfdisk", "fdisk")
	for _, tt := range []struct{ label, want string }{
		{"gpt", "has a GPT partition table"},
		{"dos", "has an MBR partition table"},
	} {
		t.Run(tt.label, func(t *testing.T) {
			loop := blockdevtest.LoopDevice(t, 32<<20)
			run(t, "label: "+tt.label+"\n", "sfdisk", "-q", "--no-reread", loop)
			checkUnsafe(t, CheckWritable(loop), tt.want, false)
		})
	}
}

// TestCheckWritableLoopPartitions partitions a loop device, mounts the
// partition, and checks both refusals. Partition devices are added with
// partx because this kernel may not scan loop devices itself.
func TestCheckWritableLoopPartitions(t *testing.T) {
	testenv.Command(t, "sfdisk", "fdisk")
	testenv.Command(t, "partx", "util-linux")
	testenv.Command(t, "mkfs.ext4", "e2fsprogs")
	loop := blockdevtest.LoopDevice(t, 32<<20, "--partscan")
	run(t, "label: gpt\n,8M\n", "sfdisk", "-q", loop)
	part := loop + "p1"
	if _, err := os.Stat(part); err != nil {
		run(t, "", "partx", "--add", loop)
	}
	t.Cleanup(func() { exec.Command("partx", "--delete", loop).Run() })
	checkUnsafe(t, CheckWritable(loop), "has partitions ("+part+")", false)

	run(t, "", "mkfs.ext4", "-q", "-F", part)
	dir := blockdevtest.Mount(t, part, "ext4")
	checkUnsafe(t, CheckWritable(loop), "has partition "+part+" mounted at "+dir, true)
}

func TestCheckWritableLoopBusy(t *testing.T) {
	loop := blockdevtest.LoopDevice(t, 32<<20)
	f, err := os.OpenFile(loop, os.O_RDONLY|unix.O_EXCL, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	checkUnsafe(t, CheckWritable(loop), "is busy", true)
}
