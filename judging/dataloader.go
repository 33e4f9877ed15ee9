package judging

import (
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// AU judges a dataloader step's accelerator utilisation against its
// target, as MLPerf Storage does: the step passes when its accelerator
// computed for at least the target's share of the run. The verdict is
// one of the step's expectations (its Check is the step's), its Figure
// the utilisation measured and claimed, in percent; nil when n is not a
// dataloader or rec holds no dataloader figures.
func AU(n *plan.Node, rec *results.Record) *results.Verdict {
	if n.Dataloader == nil || rec.Result == nil || rec.Result.Dataloader == nil {
		return nil
	}
	point := results.StepWithin(n.Name, n.Drive)
	measured, claimed := rec.Result.Dataloader.AU*100, n.Dataloader.AUTarget*100
	ratio := measured / claimed
	c := &results.Comparison{Metric: "au", Unit: "%", Better: "higher", Claimed: claimed, Measured: &measured, Ratio: &ratio}
	v := &results.Verdict{Check: results.ExpectCheck(n.Source), Drive: n.Drive, Subject: AUSubject(point, claimed), Figure: c}
	v.Status, v.Code = results.VerdictPass, results.CodeAUReached
	if measured < claimed {
		v.Status, v.Code = results.VerdictFail, results.CodeAUShort
	}
	v.Message = AUMessage(point, v.Code, *c, batchWaitPct(rec.Result))
	return v
}

// batchWaitPct is the share of the run, in percent, that the batches
// kept the accelerator waiting for their samples: their mean wait times
// their count over the run's length.
func batchWaitPct(res *metrics.Result) float64 {
	d := res.Dataloader
	if res.RuntimeNs <= 0 {
		return 0
	}
	return d.BatchWait.Mean * float64(d.Batches) / float64(res.RuntimeNs) * 100
}
