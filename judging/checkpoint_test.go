package judging

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// checkpointNode is the summary step of a checkpoint with two
// expectations: a write pass in at most 30 s, a read-back of at least
// 2 GB/s by its slowest rank.
func checkpointNode(t *testing.T) *plan.Node {
	t.Helper()
	src := `drive "fs" {
  writable = true
}

checkpoint "ck" {
  ranks  = 2
  size   = "8MiB"
  passes = 3
  expect = [
    result.checkpoint.write.slowest_job_s <= 30,
    result.checkpoint.read.lowest_job_bw >= gb(2),
  ]
}
`
	path := filepath.Join(t.TempDir(), "plan.hcl")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, _, diags := plan.Load(path, plan.LoadOptions{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, n := range plan.Expand(p).Nodes {
		if n.Kind == plan.KindCheckpoint {
			return n
		}
	}
	t.Fatal("no checkpoint summary step")
	return nil
}

// passes builds a checkpoint's summary from each pass's write seconds
// and read-back lowest bandwidth; a negative figure leaves that phase
// out, as a step that did not complete.
func passes(writeS, readBW []float64) *results.Checkpoint {
	c := &results.Checkpoint{Ranks: 2}
	for i := range writeS {
		p := results.CheckpointPass{Pass: i + 1}
		if writeS[i] >= 0 {
			p.Write = &results.CheckpointPhase{Seconds: writeS[i], LowestBW: 1e9, AggregateBW: 2e9}
		}
		if readBW[i] >= 0 {
			p.Read = &results.CheckpointPhase{Seconds: 1, LowestBW: readBW[i], AggregateBW: 2 * readBW[i]}
		}
		c.Passes = append(c.Passes, p)
	}
	return c
}

func TestCheckpointExpect(t *testing.T) {
	n := checkpointNode(t)
	for _, tt := range []struct {
		name     string
		rec      *results.Record
		statuses []string
		messages []string
	}{
		{"every pass holds", &results.Record{Status: results.StatusOK, Checkpoint: passes([]float64{12, 14.5, 13}, []float64{2.5e9, 2.1e9, 3e9})},
			[]string{"pass", "pass"}, []string{
				"ck: result.checkpoint.write.slowest_job_s <= 30 in each of 3 passes (pass 1: result.checkpoint.write.slowest_job_s = 12; pass 2: result.checkpoint.write.slowest_job_s = 14.5; pass 3: result.checkpoint.write.slowest_job_s = 13)",
				"ck: result.checkpoint.read.lowest_job_bw >= gb(2) in each of 3 passes (pass 1: result.checkpoint.read.lowest_job_bw = 2500000000; pass 2: result.checkpoint.read.lowest_job_bw = 2100000000; pass 3: result.checkpoint.read.lowest_job_bw = 3000000000)",
			}},
		{"one slow write, two slow reads", &results.Record{Status: results.StatusOK, Checkpoint: passes([]float64{12, 31, 13}, []float64{1.9e9, 2.1e9, 1e9})},
			[]string{"fail", "fail"}, []string{
				"ck: result.checkpoint.write.slowest_job_s <= 30 does not hold in pass 2 of 3 (pass 1: result.checkpoint.write.slowest_job_s = 12; pass 2: result.checkpoint.write.slowest_job_s = 31; pass 3: result.checkpoint.write.slowest_job_s = 13)",
				"ck: result.checkpoint.read.lowest_job_bw >= gb(2) does not hold in passes 1, 3 of 3 (pass 1: result.checkpoint.read.lowest_job_bw = 1900000000; pass 2: result.checkpoint.read.lowest_job_bw = 2100000000; pass 3: result.checkpoint.read.lowest_job_bw = 1000000000)",
			}},
		{"a read-back that did not complete is left out", &results.Record{Status: results.StatusOK, Checkpoint: passes([]float64{12, 13, 14}, []float64{-1, 2.1e9, -1})},
			[]string{"pass", "pass"}, []string{"", "ck: result.checkpoint.read.lowest_job_bw >= gb(2) in pass 2, the one judged (pass 2: result.checkpoint.read.lowest_job_bw = 2100000000)"}},
		{"no read-back completed", &results.Record{Status: results.StatusOK, Checkpoint: passes([]float64{12, 13, 14}, []float64{-1, -1, -1})},
			[]string{"pass", "error"}, []string{"", "ck: result.checkpoint.read.lowest_job_bw >= gb(2) cannot be judged: result.checkpoint.read is not set: the pass's read step did not complete"}},
		{"failed summary", &results.Record{Status: results.StatusFailed, Checkpoint: passes([]float64{-1}, []float64{-1})}, nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Expect(n, tt.rec, nil)
			checkExpectVerdicts(t, got, expectVerdict{check: "expect ck", drive: "fs", subject: "ck: result.checkpoint.", where: "plan.hcl:1"}, tt.statuses)
			for i, v := range got {
				if want := tt.messages[i]; want != "" && v.Message != want {
					t.Errorf("message %q\nwant    %q", v.Message, want)
				}
			}
		})
	}
}
