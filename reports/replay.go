package reports

import (
	"math"
	"strconv"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plot"
	"github.com/drivebench/drivebench/workload"
)

// Replay is what a row's trace replay did beside its I/O figures: the
// trace and how it was replayed, what the trace holds against what the
// replay issued (they must be equal), and the lag of each issue behind its
// scheduled time.
type Replay struct {
	File   string  `json:"file"`
	Format string  `json:"format,omitempty"`
	Speed  float64 `json:"speed"`
	// Writes is "replay", "skip" or "read": what became of the trace's
	// writes.
	Writes  string `json:"writes"`
	IODepth int    `json:"iodepth"`
	// The trace's reads and writes the replay was to issue, and what it
	// issued (metrics.ReplayStats).
	TraceIOs      int64 `json:"trace_ios"`
	TraceBytes    int64 `json:"trace_bytes"`
	IssuedIOs     int64 `json:"issued_ios"`
	IssuedBytes   int64 `json:"issued_bytes"`
	TraceReads    int64 `json:"trace_reads"`
	TraceWrites   int64 `json:"trace_writes"`
	WritesSkipped int64 `json:"writes_skipped"`
	WritesRead    int64 `json:"writes_read"`
	Flushes       int64 `json:"flushes"`
	Discards      int64 `json:"discards"`
	TraceNs       int64 `json:"trace_ns"`
	ScheduleNs    int64 `json:"schedule_ns"`
	SlotWaits     int64 `json:"slot_waits"`
	// LagP50Ns, LagP99Ns and LagMaxNs are the issue lag's percentiles.
	LagP50Ns uint64 `json:"lag_p50_ns"`
	LagP99Ns uint64 `json:"lag_p99_ns"`
	LagMaxNs uint64 `json:"lag_max_ns"`
	// Faithful says that the replay issued exactly the trace's I/Os and
	// bytes; KeptUp that every I/O found a free slot at its time.
	Faithful bool `json:"faithful"`
	KeptUp   bool `json:"kept_up"`
	// ReadPct is the share of reads among the I/Os the replay completed.
	ReadPct float64 `json:"read_pct"`
	// Stat is the trace's own statistics (drivebench trace stat), of the
	// replayed disk over the whole file; absent when the run could not
	// read them.
	Stat *TraceStat `json:"trace_stat,omitempty"`
	// LagSeries is the lag over the schedule, a sample an interval.
	LagSeries []metrics.LagSample `json:"lag_series"`
	// TraceSeries is the replay over the trace's own time, a bin each
	// TraceBinNs of trace time (metrics.TraceBin); Loops is how many
	// times the window was replayed, one after the other on that axis.
	TraceBinNs  int64              `json:"trace_bin_ns"`
	TraceSeries []metrics.TraceBin `json:"trace_series"`
	Loops       int                `json:"loops"`
}

// TraceStat is a trace's own rate, read and sequential shares and queue
// depth, to set beside what its replay measured.
type TraceStat struct {
	IOPS          float64 `json:"iops"`
	BW            float64 `json:"bw_bytes"`
	ReadPct       float64 `json:"read_pct"`
	SequentialPct float64 `json:"sequential_pct"`
	// QueueDepthP99 is 0 for a trace without completions.
	QueueDepthP99 uint64 `json:"queue_depth_p99"`
}

// replayOf is the replay figures of a step's result; nil for a step that
// replayed nothing.
func replayOf(w *workload.Workload, res *metrics.Result) *Replay {
	if w == nil || w.Replay == nil || res == nil || res.Replay == nil {
		return nil
	}
	st := *res.Replay
	r := &Replay{File: w.Replay.File, Format: w.Replay.Format, Speed: w.Replay.Speed, Writes: orReplay(w.Replay.Writes), IODepth: w.IODepth,
		TraceIOs: st.TraceIOs, TraceBytes: st.TraceBytes, IssuedIOs: st.IssuedIOs, IssuedBytes: st.IssuedBytes,
		TraceReads: st.TraceReads, TraceWrites: st.TraceWrites, WritesSkipped: st.WritesSkipped, WritesRead: st.WritesRead,
		Flushes: st.Flushes, Discards: st.Discards, TraceNs: st.TraceNs, ScheduleNs: st.ScheduleNs, SlotWaits: st.SlotWaits,
		LagMaxNs: st.Lag.Max, Faithful: st.IssuedIOs == st.TraceIOs && st.IssuedBytes == st.TraceBytes, KeptUp: st.KeptUp(),
		ReadPct: readShare(res), Stat: traceStat(st.Trace), LagSeries: st.LagSeries,
		TraceBinNs: st.TraceBinNs, TraceSeries: st.TraceSeries, Loops: w.Replay.LoopCount()}
	if r.LagSeries == nil {
		r.LagSeries = []metrics.LagSample{}
	}
	if r.TraceSeries == nil {
		r.TraceSeries = []metrics.TraceBin{}
	}
	for _, p := range st.Lag.Percentiles {
		switch p.P {
		case 50:
			r.LagP50Ns = p.Ns
		case 99:
			r.LagP99Ns = p.Ns
		}
	}
	return r
}

// readShare is the percentage of reads among a result's I/Os.
func readShare(res *metrics.Result) float64 {
	var reads, all uint64
	if res.Read != nil {
		reads, all = res.Read.IOs, res.Read.IOs
	}
	if res.Write != nil {
		all += res.Write.IOs
	}
	if all == 0 {
		return 0
	}
	return 100 * float64(reads) / float64(all)
}

// traceStat is the trace's own figures as rates; nil without them.
func traceStat(ts *metrics.TraceStat) *TraceStat {
	if ts == nil {
		return nil
	}
	out := &TraceStat{ReadPct: ts.ReadPct, SequentialPct: ts.SequentialPct, QueueDepthP99: ts.QueueDepthP99}
	if ts.DurationNs > 0 {
		sec := float64(ts.DurationNs) / 1e9
		out.IOPS, out.BW = float64(ts.IOs)/sec, float64(ts.Bytes)/sec
	}
	return out
}

// pacedReplay reports whether a row replays a trace on its schedule
// (speed above 0): its IOPS over time are then the trace's own rate, a
// boot's burst and the quiet after it, so the report does not describe
// them as the drive's (a trend over the run, a spread over intervals);
// the trace-time chart and the replay's table say how the drive kept up.
func (r Row) pacedReplay() bool { return r.Replay != nil && r.Replay.Speed > 0 }

// orReplay is a replay's writes, "replay" when it replays them.
func orReplay(writes string) string {
	if writes == "" {
		return "replay"
	}
	return writes
}

// replayTables writes, under a profile's table, each replayed row's
// trace against what the replay did.
func replayTables(d *document, t *ProfileResult, u bwUnit) {
	for _, r := range t.Rows {
		if r.Replay == nil {
			continue
		}
		rp := r.Replay
		d.para(plain("Replay of "), mono(rp.File), plain(" ("+rp.Format+") at speed "+speedText(rp.Speed)+", iodepth cap "+format.Count(float64(rp.IODepth))+", writes "+rp.Writes+":"))
		d.table([]column{{title: "Figure"}, {title: "Trace", numeric: true}, {title: "Replay", numeric: true}}, replayRows(rp, r.Total, u))
		d.para(plain(replaySentence(rp, r.Flags)))
	}
}

// replayRows are the rows of a replay's table: the trace's counts and
// duration against the replay's, its own statistics against what the
// replay measured (total holds the row's figures), and the lag.
func replayRows(rp *Replay, total *Figures, u bwUnit) [][]string {
	n := func(v int64) string { return format.Count(float64(v)) }
	rows := [][]string{
		{"I/Os", n(rp.TraceIOs), n(rp.IssuedIOs)},
		{"bytes", n(rp.TraceBytes), n(rp.IssuedBytes)},
		{"reads / writes", n(rp.TraceReads) + " / " + n(rp.TraceWrites), ""},
		{"writes skipped / read instead", n(rp.WritesSkipped) + " / " + n(rp.WritesRead), ""},
		{"flushes (fsync) / trims left out", n(rp.Flushes) + " / " + n(rp.Discards), ""},
		{"duration", format.Duration(rp.TraceNs), format.Duration(rp.ScheduleNs)},
	}
	if st := rp.Stat; st != nil && total != nil {
		qd := "—"
		if st.QueueDepthP99 > 0 {
			qd = format.Count(float64(st.QueueDepthP99))
		}
		rows = append(rows,
			[]string{"IOPS (trace stat: whole trace)", format.Count(st.IOPS), format.Count(total.IOPS)},
			[]string{string(u), u.number(st.BW), u.number(total.BWBytes)},
			[]string{"read share", format.Plain(round1(st.ReadPct)) + " %", format.Plain(round1(rp.ReadPct)) + " %"},
			[]string{"sequential share", format.Plain(round1(st.SequentialPct)) + " %", ""},
			[]string{"queue depth p99 / iodepth cap", qd, n(int64(rp.IODepth))})
	}
	lag, waits := format.Latency(float64(rp.LagP50Ns))+" / "+format.Latency(float64(rp.LagP99Ns))+" / "+format.Latency(float64(rp.LagMaxNs)), n(rp.SlotWaits)
	if rp.Speed == 0 {
		// no schedule: no lag, and every I/O past the first iodepth
		// waits for a slot, which the engine does not count
		lag, waits = format.Dash, format.Dash
	}
	return append(rows,
		[]string{"lag p50 / p99 / max", "", lag},
		[]string{"I/Os that waited for a slot", "", waits})
}

// round1 rounds a share to a tenth.
func round1(v float64) float64 { return math.Round(v*10) / 10 }

// speedText is a replay's speed: "1x", "0 (as fast as allowed)".
func speedText(speed float64) string {
	if speed == 0 {
		return "0 (as fast as allowed)"
	}
	return format.Plain(speed) + "x"
}

// replaySentence says whether the replay was faithful to the trace (in
// the words of its verdict) and whether the drive kept up; a drive said
// not to keep up carries its row's flags, since on a busy host (⚠
// host-bound) the slots may have been held by the host rather than the
// drive.
func replaySentence(rp *Replay, flags []string) string {
	s := format.UpperFirst(judging.ReplayFidelityMessage(rp.TraceIOs, rp.TraceBytes, rp.IssuedIOs, rp.IssuedBytes))
	switch {
	case rp.Speed == 0:
		return s + "; at speed 0 it followed no schedule, so it has no lag."
	case rp.KeptUp:
		return s + "; the drive kept up: every I/O found a free slot at its scheduled time."
	}
	were := " were due"
	if rp.SlotWaits == 1 {
		were = " was due"
	}
	return s + "; the drive did not keep up" + flagNote(flags) + ": " + judging.IOCount(rp.SlotWaits) + were + " while all " + format.Count(float64(rp.IODepth)) + " slots were busy."
}

// lagSeries is the lag series of an entry's replay; nil for a profile
// that replays nothing.
func lagSeries(e entry) []metrics.LagSample {
	if rp := replayOfEntry(e); rp != nil {
		return rp.LagSeries
	}
	return nil
}

// replayLagChart draws each replay's issue lag against its schedule, on
// a log scale: the median and the largest of each interval (an interval
// holds too few I/Os for its p99 to differ from its maximum; the table
// gives the replay's p99).
func replayLagChart(profile string, entries []entry) *plot.Chart {
	c := &plot.Chart{Title: profile + ": issue lag over the schedule"}
	var xs, lags []float64
	for i, e := range entries {
		lines := []plot.Line{
			{Name: e.label + " median", Color: plot.SeriesColor(i), Dashed: true},
			{Name: e.label + " max", Color: plot.SeriesColor(i)},
		}
		for _, smp := range lagSeries(e) {
			xs = append(xs, smp.T)
			for j, v := range []uint64{smp.P50Ns, smp.MaxNs} {
				// a lag of 0 has no place on a log scale
				if v > 0 {
					lags = append(lags, float64(v))
					lines[j].Points = append(lines[j].Points, plot.Point{X: smp.T, Y: float64(v)})
				}
			}
		}
		c.Lines = append(c.Lines, lines...)
	}
	c.X = plot.LinearAxis("Schedule (s)", xs, true, format.Trim)
	c.Y = plot.LogAxis("Lag", lags, format.ShortLatency)
	return c
}

// replayOfEntry is the replay of an entry's profile; nil for a profile
// that replays nothing.
func replayOfEntry(e entry) *Replay {
	for _, r := range e.table.Rows {
		if r.Replay != nil {
			return r.Replay
		}
	}
	return nil
}

// traceTimeTitle is the title of a profile's chart over trace time.
func traceTimeTitle(profile string) string {
	return profile + ": IOPS, p99 latency and lag over trace time"
}

// maxLoopMarks is the most loops whose starts the trace-time chart
// marks; more would hide the lines (the series CSV has each bin's loop).
const maxLoopMarks = 8

// replayTraceChart draws each replay's reads and writes over the trace's
// own time, whatever its speed: IOPS per second of trace time on the
// left, the p99 latency and p99 issue lag of each bin on a log scale on
// the right, and where each loop after the first begins. A bin without
// I/Os is a 0 of IOPS and no latency.
func replayTraceChart(profile string, entries []entry) *plot.Chart {
	c := &plot.Chart{Title: traceTimeTitle(profile), Y2Room: true}
	var end float64
	for _, e := range entries {
		if rp := replayOfEntry(e); rp != nil && len(rp.TraceSeries) > 0 {
			end = max(end, rp.TraceSeries[len(rp.TraceSeries)-1].T)
		}
	}
	factor, unit := timeUnit(end)
	var xs, iops, lats []float64
	for i, e := range entries {
		rp := replayOfEntry(e)
		if rp == nil || rp.TraceBinNs <= 0 {
			continue
		}
		width := float64(rp.TraceBinNs) / 1e9
		iopsLine := plot.Line{Name: e.label + " IOPS", Color: plot.SeriesColor(i)}
		latLine := plot.Line{Name: e.label + " p99", Color: plot.SeriesColor(i), Dashed: true, OnY2: true}
		lagLine := plot.Line{Name: e.label + " lag p99", Color: plot.SeriesColor(i + len(entries)), Dashed: true, OnY2: true}
		loop := 1
		for _, b := range rp.TraceSeries {
			x, v := b.T/factor, float64(b.Reads+b.Writes)/width
			xs, iops = append(xs, x), append(iops, v)
			iopsLine.Points = append(iopsLine.Points, plot.Point{X: x, Y: v})
			if b.Loop > loop && rp.Loops <= maxLoopMarks {
				c.Marks = append(c.Marks, plot.Mark{At: plot.Point{X: x, Y: v}, Label: "loop " + strconv.Itoa(b.Loop), Color: plot.SeriesColor(i)})
			}
			loop = b.Loop
			// a latency of 0 has no place on a log scale
			for _, p := range []struct {
				line *plot.Line
				ns   float64
			}{{&latLine, float64(b.P99Ns)}, {&lagLine, float64(b.LagP99Ns)}} {
				if p.ns > 0 {
					lats = append(lats, p.ns)
					p.line.Points = append(p.line.Points, plot.Point{X: x, Y: p.ns})
				}
			}
		}
		c.Lines = append(c.Lines, iopsLine, latLine)
		if len(lagLine.Points) > 0 {
			c.Lines = append(c.Lines, lagLine)
		}
	}
	// from the window's start: a replay that skips 30 minutes into a trace
	// is not drawn in the last sliver of an axis from 0
	c.X = plot.LinearAxis("Trace time ("+unit+")", xs, false, format.Trim)
	c.Y = plot.LinearAxis("IOPS (per second of trace time)", iops, true, format.ShortCount)
	c.Y2 = plot.LogAxis("Latency, lag", lats, format.ShortLatency)
	return c
}
