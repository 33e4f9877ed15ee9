//go:build linux

package nvme

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/drivebench/drivebench/blockdev"
	"golang.org/x/sys/unix"
)

// Device classes of the kernel's NVMe driver, as the "subsystem" link of
// a sysfs device names them.
const (
	classController = "nvme"           // /dev/nvme0
	classSubsystem  = "nvme-subsystem" // parent of multipath namespaces
	classGeneric    = "nvme-generic"   // /dev/ng0n1, a namespace as a character device
)

// system is the kernel's view of block devices (package blockdev) with
// what NVMe adds: controllers, namespaces and generic character devices.
type system struct{ blockdev.System }

var host = system{blockdev.Host}

// IsNVMe reports whether path is an NVMe controller (/dev/nvme0), a
// namespace (/dev/nvme0n1, /dev/ng0n1) or a partition of one. It reads
// sysfs only, so it needs no privileges and sends no command.
func IsNVMe(path string) bool {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil {
		return false
	}
	return host.isNVMe(st.Mode, st.Rdev)
}

func (s system) isNVMe(mode uint32, rdev uint64) bool {
	switch mode & unix.S_IFMT {
	case unix.S_IFBLK:
		disk, err := s.diskOf(rdev)
		if err != nil {
			return false
		}
		class := classOf(filepath.Join(disk.Dir, "device"))
		return class == classController || class == classSubsystem
	case unix.S_IFCHR:
		class := classOf(s.charDir(rdev))
		return class == classController || class == classGeneric
	}
	return false
}

// diskOf finds block device dev in sysfs and returns its whole disk.
func (s system) diskOf(dev uint64) (blockdev.Node, error) {
	n, err := s.Find(dev)
	if err != nil {
		return blockdev.Node{}, err
	}
	return n.Disk()
}

// charDir returns the sysfs directory of character device rdev.
func (s system) charDir(rdev uint64) string {
	return filepath.Join(s.Sysfs, "dev", "char", fmt.Sprintf("%d:%d", unix.Major(rdev), unix.Minor(rdev)))
}

// classOf returns the name of the class or bus a sysfs device belongs
// to, "" when it has none.
func classOf(dir string) string {
	target, err := os.Readlink(filepath.Join(dir, "subsystem"))
	if err != nil {
		return ""
	}
	return filepath.Base(target)
}

// erasedNamespaces returns the namespace block devices that an erase sent
// through the device (mode, rdev) destroys: with whole, every namespace
// of the controller or multipath subsystem; otherwise the namespace the
// block device belongs to. Through a character device the scope cannot be
// narrowed to one namespace, so every namespace of the controller counts.
func (s system) erasedNamespaces(mode uint32, rdev uint64, whole bool) ([]blockdev.Node, error) {
	switch mode & unix.S_IFMT {
	case unix.S_IFBLK:
		disk, err := s.diskOf(rdev)
		switch {
		case err != nil:
			return nil, err
		case !whole:
			return []blockdev.Node{disk}, nil
		}
		return namespaceNodes(filepath.Dir(disk.Dir))
	case unix.S_IFCHR:
		dir, err := filepath.EvalSymlinks(s.charDir(rdev))
		if err != nil {
			return nil, fmt.Errorf("find character device %d:%d in sysfs: %w", unix.Major(rdev), unix.Minor(rdev), err)
		}
		if classOf(dir) == classGeneric {
			dir = filepath.Dir(dir)
		}
		return namespaceNodes(dir)
	}
	return nil, fmt.Errorf("device %d:%d is neither a block nor a character device", unix.Major(rdev), unix.Minor(rdev))
}

// namespaceNodes lists the namespace block devices in a controller or
// subsystem directory: the children with a request queue that are not
// hidden multipath paths (nvme0c0n1), whose namespace appears under the
// subsystem instead.
func namespaceNodes(dir string) ([]blockdev.Node, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var nodes []blockdev.Node
	for _, e := range entries {
		child := filepath.Join(dir, e.Name())
		if _, err := os.Stat(filepath.Join(child, "queue")); err != nil || blockdev.ReadAttr(child, "hidden") == "1" {
			continue
		}
		n, err := blockdev.NodeAt(child)
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, n)
	}
	return nodes, nil
}
