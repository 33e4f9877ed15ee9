//go:build linux

package blockdev

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// FileSystem is what holds a regular file: the file system's type and
// whether it keeps its files in memory.
type FileSystem struct {
	// Type is the type the mount table gives the file system ("ext4",
	// "xfs", "tmpfs"), or statfs's magic number in hex ("0x9123683e")
	// when no mount has the file's device.
	Type string
	// Memory is set for tmpfs and ramfs (statfs's magic): their files
	// live in memory, and I/O on them, O_DIRECT or not, reaches no drive.
	Memory bool
}

// FileSystemOf finds the file system that holds path: statfs(2) says
// whether it lives in memory, and the mount table entry with the file's
// device names its type (the last such entry, as a later mount hides an
// earlier one).
func (s System) FileSystemOf(path string) (FileSystem, error) {
	var fs unix.Statfs_t
	if err := unix.Statfs(path, &fs); err != nil {
		return FileSystem{}, &os.PathError{Op: "statfs", Path: path, Err: err}
	}
	out := FileSystem{
		Type:   fmt.Sprintf("%#x", uint64(fs.Type)),
		Memory: fs.Type == unix.TMPFS_MAGIC || fs.Type == unix.RAMFS_MAGIC,
	}
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return out, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	f, err := os.Open(s.Mountinfo)
	if err != nil {
		return out, err
	}
	defer f.Close()
	mounts, err := parseMountinfo(f)
	if err != nil {
		return out, fmt.Errorf("%s: %w", s.Mountinfo, err)
	}
	for _, m := range mounts {
		if m.dev == st.Dev {
			out.Type = m.fstype
		}
	}
	return out, nil
}
