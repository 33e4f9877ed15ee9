package reports

import (
	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/metrics"
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
		LagMaxNs: st.Lag.Max, Faithful: st.IssuedIOs == st.TraceIOs && st.IssuedBytes == st.TraceBytes, KeptUp: st.KeptUp()}
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

// orReplay is a replay's writes, "replay" when it replays them.
func orReplay(writes string) string {
	if writes == "" {
		return "replay"
	}
	return writes
}

// replayTables writes, under a profile's table, each replayed row's
// trace against what the replay did.
func replayTables(d *document, t *ProfileResult) {
	for _, r := range t.Rows {
		if r.Replay == nil {
			continue
		}
		rp := r.Replay
		d.para(plain("Replay of "), mono(rp.File), plain(" ("+rp.Format+") at speed "+speedText(rp.Speed)+", iodepth cap "+format.Count(float64(rp.IODepth))+", writes "+rp.Writes+":"))
		d.table([]column{{title: "Figure"}, {title: "Trace", numeric: true}, {title: "Replay", numeric: true}}, [][]string{
			{"I/Os", format.Count(float64(rp.TraceIOs)), format.Count(float64(rp.IssuedIOs))},
			{"bytes", format.Count(float64(rp.TraceBytes)), format.Count(float64(rp.IssuedBytes))},
			{"reads / writes", format.Count(float64(rp.TraceReads)) + " / " + format.Count(float64(rp.TraceWrites)), ""},
			{"writes skipped / read instead", format.Count(float64(rp.WritesSkipped)) + " / " + format.Count(float64(rp.WritesRead)), ""},
			{"flushes (fsync) / trims left out", format.Count(float64(rp.Flushes)) + " / " + format.Count(float64(rp.Discards)), ""},
			{"duration", format.Duration(rp.TraceNs), format.Duration(rp.ScheduleNs)},
			{"lag p50 / p99 / max", "", format.Latency(float64(rp.LagP50Ns)) + " / " + format.Latency(float64(rp.LagP99Ns)) + " / " + format.Latency(float64(rp.LagMaxNs))},
			{"I/Os that waited for a slot", "", format.Count(float64(rp.SlotWaits))},
		})
		d.para(plain(replaySentence(rp)))
	}
}

// speedText is a replay's speed: "1x", "0 (as fast as allowed)".
func speedText(speed float64) string {
	if speed == 0 {
		return "0 (as fast as allowed)"
	}
	return format.Plain(speed) + "x"
}

// replaySentence says whether the replay was faithful to the trace (in
// the words of its verdict) and whether the drive kept up.
func replaySentence(rp *Replay) string {
	s := format.UpperFirst(judging.ReplayFidelityMessage(rp.TraceIOs, rp.TraceBytes, rp.IssuedIOs, rp.IssuedBytes))
	switch {
	case rp.Speed == 0:
		return s + "; at speed 0 it followed no schedule, so it has no lag."
	case rp.KeptUp:
		return s + "; the drive kept up: every I/O found a free slot at its scheduled time."
	}
	return s + "; the drive did not keep up: " + format.Count(float64(rp.SlotWaits)) + " I/Os were due while all " + format.Count(float64(rp.IODepth)) + " slots were busy."
}
