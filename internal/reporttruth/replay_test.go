package reporttruth

import (
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// replayRun is one replay step of a 2,000-I/O trace.
func replayRun() (*results.Manifest, []*results.Record) {
	m := &results.Manifest{
		Plan: "replay", PlanHash: "h", Created: t0,
		Drives: []results.Drive{{Name: "d", Path: "/dev/null"}},
		Steps:  []results.StepInfo{{ID: "boot", Kind: "profile", Name: "d / boot", Drive: "d", Source: "boot"}},
	}
	lag := metrics.LatencySummary{Max: 900_000, Percentiles: []metrics.Percentile{{P: 50, Ns: 20_000}, {P: 99, Ns: 400_000}}}
	recs := []*results.Record{{StepID: "boot", Kind: "profile", Name: "d / boot", Drive: "d", Source: "boot", Status: "ok", Started: t0, Finished: t0.Add(time.Minute),
		Workload: &workload.Workload{IODepth: 16, NumJobs: 1, Replay: &workload.Replay{File: "boot.iolog", Format: "fio-iolog-v3", Speed: 1}},
		Result: &metrics.Result{Read: &metrics.DirStats{IOs: 2000, Bytes: 8192000, IOPS: 1000, BW: 4096000, Lat: metrics.LatencySummary{Mean: 500_000, Max: 900_000}},
			Replay: &metrics.ReplayStats{TraceIOs: 2000, TraceBytes: 8192000, IssuedIOs: 2000, IssuedBytes: 8192000, TraceReads: 2000, Speed: 1, Lag: lag, IODepth: 16}}}}
	return m, recs
}

// TestReplayFigures: the sentences under a replay's table say what its
// record holds, and a report that says otherwise is caught.
func TestReplayFigures(t *testing.T) {
	none := func(*results.Record) {}
	cases := []struct {
		name   string
		change func(rec *results.Record)
		edit   func(md string) string
		want   string
	}{
		{"as written", none, nil, ""},
		{"not faithful", func(rec *results.Record) { rec.Result.Replay.IssuedIOs = 1990 }, nil, ""},
		{"did not keep up", func(rec *results.Record) { rec.Result.Replay.SlotWaits = 12 }, nil, ""},
		{"one I/O waited", func(rec *results.Record) { rec.Result.Replay.SlotWaits = 1 }, nil, ""},
		{"trace count", none, func(md string) string { return strings.Replace(md, "trace's 2,000 I/Os", "trace's 2,001 I/Os", 1) }, "trace I/Os: says 2,001, the record has 2,000"},
		{"kept up", none, func(md string) string {
			return strings.Replace(md, "the drive kept up: every I/O found a free slot at its scheduled time", "the drive did not keep up: 3 I/Os were due while all 16 slots were busy", 1)
		}, "pace: says the drive did not keep up"},
		{"speed", none, func(md string) string { return strings.Replace(md, "at speed 1x", "at speed 2x", 1) }, "speed: says 2x, the record has 1x"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, recs := replayRun()
			tc.change(recs[0])
			r := report(t, m, recs)
			if tc.edit != nil {
				r.Markdown = tc.edit(r.Markdown)
			}
			if !strings.Contains(r.Markdown, "Replay of `boot.iolog`") {
				t.Fatalf("no replay table in the report:\n%s", r.Markdown)
			}
			checkFalsehoods(t, r, tc.want)
		})
	}
}
