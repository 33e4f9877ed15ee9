//go:build linux

package blockdev

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

// System names the kernel interfaces this package reads, so tests can
// point them at a crafted tree.
type System struct {
	Sysfs     string // sysfs mount point
	Mountinfo string // mount table of this process's mount namespace
	Swaps     string // active swap areas
}

var Host = System{Sysfs: "/sys", Mountinfo: "/proc/self/mountinfo", Swaps: "/proc/swaps"}

// Node is one block device (whole disk or partition) in sysfs.
type Node struct {
	Name string // kernel name, e.g. "sda1"
	Dir  string // its directory under /sys/devices
	Dev  uint64 // device number
}

// DevPath returns the conventional device file of the node.
func (n Node) DevPath() string { return "/dev/" + n.Name }

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

// Find finds block device dev in sysfs.
func (s System) Find(dev uint64) (Node, error) {
	link := filepath.Join(s.Sysfs, "dev", "block", fmt.Sprintf("%d:%d", unix.Major(dev), unix.Minor(dev)))
	dir, err := filepath.EvalSymlinks(link)
	if err != nil {
		return Node{}, fmt.Errorf("find block device %d:%d in sysfs: %w", unix.Major(dev), unix.Minor(dev), err)
	}
	return Node{Name: filepath.Base(dir), Dir: dir, Dev: dev}, nil
}

// isPartition reports whether the node is a partition of a disk.
func (n Node) isPartition() bool {
	_, err := os.Stat(filepath.Join(n.Dir, "partition"))
	return err == nil
}

// Disk returns the whole Disk a partition belongs to, or n itself.
func (n Node) Disk() (Node, error) {
	if !n.isPartition() {
		return n, nil
	}
	return NodeAt(filepath.Dir(n.Dir))
}

// NodeAt reads the block device whose sysfs directory is dir.
func NodeAt(dir string) (Node, error) {
	dev, err := readDevNum(filepath.Join(dir, "dev"))
	if err != nil {
		return Node{}, err
	}
	return Node{Name: filepath.Base(dir), Dir: dir, Dev: dev}, nil
}

// partitions lists the partitions of a whole disk in kernel order.
func (n Node) partitions() ([]Node, error) {
	entries, err := os.ReadDir(n.Dir)
	if err != nil {
		return nil, err
	}
	var parts []Node
	for _, e := range entries {
		dir := filepath.Join(n.Dir, e.Name())
		if _, err := os.Stat(filepath.Join(dir, "partition")); err != nil {
			continue
		}
		part, err := NodeAt(dir)
		if err != nil {
			return nil, err
		}
		parts = append(parts, part)
	}
	return parts, nil
}

// holders describes the devices stacked on n (device-mapper, md, bcache).
func (n Node) holders() ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(n.Dir, "holders"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		out = append(out, describeHolder(filepath.Join(n.Dir, "holders", e.Name())))
	}
	return out, nil
}

// describeHolder names a holder and what kind of device it is.
func describeHolder(dir string) string {
	name := filepath.Base(dir)
	switch {
	case strings.HasPrefix(name, "dm-"):
		if dm := ReadAttr(dir, "dm/name"); dm != "" {
			return fmt.Sprintf("%s (device-mapper %q, e.g. LVM or dm-crypt)", name, dm)
		}
		return name + " (device-mapper)"
	case strings.HasPrefix(name, "md"):
		return name + " (md RAID)"
	}
	return name
}

// ReadAttr returns a sysfs attribute without surrounding blanks, "" when it
// is missing or unreadable.
func ReadAttr(dir, name string) string {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// readIntAttr returns a numeric sysfs attribute, 0 when missing.
func readIntAttr(dir, name string) int {
	v, err := strconv.Atoi(ReadAttr(dir, name))
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
