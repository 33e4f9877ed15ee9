//go:build linux

package blockdev

import (
	"crypto/rand"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/blockdev/blockdevtest"
	"github.com/drivebench/drivebench/internal/testenv"
	"golang.org/x/sys/unix"
)

// TestLogicalBlockSizeFakeSystem: a file's device number leads through
// sysfs to the logical block size of its disk, a partition's from the
// disk it is on.
func TestLogicalBlockSizeFakeSystem(t *testing.T) {
	tests := []struct {
		name  string
		dev   uint64
		files map[string]string // under sys/devices
		want  int
		err   string // part of the error when want is 0
	}{
		{name: "disk", dev: unix.Mkdev(8, 240), files: map[string]string{"pci0/block/sdz/queue/logical_block_size": "4096\n"}, want: 4096},
		{name: "partition reads its disk", dev: unix.Mkdev(8, 241),
			files: map[string]string{"pci0/block/sdz/queue/logical_block_size": "512\n"}, want: 512},
		{name: "device-mapper", dev: unix.Mkdev(253, 3), files: map[string]string{"virtual/block/dm-3/queue/logical_block_size": "512\n"}, want: 512},
		{name: "attribute missing", dev: unix.Mkdev(8, 241), err: `block device sdz: queue/logical_block_size is "", not a power of two`},
		{name: "not a power of two", dev: unix.Mkdev(8, 240), files: map[string]string{"pci0/block/sdz/queue/logical_block_size": "3000\n"},
			err: `queue/logical_block_size is "3000"`},
		{name: "no block device (tmpfs)", dev: unix.Mkdev(0, 27), err: "find block device 0:27 in sysfs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeSys(t)
			f.Disk(true)
			for rel, content := range tt.files {
				f.File(filepath.Join("sys/devices", rel), content)
			}
			got, err := f.sys.LogicalBlockSize(tt.dev)
			if tt.want != 0 {
				if err != nil || got != tt.want {
					t.Fatalf("got %d, %v; want %d", got, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("got %d, %v; want an error with %q", got, err, tt.err)
			}
			if unix.Major(tt.dev) == 0 && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("error %v does not wrap fs.ErrNotExist, so the O_DIRECT probe would not run", err)
			}
		})
	}
}

// TestFileDirectAlignmentLoop: a file on ext4 (4 KiB blocks) takes
// O_DIRECT transfers of the loop device's sector size, not of the file
// system's block size, and the kernel agrees: a direct read of that size
// works, and one of half of it does not.
func TestFileDirectAlignmentLoop(t *testing.T) {
	for _, sector := range []int{512, 4096} {
		t.Run(strconv.Itoa(sector), func(t *testing.T) {
			dir := blockdevtest.Ext4(t, 64<<20, "--sector-size", strconv.Itoa(sector))
			path := writtenFile(t, dir, 1<<20)
			got, err := FileDirectAlignment(path)
			if err != nil || got != sector {
				t.Fatalf("FileDirectAlignment = %d, %v; want %d", got, err, sector)
			}
			if err := directRead(path, sector, int64(sector)); err != nil {
				t.Errorf("a direct read of %d bytes: %v", sector, err)
			}
			if err := directRead(path, sector/2, int64(sector/2)); !errors.Is(err, unix.EINVAL) {
				t.Errorf("a direct read of %d bytes: %v, want EINVAL", sector/2, err)
			}
			var st unix.Stat_t
			if err := unix.Stat(path, &st); err != nil {
				t.Fatal(err)
			}
			if size, err := Host.LogicalBlockSize(st.Dev); err != nil || size != sector {
				t.Errorf("the sysfs route gives %d, %v; want %d", size, err, sector)
			}
		})
	}
}

// TestFileDirectAlignmentTmpfs: a file system without a device gets the
// smallest direct read the kernel accepts, or ErrNoDirectIO.
func TestFileDirectAlignmentTmpfs(t *testing.T) {
	dir, err := os.MkdirTemp("/dev/shm", "drivebench-align-")
	if err != nil {
		testenv.Require(t, "/dev/shm", "%v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := writtenFile(t, dir, 64<<10)
	got, err := FileDirectAlignment(path)
	if errors.Is(err, ErrNoDirectIO) {
		testenv.Require(t, "O_DIRECT on tmpfs", "this kernel's tmpfs refuses it (Linux 6.6 and later accept it): %v", err)
	}
	if err != nil || !slices.Contains(probeSizes, got) {
		t.Fatalf("FileDirectAlignment = %d, %v; want one of %v", got, err, probeSizes)
	}
	if err := directRead(path, got, int64(got)); err != nil {
		t.Errorf("a direct read of %d bytes: %v", got, err)
	}
}

// writtenFile writes size random bytes to a file in dir and syncs them,
// so direct reads meet allocated blocks, not holes.
func writtenFile(t *testing.T, dir string, size int) string {
	t.Helper()
	b := make([]byte, size)
	rand.Read(b)
	path := filepath.Join(dir, "data.img")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	return path
}

// directRead reads size bytes at off with O_DIRECT into a page-aligned
// buffer.
func directRead(path string, size int, off int64) error {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECT, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	buf, err := unix.Mmap(-1, 0, unix.Getpagesize(), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return err
	}
	defer unix.Munmap(buf)
	_, err = unix.Pread(fd, buf[:size], off)
	return err
}
