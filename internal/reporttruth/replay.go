package reporttruth

import (
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/reports"
	"github.com/drivebench/drivebench/results"
)

// replayKinds know the sentences under a replay's table: what was
// replayed and how, and whether the replay issued the trace's I/Os and
// kept up, each held against the step's record.
var replayKinds = []kind{
	{
		name: "replay", in: "Results",
		pattern: pattern("Replay of `(?P<file>[^`]+)` \\((?P<format>[^)]*)\\) at speed (?P<speed>[\\d.]+x|0 \\(as fast as allowed\\)), " +
			"iodepth cap {count:depth}, writes (?P<writes>replay|skip|read):"),
		check: checkReplayHeading,
	},
	{
		name: "replay fidelity", in: "Results",
		pattern: pattern(`The replay issued (?:the trace's {count:ios} I/Os? and {count:bytes} bytes, exactly|` +
			`{count:issued} I/Os? and {count:issuedbytes} bytes where the trace holds {count:ios} and {count:bytes}: {count:dios} I/Os? and {count:dbytes} bytes (?:not replayed|more than the trace holds)); ` +
			`(?P<pace>at speed 0 it followed no schedule, so it has no lag|the drive kept up: every I/O found a free slot at its scheduled time|` +
			`the drive did not keep up{flags}: {count:waits} I/Os? (?:was|were) due while all {count:slots} slots were busy)\.`),
		check: checkReplayFidelity,
	},
	{
		name: "latency definition", in: "Results",
		pattern: pattern(`Latency is drivebench's own(?P<replay> for a trace replay, from the moment the trace scheduled each I/O to its completion, so an I/O that waited for a free slot counts its wait|, from each I/O's submission to its completion)\.`),
		check:   checkReplayLatency,
	},
}

// checkReplayLatency holds the latency a table's note defines to its
// replays: from each I/O's time in the trace's schedule for every row
// when they replay on that schedule, and from submission when none does
// (at speed 0 a replay follows no schedule).
func checkReplayLatency(sc *scope, g groups) []string {
	scheduled := strings.HasPrefix(g["replay"], " for a trace replay")
	var p problems
	for _, r := range tableRows(sc) {
		if r.Total == nil {
			continue
		}
		switch name := cond(r.Point == "", "the single run", r.Point); {
		case scheduled && !pacedReplay(r):
			p.add("says the latency of %s counts from the trace's schedule; it replays no trace on a schedule", name)
		case !scheduled && pacedReplay(r):
			p.add("says the latency of %s counts from submission; it replays a trace on its schedule, from which its latency counts", name)
		}
	}
	return p
}

// pacedReplay reports whether a row replays a trace on its schedule
// (speed above 0), whose IOPS over time are the trace's rate: a sentence
// on their trend or spread describes the trace as if it were the drive.
func pacedReplay(r reports.Row) bool { return r.Replay != nil && r.Replay.Speed > 0 }

// replayRecord is the record of the replay in the sentence's table whose
// trace is file ("" for any), with what it measured of the replay.
func (sc *scope) replayRecord(file string) (*results.Record, *metrics.ReplayStats) {
	if sc.table == nil {
		return nil, nil
	}
	for _, row := range sc.table.Rows {
		rec := sc.r.Records[row.StepID]
		if rec == nil || rec.Workload == nil || rec.Workload.Replay == nil || rec.Result == nil || rec.Result.Replay == nil {
			continue
		}
		if file == "" || rec.Workload.Replay.File == file {
			return rec, rec.Result.Replay
		}
	}
	return nil, nil
}

func checkReplayHeading(sc *scope, g groups) []string {
	rec, _ := sc.replayRecord(g["file"])
	if rec == nil {
		return []string{"no replay of " + g["file"] + " in the table's records"}
	}
	var p problems
	w := rec.Workload
	speed := strconv.FormatFloat(w.Replay.Speed, 'f', -1, 64) + "x"
	if w.Replay.Speed == 0 {
		speed = "0 (as fast as allowed)"
	}
	writes := w.Replay.Writes
	if writes == "" {
		writes = "replay"
	}
	p.eq("format", g["format"], w.Replay.Format, "the record")
	p.eq("speed", g["speed"], speed, "the record")
	p.eq("iodepth", g["depth"], format.Count(float64(w.IODepth)), "the record")
	p.eq("writes", g["writes"], writes, "the record")
	return p
}

func checkReplayFidelity(sc *scope, g groups) []string {
	rec, st := sc.replayRecord("")
	if rec == nil {
		return []string{"no replay in the table's records"}
	}
	var p problems
	n := func(v int64) string { return format.Count(float64(v)) }
	p.eq("trace I/Os", g["ios"], n(st.TraceIOs), "the record")
	p.eq("trace bytes", g["bytes"], n(st.TraceBytes), "the record")
	if g["issued"] == "" {
		if st.IssuedIOs != st.TraceIOs || st.IssuedBytes != st.TraceBytes {
			p.add("says the replay issued exactly the trace's I/Os; the record has %d I/Os and %d bytes issued", st.IssuedIOs, st.IssuedBytes)
		}
	} else {
		p.eq("issued I/Os", g["issued"], n(st.IssuedIOs), "the record")
		p.eq("issued bytes", g["issuedbytes"], n(st.IssuedBytes), "the record")
		p.eq("I/Os apart", g["dios"], n(max(st.TraceIOs-st.IssuedIOs, st.IssuedIOs-st.TraceIOs)), "the record")
		p.eq("bytes apart", g["dbytes"], n(max(st.TraceBytes-st.IssuedBytes, st.IssuedBytes-st.TraceBytes)), "the record")
	}
	switch {
	case st.Speed == 0:
		p.eq("pace", g["pace"], "at speed 0 it followed no schedule, so it has no lag", "the record's speed 0")
	case st.KeptUp():
		p.eq("pace", g["pace"], "the drive kept up: every I/O found a free slot at its scheduled time", "the record's 0 slot waits")
	default:
		p.eq("slot waits", g["waits"], n(st.SlotWaits), "the record")
		p.eq("slots", g["slots"], n(int64(rec.Workload.IODepth)), "the record")
		for _, r := range tableRows(sc) {
			if r.StepID == rec.StepID {
				checkFlags(&p, g["flags"], r, "the replay's row")
			}
		}
	}
	return p
}
