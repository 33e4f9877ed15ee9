package catalog

import (
	"context"
	"math"
	"testing"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// The results folders of real runs on file sets: a checkpoint (two
// passes of 8 ranks, write and read-back) with a small-files profile, and
// examples/ai/dataloader.hcl scaled down by smoke.vars.hcl.
const (
	checkpointRun = "../reports/testdata/checkpoint"
	dataloaderRun = "testdata/dataloader"
)

// records reads a results folder's records by step ID.
func records(t *testing.T, dir string) map[string]*results.Record {
	t.Helper()
	f, err := results.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := f.Records()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*results.Record{}
	for _, r := range recs {
		out[r.StepID] = r
	}
	return out
}

// near says whether two stored figures are the same, but for the
// rounding of a float's text form on its way through the database.
func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// TestAddKeepsFileSetsAndCheckpoints adds the checkpoint run: each step on
// a file set has its set, its jobs and each metadata operation with its
// histogram, read by the figure registry's rows, and the checkpoint its
// passes, whose seconds are their phase steps' slowest job's.
func TestAddKeepsFileSetsAndCheckpoints(t *testing.T) {
	recs := records(t, checkpointRun)
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		ctx := context.Background()
		if _, err := c.Add(ctx, checkpointRun); err != nil {
			t.Fatal(err)
		}
		var sets, jobs, ops int
		for _, r := range recs {
			if r.Result == nil {
				continue
			}
			if f := r.Result.Files; f != nil {
				sets++
				jobs += len(f.Jobs)
				ops += len(f.Ops)
			}
		}
		for table, want := range map[string]int{"step_files": sets, "step_file_jobs": jobs, "step_file_ops": ops, "checkpoints": 1, "checkpoint_phases": 4} {
			if n := count(t, c, table); n != want || n == 0 {
				t.Errorf("%s: %d rows, want %d", table, n, want)
			}
		}
		checkRunCounts(t, c, sets, 1, 0)
		checkStepFiles(t, c, recs)
		checkStepFileOps(t, c, recs)
		checkCheckpointPasses(t, c, recs)
	})
}

// checkStepFiles checks each row of step_files against its step's
// record, its figures as the figure registry reads them.
func checkStepFiles(t *testing.T, c *Catalog, recs map[string]*results.Record) {
	t.Helper()
	eachRow(t, c.db, `SELECT step_id, files, dirs, bytes, setup_created, setup_measured, slowest_job_s, lowest_job_bw_bytes, aggregate_bw_bytes FROM step_files`, func(scan func(...any)) {
		var step string
		var files, dirs, created, measured int
		var bytes int64
		var slowest, lowest, aggregate float64
		scan(&step, &files, &dirs, &bytes, &created, &measured, &slowest, &lowest, &aggregate)
		f := recs[step].Result.Files
		if files != f.Files || dirs != f.Dirs || bytes != f.Bytes || created != f.Setup.Created || measured != flag(f.Setup.Measured) {
			t.Errorf("step_files of %s: %d files, %d dirs, %d bytes, %d created, measured %d; the record has %+v", step, files, dirs, bytes, created, measured, f)
		}
		for name, got := range map[string]float64{"slowest_job_s": slowest, "lowest_job_bw": lowest, "aggregate_bw": aggregate} {
			if want := figure.Lookup(name).ReadFiles(f); !near(got, want) || want == 0 {
				t.Errorf("step_files of %s: %s = %g, the registry reads %g", step, name, got, want)
			}
		}
	})
}

// checkStepFileOps checks that each metadata operation's p99 is its
// registry row's figure (create_p99...), and that its histogram counts
// every call.
func checkStepFileOps(t *testing.T, c *Catalog, recs map[string]*results.Record) {
	t.Helper()
	eachRow(t, c.db, `SELECT step_id, op, count, p99_ns, lat_max_ns, histogram FROM step_file_ops`, func(scan func(...any)) {
		var step, op string
		var n, p99, maxNs int64
		var blob []byte
		scan(&step, &op, &n, &p99, &maxNs, &blob)
		f := recs[step].Result.Files
		m := f.Op(op)
		var h metrics.Histogram
		if err := h.UnmarshalBinary(blob); err != nil {
			t.Fatalf("histogram of %s of %s: %v", op, step, err)
		}
		if int64(m.Count) != n || h.Count() != m.Count || maxNs != int64(m.Lat.Max) {
			t.Errorf("%s of %s: count %d, histogram of %d, max %d; the record has %d calls, max %d", op, step, n, h.Count(), maxNs, m.Count, m.Lat.Max)
		}
		if want := figure.Lookup(op + "_p99").ReadFiles(f); float64(p99) != want {
			t.Errorf("%s of %s: p99_ns %d, the registry's %s_p99 reads %g", op, step, p99, op, want)
		}
	})
}

// checkCheckpointPasses asks a user's question: seconds per pass of the
// checkpoint, with the slowest rank read back from its phase step's
// jobs; and the mean write seconds are the checkpoint summary's.
func checkCheckpointPasses(t *testing.T, c *Catalog, recs map[string]*results.Record) {
	t.Helper()
	tab, err := c.Query(context.Background(), `SELECT p.pass, p.phase, p.seconds, MAX(j.seconds), p.cache_drop, k.ranks
		FROM checkpoint_phases p JOIN checkpoints k ON k.run_id = p.run_id AND k.step_id = p.step_id
		JOIN step_file_jobs j ON j.run_id = p.run_id AND j.step_id = p.phase_step_id
		GROUP BY p.pass, p.phase, p.seconds, p.cache_drop, k.ranks ORDER BY p.pass, p.phase DESC`)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]any{{1, "write", "", 8}, {1, "read", "drop_caches", 8}, {2, "write", "", 8}, {2, "read", "drop_caches", 8}}
	if len(tab.Rows) != len(want) {
		t.Fatalf("checkpoint passes: %v", tab.Rows)
	}
	for i, r := range tab.Rows {
		if toInt(r[0]) != want[i][0] || r[1] != want[i][1] || r[4] != want[i][2] || toInt(r[5]) != want[i][3] {
			t.Errorf("pass row %d: %v, want pass, phase, cache drop and ranks %v", i, r, want[i])
		}
		if s, slowest := r[2].(float64), r[3].(float64); !near(s, slowest) || s <= 0 {
			t.Errorf("pass row %d: %g seconds, its slowest rank %g", i, s, slowest)
		}
	}
	var mean float64
	if err := c.db.QueryRow(`SELECT AVG(seconds) FROM checkpoint_phases WHERE phase = 'write'`).Scan(&mean); err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Checkpoint != nil && !near(mean, r.Checkpoint.Write.Seconds) {
			t.Errorf("mean write seconds %g, the summary's %g", mean, r.Checkpoint.Write.Seconds)
		}
	}
}

// TestAddKeepsDataloaders adds a dataloader run: each step's AU,
// samples/s and batch wait, read by the figure registry's rows, with the
// histogram of the batch waits.
func TestAddKeepsDataloaders(t *testing.T) {
	recs := records(t, dataloaderRun)
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		if _, err := c.Add(context.Background(), dataloaderRun); err != nil {
			t.Fatal(err)
		}
		var sources []string
		eachRow(t, c.db, `SELECT d.step_id, s.source, d.samples, d.batches, d.au, d.samples_per_s, d.batch_wait_mean_ns, d.batch_wait_p50_ns,
			d.batch_wait_p99_ns, d.batch_wait_max_ns, d.batch_wait_histogram
			FROM step_dataloader d JOIN steps s ON s.run_id = d.run_id AND s.step_id = d.step_id ORDER BY s.source`, func(scan func(...any)) {
			var step, source string
			var samples, batches int64
			var au, rate, mean, p50, p99, maxNs float64
			var blob []byte
			scan(&step, &source, &samples, &batches, &au, &rate, &mean, &p50, &p99, &maxNs, &blob)
			sources = append(sources, source)
			d := recs[step].Result.Dataloader
			if uint64(samples) != d.Samples || uint64(batches) != d.Batches || d.Samples == 0 {
				t.Errorf("%s: %d samples in %d batches, the record %d in %d", source, samples, batches, d.Samples, d.Batches)
			}
			for name, got := range map[string]float64{"au": au, "samples_per_s": rate, "batch_wait_mean": mean, "batch_wait_p50": p50, "batch_wait_p99": p99, "batch_wait_max": maxNs} {
				if want := figure.Lookup(name).ReadDataloader(d); !near(got, want) {
					t.Errorf("%s: %s = %g, the registry reads %g", source, name, got, want)
				}
			}
			var h metrics.Histogram
			if err := h.UnmarshalBinary(blob); err != nil || h.Count() != d.Batches {
				t.Errorf("%s: batch wait histogram of %d batches (%v), want %d", source, h.Count(), err, d.Batches)
			}
		})
		if len(sources) != 3 || sources[0] != "cosmoflow" || sources[1] != "resnet50" || sources[2] != "unet3d" {
			t.Errorf("dataloader steps: %v, want cosmoflow, resnet50, unet3d", sources)
		}
		// Each dataloader read a file set too.
		checkRunCounts(t, c, 3, 0, 3)
	})
}

// checkRunCounts fails unless ls lists the catalog's one run with these
// counts of steps on file sets, checkpoints and dataloader steps.
func checkRunCounts(t *testing.T, c *Catalog, sets, checkpoints, dataloaders int) {
	t.Helper()
	runs, err := c.Runs(context.Background(), Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].FileSets != sets || runs[0].Checkpoints != checkpoints || runs[0].Dataloaders != dataloaders {
		t.Errorf("ls: %+v, want one run of %d steps on file sets, %d checkpoints, %d dataloaders", runs, sets, checkpoints, dataloaders)
	}
}

// toInt is an integer cell of a query's table, as either driver hands it.
func toInt(v any) any {
	switch x := v.(type) {
	case int64:
		return int(x)
	case int32:
		return int(x)
	}
	return v
}
