package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// checkpointDir is a folder for a checkpoint's files under base, removed
// after the test.
func checkpointDir(t *testing.T, base string) string {
	t.Helper()
	if _, err := os.Stat(base); err != nil {
		testenv.Require(t, base, "the checkpoint runs on that file system: %v", err)
	}
	dir, err := os.MkdirTemp(base, "checkpoint-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// TestCheckpointRuns runs MLPerf Storage's 8B checkpoint scaled to 2.1 MB
// (8 ranks of 256 KiB) for 2 passes on ext4 and on tmpfs: each pass
// writes a file per rank, flushed, and reads it back after the page cache
// is dropped; the summary has each pass's slowest rank and lowest
// rank's bandwidth, and the files are gone once the run completes.
func TestCheckpointRuns(t *testing.T) {
	for _, base := range []string{os.TempDir(), "/dev/shm"} {
		t.Run(base, func(t *testing.T) {
			dir := checkpointDir(t, base)
			p, g := load(t, "testdata/checkpoint.hcl", map[string]string{"dir": dir})
			out, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out")})
			if err != nil {
				t.Fatal(err)
			}
			if out.Failed != 0 || len(out.Records) != 5 {
				t.Fatalf("%d failed of %d records, want 4 passes' steps and the summary", out.Failed, len(out.Records))
			}
			checkPhases(t, out.Records[:4])
			sum := out.Records[4].Checkpoint
			if sum == nil || sum.Ranks != 8 || len(sum.Passes) != 2 || sum.Write == nil || sum.Read == nil || sum.Bytes != 8*256<<10 {
				t.Fatalf("summary %+v, want 8 ranks, 2 passes of 2 MiB written and read", sum)
			}
			for _, pass := range sum.Passes {
				if pass.Write == nil || pass.Read == nil || pass.Write.LowestBW > pass.Write.AggregateBW || pass.Read.Seconds <= 0 {
					t.Errorf("pass %d: %+v / %+v", pass.Pass, pass.Write, pass.Read)
				}
				if os.Geteuid() == 0 && (pass.Read.CacheDrop == nil || pass.Read.CacheDrop.Method != metrics.CacheDropped) {
					t.Errorf("pass %d read back as root without dropping the page cache: %+v", pass.Pass, pass.Read.CacheDrop)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "drivebench-files-d")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the checkpoint's files are left after the run: %v", err)
			}
		})
	}
}

// checkPhases checks the pass steps: a write creates, flushes and closes
// a file per rank; a read-back opens and closes them.
func checkPhases(t *testing.T, recs []*results.Record) {
	t.Helper()
	for i, rec := range recs {
		f := rec.Result.Files
		if rec.Status != results.StatusOK || f == nil || len(f.Jobs) != 8 {
			t.Fatalf("%s: %s %s, %+v", rec.Name, rec.Status, rec.Error, f)
		}
		want := map[string]uint64{metrics.OpCreate: 8, metrics.OpFsync: 8, metrics.OpClose: 8}
		if i%2 == 1 {
			want = map[string]uint64{metrics.OpOpen: 8, metrics.OpClose: 8}
		}
		for op, n := range want {
			if m := f.Op(op); m == nil || m.Count != n {
				t.Errorf("%s: %s %+v, want %d", rec.Name, op, m, n)
			}
		}
	}
}

// TestCheckpointResumes interrupts a checkpoint in its second pass's
// write and resumes it: the resumed run keeps the first pass's steps,
// reruns the second pass only, and the files the interrupted run kept
// are there for it, then removed.
func TestCheckpointResumes(t *testing.T) {
	dir := checkpointDir(t, os.TempDir())
	p, g := load(t, "testdata/checkpoint.hcl", map[string]string{"dir": dir})
	out := filepath.Join(t.TempDir(), "out")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first, err := Run(ctx, p, g, Options{Dir: out, Observe: func(e Event) {
		if e.Kind == StepStarted && e.Node.Checkpoint != nil && e.Node.Checkpoint.Pass == 2 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	root := filepath.Join(dir, "drivebench-files-d")
	if len(first.Kept) != 1 || first.Kept[0] != root {
		t.Fatalf("the interrupted run kept %v, want %s", first.Kept, root)
	}
	if _, err := os.Stat(root); err != nil {
		t.Fatalf("the interrupted run did not keep its files: %v", err)
	}
	var reused, ran []string
	second, err := Run(context.Background(), p, g, Options{Dir: out, Observe: func(e Event) {
		switch e.Kind {
		case StepReused:
			reused = append(reused, e.Node.Name)
		case StepStarted:
			if e.Node.Kind != plan.KindReport {
				ran = append(ran, e.Node.Name)
			}
		}
	}})
	if err != nil || second.Failed != 0 {
		t.Fatalf("resumed run: %v, %d failed", err, second.Failed)
	}
	want := []string{"d / ckpt / pass 2/2 write", "d / ckpt / pass 2/2 read", "d / ckpt"}
	if len(reused) != 2 || !slices.Equal(ran, want) {
		t.Errorf("reused %q and ran %q; want pass 1's two steps kept, and %q run", reused, ran, want)
	}
	if _, err := os.Stat(root); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the files are left after the resumed run completed: %v", err)
	}
}
