package plan

import (
	"fmt"
	"testing"

	"github.com/drivebench/drivebench/workload"
)

// TestCheckpointExpands checks the steps a checkpoint block becomes: a
// write and a read-back step per pass on a file per rank (or one shared
// file), each rank's share a whole number of transfers, then the summary
// step that depends on them all.
func TestCheckpointExpands(t *testing.T) {
	for _, tt := range []struct {
		name, body       string
		nodes            int
		files            int
		fileSize         int64
		dropCache, fsync bool
	}{
		{name: "8B preset scaled", body: `preset = "llama3-8b"
  scale = 0.001`, nodes: 7, files: 8, fileSize: int64(105e6) / 8 / (4 << 20) * (4 << 20), dropCache: true, fsync: true},
		{name: "one shared file, no flush, no drop", body: `ranks = 4
  size = "64MiB"
  bs = "1MiB"
  file_per_rank = false
  fsync = false
  drop_cache = false
  passes = 1`, nodes: 3, files: 1, fileSize: 64 << 20},
		{name: "write only", body: `ranks = 2
  size = "8MiB"
  read_back = false
  passes = 2`, nodes: 3, files: 2, fileSize: 4 << 20, dropCache: true, fsync: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := "drive \"d\" {\n  writable = true\n}\n\ncheckpoint \"c\" {\n  " + tt.body + "\n}\n"
			g := Expand(mustLoad(t, writePlan(t, src), nil))
			var steps []*Node
			for _, n := range g.Nodes {
				if n.Checkpoint != nil {
					steps = append(steps, n)
				}
			}
			if len(steps) != tt.nodes {
				t.Fatalf("%d checkpoint nodes, want %d", len(steps), tt.nodes)
			}
			sum := steps[len(steps)-1]
			if sum.Kind != KindCheckpoint || len(sum.DependsOn) != tt.nodes-1 {
				t.Fatalf("last node %s depends on %d, want the summary over %d", sum.Kind, len(sum.DependsOn), tt.nodes-1)
			}
			seen := map[string]bool{}
			for _, n := range steps[:len(steps)-1] {
				w := n.Workload
				if seen[n.ID] || w.Files != tt.files || w.FileSize != tt.fileSize || w.FsyncOnClose != (tt.fsync && w.RW == "write") ||
					w.DropCache != (tt.dropCache && w.RW == "read") || w.CreateOnOpen != (w.RW == "write") {
					t.Errorf("%s (%s): %+v", n.Name, n.ID, *w)
				}
				seen[n.ID] = true
			}
		})
	}
}

// TestCheckpointPresets checks MLPerf Storage's table: the 8B model's
// 105 GB over 8 ranks, the 70B's 912 GB over 64.
func TestCheckpointPresets(t *testing.T) {
	want := map[string]CheckpointPreset{"llama3-8b": {Ranks: 8, Bytes: 105e9}, "llama3-70b": {Ranks: 64, Bytes: 912e9}}
	for _, p := range CheckpointPresets {
		if w, ok := want[p.Name]; ok && (p.Ranks != w.Ranks || p.Bytes != w.Bytes) {
			t.Errorf("%s: %d ranks, %s; want %d, %s", p.Name, p.Ranks, workload.FormatSize(p.Bytes), w.Ranks, workload.FormatSize(w.Bytes))
		}
	}
}

// TestCheckpointExpect decodes a checkpoint's expectations: valid ones go
// to the summary step alone and judge one pass's phases; invalid ones
// are refused at their place, with the figure, phase or unit named.
func TestCheckpointExpect(t *testing.T) {
	pass := Measured{Checkpoint: map[string]map[string]float64{
		CheckpointWrite: {"slowest_job_s": 12, "lowest_job_bw": 1.5e9, "aggregate_bw": 6e9},
		CheckpointRead:  {"slowest_job_s": 8, "lowest_job_bw": 2.5e9, "aggregate_bw": 9e9},
	}}
	for _, tt := range []struct {
		name, expect, readBack string
		holds                  []bool
		err, at                string
	}{
		{name: "seconds and bandwidths", expect: `[result.checkpoint.write.slowest_job_s <= 30, result.checkpoint.read.lowest_job_bw >= gb(2),
    result.checkpoint.write.aggregate_bw >= parse_size("8GB")]`, holds: []bool{true, true, false}},
		{name: "one condition", expect: `result.checkpoint.write.slowest_job_s < var.limit_s`, holds: []bool{false}},
		{name: "write only", readBack: "false", expect: `result.checkpoint.write.lowest_job_bw >= 1e9`, holds: []bool{true}},
		{name: "unknown figure", expect: `result.checkpoint.write.seconds <= 30`, err: "Unknown Checkpoint Figure", at: "plan.hcl:9:12"},
		{name: "a profile's figure", expect: `result.read.bw >= 1e9`, err: "Unknown Checkpoint Figure", at: "plan.hcl:9:12"},
		{name: "unknown phase", expect: `result.checkpoint.flush.slowest_job_s <= 30`, err: "Unknown Checkpoint Phase", at: "plan.hcl:9:12"},
		{name: "seconds as a string", expect: `result.checkpoint.write.slowest_job_s <= "30s"`, err: "Wrong Unit", at: "plan.hcl:9:53"},
		{name: "bandwidth as a string", expect: `[result.checkpoint.read.aggregate_bw >= "2GB/s"]`, err: "Wrong Unit", at: "plan.hcl:9:52"},
		{name: "no read-back", readBack: "false", expect: `result.checkpoint.read.slowest_job_s <= 30`, err: "Checkpoint Reads Nothing Back", at: "plan.hcl:9:12"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			readBack := "true"
			if tt.readBack != "" {
				readBack = tt.readBack
			}
			src := "variable \"limit_s\" {\n  default = 10\n}\ndrive \"d\" {\n  writable = true\n}\ncheckpoint \"c\" {\n  ranks = 2\n  expect = " +
				tt.expect + "\n  size = \"8MiB\"\n  read_back = " + readBack + "\n}\n"
			p, _, diags := Load(writePlan(t, src), LoadOptions{})
			if tt.err != "" {
				if len(diags) != 1 || diags[0].Summary != tt.err || diags[0].Subject == nil ||
					fmt.Sprintf("plan.hcl:%d:%d", diags[0].Subject.Start.Line, diags[0].Subject.Start.Column) != tt.at {
					t.Fatalf("diagnostics %v, want one %q at %s", diags, tt.err, tt.at)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if holds := checkpointHolds(t, Expand(p), pass); fmt.Sprint(holds) != fmt.Sprint(tt.holds) {
				t.Errorf("holds %v, want %v", holds, tt.holds)
			}
		})
	}
}

// checkpointHolds judges the expectations of g's checkpoint summary steps
// against one pass's figures, in their order; a pass step that carries
// any fails the test.
func checkpointHolds(t *testing.T, g *Graph, pass Measured) []bool {
	t.Helper()
	var holds []bool
	for _, n := range g.Nodes {
		switch {
		case n.Checkpoint != nil && n.Kind != KindCheckpoint && len(n.Expect) > 0:
			t.Errorf("pass step %s carries the checkpoint's expectations", n.Name)
		case n.Kind == KindCheckpoint:
			for _, e := range n.Expect {
				j, err := e.Eval(pass, nil)
				if err != nil {
					t.Fatalf("%s: %v", e.Text, err)
				}
				holds = append(holds, j.Holds)
			}
		}
	}
	return holds
}
