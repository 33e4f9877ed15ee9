package reports

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// repeatRun is a profile "rep" on drive d repeated three times at
// iodepth 1 and 8, each point's rounds followed by the aggregate that
// averages them: steps "q<iodepth>r<round>" and "q<iodepth>avg".
func repeatRun() *results.Manifest {
	m := &results.Manifest{Plan: "repeat", PlanHash: "h", Created: t0, Drives: []results.Drive{{Name: "d"}}}
	for _, qd := range []int{1, 8} {
		point := []workload.Param{{Name: "iodepth", Value: float64(qd)}}
		var rounds []string
		for r := 1; r <= 3; r++ {
			id := fmt.Sprintf("q%dr%d", qd, r)
			rounds = append(rounds, id)
			m.Steps = append(m.Steps, results.StepInfo{ID: id, Kind: "profile", Drive: "d", Source: "rep", Point: point,
				Name: fmt.Sprintf("d / rep / iodepth=%d / round %d/3", qd, r)})
		}
		m.Steps = append(m.Steps, results.StepInfo{ID: fmt.Sprintf("q%davg", qd), Kind: "aggregate", Drive: "d", Source: "rep",
			Point: point, DependsOn: rounds, Aggregate: &workload.Aggregate{Use: "last", Keep: 2}, Name: fmt.Sprintf("d / rep / iodepth=%d / mean of last 2 of 3 rounds", qd)})
	}
	return m
}

func readResult(iops float64) *metrics.Result {
	return &metrics.Result{Read: dir(iops, 1e9/iops, uint64(iops*5))}
}

func TestAggregateRows(t *testing.T) {
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	avg := record("q1avg", "ok", at(4), readResult(1_050))
	avg.Uses = []string{"d / rep / iodepth=1 / round 2/3", "d / rep / iodepth=1 / round 3/3"}
	recs := []*results.Record{
		record("q1r1", "ok", at(1), readResult(1_000)),
		record("q1r2", "ok", at(2), readResult(1_040)),
		record("q1r3", "ok", at(3), readResult(1_060)),
		avg,
		record("q8r1", "ok", at(5), readResult(7_000)),
		{StepID: "q8r2", Status: "failed", Error: "native: read: input/output error"},
		record("q8r3", "interrupted", at(7), readResult(6_000)),
		{StepID: "q8avg", Status: "failed", Error: "1 of 3 rounds completed; the aggregate needs 2"},
	}
	s, md := render(t, repeatRun(), recs)
	if len(s.Results) != 1 || len(s.Results[0].Rows) != 2 {
		t.Fatalf("results = %+v, want one table of two rows", s.Results)
	}
	one, eight := s.Results[0].Rows[0], s.Results[0].Rows[1]
	if one.StepID != "q1avg" || one.Averaged != 2 || one.Total.IOPS != 1_050 || !one.Peak {
		t.Errorf("iodepth=1 row = %+v, want the aggregate of 2 rounds, the peak", one)
	}
	var used []bool
	for _, r := range one.Rounds {
		used = append(used, r.Used)
	}
	if !slices.Equal(used, []bool{false, true, true}) || one.Rounds[2].StepID != "q1r3" || one.Rounds[2].Round != 3 {
		t.Errorf("rounds = %+v, want rounds 2 and 3 used", one.Rounds)
	}
	if eight.Status != "failed" || eight.Averaged != 0 || eight.Peak || len(eight.Rounds) != 3 {
		t.Errorf("iodepth=8 row = %+v, want the failed aggregate", eight)
	}
	if s.Counts.Steps.Total != 8 || s.Counts.Steps.Failed != 2 || s.Counts.Steps.Interrupted != 1 {
		t.Errorf("counts = %+v: every round and aggregate is a step", s.Counts.Steps)
	}
	checkLines(t, md,
		"| **iodepth=1** (mean of last 2 of 3 rounds, peak) | ok | 1,050 | 4.3 | 952.4 µs | — | — | — | — | — |",
		"| iodepth=8 (aggregate of 3 rounds) | failed | — | — | — | — | — | — | — | — |",
		"Rounds behind the averaged rows; ✓ marks the rounds averaged.",
		"| Point | Round | Status | IOPS | MB/s | Mean latency | p99 | Averaged |",
		"| iodepth=1 | 2 | ok | 1,040 | 4.3 | 961.5 µs | — | ✓ |",
		"| iodepth=8 | 2 | failed | — | — | — | — |  |",
		"| iodepth=8 | 3 | interrupted, partial result | 6,000 | 24.6 | 166.7 µs | — |  |",
	)
	if c := Compare(s, s, Thresholds{Default: 5}); len(c.Changes) == 0 || c.Changes[0].Point != "iodepth=1" || c.Counts[Unchanged] != len(c.Changes) {
		t.Errorf("comparing the run with itself: %+v", c)
	}
}

// TestAggregateRoundsInHTML folds the rounds away in report.html.
func TestAggregateRoundsInHTML(t *testing.T) {
	s := mustLoad(t, "qemu")
	var b strings.Builder
	if err := WriteHTML(&b, s); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"<details>\n<summary>Rounds behind the averaged rows; ✓ marks the rounds averaged.</summary>\n<div class=\"table\"><table>",
		"<details>\n<summary>Rounds of the steady-state search; ✓ marks the measurement window.</summary>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if strings.Count(page, "<details>") != strings.Count(page, "</details>") {
		t.Error("report.html leaves a details element open")
	}
}

func TestPlanRevisions(t *testing.T) {
	m := sweepManifest()
	m.PlanHash = "cccccccccccc"
	fill := record("fill", "ok", t0, &metrics.Result{})
	fill.PlanHash = "bbbbbbbbbbbbbbbb"
	qd1 := record("qd1", "ok", t0, readResult(100))
	qd1.PlanHash = "aaaaaaaaaaaaaaaa"
	qd4 := record("qd4", "ok", t0, readResult(400))
	qd4.PlanHash = "bbbbbbbbbbbbbbbb"
	qd16 := record("qd16", "ok", t0, readResult(900))
	qd16.PlanHash = m.PlanHash
	unknown := record("check", "ok", t0, nil)
	s, md := render(t, m, []*results.Record{fill, qd1, qd4, qd16, unknown})
	want := []PlanRevision{{Hash: "bbbbbbbbbbbbbbbb", Marker: "¹", Steps: 2}, {Hash: "aaaaaaaaaaaaaaaa", Marker: "²", Steps: 1}}
	if !slices.Equal(s.EarlierRevisions, want) {
		t.Errorf("earlier revisions = %+v, want %+v", s.EarlierRevisions, want)
	}
	rows := s.Results[0].Rows
	if rows[0].PlanHash != "aaaaaaaaaaaaaaaa" || rows[1].PlanHash != "bbbbbbbbbbbbbbbb" || rows[2].PlanHash != "" {
		t.Errorf("row revisions = %q, %q, %q", rows[0].PlanHash, rows[1].PlanHash, rows[2].PlanHash)
	}
	checkLines(t, md,
		"- ¹ Results of an earlier revision of the plan, `bbbbbbbb`: 2 steps, kept when the run resumed under the current revision",
		"- ² Results of an earlier revision of the plan, `aaaaaaaa`: 1 step, kept when the run resumed under the current revision",
		"| iodepth=1² | ok | 100 | 0.4 | 10.00 ms | — | — | — | — | — |",
		"| iodepth=4¹ | ok | 400 | 1.6 | 2.50 ms | — | — | — | — | — |",
		"| **iodepth=16** (peak) | ok | 900 | 3.7 | 1.11 ms | — | — | — | — | — |",
		"| fill¹ | d | 1 | ok | — | — | 1 min 00 s |",
	)
	m.PlanHash = ""
	if s := Build(m, []*results.Record{fill, qd1}); len(s.EarlierRevisions) != 0 || s.Results[0].Rows[0].PlanHash != "" {
		t.Errorf("a manifest without a hash gave revisions %+v", s.EarlierRevisions)
	}
}

func TestSuperscript(t *testing.T) {
	for n, want := range map[int]string{1: "¹", 9: "⁹", 10: "¹⁰", 23: "²³"} {
		if got := superscript(n); got != want {
			t.Errorf("superscript(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestSkippedAndInterrupted shows skipped and interrupted steps for what
// they are: neither counts as a failure, a skipped point is left out of
// the highlight, and an interrupted point keeps its partial figures.
func TestSkippedAndInterrupted(t *testing.T) {
	recs := []*results.Record{
		record("fill", "ok", t0, &metrics.Result{}),
		record("qd1", "ok", t0.Add(time.Minute), readResult(1_000)),
		record("qd4", "interrupted", t0.Add(2*time.Minute), readResult(9_000)),
		skippedRecord("qd16", "p99 latency 4352.0 µs at d / mix / iodepth=4 exceeded the curve's limit of 4000.0 µs"),
	}
	recs[2].Error = "interrupted: context canceled"
	s, md := render(t, sweepManifest(), recs)
	rows := s.Results[0].Rows
	if !rows[0].Peak || rows[1].Peak || rows[1].Total == nil || rows[2].Status != "skipped" {
		t.Errorf("rows = %+v", rows)
	}
	if len(s.Problems) != 1 || s.Problems[0].StepID != "qd4" {
		t.Errorf("problems = %+v, want the interrupted step alone", s.Problems)
	}
	wantSkip := []SkipGroup{{Drive: "d", Profile: "mix", Reason: "p99 latency 4352.0 µs at d / mix / iodepth=4 exceeded the curve's limit of 4000.0 µs", Steps: 1}}
	if !slices.Equal(s.Skipped, wantSkip) {
		t.Errorf("skipped = %+v, want %+v", s.Skipped, wantSkip)
	}
	checkLines(t, md,
		"| iodepth=4 | interrupted, partial result | 9,000 | 36.9 | 111.1 µs | — | — | — | — | — |",
		"| iodepth=16 | skipped | — | — | — | — | — | — | — | — |",
		"Measured 1,000 IOPS (4.1 MB/s) at iodepth=1 with 1.00 ms mean latency. "+
			"The interrupted point's partial result is shown but not ranked or charted. "+
			"1 point was skipped: p99 latency 4352.0 µs at d / mix / iodepth=4 exceeded the curve's limit of 4000.0 µs.",
		"| d / mix / iodepth=4 | interrupted | interrupted: context canceled |",
		"Skipped, as the plan asks: 1 step that the run decided not to run.",
		"- d / mix: 1 step, p99 latency 4352.0 µs at d / mix / iodepth=4 exceeded the curve's limit of 4000.0 µs",
	)
	recs[1].Status, recs[1].Result = "skipped", nil
	recs[1].Error, recs[1].Skipped = "not run: steady state reached over rounds 2-6", "steady state reached over rounds 2-6"
	s, md = render(t, sweepManifest(), recs)
	want := "No point finished (2 skipped, 1 interrupted). The interrupted point's partial result is shown but not ranked or charted. " +
		"2 points were skipped: steady state reached over rounds 2-6; p99 latency 4352.0 µs at d / mix / iodepth=4 exceeded the curve's limit of 4000.0 µs."
	if s.Results[0].Highlight != want {
		t.Errorf("highlight:\ngot:  %s\nwant: %s", s.Results[0].Highlight, want)
	}
	if !strings.Contains(md, "Skipped, as the plan asks: 2 steps that the run decided not to run.\n") {
		t.Errorf("report.md does not count 2 skipped steps:\n%s", md)
	}
}

func TestPointText(t *testing.T) {
	pct := 25.0
	rounds := make([]RoundResult, 8)
	tests := []struct {
		row   Row
		curve bool
		want  string
	}{
		{Row{Point: "iodepth=4", Status: "ok"}, false, "iodepth=4"},
		{Row{Status: "ok"}, false, "single run"},
		{Row{Status: "ok", EndedBy: "runtime"}, false, "single run (ended at runtime)"},
		{Row{Status: "ok", Round: 6, Rounds: rounds, EndedBy: "io_size"}, false, "round 6 of 8 (ended by io_size)"},
		{Row{Status: "ok", RatePct: &pct}, true, "25% rate"},
		{Row{Status: "ok"}, true, "max rate"},
		{Row{Status: StatusNotRun}, true, "rate point"},
		{Row{Status: "ok", Round: 6, Rounds: rounds}, false, "round 6 of 8"},
		{Row{Point: "bs=4KiB", Status: "ok", Round: 6, Rounds: rounds}, false, "bs=4KiB (round 6 of 8)"},
		{Row{Point: "iodepth=8", Status: "ok", Averaged: 2, Rounds: rounds[:3]}, false, "iodepth=8 (avg of 2 rounds)"},
		{Row{Status: "failed", Rounds: rounds[:3]}, false, "aggregate of 3 rounds"},
	}
	for _, tt := range tests {
		if got := pointText(tt.row, tt.curve); got != tt.want {
			t.Errorf("pointText(%+v, %v) = %q, want %q", tt.row, tt.curve, got, tt.want)
		}
	}
}

// histResult is a write result of iops whose I/Os took 100 µs, but the
// slowest, which took slowNs.
func histResult(iops float64, slowNs uint64) *metrics.Result {
	var h metrics.Histogram
	for range 999 {
		h.Record(100_000)
	}
	h.Record(slowNs)
	d := metrics.Summarize(&h, 1000*4096, time.Second)
	d.IOPS, d.BW = iops, iops*4096
	return &metrics.Result{Write: d}
}

// TestCombinedRowsCarryTheirRounds: a row that combines rounds, a
// steady-state window or an aggregate, has the percentiles and max of
// their merged histograms, and the warnings of each of them (and of no
// other round).
func TestCombinedRowsCarryTheirRounds(t *testing.T) {
	stall := results.Warning{Kind: results.WarnHostStall, Message: "The machine was held."}
	window := &results.SteadyState{Variable: "iops", Rounds: []float64{1500, 1000, 1010, 990}, WindowFirst: 2, WindowLast: 4,
		Average: 1000, Reached: true}
	var recs []*results.Record
	for r, slow := range []uint64{90_000_000, 2_000_000, 7_000_000, 3_000_000} {
		rec := record(fmt.Sprintf("r%dq1", r+1), results.StatusOK, t0.Add(time.Duration(r)*time.Minute), histResult(window.Rounds[r], slow))
		rec.Warnings = []results.Warning{{Kind: results.WarnHostCPU, Message: fmt.Sprintf("Round %d was host-bound.", r+1)}}
		recs = append(recs, rec)
	}
	recs[3].SteadyState = window
	recs[2].Warnings = append(recs[2].Warnings, stall)
	_, md := render(t, steadyRun(4, 1), recs)
	checkLines(t, md,
		// 3,000 I/Os, three of them slow: 2, 7 and 3 ms
		"| iodepth=1 (window avg of rounds 2-4) | ok | 1,000 | 4.1 | 103.9 µs | 100.0 µs | 100.0 µs | 2.01 ms † | 6.98 ms † | 7.00 ms |",
		"- **Warning (iodepth=1 (window avg of rounds 2-4), round 2):** Round 2 was host-bound.",
		"- **Warning (iodepth=1 (window avg of rounds 2-4), round 3):** The machine was held.",
		"- **Warning (iodepth=1 (window avg of rounds 2-4), round 4):** Round 4 was host-bound.",
	)
	if strings.Contains(md, "Round 1 was host-bound") {
		t.Error("report.md shows the warning of round 1, outside the window")
	}

	avg := record("q1avg", "ok", t0.Add(4*time.Minute), histResult(1_050, 7_000_000))
	avg.Uses = []string{"d / rep / iodepth=1 / round 2/3", "d / rep / iodepth=1 / round 3/3"}
	rounds := []*results.Record{
		record("q1r1", "ok", t0, histResult(1_000, 90_000_000)),
		record("q1r2", "ok", t0.Add(time.Minute), histResult(1_040, 2_000_000)),
		record("q1r3", "ok", t0.Add(2*time.Minute), histResult(1_060, 7_000_000)),
	}
	rounds[0].Warnings = []results.Warning{{Kind: results.WarnHostCPU, Message: "Round 1 was host-bound."}}
	rounds[1].Warnings = []results.Warning{stall}
	_, md = render(t, repeatRun(), append(rounds, avg))
	checkLines(t, md, "- **Warning (iodepth=1 (mean of last 2 of 3 rounds), round 2):** The machine was held.")
	if strings.Contains(md, "Round 1 was host-bound") {
		t.Error("report.md shows the warning of round 1, which the aggregate did not use")
	}
}

// TestWindowNotSteady: a search that ran out of rounds shows the average
// of its last window named as such, in its table and the Conclusion, not
// as a measurement window.
func TestWindowNotSteady(t *testing.T) {
	j := &results.SteadyState{Variable: "iops", Rounds: []float64{1500, 1000, 1300, 900}, WindowFirst: 2, WindowLast: 4,
		Average: 1066.7, Exhausted: true, Message: "steady state not reached in 4 rounds"}
	var recs []*results.Record
	for r, iops := range j.Rounds {
		recs = append(recs, roundRecord(r+1, 1, iops, nil))
	}
	recs[3].SteadyState = j
	s, md := render(t, steadyRun(4, 1), recs)
	if row := s.Results[0].Rows[0]; !row.NotSteady || row.WindowFirst != 2 {
		t.Errorf("row %+v, want the window of rounds 2-4, not steady", row)
	}
	for _, line := range []string{
		"| iodepth=1 (avg of rounds 2-4, not steady) | ok | 1,067 |",
		"Rounds of the steady-state search; ✓ marks the last window judged, which was not steady.",
		"| ss | d | 1,067 IOPS | iodepth=1 (avg of rounds 2-4, not steady) |",
	} {
		if !strings.Contains(md, line) {
			t.Errorf("report.md lacks %q in\n%s", line, md)
		}
	}
	if strings.Contains(md, "window avg") {
		t.Error("report.md calls the last window a measurement window")
	}
}
