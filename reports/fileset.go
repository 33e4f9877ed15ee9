package reports

import (
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// kindCheckpoint is a checkpoint's summary step.
const kindCheckpoint = "checkpoint"

// FileSetRun is one step on a file set: the set, how it was made ready
// and the file operations the step timed.
type FileSetRun struct {
	StepID string `json:"step_id"`
	// Step is the step's name ("nvme / small_files").
	Step   string `json:"step"`
	Drive  string `json:"drive"`
	Status string `json:"status"`
	Files  int    `json:"files"`
	Dirs   int    `json:"dirs"`
	// Bytes is the set's size; 0 without a result.
	Bytes int64 `json:"bytes"`
	// Setup is how the set was made ready before the step measured;
	// absent without a result.
	Setup *FileSetSetup `json:"setup,omitempty"`
	// Metadata are the file operations the step timed, in record order
	// (create, stat, open, close, fsync, unlink); [] without a result.
	Metadata []MetadataOp `json:"metadata"`
	// CacheDrop is how the step emptied the page cache before it
	// measured (drop_cache): "drop_caches" (all of it), "fadvise" (only
	// its files' pages, as drop_caches was refused: CacheRefused says
	// why); "" when it did not.
	CacheDrop    string `json:"cache_drop,omitempty"`
	CacheRefused string `json:"cache_refused,omitempty"`
}

// FileSetSetup is how a set was made ready: files created (and filled,
// for a step that reads) and files found at their size, in Seconds;
// Measured says the step's figures count those operations.
type FileSetSetup struct {
	Created  int     `json:"created"`
	Reused   int     `json:"reused"`
	Seconds  float64 `json:"seconds"`
	Measured bool    `json:"measured"`
}

// CheckpointRun is one checkpoint step on a drive: its shape and each
// pass's write and read-back, as MLPerf Storage reports them.
type CheckpointRun struct {
	StepID string `json:"step_id"`
	// Name is the checkpoint block's name.
	Name        string `json:"name"`
	Drive       string `json:"drive"`
	Status      string `json:"status"`
	Ranks       int    `json:"ranks"`
	Bytes       int64  `json:"bytes"`
	FilePerRank bool   `json:"file_per_rank"`
	// Passes holds each pass, in order; Write and Read are the means
	// over the passes that completed that phase.
	Passes []CheckpointPassRow `json:"passes"`
	Write  *CheckpointPhaseRow `json:"write,omitempty"`
	Read   *CheckpointPhaseRow `json:"read,omitempty"`
	// Evicted counts the read-backs that could not drop the whole page
	// cache (drop_caches needs root) and evicted only the checkpoint's
	// files.
	Evicted int `json:"evicted"`
	// Chart is the file of its seconds-per-pass chart.
	Chart string `json:"chart,omitempty"`
	// Flags are the warning kinds of its pass steps (a file system in
	// memory, a busy or held host), carried beside its figures.
	Flags []string `json:"flags,omitempty"`
}

// CheckpointPassRow is one pass of a checkpoint; a phase is absent when
// its step did not complete.
type CheckpointPassRow struct {
	Pass  int                 `json:"pass"`
	Write *CheckpointPhaseRow `json:"write,omitempty"`
	Read  *CheckpointPhaseRow `json:"read,omitempty"`
}

// CheckpointPhaseRow is a phase's figures: the slowest rank's seconds,
// the slowest rank's bandwidth and the aggregate, in bytes per second.
type CheckpointPhaseRow struct {
	Seconds     float64 `json:"seconds"`
	LowestBW    float64 `json:"lowest_rank_bw_bytes"`
	AggregateBW float64 `json:"aggregate_bw_bytes"`
}

// buildFileSets gathers the steps on file sets, in step order.
func buildFileSets(steps []step) []FileSetRun {
	out := []FileSetRun{}
	for _, s := range steps {
		w := s.workload()
		if !s.is(kindProfile) || w == nil || !w.IsFileSet() {
			continue
		}
		run := FileSetRun{StepID: s.info.ID, Step: s.info.Name, Drive: s.info.Drive, Status: s.status(), Files: w.Files, Dirs: max(1, w.Dirs), Metadata: []MetadataOp{}}
		if s.rec != nil && s.rec.Result != nil {
			setFileSetFigures(&run, s.rec.Result)
		}
		out = append(out, run)
	}
	return out
}

// setFileSetFigures sets what a file-set step's result measured.
func setFileSetFigures(run *FileSetRun, res *metrics.Result) {
	if d := res.CacheDrop; d != nil {
		run.CacheDrop, run.CacheRefused = d.Method, d.Refused
	}
	f := res.Files
	if f == nil {
		return
	}
	run.Bytes = f.Bytes
	run.Setup = &FileSetSetup{Created: f.Setup.Created, Reused: f.Setup.Reused, Seconds: finite(f.Setup.Seconds), Measured: f.Setup.Measured}
	run.Metadata = metadataOps(f.Ops)
}

// metadataOps sums up each timed file operation.
func metadataOps(ops []metrics.MetaOp) []MetadataOp {
	out := []MetadataOp{}
	for _, op := range ops {
		out = append(out, MetadataOp{Op: op.Op, Count: op.Count, MeanNs: finite(op.Lat.Mean),
			P50Ns: op.Lat.Quantile(50), P99Ns: op.Lat.Quantile(99), MaxNs: op.Lat.Max})
	}
	return out
}

// buildCheckpoints gathers the checkpoints' summary steps, in step order.
func buildCheckpoints(steps []step) []CheckpointRun {
	out := []CheckpointRun{}
	for _, s := range steps {
		if !s.is(kindCheckpoint) {
			continue
		}
		run := CheckpointRun{StepID: s.info.ID, Name: s.source(), Drive: s.info.Drive, Status: s.status(), Passes: []CheckpointPassRow{}}
		if s.rec != nil && s.rec.Checkpoint != nil {
			setCheckpointFigures(&run, s.rec.Checkpoint)
			run.Flags = passFlags(steps, s.rec.Checkpoint)
		}
		out = append(out, run)
	}
	return out
}

// passFlags are the warning kinds of a checkpoint's pass steps.
func passFlags(steps []step, c *results.Checkpoint) []string {
	var flags []string
	for _, p := range c.Passes {
		for _, ph := range []*results.CheckpointPhase{p.Write, p.Read} {
			if ph == nil {
				continue
			}
			for _, s := range steps {
				if s.rec != nil && s.rec.StepID == ph.Step {
					for _, w := range s.rec.Warnings {
						flags = addFlags(flags, w.Kind)
					}
				}
			}
		}
	}
	return flags
}

// setCheckpointFigures copies a checkpoint's summary.
func setCheckpointFigures(run *CheckpointRun, c *results.Checkpoint) {
	run.Ranks, run.Bytes, run.FilePerRank = c.Ranks, c.Bytes, c.FilePerRank
	for _, p := range c.Passes {
		run.Passes = append(run.Passes, CheckpointPassRow{Pass: p.Pass, Write: phaseRow(p.Write), Read: phaseRow(p.Read)})
		if p.Read != nil && p.Read.CacheDrop != nil && p.Read.CacheDrop.Method == metrics.CacheEvicted {
			run.Evicted++
		}
	}
	run.Write, run.Read = phaseRow(c.Write), phaseRow(c.Read)
}

func phaseRow(p *results.CheckpointPhase) *CheckpointPhaseRow {
	if p == nil {
		return nil
	}
	return &CheckpointPhaseRow{Seconds: finite(p.Seconds), LowestBW: finite(p.LowestBW), AggregateBW: finite(p.AggregateBW)}
}
