package engine

import (
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
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
