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

// hostBound makes the replay fall behind on a host its other programs
// kept busy.
func hostBound(rec *results.Record) {
	rec.Result.Replay.SlotWaits = 12
	rec.Warnings = []results.Warning{{Kind: results.WarnHostCPU, Message: "The host's processors were 100 % busy over the step."}}
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
		{"fell behind on a busy host", hostBound, nil, ""},
		{"busy host unsaid", hostBound, func(md string) string {
			return strings.Replace(md, "did not keep up (⚠ host-bound):", "did not keep up:", 1)
		},
			"(replay fidelity): carries no flag, the replay's row is flagged host_cpu"},
		{"busy host said of a quiet one", func(rec *results.Record) { rec.Result.Replay.SlotWaits = 12 }, func(md string) string {
			return strings.Replace(md, "did not keep up:", "did not keep up (⚠ host-bound):", 1)
		}, "(replay fidelity): carries the flag (⚠ host-bound), the replay's row has none"},
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

// TestReplayOverTime: a replay on its trace's schedule runs at the
// trace's rate, a boot's burst and the quiet after it, so its report
// says nothing of its IOPS falling over the run or varying over its
// intervals as if the drive's did; at speed 0 the rate is the drive's and
// both are said. A report that says them of a paced replay is caught.
func TestReplayOverTime(t *testing.T) {
	run := func(speed float64) *Report {
		m, recs := replayRun()
		rec := recs[0]
		rec.Workload.Replay.Speed, rec.Result.Replay.Speed = speed, speed
		for i := range 12 {
			iops := 1000.0
			if i >= 2 {
				iops = 10
			}
			rec.Result.Series = append(rec.Result.Series, metrics.Sample{T: float64(i + 1), ReadIOPS: iops, BW: iops * 4096, MeanLatNs: 500_000})
		}
		return report(t, m, recs)
	}
	const trend, spread = "IOPS fell from 1,000 (first tenth of the run) to 10 (last tenth)", "Per-interval IOPS varied (coefficient of variation) by single run"
	paced, free := run(1), run(0)
	for _, s := range []string{trend, spread} {
		if strings.Contains(paced.Markdown, s) {
			t.Errorf("a replay at speed 1 says %q, of the trace's rate", s)
		}
		if !strings.Contains(free.Markdown, s) {
			t.Errorf("a replay at speed 0 does not say %q:\n%s", s, free.Markdown)
		}
	}
	checkFalsehoods(t, paced, "")
	checkFalsehoods(t, free, "")

	paced.Markdown = free.Markdown
	var found []string
	for _, f := range Check(paced) {
		found = append(found, f.String())
	}
	got := strings.Join(found, "\n")
	for _, want := range []string{
		"(series): the peak row replays a trace on its schedule",
		"(interval noise): gives a spread for single run, which replays a trace on its schedule",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("a paced replay's report with the speed-0 sentences: want a falsehood %q; found:\n%s", want, got)
		}
	}
}

// TestReplayAtSpeedZero: a replay at speed 0 follows no schedule, so its
// report gives no lag and no count of slot waits (every I/O past the
// first iodepth waited for a slot, uncounted), defines its latency from
// submission and gives no service latency beside one "from due time";
// a report that says these of it, or the submission's latency of a
// paced replay, is caught.
func TestReplayAtSpeedZero(t *testing.T) {
	run := func(speed float64) *Report {
		m, recs := replayRun()
		rec := recs[0]
		rec.Workload.Replay.Speed, rec.Result.Replay.Speed = speed, speed
		rec.Result.Read.Service = &metrics.LatencySummary{Mean: 300_000}
		return report(t, m, recs)
	}
	const (
		scheduled = "Latency is drivebench's own for a trace replay, from the moment the trace scheduled each I/O to its completion, so an I/O that waited for a free slot counts its wait."
		submitted = "Latency is drivebench's own, from each I/O's submission to its completion."
		service   = "with 300.0 µs mean service latency (500.0 µs from each I/O's due time)"
	)
	free, paced := run(0), run(1)
	for _, want := range []string{submitted, "| lag p50 / p99 / max |  | — |", "| I/Os that waited for a slot |  | — |", "with 500.0 µs mean latency."} {
		if !strings.Contains(free.Markdown, want) {
			t.Errorf("a replay at speed 0 does not say %q:\n%s", want, free.Markdown)
		}
	}
	for _, want := range []string{scheduled, service} {
		if !strings.Contains(paced.Markdown, want) {
			t.Errorf("a replay at speed 1 does not say %q:\n%s", want, paced.Markdown)
		}
	}
	checkFalsehoods(t, free, "")
	checkFalsehoods(t, paced, "")
	cases := []struct {
		name     string
		r        *Report
		from, to string
		want     string
	}{
		{"scheduled at speed 0", free, submitted, scheduled, "(latency definition): says the latency of the single run counts from the trace's schedule"},
		{"service at speed 0", free, "with 500.0 µs mean latency", service, "gives a service latency, the peak row is not paced"},
		{"submitted at speed 1", paced, scheduled, submitted, "(latency definition): says the latency of the single run counts from submission"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := *tc.r
			r.Markdown = strings.Replace(r.Markdown, tc.from, tc.to, 1)
			checkFalsehoods(t, &r, tc.want)
		})
	}
}
