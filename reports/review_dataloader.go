package reports

import (
	"fmt"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/workload"
)

// docDataloaders shows the dataloader steps: the pipeline each ran, the
// samples its accelerator consumed and how long it waited for them, its
// utilisation against the target, one row each, and a sentence per step
// with its figures.
func docDataloaders(d *document, s *Summary) {
	if len(s.Dataloaders) == 0 {
		return
	}
	u := s.unit()
	d.heading(2, plain("Dataloaders"))
	d.para(plain("Training input pipelines, run as MLPerf Storage's DLIO runs them: reader threads read each epoch's shuffled samples into batches " +
		"while the accelerator computes each batch for its compute time. AU, the accelerator utilisation, is its compute time over the run's length; " +
		"a batch's wait is how long it kept the accelerator waiting for its samples. Each step's reads are also tabled under Results, " +
		"and the opens and closes of its data set's files (a reader opens a sample's file when its last sample was in another) under File sets."))
	cols := []column{{title: "Step"}, {title: "Drive"}, {title: "Status"}, {title: "Data set"}, {"Batch", true}, {"Readers", true},
		{"Compute", true}, {"Epochs", true}, {"s per epoch", true}, {"Samples/s", true}, {u.column(), true}, {"AU", true}, {"Target", true}, {title: "Verdict"},
		{"Batch wait p50", true}, {"p99", true}}
	var rows [][][]span
	for _, r := range s.Dataloaders {
		rows = append(rows, dataloaderRow(s, r))
	}
	d.richTable(cols, rows)
	for _, r := range s.Dataloaders {
		if sentence := dataloaderSentence(r); sentence != "" {
			d.para(plain(sentence))
		}
	}
}

func dataloaderRow(s *Summary, r DataloaderRun) [][]span {
	u := s.unit()
	measured := r.RuntimeNs > 0
	cell := func(text string) []span {
		if !measured {
			return spans(format.Dash)
		}
		return spans(text)
	}
	wait := func(ns func(*BatchWait) uint64) []span {
		if r.BatchWait == nil {
			return spans(format.Dash)
		}
		return spans(format.Latency(float64(ns(r.BatchWait))))
	}
	target, verdict := format.Dash, []span{plain(format.Dash)}
	if r.AUTarget != nil {
		target, verdict = pct(*r.AUTarget), []span{plain(verdictText(r.Verdict))}
	}
	dataset := format.Counted(r.Files, "file") + " × " + format.Counted(r.SamplesPerFile, "sample") + " × " + workload.FormatSize(r.RecordSize)
	if r.Direct {
		dataset += ", O_DIRECT"
	}
	return [][]span{
		spans(r.Name + s.revisionMarker(r.PlanHash)), spans(orDash(r.Drive)), spans(r.Status), spans(dataset),
		spans(format.Count(float64(r.BatchSize))), spans(format.Count(float64(r.ReaderThreads))),
		spans(format.Latency(float64(r.ComputeTimeNs))), spans(fmt.Sprintf("%d of %d", r.EpochsRun, r.Epochs)),
		cell(format.Grouped(r.EpochSeconds, 3)), cell(format.Grouped(r.SamplesPerSec, 1)), cell(u.number(r.ReadBW)), cell(pct(r.AU)), spans(target), verdict,
		wait(func(w *BatchWait) uint64 { return w.P50Ns }), wait(func(w *BatchWait) uint64 { return w.P99Ns }),
	}
}

// dataloaderSentence says what a dataloader's accelerator saw: "train on
// scratch: the accelerator computed 82.3% of the run (target 90.0%), at
// 123.4 samples/s; its batches waited 1.20 ms at p50 and 4.33 ms at
// p99."; "" for a step without a result.
func dataloaderSentence(r DataloaderRun) string {
	if r.RuntimeNs <= 0 || r.BatchWait == nil {
		return ""
	}
	target := ""
	if r.AUTarget != nil {
		target = " (target " + pct(*r.AUTarget) + ")"
	}
	return fmt.Sprintf("%s on %s: the accelerator computed %s of the run%s, at %s samples/s; its batches waited %s at p50 and %s at p99%s.",
		r.Name, r.Drive, pct(r.AU), target, format.Grouped(r.SamplesPerSec, 1),
		format.Latency(float64(r.BatchWait.P50Ns)), format.Latency(float64(r.BatchWait.P99Ns)), flagNote(r.Flags))
}

// pct writes a share from 0 to 1 in percent: "82.3%".
func pct(share float64) string { return format.Grouped(share*100, 1) + "%" }
