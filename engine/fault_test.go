package engine

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/faultfs"
	"github.com/drivebench/drivebench/results"
)

// TestRunOnFailingTarget runs a plan against a FUSE file that returns EIO
// or short transfers at chosen offsets: the step that hits the fault fails
// with the offset and errno, and the other steps still run.
func TestRunOnFailingTarget(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("fault injection mounts a FUSE file system and needs root")
	}
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
				t.Skipf("cannot mount FUSE here: %v", err)
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
