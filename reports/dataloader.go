package reports

import (
	"github.com/drivebench/drivebench/results"
)

// buildDataloaders gathers the dataloader steps, one row each in step
// order: the shape each ran, what its accelerator saw and the verdict
// on its utilisation.
func buildDataloaders(steps []step, rev *revisions) []DataloaderRun {
	out := []DataloaderRun{}
	for _, s := range steps {
		w := s.workload()
		if !s.is(kindProfile) || w == nil || !w.Dataloader() {
			continue
		}
		run := DataloaderRun{
			StepID: s.info.ID, Name: s.source(), Drive: s.info.Drive, Status: s.status(), PlanHash: rev.earlier(s.rec),
			Files: w.Files, SamplesPerFile: w.SamplesPerFile, RecordSize: w.RecordSize, BatchSize: w.BatchSize,
			ReaderThreads: w.ReaderThreads, ComputeTimeNs: int64(w.ComputeTime), Epochs: w.Epochs, Direct: w.Direct,
		}
		setDataloaderFigures(&run, s.rec)
		out = append(out, run)
	}
	return out
}

// setDataloaderFigures sets what a dataloader's record measured and the
// verdict on its utilisation.
func setDataloaderFigures(run *DataloaderRun, rec *results.Record) {
	if rec == nil || rec.Result == nil || rec.Result.Dataloader == nil {
		return
	}
	res, d := rec.Result, rec.Result.Dataloader
	for _, w := range rec.Warnings {
		run.Flags = addFlags(run.Flags, w.Kind)
	}
	run.RuntimeNs, run.Samples, run.Batches, run.EpochsRun = res.RuntimeNs, d.Samples, d.Batches, d.Epochs
	if d.Epochs > 0 {
		run.EpochSeconds = float64(res.RuntimeNs) / 1e9 / float64(d.Epochs)
	}
	run.SamplesPerSec, run.AU, run.ComputeNs = finite(d.SamplesPerSec), finite(d.AU), d.ComputeNs
	if res.Read != nil {
		run.ReadBW = finite(res.Read.BW)
	}
	if d.BatchWaitHist != nil || len(d.BatchWait.Percentiles) > 0 {
		w := d.BatchWait
		run.BatchWait = &BatchWait{MeanNs: finite(w.Mean), P50Ns: w.Quantile(50), P99Ns: w.Quantile(99), MaxNs: w.Max}
	}
	for _, v := range rec.Verdicts {
		if (v.Code == results.CodeAUReached || v.Code == results.CodeAUShort) && v.Figure != nil {
			target := finite(v.Figure.Claimed / 100)
			run.AUTarget, run.Verdict, run.Code = &target, v.Status, v.Code
		}
	}
}
