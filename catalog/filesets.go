package catalog

import (
	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// The figures of a step on a file set (step_files), of a dataloader
// (step_dataloader) and of a trace replay (step_replay): the figure
// registry's rows of each kind's place that have a column there
// (figure.KindColumn), read by those rows and named by them; and the
// latency figures of step_latency (figure.Column) that each metadata
// operation's row of step_file_ops holds.
var (
	fileSetColumns    = kindFigures(figure.Files)
	dataloaderColumns = kindFigures(figure.Dataloader)
	replayColumns     = kindFigures(figure.Replay)
	fileOpColumns     = opFigures()
)

// kindFigures are the figures of place p (a kind of step's) that its
// table has a column for, in the registry's order.
func kindFigures(p figure.Place) []*figure.Figure {
	var out []*figure.Figure
	for _, f := range figure.In(p) {
		if f.In&figure.KindColumn != 0 {
			out = append(out, f)
		}
	}
	return out
}

// opFigures are the latency figures of step_latency, which a metadata
// operation's row of step_file_ops holds too.
func opFigures() []*figure.Figure {
	var out []*figure.Figure
	for _, f := range figure.In(figure.Column) {
		if f.Latency != "" {
			out = append(out, f)
		}
	}
	return out
}

// columnNames are the names of figures' columns in place p, figure.Column
// or figure.KindColumn.
func columnNames(p figure.Place, figs []*figure.Figure) []string {
	out := make([]string, len(figs))
	for i, f := range figs {
		out[i] = f.Key(p)
	}
	return out
}

// fileRows collects the rows of the tables of file sets, checkpoints,
// dataloaders and trace replays, which each reference a row of steps
// (checkpoint_phases one of checkpoints).
type fileRows struct {
	sets, ops, jobs, checkpoints, phases, loaders, replays *batch
}

func newFileRows() *fileRows {
	return &fileRows{
		sets: newBatch("step_files", append([]string{"run_id", "step_id", "files", "dirs", "bytes",
			"setup_created", "setup_reused", "setup_seconds", "setup_measured"}, columnNames(figure.KindColumn, fileSetColumns)...)...),
		ops:         newBatch("step_file_ops", append(append([]string{"run_id", "step_id", "op", "count"}, columnNames(figure.Column, fileOpColumns)...), "histogram")...),
		jobs:        newBatch("step_file_jobs", "run_id", "step_id", "job", "bytes", "seconds", "bw_bytes"),
		checkpoints: newBatch("checkpoints", "run_id", "step_id", "ranks", "bytes", "file_per_rank"),
		phases: newBatch("checkpoint_phases", "run_id", "step_id", "pass", "phase", "phase_step_id", "seconds",
			"lowest_rank_bw_bytes", "aggregate_bw_bytes", "cache_drop"),
		loaders: newBatch("step_dataloader", append(append([]string{"run_id", "step_id", "samples", "batches", "epochs", "compute_ns"},
			columnNames(figure.KindColumn, dataloaderColumns)...), "batch_wait_histogram")...),
		replays: newBatch("step_replay", append(append([]string{"run_id", "step_id", "trace_ios", "trace_bytes", "issued_ios", "issued_bytes",
			"trace_ns", "schedule_ns", "speed", "iodepth", "slot_waits"}, columnNames(figure.KindColumn, replayColumns)...), "lag_histogram")...),
	}
}

// batches are the tables in the order of their foreign keys.
func (b *fileRows) batches() []*batch {
	return []*batch{b.sets, b.ops, b.jobs, b.checkpoints, b.phases, b.loaders, b.replays}
}

// add puts in the rows of one record.
func (b *fileRows) add(runID string, rec *results.Record) {
	if res := rec.Result; res != nil {
		if res.Files != nil {
			b.addFiles(runID, rec.StepID, res.Files)
		}
		if res.Dataloader != nil {
			b.addDataloader(runID, rec.StepID, res.Dataloader)
		}
		if res.Replay != nil {
			b.addReplay(runID, rec.StepID, res.Replay)
		}
	}
	if rec.Checkpoint != nil {
		b.addCheckpoint(runID, rec.StepID, rec.Checkpoint)
	}
}

func (b *fileRows) addFiles(runID, stepID string, f *metrics.FileSetStats) {
	row := []any{runID, stepID, f.Files, f.Dirs, f.Bytes, f.Setup.Created, f.Setup.Reused, f.Setup.Seconds, flag(f.Setup.Measured)}
	for _, fig := range fileSetColumns {
		row = append(row, fig.ReadFiles(f))
	}
	b.sets.add(row...)
	for _, op := range f.Ops {
		// An operation's latencies are read as a direction's are, by the
		// same rows and from its histogram where it kept one.
		d := &metrics.DirStats{IOs: op.Count, Lat: op.Lat, Hist: op.Hist}
		row := []any{runID, stepID, op.Op, int64(op.Count)}
		for _, fig := range fileOpColumns {
			row = append(row, columnValue(fig, d))
		}
		b.ops.add(append(row, histogramBytes(op.Hist))...)
	}
	for i, j := range f.Jobs {
		var bw float64
		if j.Seconds > 0 {
			bw = float64(j.Bytes) / j.Seconds
		}
		b.jobs.add(runID, stepID, i, int64(j.Bytes), j.Seconds, bw)
	}
}

func (b *fileRows) addDataloader(runID, stepID string, d *metrics.Dataloader) {
	row := []any{runID, stepID, int64(d.Samples), int64(d.Batches), d.Epochs, d.ComputeNs}
	for _, fig := range dataloaderColumns {
		row = append(row, fig.ReadDataloader(d))
	}
	b.loaders.add(append(row, histogramBytes(d.BatchWaitHist))...)
}

func (b *fileRows) addReplay(runID, stepID string, r *metrics.ReplayStats) {
	row := []any{runID, stepID, r.TraceIOs, r.TraceBytes, r.IssuedIOs, r.IssuedBytes, r.TraceNs, r.ScheduleNs, r.Speed, r.IODepth, r.SlotWaits}
	for _, fig := range replayColumns {
		row = append(row, fig.ReadReplay(r))
	}
	b.replays.add(append(row, histogramBytes(r.LagHist))...)
}

func (b *fileRows) addCheckpoint(runID, stepID string, c *results.Checkpoint) {
	b.checkpoints.add(runID, stepID, c.Ranks, c.Bytes, flag(c.FilePerRank))
	for _, p := range c.Passes {
		for _, ph := range []struct {
			name  string
			phase *results.CheckpointPhase
		}{{"write", p.Write}, {"read", p.Read}} {
			if x := ph.phase; x != nil {
				var drop string
				if x.CacheDrop != nil {
					drop = x.CacheDrop.Method
				}
				b.phases.add(runID, stepID, p.Pass, ph.name, x.Step, x.Seconds, x.LowestBW, x.AggregateBW, drop)
			}
		}
	}
}

// histogramBytes is h in the metrics package's binary form, nil for none.
func histogramBytes(h *metrics.Histogram) any {
	if h == nil {
		return nil
	}
	bin, _ := h.MarshalBinary()
	return bin
}

// flag is a yes or no as the catalog stores it, 1 or 0.
func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}
