//go:build linux

package blockdev

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// The alignment O_DIRECT needs on a file is that of the device under its
// file system, not the file system's block size: ext4 with 4 KiB blocks
// on a disk of 512-byte sectors takes 512-byte direct transfers, as
// `dd iflag=direct bs=512` shows. Validate and run both ask this package,
// so a plan that validates does not fail its first direct step.

// ErrNoDirectIO is wrapped by FileDirectAlignment's error when the file
// system under a file refuses O_DIRECT.
var ErrNoDirectIO = errors.New("its file system refuses O_DIRECT")

// probeSizes are the transfer sizes FileDirectAlignment tries, smallest
// first, on a file system without a device: a sector up to a page.
var probeSizes = []int{512, 1024, 2048, 4096}

// FileDirectAlignment returns the alignment, in bytes, that O_DIRECT
// needs of offsets and transfer sizes on the regular file at path. It is
// statx's dio_offset_align where the kernel and the file system report
// it (Linux 6.1 on); else the logical block size of the block device the
// file system is on (BLKSSZGET's figure, read from sysfs, a partition's
// from its disk); else, on a file system without a device (tmpfs, FUSE,
// NFS), the smallest read O_DIRECT accepts on the file.
func FileDirectAlignment(path string) (int, error) {
	return Host.fileDirectAlignment(path)
}

func (s System) fileDirectAlignment(path string) (int, error) {
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, path, 0, unix.STATX_DIOALIGN, &st); err != nil {
		return 0, &os.PathError{Op: "statx", Path: path, Err: err}
	}
	// A file system may report no alignment for a file it serves with
	// buffered I/O under O_DIRECT (ext4 with data=journal); the device's
	// is then as good as any.
	if st.Mask&unix.STATX_DIOALIGN != 0 && st.Dio_offset_align > 0 {
		return int(st.Dio_offset_align), nil
	}
	size, err := s.LogicalBlockSize(unix.Mkdev(st.Dev_major, st.Dev_minor))
	if errors.Is(err, fs.ErrNotExist) {
		return probeDirectAlignment(path)
	}
	return size, err
}

// LogicalBlockSize returns the logical block size of block device dev
// from sysfs: its disk's queue/logical_block_size, which is what
// BLKSSZGET returns, without opening the device. The error wraps
// fs.ErrNotExist when dev is not a block device (the anonymous device of
// tmpfs or btrfs).
func (s System) LogicalBlockSize(dev uint64) (int, error) {
	n, err := s.Find(dev)
	if err != nil {
		return 0, err
	}
	disk, err := n.Disk()
	if err != nil {
		return 0, err
	}
	size := readIntAttr(disk.Dir, "queue/logical_block_size")
	if size <= 0 || size&(size-1) != 0 {
		return 0, fmt.Errorf("block device %s: queue/logical_block_size is %q, not a power of two",
			disk.Name, ReadAttr(disk.Dir, "queue/logical_block_size"))
	}
	return size, nil
}

// probeDirectAlignment reads the start of the file with O_DIRECT into a
// page-aligned buffer, a sector first and then larger sizes, and returns
// the first size the kernel accepts.
func probeDirectAlignment(path string) (int, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECT|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.EINVAL) {
		return 0, fmt.Errorf("%s: %w", path, ErrNoDirectIO)
	}
	if err != nil {
		return 0, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	page := unix.Getpagesize()
	buf, err := unix.Mmap(-1, 0, page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return 0, fmt.Errorf("probe O_DIRECT on %s: %w", path, err)
	}
	defer unix.Munmap(buf)
	for _, size := range probeSizes {
		_, err := unix.Pread(fd, buf[:size], 0)
		if errors.Is(err, unix.EINVAL) {
			continue
		}
		if err != nil {
			return 0, &os.PathError{Op: "read", Path: path, Err: err}
		}
		return size, nil
	}
	return 0, fmt.Errorf("%s: O_DIRECT refuses aligned reads of up to %d bytes: %w", path, probeSizes[len(probeSizes)-1], ErrNoDirectIO)
}
