package results

import (
	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/metrics"
)

// Checkpoint is a checkpoint's summary, read from the records of its
// passes: Ranks ranks wrote Bytes bytes (a file each, or one shared
// file) and read them back, each pass a write step and a read-back step.
// As MLPerf Storage reports a checkpoint, a phase's seconds are its
// slowest rank's and its bandwidth its lowest rank's, beside the
// aggregate (every rank's bytes over the slowest rank's seconds).
type Checkpoint struct {
	Ranks       int              `json:"ranks"`
	Bytes       int64            `json:"bytes"`
	FilePerRank bool             `json:"file_per_rank"`
	Passes      []CheckpointPass `json:"passes"`
	// Write and Read are the means over the passes that completed that
	// phase; Read is nil without a read-back.
	Write *CheckpointPhase `json:"write,omitempty"`
	Read  *CheckpointPhase `json:"read,omitempty"`
}

// CheckpointPass is one pass: its write and its read-back, nil for a
// phase whose step did not complete.
type CheckpointPass struct {
	Pass  int              `json:"pass"`
	Write *CheckpointPhase `json:"write,omitempty"`
	Read  *CheckpointPhase `json:"read,omitempty"`
}

// CheckpointPhase is one phase of a pass (or their mean): Seconds of the
// slowest rank, LowestBW of the slowest rank and AggregateBW of all, in
// bytes per second. Step is the ID of the step it was read from, and
// CacheDrop how the page cache was emptied before a read-back (nil when
// it was not).
type CheckpointPhase struct {
	Step        string             `json:"step,omitempty"`
	Seconds     float64            `json:"seconds"`
	LowestBW    float64            `json:"lowest_rank_bw_bytes"`
	AggregateBW float64            `json:"aggregate_bw_bytes"`
	CacheDrop   *metrics.CacheDrop `json:"cache_drop,omitempty"`
}

// phaseFigures are the figure registry's rows a phase holds
// (figure.Checkpoint), each with its field.
var phaseFigures = []struct {
	name  string
	field func(*CheckpointPhase) *float64
}{
	{"slowest_job_s", func(p *CheckpointPhase) *float64 { return &p.Seconds }},
	{"lowest_job_bw", func(p *CheckpointPhase) *float64 { return &p.LowestBW }},
	{"aggregate_bw", func(p *CheckpointPhase) *float64 { return &p.AggregateBW }},
}

// CheckpointPhaseOf reads a phase's figures from its step's file-set
// figures, by their rows of the figure registry (slowest_job_s,
// lowest_job_bw, aggregate_bw); nil when the step has none.
func CheckpointPhaseOf(rec *Record) *CheckpointPhase {
	if rec == nil || rec.Result == nil || rec.Result.Files == nil {
		return nil
	}
	p := &CheckpointPhase{Step: rec.StepID, CacheDrop: rec.Result.CacheDrop}
	for _, f := range phaseFigures {
		*f.field(p) = figure.Lookup(f.name).ReadFiles(rec.Result.Files)
	}
	return p
}

// Figures are the phase's figures by their canonical names in the
// figure registry, as a checkpoint's expectations read them.
func (p *CheckpointPhase) Figures() map[string]float64 {
	out := make(map[string]float64, len(phaseFigures))
	for _, f := range phaseFigures {
		out[f.name] = *f.field(p)
	}
	return out
}

// MeanPhase is the mean of phases' figures; nil for none.
func MeanPhase(phases []*CheckpointPhase) *CheckpointPhase {
	if len(phases) == 0 {
		return nil
	}
	var m CheckpointPhase
	for _, p := range phases {
		m.Seconds += p.Seconds
		m.LowestBW += p.LowestBW
		m.AggregateBW += p.AggregateBW
	}
	n := float64(len(phases))
	m.Seconds, m.LowestBW, m.AggregateBW = m.Seconds/n, m.LowestBW/n, m.AggregateBW/n
	return &m
}
