//go:build linux

package nvme

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// system names the kernel interfaces this package reads, so tests can
// point them at a crafted tree.
type system struct {
	sysfs     string // sysfs mount point
	mountinfo string // mount table of this process's mount namespace
	swaps     string // active swap areas
}

var host = system{sysfs: "/sys", mountinfo: "/proc/self/mountinfo", swaps: "/proc/swaps"}

// blockNode is one block device (whole disk or partition) in sysfs.
type blockNode struct {
	name string // kernel name, e.g. "sda1"
	dir  string // its directory under /sys/devices
	dev  uint64 // device number
}

// devPath returns the conventional device file of the node.
func (n blockNode) devPath() string { return "/dev/" + n.name }

// blockDevNum returns the device number of a block device file.
func blockDevNum(path string) (uint64, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return 0, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFBLK {
		return 0, fmt.Errorf("%s is not a block device", path)
	}
	return st.Rdev, nil
}

// node finds block device dev in sysfs.
func (s system) node(dev uint64) (blockNode, error) {
	link := filepath.Join(s.sysfs, "dev", "block", fmt.Sprintf("%d:%d", unix.Major(dev), unix.Minor(dev)))
	dir, err := filepath.EvalSymlinks(link)
	if err != nil {
		return blockNode{}, fmt.Errorf("find block device %d:%d in sysfs: %w", unix.Major(dev), unix.Minor(dev), err)
	}
	return blockNode{name: filepath.Base(dir), dir: dir, dev: dev}, nil
}

// isPartition reports whether the node is a partition of a disk.
func (n blockNode) isPartition() bool {
	_, err := os.Stat(filepath.Join(n.dir, "partition"))
	return err == nil
}

// disk returns the whole disk a partition belongs to, or n itself.
func (n blockNode) disk() (blockNode, error) {
	if !n.isPartition() {
		return n, nil
	}
	return nodeAt(filepath.Dir(n.dir))
}

// nodeAt reads the block device whose sysfs directory is dir.
func nodeAt(dir string) (blockNode, error) {
	dev, err := readDevNum(filepath.Join(dir, "dev"))
	if err != nil {
		return blockNode{}, err
	}
	return blockNode{name: filepath.Base(dir), dir: dir, dev: dev}, nil
}

// partitions lists the partitions of a whole disk in kernel order.
func (n blockNode) partitions() ([]blockNode, error) {
	entries, err := os.ReadDir(n.dir)
	if err != nil {
		return nil, err
	}
	var parts []blockNode
	for _, e := range entries {
		dir := filepath.Join(n.dir, e.Name())
		if _, err := os.Stat(filepath.Join(dir, "partition")); err != nil {
			continue
		}
		part, err := nodeAt(dir)
		if err != nil {
			return nil, err
		}
		parts = append(parts, part)
	}
	return parts, nil
}

// holders describes the devices stacked on n (device-mapper, md, bcache).
func (n blockNode) holders() ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(n.dir, "holders"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		out = append(out, describeHolder(filepath.Join(n.dir, "holders", e.Name())))
	}
	return out, nil
}

// describeHolder names a holder and what kind of device it is.
func describeHolder(dir string) string {
	name := filepath.Base(dir)
	switch {
	case strings.HasPrefix(name, "dm-"):
		if dm := readAttr(dir, "dm/name"); dm != "" {
			return fmt.Sprintf("%s (device-mapper %q, e.g. LVM or dm-crypt)", name, dm)
		}
		return name + " (device-mapper)"
	case strings.HasPrefix(name, "md"):
		return name + " (md RAID)"
	}
	return name
}

// readAttr returns a sysfs attribute without surrounding blanks, "" when it
// is missing or unreadable.
func readAttr(dir, name string) string {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// readIntAttr returns a numeric sysfs attribute, 0 when missing.
func readIntAttr(dir, name string) int {
	v, err := strconv.Atoi(readAttr(dir, name))
	if err != nil {
		return 0
	}
	return v
}

// readDevNum reads a "major:minor" file such as sysfs "dev".
func readDevNum(path string) (uint64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	dev, err := parseDevNum(strings.TrimSpace(string(b)))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return dev, nil
}

// parseDevNum parses "major:minor".
func parseDevNum(s string) (uint64, error) {
	majStr, minStr, ok := strings.Cut(s, ":")
	maj, err1 := strconv.ParseUint(majStr, 10, 32)
	min, err2 := strconv.ParseUint(minStr, 10, 32)
	if !ok || err1 != nil || err2 != nil {
		return 0, fmt.Errorf("device number %q is not major:minor", s)
	}
	return unix.Mkdev(uint32(maj), uint32(min)), nil
}
