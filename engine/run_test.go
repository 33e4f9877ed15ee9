package engine

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

func load(t *testing.T, file string, vars map[string]string) (*plan.Plan, *plan.Graph) {
	t.Helper()
	p, _, diags := plan.Load(file, plan.LoadOptions{Vars: vars})
	if diags.HasErrors() {
		t.Fatalf("%s: %s", file, diags.Error())
	}
	return p, plan.Expand(p)
}

func TestRunWritesEveryRecordAndRemovesScratch(t *testing.T) {
	p, g := load(t, "testdata/small.hcl", nil)
	dir := filepath.Join(t.TempDir(), "out")
	out, err := Run(context.Background(), p, g, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if out.Failed != 0 || len(out.Records) != len(g.Nodes)-1 {
		t.Fatalf("%d failed, %d records for %d nodes (every one but the report)", out.Failed, len(out.Records), len(g.Nodes))
	}
	fill := out.Records[0]
	if fill.Result.Write == nil || fill.Result.Write.Bytes != 16<<20 {
		t.Errorf("fill wrote %+v, want exactly the 16 MiB drive", fill.Result.Write)
	}
	if _, err := os.Stat(filepath.Join(dir, "scratch-d.img")); !os.IsNotExist(err) {
		t.Errorf("scratch file left behind: %v", err)
	}
	folder, err := results.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(folder.Manifest.Steps) != len(g.Nodes) || folder.Manifest.Testbed.Detected["cpus"] == "" {
		t.Errorf("manifest: %+v", folder.Manifest)
	}
}

// TestRunResumesCompleteSteps: the same plan pointed at the same folder
// keeps every complete step instead of measuring it again.
func TestRunResumesCompleteSteps(t *testing.T) {
	p, g := load(t, "testdata/small.hcl", nil)
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Run(context.Background(), p, g, Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	var reused int
	out, err := Run(context.Background(), p, g, Options{Dir: dir, Observe: func(e Event) {
		if e.Kind == StepReused {
			reused++
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if reused != len(g.Nodes)-1 || len(out.Records) != len(g.Nodes)-1 {
		t.Errorf("reused %d of %d steps", reused, len(g.Nodes)-1)
	}
}

// TestRunNeverWritesAnUnwritableFile: reads of an existing file leave it
// byte for byte as it was, and a plan that would write is refused before
// any I/O.
func TestRunNeverWritesAnUnwritableFile(t *testing.T) {
	target := filepath.Join(t.TempDir(), "data.bin")
	content := bytes.Repeat([]byte("drivebench data!"), 1<<20) // 16 MiB, the size small.hcl gives the drive
	if err := os.WriteFile(target, content, 0o644); err != nil {
		t.Fatal(err)
	}
	p, g := load(t, "testdata/readonly.hcl", map[string]string{"target": target})
	out, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out")})
	if err != nil || out.Failed != 0 {
		t.Fatalf("read-only run: %v, %+v", err, out)
	}
	if got, _ := os.ReadFile(target); !bytes.Equal(got, content) {
		t.Fatal("a read-only run changed the target")
	}

	p, g = load(t, "testdata/small.hcl", map[string]string{"target": target})
	p.Drives[0].Writable = false
	_, err = Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out2")})
	if err == nil || !strings.Contains(err.Error(), "writable = true") {
		t.Fatalf("write to an unwritable drive: %v", err)
	}
	if got, _ := os.ReadFile(target); !bytes.Equal(got, content) {
		t.Fatal("a refused run changed the target")
	}
}

// TestRunInterrupted: cancelling stops the running step promptly, keeps
// its partial record marked interrupted and runs nothing after it.
func TestRunInterrupted(t *testing.T) {
	p, g := load(t, "testdata/long.hcl", nil)
	dir := filepath.Join(t.TempDir(), "out")
	ctx, cancel := context.WithCancel(context.Background())
	observe := func(e Event) {
		if e.Kind == StepLive {
			cancel()
		}
	}
	start := time.Now()
	out, err := Run(ctx, p, g, Options{Dir: dir, Observe: observe})
	if err == nil || ctx.Err() == nil {
		t.Fatalf("Run returned %v after cancellation", err)
	}
	if time.Since(start) > 30*time.Second {
		t.Errorf("a cancelled one-minute step ran for %v", time.Since(start))
	}
	if len(out.Records) != 1 || out.Records[0].Status != results.StatusInterrupted || out.Records[0].Result == nil {
		t.Fatalf("records after interruption: %+v", out.Records)
	}
	folder, _ := results.Open(dir)
	if rec, err := folder.ReadRecord(out.Records[0].StepID); err != nil || rec.Status != results.StatusInterrupted {
		t.Errorf("interrupted record on disk: %v %+v", err, rec)
	}
}

// TestRunParallelDrives: with parallel = true the drives' steps overlap in
// time; by default one drive finishes before the next starts.
func TestRunParallelDrives(t *testing.T) {
	for _, parallel := range []bool{false, true} {
		p, g := load(t, "testdata/two-drives.hcl", nil)
		g.Parallel = parallel
		out, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out")})
		if err != nil || out.Failed != 0 || len(out.Records) != 2 {
			t.Fatalf("parallel=%v: %v, %+v", parallel, err, out)
		}
		a, b := out.Records[0], out.Records[1]
		overlap := a.Started.Before(b.Finished) && b.Started.Before(a.Finished)
		if overlap != parallel {
			t.Errorf("parallel=%v: steps overlap=%v (a %v-%v, b %v-%v)", parallel, overlap, a.Started, a.Finished, b.Started, b.Finished)
		}
	}
}

// TestRunOnError: a failed step is recorded with its error; the plan's
// on_error decides whether the steps after it run.
func TestRunOnError(t *testing.T) {
	target := filepath.Join(t.TempDir(), "small.bin")
	if err := os.WriteFile(target, make([]byte, 64<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		onError string
		records int
	}{{"", 2}, {"continue", 2}, {"abort", 1}} {
		p, g := load(t, "testdata/failing.hcl", map[string]string{"target": target})
		p.OnError = tc.onError
		out, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out")})
		var abort *AbortError
		if (tc.onError == "abort") != errors.As(err, &abort) {
			t.Errorf("on_error=%q: error %v", tc.onError, err)
		}
		if len(out.Records) != tc.records || out.Failed != 1 || !strings.Contains(out.Records[0].Error, "offset") {
			t.Errorf("on_error=%q: %d records, %d failed, first error %q", tc.onError, len(out.Records), out.Failed, out.Records[0].Error)
		}
	}
}

// TestRunStopsAtSteadyState: once the tracked figure is steady after
// round R, every node of rounds after R is skipped and says why, and every
// node up to R ran. (Which round that is depends on the machine's noise;
// the rule itself is tested with exact numbers in package steady.)
func TestRunStopsAtSteadyState(t *testing.T) {
	p, g := load(t, "testdata/steady.hcl", nil)
	out, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out")})
	if err != nil {
		t.Fatal(err)
	}
	var last *results.SteadyState
	for _, rec := range out.Records {
		if rec.SteadyState != nil {
			last = rec.SteadyState
		}
	}
	if last == nil {
		t.Fatal("no record carries the steady-state judgement")
	}
	reachedAt := len(last.Rounds)
	if last.Reached == last.Exhausted || (last.Exhausted && reachedAt != 6) || reachedAt < 3 {
		t.Fatalf("judgement %+v", last)
	}
	for i, n := range g.Nodes[:len(g.Nodes)-1] {
		rec := out.Records[i]
		wantSkip := n.Round > reachedAt
		if (rec.Status == results.StatusSkipped) != wantSkip {
			t.Errorf("%s: %s, reached after round %d", rec.Name, rec.Status, reachedAt)
		}
		if wantSkip && !strings.Contains(rec.Error, "steady state reached over rounds") {
			t.Errorf("%s skipped with %q", rec.Name, rec.Error)
		}
	}
}

// TestRunSwitchesEngines: the same plan runs on fio by changing one
// attribute, and gives records of the same shape, with fio's job file kept
// beside each record.
func TestRunSwitchesEngines(t *testing.T) {
	testenv.Command(t, "fio", "fio")
	p, g := load(t, "testdata/small.hcl", map[string]string{"engine": "fio"})
	dir := filepath.Join(t.TempDir(), "out")
	out, err := Run(context.Background(), p, g, Options{Dir: dir})
	if err != nil || out.Failed != 0 {
		for _, rec := range out.Records {
			t.Logf("%s: %s %s", rec.Name, rec.Status, rec.Error)
		}
		t.Fatalf("run on fio: %v", err)
	}
	for _, rec := range out.Records {
		if rec.Engine != "fio" || rec.Result == nil || (rec.Result.Read == nil && rec.Result.Write == nil) {
			t.Errorf("%s: engine %s, result %+v", rec.Name, rec.Engine, rec.Result)
		}
		if _, err := os.Stat(filepath.Join(dir, "steps", rec.StepID+".fio")); err != nil {
			t.Errorf("%s: job file not kept: %v", rec.Name, err)
		}
	}
	if w := out.Records[0].Result.Write; w == nil || w.Bytes != 16<<20 {
		t.Errorf("fio fill wrote %+v, want the whole 16 MiB drive", w)
	}
}
