package engine

import (
	"context"
	"fmt"

	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// checkpointStep runs a checkpoint's summary node: it reads the records
// of the checkpoint's passes, each a write and a read-back step on a
// file set whose jobs are the ranks, and sums them up as MLPerf Storage
// does (the slowest rank's seconds, the lowest rank's bandwidth).
type checkpointStep struct{}

func (checkpointStep) run(_ context.Context, r *runner, _ int, n *plan.Node, rec *results.Record) error {
	r.runCheckpoint(n, rec)
	return nil
}

func (checkpointStep) reusable() bool { return true }

// runCheckpoint fills rec with the checkpoint's summary; a pass whose
// step did not complete has no figures for that phase, and a checkpoint
// with no complete write fails.
func (r *runner) runCheckpoint(n *plan.Node, rec *results.Record) {
	ck := r.profiles[n.Source].Checkpoint
	sum := &results.Checkpoint{Passes: make([]results.CheckpointPass, n.Checkpoint.Passes)}
	if ck != nil {
		sum.Ranks, sum.FilePerRank = ck.Ranks, ck.FilePerRank
	}
	var writes, reads []*results.CheckpointPhase
	for i := range sum.Passes {
		sum.Passes[i].Pass = i + 1
	}
	for _, id := range n.DependsOn {
		dep := r.graph.Node(id)
		d := r.record(id)
		if dep == nil || dep.Checkpoint == nil || d == nil || d.Status != results.StatusOK {
			continue
		}
		phase := results.CheckpointPhaseOf(d)
		if phase == nil {
			continue
		}
		pass := &sum.Passes[dep.Checkpoint.Pass-1]
		if dep.Checkpoint.Phase == plan.CheckpointWrite {
			pass.Write, writes = phase, append(writes, phase)
			sum.Bytes = d.Result.Files.Bytes
		} else {
			pass.Read, reads = phase, append(reads, phase)
		}
		rec.Uses = append(rec.Uses, d.Name)
	}
	sum.Write, sum.Read = results.MeanPhase(writes), results.MeanPhase(reads)
	rec.Checkpoint = sum
	if len(writes) == 0 {
		rec.Status, rec.Error = results.StatusFailed, fmt.Sprintf("none of the checkpoint's %d write passes completed", len(sum.Passes))
	}
}
