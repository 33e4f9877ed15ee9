package engine

import (
	"fmt"
	"testing"

	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// TestAcceptanceComparesTheWindow: acceptance compares a steady-state
// search's point with its window's rounds combined, the figure its row
// shows, not its final round alone (146,585 IOPS in the acceptance row,
// 141,117 in the row and the Conclusion, for one measurement).
func TestAcceptanceComparesTheWindow(t *testing.T) {
	tests := []struct {
		name    string
		reached bool
		iops    float64
		step    string
	}{
		{"steady", true, (140_000 + 136_766 + 146_585) / 3.0, "d / ss / round 5/5 (window avg of rounds 3-5)"},
		{"not steady", false, (140_000 + 136_766 + 146_585) / 3.0, "d / ss / round 5/5 (avg of rounds 3-5, not steady)"},
	}
	for _, tt := range tests {
		g := &plan.Graph{}
		r := &runner{graph: g, records: map[string]*results.Record{}}
		w := &workload.Workload{RW: "randread", BS: 4096, IODepth: 32}
		for i, iops := range []float64{180_000, 150_000, 140_000, 136_766, 146_585} {
			id := fmt.Sprintf("r%d", i+1)
			n := &plan.Node{ID: id, Kind: plan.KindProfile, Drive: "d", Group: "ss", Round: i + 1, SteadyState: &plan.SteadyState{}}
			g.Nodes = append(g.Nodes, n)
			rec := okRecord(fmt.Sprintf("d / ss / round %d/5", i+1), iops, 1000)
			rec.StepID, rec.Workload = id, w
			r.records[id] = rec
		}
		r.records["r5"].SteadyState = &results.SteadyState{WindowFirst: 3, WindowLast: 5, Reached: tt.reached, Exhausted: !tt.reached}
		final := r.finalRounds("d")
		cands := r.pointsOf(g.Nodes[4], r.records["r5"], final)
		if len(cands) != 1 || cands[0].Total.IOPS != tt.iops || cands[0].Step != tt.step {
			t.Errorf("%s: candidates %+v, want %.0f IOPS at %q", tt.name, cands, tt.iops, tt.step)
		}
		if others := r.pointsOf(g.Nodes[3], r.records["r4"], final); len(others) != 0 {
			t.Errorf("%s: round 4 is a candidate of its own: %+v", tt.name, others)
		}
	}
}
