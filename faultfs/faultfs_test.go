package faultfs

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/drivebench/drivebench/internal/testenv"
)

// mountOrSkip mounts a 1 MiB file with faults, ending the test where
// FUSE cannot be mounted (not root, no /dev/fuse).
func mountOrSkip(t *testing.T, faults []Fault) *Mount {
	t.Helper()
	testenv.Root(t, "faultfs tests mount FUSE file systems")
	if _, err := os.Stat("/dev/fuse"); err != nil {
		testenv.Require(t, "/dev/fuse", "%v (modprobe fuse)", err)
	}
	dir := t.TempDir()
	backing := filepath.Join(dir, "backing")
	if err := os.WriteFile(backing, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	mnt := filepath.Join(dir, "mnt")
	os.Mkdir(mnt, 0o755)
	m, err := New(mnt, backing, faults)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func TestFaults(t *testing.T) {
	m := mountOrSkip(t, []Fault{
		{Op: Read, Offset: 8192 + 100, Kind: EIO},
		{Op: Write, Offset: 65536, Kind: EIO},
		{Op: Read, Offset: 20480 + 1000, Kind: Short},
	})
	f, err := os.OpenFile(m.Path(), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	cases := []struct {
		name    string
		do      func() (int, error)
		wantN   int
		wantErr error
	}{
		{"clean read", func() (int, error) { return f.ReadAt(buf, 0) }, 4096, nil},
		{"read over the EIO offset", func() (int, error) { return f.ReadAt(buf, 8192) }, 0, syscall.EIO},
		{"write over the read fault", func() (int, error) { return f.WriteAt(buf, 8192) }, 4096, nil},
		{"write over the write fault", func() (int, error) { return f.WriteAt(buf, 65536) }, 0, syscall.EIO},
		{"short read", func() (int, error) { return syscall.Pread(int(f.Fd()), buf, 20480) }, 1000, nil},
	}
	for _, tc := range cases {
		n, err := tc.do()
		if n != tc.wantN || !errors.Is(err, tc.wantErr) {
			t.Errorf("%s: %d bytes, %v; want %d, %v", tc.name, n, err, tc.wantN, tc.wantErr)
		}
	}
	if m.Injected() != 3 {
		t.Errorf("%d faults injected, want 3", m.Injected())
	}
}
