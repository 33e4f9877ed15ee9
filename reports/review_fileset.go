package reports

import (
	"fmt"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plot"
)

// docCheckpoints shows each checkpoint: a row per pass and their mean,
// the chart of its seconds per pass, and sentences with its figures.
func docCheckpoints(d *document, s *Summary) {
	if len(s.Checkpoints) == 0 {
		return
	}
	u := s.unit()
	d.heading(2, plain("Checkpoints"))
	d.para(plain("Checkpoints written and read back as MLPerf Storage measures them: each rank writes its share to a file of its own (or its slice of one shared file) and flushes it; " +
		"the page cache is then emptied and each rank reads its share back. A phase's seconds are its slowest rank's; its bandwidth is the slowest rank's, " +
		"beside the aggregate (every rank's bytes over the slowest rank's seconds). Each pass's steps, and the file operations they timed, are tabled under File sets."))
	for _, c := range s.Checkpoints {
		d.heading(3, plain(c.Name+" on "+c.Drive))
		cols := []column{{title: "Pass"}, {"Write s", true}, {"Write, slowest rank " + u.column(), true}, {"Write, all " + u.column(), true},
			{"Read s", true}, {"Read, slowest rank " + u.column(), true}, {"Read, all " + u.column(), true}}
		var rows [][]string
		for _, p := range c.Passes {
			rows = append(rows, checkpointRow(fmt.Sprint(p.Pass), p.Write, p.Read, u))
		}
		if len(c.Passes) > 1 {
			rows = append(rows, checkpointRow("mean", c.Write, c.Read, u))
		}
		d.table(cols, rows)
		if c.Chart != "" {
			d.figure(ChartRef{Kind: chartCheckpoint, File: c.Chart, Title: checkpointChartTitle(c)})
		}
		for _, sentence := range checkpointSentences(c, u) {
			d.para(plain(sentence))
		}
	}
}

// checkpointRow is a pass's row, or the mean's.
func checkpointRow(pass string, w, r *CheckpointPhaseRow, u bwUnit) []string {
	row := []string{pass}
	for _, p := range []*CheckpointPhaseRow{w, r} {
		if p == nil {
			row = append(row, format.Dash, format.Dash, format.Dash)
			continue
		}
		row = append(row, format.Grouped(p.Seconds, 3), u.number(p.LowestBW), u.number(p.AggregateBW))
	}
	return row
}

// checkpointSentences say what a checkpoint measured: "ckpt on nvme: 8
// ranks wrote 105.0 MB per pass in 0.21 s (the slowest rank, mean of 3
// passes; "1 pass" for one), 62.1 MB/s for the slowest rank and 498.0 MB/s in all.", the
// same of its read-back, and whether a read-back could not drop the
// page cache.
func checkpointSentences(c CheckpointRun, u bwUnit) []string {
	if c.Write == nil {
		return nil
	}
	done := 0
	for _, p := range c.Passes {
		if p.Write != nil {
			done++
		}
	}
	note := flagNote(c.Flags)
	over := "1 pass"
	if done > 1 {
		over = fmt.Sprintf("mean of %d passes", done)
	}
	out := []string{fmt.Sprintf("%s on %s: %d ranks wrote %s per pass in %s s (the slowest rank, %s), %s for the slowest rank and %s in all%s.",
		c.Name, c.Drive, c.Ranks, format.Bytes(uint64(c.Bytes)), format.Grouped(c.Write.Seconds, 3), over, u.text(c.Write.LowestBW), u.text(c.Write.AggregateBW), note)}
	if r := c.Read; r != nil {
		out = append(out, fmt.Sprintf("%s on %s read it back in %s s, %s for the slowest rank and %s in all%s.",
			c.Name, c.Drive, format.Grouped(r.Seconds, 3), u.text(r.LowestBW), u.text(r.AggregateBW), note))
	}
	if c.Evicted > 0 {
		out = append(out, fmt.Sprintf("%s on %s: the page cache could not be dropped before %d of its read-backs, as drop_caches needs root; "+
			"only the checkpoint's own files were evicted from it, so those read-backs read them from the drive while other cached data, "+
			"such as the file system's metadata, stayed in memory.", c.Name, c.Drive, c.Evicted))
	}
	return out
}

// checkpointChartTitle names a checkpoint's chart.
func checkpointChartTitle(c CheckpointRun) string {
	return c.Name + " on " + c.Drive + ": seconds per pass"
}

// checkpointChart draws a checkpoint's seconds per pass, of the slowest
// rank, its write and its read-back.
func checkpointChart(c *CheckpointRun) *plot.Chart {
	ch := &plot.Chart{Title: checkpointChartTitle(*c)}
	var passes, values []float64
	for i, phase := range []struct {
		name string
		of   func(CheckpointPassRow) *CheckpointPhaseRow
	}{
		{"write, slowest rank", func(p CheckpointPassRow) *CheckpointPhaseRow { return p.Write }},
		{"read-back, slowest rank", func(p CheckpointPassRow) *CheckpointPhaseRow { return p.Read }},
	} {
		l := plot.Line{Name: phase.name, Color: plot.SeriesColor(i), Markers: true}
		for _, p := range c.Passes {
			if f := phase.of(p); f != nil {
				l.Points = append(l.Points, plot.Point{X: float64(p.Pass), Y: f.Seconds})
				passes, values = append(passes, float64(p.Pass)), append(values, f.Seconds)
			}
		}
		if len(l.Points) > 0 {
			ch.Lines = append(ch.Lines, l)
		}
	}
	ch.X = plot.WholeAxis("Pass", passes, format.Trim)
	ch.Y = plot.LinearAxis("Seconds", values, true, format.Trim)
	return ch
}

// docFileSets shows the steps on file sets: each set and how it was made
// ready, and the file operations each step timed.
func docFileSets(d *document, s *Summary) {
	if len(s.FileSets) == 0 {
		return
	}
	d.heading(2, plain("File sets"))
	d.para(plain("Steps that ran on a set of files in a folder of the drive: the set, how it was made ready before the step measured " +
		"(setup: files created, or found at their size and used as they were), and each file operation the step timed apart from its transfers, " +
		"whose figures are under Results (a checkpoint's under Checkpoints)."))
	var rows, ops [][]string
	for _, f := range s.FileSets {
		rows = append(rows, []string{f.Step, f.Status, format.Count(float64(f.Files)), format.Count(float64(f.Dirs)), fileSetSize(f), setupText(f.Setup), cacheText(f.CacheDrop)})
		for _, op := range f.Metadata {
			ops = append(ops, []string{f.Step, op.Op, format.Count(float64(op.Count)), format.Latency(op.MeanNs),
				format.Latency(float64(op.P50Ns)), format.Latency(float64(op.P99Ns)), format.Latency(float64(op.MaxNs))})
		}
	}
	d.table([]column{{title: "Step"}, {title: "Status"}, {"Files", true}, {"Dirs", true}, {"Size", true}, {title: "Setup"}, {title: "Page cache"}}, rows)
	if len(ops) > 0 {
		d.table([]column{{title: "Step"}, {title: "Operation"}, {"Count", true}, {"Mean", true}, {"p50", true}, {"p99", true}, {"max", true}}, ops)
	}
	for _, f := range s.FileSets {
		if f.CacheDrop == metrics.CacheEvicted {
			d.para(plain(f.Step + ": the page cache could not be dropped, as drop_caches needs root; only the set's own files were evicted from it, " +
				"so the step read them from the drive while other cached data stayed in memory."))
		}
	}
}

func fileSetSize(f FileSetRun) string {
	if f.Bytes <= 0 {
		return format.Dash
	}
	return format.Bytes(uint64(f.Bytes))
}

// setupText says how a set was made ready: "8 created in 0.02 s", "8
// found", "measured" when the step's figures count it.
func setupText(s *FileSetSetup) string {
	if s == nil {
		return format.Dash
	}
	var text string
	switch {
	case s.Created > 0 && s.Reused > 0:
		text = fmt.Sprintf("%s created, %s found", format.Count(float64(s.Created)), format.Count(float64(s.Reused)))
	case s.Created > 0:
		text = format.Count(float64(s.Created)) + " created"
	case s.Reused > 0:
		text = format.Count(float64(s.Reused)) + " found"
	default:
		text = "created as opened"
	}
	text += " in " + format.Grouped(s.Seconds, 3) + " s"
	if s.Measured {
		text += ", measured"
	}
	return text
}

// cacheText says how a step emptied the page cache.
func cacheText(method string) string {
	switch method {
	case metrics.CacheDropped:
		return "dropped"
	case metrics.CacheEvicted:
		return "files evicted"
	}
	return format.Dash
}
