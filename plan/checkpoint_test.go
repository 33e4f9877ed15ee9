package plan

import (
	"os"
	"path/filepath"
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
			path := filepath.Join(t.TempDir(), "plan.hcl")
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			g := Expand(mustLoad(t, path, nil))
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
