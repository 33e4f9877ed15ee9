//go:build linux

package blockdev

import (
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// A file attached to a loop device is a disk whether or not it is mounted:
// writing to it writes to the loop device under whatever uses that. A file
// is matched to the loop devices that back onto it by device and inode,
// never by name alone: the name in sysfs is the one the file had when it
// was attached as seen from the attaching process's root, and ends in
// " (deleted)" once the file is unlinked, while another file may have
// taken the name since.

// loopsBacking returns the loop devices whose backing file is the file
// with device number dev and inode ino, in sysfs order.
func (s System) loopsBacking(dev, ino uint64) ([]Node, error) {
	dirs, err := filepath.Glob(filepath.Join(s.Sysfs, "block", "loop*"))
	if err != nil {
		return nil, err
	}
	var loops []Node
	for _, link := range dirs {
		backing := ReadAttr(link, "loop/backing_file")
		if backing == "" {
			continue // not attached
		}
		dir, err := filepath.EvalSymlinks(link)
		if err != nil {
			continue // detached since the glob
		}
		n, err := NodeAt(dir)
		if err != nil {
			return nil, err
		}
		if loopStatusNames(n, dev, ino) || sameFile(backing, dev, ino) {
			loops = append(loops, n)
		}
	}
	return loops, nil
}

// loopStatusNames reports whether the loop device's status (the
// LOOP_GET_STATUS64 ioctl) names the file dev, ino. It is false when the
// device node cannot be opened (no root, no /dev entry); the name in
// sysfs is then the only lead.
func loopStatusNames(n Node, dev, ino uint64) bool {
	f, err := os.Open(n.DevPath())
	if err != nil {
		return false
	}
	defer f.Close()
	info, err := unix.IoctlLoopGetStatus64(int(f.Fd()))
	return err == nil && info.Device == dev && info.Inode == ino
}

// sameFile reports whether path is now the file dev, ino. A name with
// " (deleted)" appended does not exist, or is another file.
func sameFile(path string, dev, ino uint64) bool {
	var st unix.Stat_t
	return unix.Stat(path, &st) == nil && uint64(st.Dev) == dev && st.Ino == ino
}

// readLoopBacking fills, for a loop device, the device and inode of the
// file it is attached to: a loop device has no serial or world-wide name,
// and its number says nothing of the file behind it, which can change
// between two opens.
func (b *BlockDevice) readLoopBacking() {
	if !strings.HasPrefix(b.Name, "loop") {
		return
	}
	f, err := os.Open(b.Path)
	if err != nil {
		return
	}
	defer f.Close()
	if info, err := unix.IoctlLoopGetStatus64(int(f.Fd())); err == nil {
		b.BackingDevice, b.BackingInode = info.Device, info.Inode
	}
}
