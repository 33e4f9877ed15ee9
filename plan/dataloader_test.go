package plan

import (
	"reflect"
	"testing"
	"time"

	"github.com/drivebench/drivebench/workload"
)

// TestDataloaderDecoding: a preset sets what the block does not, scale
// multiplies its files, and the step runs on the built-in engine with
// the preset's AU target; a block without a preset sets everything.
func TestDataloaderDecoding(t *testing.T) {
	p := mustLoad(t, "testdata/valid/dataloader.hcl", nil)
	g := Expand(p)
	nodes := map[string]*Node{}
	for _, n := range g.Nodes {
		nodes[n.Source] = n
	}
	cases := []struct {
		step string
		want workload.Workload
		dl   Dataloader
	}{
		{"unet3d", workload.Workload{RW: "randread", BS: DefaultLoaderBS, IODepth: 1, NumJobs: 1, Engine: "native",
			BatchSize: 7, ReaderThreads: 4, Files: 9, SamplesPerFile: 1, RecordSize: 146600628, ComputeTime: 323 * time.Millisecond, Epochs: 2},
			Dataloader{Preset: "unet3d", Scale: 0.05, AUTarget: 0.9}},
		{"own", workload.Workload{RW: "randread", BS: 16 << 10, IODepth: 1, NumJobs: 1, Engine: "native", Direct: true,
			BatchSize: 4, ReaderThreads: 2, Files: 8, SamplesPerFile: 2, RecordSize: 64 << 10, Epochs: 1},
			Dataloader{Scale: 1, AUTarget: 0.5}},
	}
	for _, c := range cases {
		n := nodes[c.step]
		if n == nil || n.Kind != KindProfile || n.Workload == nil || n.Dataloader == nil {
			t.Fatalf("%s: node %+v", c.step, n)
		}
		if !reflect.DeepEqual(*n.Workload, c.want) {
			t.Errorf("%s: workload\n got %+v\nwant %+v", c.step, *n.Workload, c.want)
		}
		if *n.Dataloader != c.dl {
			t.Errorf("%s: dataloader %+v, want %+v", c.step, *n.Dataloader, c.dl)
		}
	}
	// 9 files make one batch of 7 an epoch: 2 x 323 ms.
	if est := nodes["unet3d"].Estimate; est != 646*time.Millisecond {
		t.Errorf("unet3d estimate %s, want 646ms", est)
	}
}
