package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// TestFileSetRunRemovesItsFiles runs a plan that writes a file set and
// reads it back, on ext4 (/tmp) and on tmpfs (/dev/shm): the read finds
// the files the write made, each step's record has its metadata figures,
// and once the run completes drivebench's folder is gone and the file
// that was in the directory before is not.
func TestFileSetRunRemovesItsFiles(t *testing.T) {
	for _, base := range []string{os.TempDir(), "/dev/shm"} {
		t.Run(base, func(t *testing.T) {
			if _, err := os.Stat(base); err != nil {
				testenv.Require(t, base, "the file set runs on that file system: %v", err)
			}
			dir, err := os.MkdirTemp(base, "fileset-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			keep := filepath.Join(dir, "theirs.txt")
			if err := os.WriteFile(keep, []byte("not drivebench's"), 0o644); err != nil {
				t.Fatal(err)
			}
			p, g := load(t, "testdata/fileset.hcl", map[string]string{"dir": dir})
			out, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out")})
			if err != nil {
				t.Fatal(err)
			}
			if out.Failed != 0 || len(out.Records) != 2 {
				t.Fatalf("%d failed of %d records", out.Failed, len(out.Records))
			}
			checkWriteSet(t, out.Records[0])
			checkReadSet(t, out.Records[1])
			if _, err := os.Stat(filepath.Join(dir, "drivebench-files-d")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the file sets' folder is left after the run: %v", err)
			}
			if _, err := os.Stat(keep); err != nil {
				t.Errorf("a file drivebench did not make is gone: %v", err)
			}
		})
	}
}

func checkWriteSet(t *testing.T, rec *results.Record) {
	t.Helper()
	f := rec.Result.Files
	if rec.Status != results.StatusOK || f == nil || rec.Result.Write == nil || rec.Result.Write.Bytes != 8*256<<10 {
		t.Fatalf("write_set: %s %s, files %+v", rec.Status, rec.Error, f)
	}
	if f.Op(metrics.OpClose).Count != 8 || f.Op(metrics.OpFsync).Count != 8 || len(f.Jobs) != 2 || f.Setup.Created != 8 {
		t.Errorf("write_set: %+v, want 8 closes and flushes, 2 jobs, 8 files made", f)
	}
	if len(rec.Verdicts) != 3 {
		t.Fatalf("write_set: %d verdicts, want its 3 expectations on result.files judged", len(rec.Verdicts))
	}
	for _, v := range rec.Verdicts {
		if v.Status != results.VerdictPass {
			t.Errorf("write_set: %s %s: %s", v.Subject, v.Status, v.Message)
		}
	}
}

func checkReadSet(t *testing.T, rec *results.Record) {
	t.Helper()
	f := rec.Result.Files
	if rec.Status != results.StatusOK || f == nil || rec.Result.Read == nil || rec.Result.Read.Bytes != 1<<20 {
		t.Fatalf("read_set: %s %s, files %+v", rec.Status, rec.Error, f)
	}
	if f.Setup.Reused != 8 || f.Setup.Created != 0 {
		t.Errorf("read_set setup %+v, want the 8 files the write made", f.Setup)
	}
	if os.Geteuid() == 0 && (rec.Result.CacheDrop == nil || rec.Result.CacheDrop.Method != metrics.CacheDropped) {
		t.Errorf("read_set ran as root and did not drop the page cache: %+v", rec.Result.CacheDrop)
	}
}

// TestDirectoryDriveFolderItMade: a directory drive's folder that the run
// created goes when the run completes, as its file sets do; one that
// holds a file the run did not make stays with it.
func TestDirectoryDriveFolderItMade(t *testing.T) {
	for _, other := range []bool{false, true} {
		t.Run(fmt.Sprintf("other file %v", other), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "made")
			p, g := load(t, "testdata/fileset.hcl", map[string]string{"dir": dir})
			opt := Options{Dir: filepath.Join(t.TempDir(), "out")}
			if other {
				// A file put in the folder while the run uses it.
				opt.Observe = func(e Event) {
					if e.Kind == StepFinished {
						os.WriteFile(filepath.Join(dir, "theirs.txt"), []byte("not drivebench's"), 0o644)
					}
				}
			}
			out, err := Run(context.Background(), p, g, opt)
			if err != nil || out.Failed != 0 {
				t.Fatalf("%v, %d failed", err, out.Failed)
			}
			_, err = os.Stat(dir)
			if gone := errors.Is(err, os.ErrNotExist); gone == other {
				t.Errorf("the folder the run made: gone %v (%v), want gone %v", gone, err, !other)
			}
		})
	}
}
