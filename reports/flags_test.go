package reports

import (
	"strings"
	"testing"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// TestHeadlinesCarryFlags: a row the run warned about is flagged in
// every sentence and headline that quotes it, and only there.
func TestHeadlinesCarryFlags(t *testing.T) {
	p99 := func(ns uint64) metrics.Percentile { return metrics.Percentile{P: 99, Ns: ns} }
	recs := []*results.Record{
		record("qd1", "ok", t0, &metrics.Result{Read: dir(40_000, 2_000, 400_000, p99(3_000))}),
		record("qd4", "ok", t0, &metrics.Result{Read: dir(90_000, 40_000, 900_000, p99(1_200_000))}),
		record("qd16", "ok", t0, &metrics.Result{Read: dir(437_430, 2_000, 4_374_300, p99(2_500_000))}),
	}
	recs[0].Warnings = []results.Warning{{Kind: results.WarnMemoryFS, Message: "The file this step runs on is on tmpfs."}}
	recs[1].Warnings = []results.Warning{{Kind: results.WarnHostStall, Message: "The whole machine was held."}}
	recs[2].Warnings = []results.Warning{
		{Kind: results.WarnHostCPU, Message: "The host's processors were 97 % busy over the step."},
		{Kind: results.WarnUnwritten, Message: "All of the region this step reads had never been written."},
	}
	s, md := render(t, sweepManifest(), recs)
	rows := s.Results[0].Rows
	if got := strings.Join(rows[2].Flags, ","); got != "unwritten,host_cpu" {
		t.Errorf("the peak's flags are %s, want unwritten,host_cpu (flagWords order)", got)
	}
	if got := strings.Join(s.Sections[0].Ranking[0].Flags, ","); got != "unwritten,host_cpu" {
		t.Errorf("the rank's flags are %s", got)
	}
	for _, want := range []string{
		"Peak of 437,430 IOPS (1,791.7 MB/s) at iodepth=16 with 2.0 µs mean latency (⚠ read unwritten space, host-bound); " +
			"p99 stayed under 1 ms up to iodepth=1 (3.0 µs; ⚠ memory speed) and exceeded it from iodepth=4 on (1.20 ms; ⚠ host stalls). " +
			"At the lightest load, iodepth=1: 40,000 IOPS (163.8 MB/s) with 2.0 µs mean latency (⚠ memory speed).",
		"| mix | d | 437,430 IOPS (⚠ read unwritten space, host-bound) | iodepth=16 | 2.0 µs | 2.50 ms |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks\n%s\nin\n%s", want, md)
		}
	}
	// A row without warnings reads as before.
	recs[2].Warnings = nil
	if _, md := render(t, sweepManifest(), recs); !strings.Contains(md, "| mix | d | 437,430 IOPS | iodepth=16 |") ||
		!strings.Contains(md, "with 2.0 µs mean latency; p99") {
		t.Errorf("an unflagged peak is flagged:\n%s", md)
	}
}

func TestRankingAndGridCarryFlags(t *testing.T) {
	ranks := []Rank{
		{Rank: 1, Drive: "a", Total: Figures{IOPS: 200}, Flags: []string{results.WarnHostStall}},
		{Rank: 2, Drive: "b", Run: "base", Total: Figures{IOPS: 100}, Flags: []string{results.WarnPageCache}},
	}
	want := "a (⚠ host stalls) leads the 2 drives by peak IOPS, 100.0% ahead of b (base) (⚠ page cache)."
	if got := rankingSentence(ranks, headlineIOPS); got != want {
		t.Errorf("ranking sentence:\ngot:  %s\nwant: %s", got, want)
	}
	read := Row{Flags: []string{results.WarnHostStall}}
	write := Row{Flags: []string{results.WarnUnwritten, results.WarnHostStall}}
	if got, want := gridNote(read, write), "single run; ⚠ read unwritten space, host stalls"; got != want {
		t.Errorf("grid note %q, want %q", got, want)
	}
	if got := gridNote(Row{}, Row{}); got != "single run" {
		t.Errorf("grid note of unflagged rows: %q", got)
	}
}

// TestAcceptanceBriefCarriesFlags: the Conclusion's spec-sheet brief of a
// figure measured on a flagged row carries the row's flags.
func TestAcceptanceBriefCarriesFlags(t *testing.T) {
	f, err := results.Open("testdata/vendor-acceptance")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := f.Records()
	if err != nil {
		t.Fatal(err)
	}
	s := Build(f.Manifest, recs)
	var step string
	for _, a := range s.Acceptance {
		if a.Spec == "rand_write_4k" {
			step = a.StepID
		}
	}
	for _, r := range recs {
		if r.StepID == step {
			r.Warnings = append(r.Warnings, results.Warning{Kind: results.WarnHostStall, Message: "The whole machine was held."})
		}
	}
	_, md := render(t, f.Manifest, recs)
	if want := "| PASS rand_write_4k iops: 138.8% (⚠ host stalls) |"; step == "" || !strings.Contains(md, want) {
		t.Errorf("step %q; report.md lacks\n%s\nin\n%s", step, want, md)
	}
}
