package engine

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/drivebench/drivebench/faultfs"
	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/results"
)

// TestRunOnFailingTarget runs a plan against a FUSE file that returns EIO
// or short transfers at chosen offsets: the step that hits the fault fails
// with the offset and errno, and the other steps still run.
func TestRunOnFailingTarget(t *testing.T) {
	testenv.Root(t, "fault injection mounts a FUSE file system")
	cases := []struct {
		name     string
		fault    faultfs.Fault
		readErr  string
		writeErr string
	}{
		{"read EIO", faultfs.Fault{Op: faultfs.Read, Offset: 300_000, Kind: faultfs.EIO}, "pread", ""},
		{"short read", faultfs.Fault{Op: faultfs.Read, Offset: 300_000, Kind: faultfs.Short}, "short", ""},
		{"write EIO", faultfs.Fault{Op: faultfs.Write, Offset: 700_000, Kind: faultfs.EIO}, "", "pwrite"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			backing := filepath.Join(dir, "backing")
			if err := os.WriteFile(backing, make([]byte, 1<<20), 0o644); err != nil {
				t.Fatal(err)
			}
			mnt := filepath.Join(dir, "mnt")
			os.Mkdir(mnt, 0o755)
			m, err := faultfs.New(mnt, backing, []faultfs.Fault{tc.fault})
			if err != nil {
				testenv.Require(t, "a FUSE mount", "%v", err)
			}
			defer m.Close()
			p, g := load(t, "testdata/faulty.hcl", map[string]string{"target": m.Path()})
			out, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(dir, "out")})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Records) != 2 {
				t.Fatalf("%d records, want both steps", len(out.Records))
			}
			expectStep(t, out.Records[0], tc.readErr, tc.fault.Offset/4096*4096)
			expectStep(t, out.Records[1], tc.writeErr, tc.fault.Offset/65536*65536)
		})
	}
}

// expectStep checks a step failed with the errno text and the offset of
// the failing I/O, or succeeded when wantErr is empty.
func expectStep(t *testing.T, rec *results.Record, wantErr string, offset int64) {
	t.Helper()
	if wantErr == "" {
		if rec.Status != results.StatusOK {
			t.Errorf("%s: %s %s", rec.Name, rec.Status, rec.Error)
		}
		return
	}
	if rec.Status != results.StatusFailed || !strings.Contains(rec.Error, wantErr) ||
		!strings.Contains(rec.Error, "offset "+strconv.FormatInt(offset, 10)) {
		t.Errorf("%s: %s %q; want a failure naming %q at offset %d", rec.Name, rec.Status, rec.Error, wantErr, offset)
	}
	if rec.Result == nil {
		t.Errorf("%s: the partial result was lost", rec.Name)
	}
}

// TestRunResultsDiskFull fills the results folder's disk after the first
// step: the run stops with a clear error and the first record is intact.
func TestRunResultsDiskFull(t *testing.T) {
	testenv.Root(t, "mounting a small tmpfs for the results folder needs root")
	dir := t.TempDir()
	target := filepath.Join(dir, "target.bin")
	if err := os.WriteFile(target, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(dir, "small")
	os.Mkdir(small, 0o755)
	if err := syscall.Mount("tmpfs", small, "tmpfs", 0, "size=2m"); err != nil {
		testenv.Require(t, "a tmpfs mount", "%v", err)
	}
	defer syscall.Unmount(small, 0)
	p, g := load(t, "testdata/two-reads.hcl", map[string]string{"target": target})
	observe := func(e Event) {
		if e.Kind == StepFinished && e.Index == 0 {
			fillDisk(t, small)
		}
	}
	out, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(small, "out"), Observe: observe})
	if err == nil || !strings.Contains(err.Error(), "disk of the results folder is full") || !strings.Contains(err.Error(), "-resume") {
		t.Fatalf("Run on a full disk: %v", err)
	}
	folder, ferr := results.Open(filepath.Join(small, "out"))
	if ferr != nil {
		t.Fatal(ferr)
	}
	if rec, err := folder.ReadRecord(out.Records[0].StepID); err != nil || rec.Status != results.StatusOK {
		t.Errorf("first record after the disk filled: %v", err)
	}
}

// fillDisk writes a file until the file system at dir has no space left.
func fillDisk(t *testing.T, dir string) {
	f, err := os.Create(filepath.Join(dir, "ballast"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			return
		}
	}
}
