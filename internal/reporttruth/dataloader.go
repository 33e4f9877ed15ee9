package reporttruth

import (
	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/results"
)

// dataloaderKinds know the sentence on each dataloader step, recomputed
// from its record: the utilisation from the compute time and the run's
// length, the rate from the samples consumed, the batch waits from their
// histogram and the target from the AU verdict.
var dataloaderKinds = []kind{
	{
		name: "dataloader", in: "Dataloaders",
		pattern: pattern(`(?P<name>.+?) on (?P<drive>.+?): the accelerator computed {num:au}% of the run(?: \(target {num:target}%\))?, at {num:sps} samples/s; its batches waited {lat:p50} at p50 and {lat:p99} at p99{flags}\.`),
		check:   checkDataloader,
	},
}

func checkDataloader(sc *scope, g groups) []string {
	var rec *results.Record
	for _, r := range sc.r.Summary.Dataloaders {
		if r.Name == g["name"] && r.Drive == g["drive"] {
			rec = sc.r.Records[r.StepID]
		}
	}
	if rec == nil || rec.Result == nil || rec.Result.Dataloader == nil || rec.Result.RuntimeNs <= 0 {
		return []string{"no dataloader record of report.json has this step and drive"}
	}
	res, d := rec.Result, rec.Result.Dataloader
	var p problems
	p.eq("AU", g["au"], format.Grouped(float64(d.ComputeNs)/float64(res.RuntimeNs)*100, 1), "the record's compute time over its run time")
	p.eq("samples/s", g["sps"], format.Grouped(float64(d.Samples)/(float64(res.RuntimeNs)/1e9), 1), "the record's samples over its run time")
	p.eq("p50 batch wait", g["p50"], format.Latency(float64(d.BatchWait.Quantile(50))), "the record's batch waits")
	p.eq("p99 batch wait", g["p99"], format.Latency(float64(d.BatchWait.Quantile(99))), "the record's batch waits")
	target := ""
	for _, v := range rec.Verdicts {
		if v.Figure != nil && (v.Code == results.CodeAUReached || v.Code == results.CodeAUShort) {
			target = format.Grouped(v.Figure.Claimed, 1)
		}
	}
	p.eq("AU target", g["target"], target, "the record's AU verdict")
	switch {
	case g["flags"] == "" && len(rec.Warnings) > 0:
		p.add("carries no flag, its step warned")
	case g["flags"] != "" && len(rec.Warnings) == 0:
		p.add("carries the flag%s, its step did not warn", g["flags"])
	}
	return p
}
