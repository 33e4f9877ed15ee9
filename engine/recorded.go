package engine

import (
	"time"

	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/script"
)

// recordedWorkload is the plan's workload as a record keeps it: the one
// place a plan value becomes a results value.
func recordedWorkload(w *plan.Workload) *results.Workload {
	rw := &results.Workload{
		RW: w.RW, ReadPct: w.ReadPct, BS: w.BS, IODepth: w.IODepth, NumJobs: w.NumJobs,
		Runtime: w.Runtime, Ramp: w.Ramp, Bytes: w.Bytes, BytesPct: w.BytesPct, Loops: w.Loops, Direct: w.Direct,
		Offset: w.Offset, Size: w.Size, SizePct: w.SizePct,
		Engine: w.Engine, IOEngine: w.IOEngine, Seed: w.Seed,
		RateIOPS: w.RateIOPS, RateBW: w.RateBW, Arrival: w.Arrival, RatePct: w.RatePct, RateBase: w.RateBase,
		SeqPct: w.SeqPct, Data: w.Data, CompressPct: w.CompressPct, DedupePct: w.DedupePct, Verify: w.Verify,
	}
	for _, s := range w.BSSplit {
		rw.BSSplit = append(rw.BSSplit, results.SizeWeight{Size: s.Size, Weight: s.Weight})
	}
	for _, z := range w.Zones {
		rw.Zones = append(rw.Zones, results.Zone{AccessPct: z.AccessPct, RegionPct: z.RegionPct})
	}
	return rw
}

// recordedLimits are hook limits as the manifest keeps them; nil when
// every one is the default.
func recordedLimits(l script.Limits) *results.HookLimits {
	if l == (script.Limits{}) {
		return nil
	}
	return &results.HookLimits{MaxSteps: l.MaxSteps, TimeoutNs: int64(l.Timeout), MemoryBytes: l.Memory}
}

// HookLimits are the hook limits a results folder's run was given, for
// hooks called again on it (drivebench report, -resume); zero fields are
// the defaults.
func HookLimits(m *results.Manifest) script.Limits {
	h := m.HookLimits
	if h == nil {
		return script.Limits{}
	}
	return script.Limits{MaxSteps: h.MaxSteps, Timeout: time.Duration(h.TimeoutNs), Memory: h.MemoryBytes}
}
