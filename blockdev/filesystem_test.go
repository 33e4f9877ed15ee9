//go:build linux

package blockdev

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestFileSystemOf names a file's file system from the mount table entry
// of its device, the last one when two mounts share it, and falls back
// to statfs's magic number when no entry has it.
func TestFileSystemOf(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "data")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	var fs unix.Statfs_t
	if err := unix.Stat(file, &st); err != nil {
		t.Fatal(err)
	}
	if err := unix.Statfs(file, &fs); err != nil {
		t.Fatal(err)
	}
	dev := fmt.Sprintf("%d:%d", unix.Major(st.Dev), unix.Minor(st.Dev))
	for _, c := range []struct{ name, mountinfo, want string }{
		{"its device", "36 35 " + dev + " / / rw - xfs /dev/sdb1 rw\n", "xfs"},
		{"the last mount of it", "36 35 " + dev + " / / rw - xfs /dev/sdb1 rw\n37 36 " + dev + " / /mnt rw - ext4 /dev/sdb1 rw\n", "ext4"},
		{"no mount of it", "36 35 0:999 / / rw - xfs /dev/sdb1 rw\n", fmt.Sprintf("%#x", uint64(fs.Type))},
	} {
		t.Run(c.name, func(t *testing.T) {
			mi := filepath.Join(t.TempDir(), "mountinfo")
			if err := os.WriteFile(mi, []byte(c.mountinfo), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := System{Mountinfo: mi}.FileSystemOf(file)
			if err != nil || got.Type != c.want || got.Memory != (fs.Type == unix.TMPFS_MAGIC) {
				t.Errorf("got %+v, %v; want type %s", got, err, c.want)
			}
		})
	}
	if _, err := Host.FileSystemOf(filepath.Join(dir, "absent")); err == nil {
		t.Error("a missing file has a file system")
	}
}
