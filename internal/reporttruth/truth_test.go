package reporttruth

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/reports"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

var t0 = time.Date(2026, 5, 2, 10, 0, 0, 0, time.UTC)

// curveRun is a rate curve of two points, its maximum and 110 % of it,
// whose records hold warnings as the engine writes them: the records are
// changed by each case of TestWarningFigures.
func curveRun() (*results.Manifest, []*results.Record) {
	m := &results.Manifest{
		Plan: "curve", PlanHash: "h", Created: t0,
		Drives: []results.Drive{{Name: "d", Path: "/dev/null"}},
		Steps: []results.StepInfo{
			{ID: "max", Kind: "profile", Name: "d / curve / max", Drive: "d", Source: "curve", Group: "curve"},
			{ID: "r110", Kind: "profile", Name: "d / curve / 110%", Drive: "d", Source: "curve", Group: "curve", RatePct: 110},
		},
	}
	read := func(iops float64) *metrics.DirStats {
		return &metrics.DirStats{IOs: uint64(iops), IOPS: iops, BW: iops * 4096, Lat: metrics.LatencySummary{Mean: 500_000, Max: 900_000}}
	}
	series := func(iops ...float64) []metrics.Sample {
		var out []metrics.Sample
		for i, v := range iops {
			out = append(out, metrics.Sample{T: float64(i + 1), ReadIOPS: v, BW: v * 4096})
		}
		return out
	}
	recs := []*results.Record{
		{StepID: "max", Kind: "profile", Name: "d / curve / max", Drive: "d", Source: "curve", Status: "ok", Started: t0, Finished: t0.Add(time.Minute),
			Workload: &workload.Workload{RW: "randread", BS: 4096, IODepth: 32, NumJobs: 1},
			Result:   &metrics.Result{Read: read(225_029), Series: series(225_029)}},
		{StepID: "r110", Kind: "profile", Name: "d / curve / 110%", Drive: "d", Source: "curve", Status: "ok", Started: t0.Add(time.Minute), Finished: t0.Add(2 * time.Minute),
			Workload: &workload.Workload{RW: "randread", BS: 4096, IODepth: 32, NumJobs: 1, RatePct: 110, RateBase: "max", RateIOPS: 247_532},
			Result:   &metrics.Result{Read: read(225_097), Series: series(225_097)},
			Host:     &results.HostLoad{CPUs: 2, BusyPct: 98, EnginePct: 11},
			Warnings: []results.Warning{
				{Kind: results.WarnHostCPU, Message: "The host's processors were 98 % busy over the step (all 2 of them), mostly with other programs (drivebench and its engine 11 %): the test did not run on a quiet host, and these figures may be lower than the drive's. Run it with nothing else beside it."},
				{Kind: results.WarnNoiseUnknown, Message: "At 110% of the maximum this step completed 225097 IOPS, 0.03% more than the curve's uncontrolled maximum of 225029 IOPS, but the maximum ran 1 whole interval, and its noise needs 3, so whether the maximum was the peak cannot be judged: lengthen the rate_curve's max_runtime to 3 s or more."},
			}},
	}
	return m, recs
}

// report builds and renders a report from a manifest and records, and
// reads it back as the checker does.
func report(t *testing.T, m *results.Manifest, recs []*results.Record) *Report {
	t.Helper()
	s := reports.Build(m, recs)
	var md, js bytes.Buffer
	if err := reports.WriteMarkdown(&md, s); err != nil {
		t.Fatal(err)
	}
	if err := reports.WriteJSON(&js, s); err != nil {
		t.Fatal(err)
	}
	var back reports.Summary
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	r := &Report{Markdown: md.String(), Summary: &back, Manifest: m, Records: map[string]*results.Record{}}
	for _, rec := range recs {
		r.Records[rec.StepID] = rec
	}
	return r
}

// TestWarningFigures: a warning is its record's, and its figures are the
// record's: how busy the host was, and a rate point above its curve's
// maximum against the maximum's noise, which 1 whole interval cannot
// tell (a report had said "noise ±0.0%" of a 0.03 % excess).
func TestWarningFigures(t *testing.T) {
	none := func([]*results.Record) {}
	cases := []struct {
		name   string
		change func(recs []*results.Record)
		edit   func(md string) string
		want   string
	}{
		{"as the engine wrote them", none, nil, ""},
		{"the engine's share", func(recs []*results.Record) { recs[1].Host.EnginePct = 60 }, nil, "engine's share: says 11, the record's host load has 60"},
		{"mostly whose", func(recs []*results.Record) { recs[1].Host.EnginePct = 60 }, nil, "says whose the load mostly was"},
		{"busy", func(recs []*results.Record) { recs[1].Host.BusyPct = 90 }, nil, "busy: says 98, the record's host load has 90"},
		{"noise from 1 interval", func(recs []*results.Record) {
			recs[1].Warnings[1] = results.Warning{Kind: results.WarnRateAboveMax, Message: "At 110% of the maximum this step completed 225097 IOPS, 0.0% more than the curve's uncontrolled maximum of 225029 IOPS (noise ±0.0%), so the maximum was not the peak and every rate of the curve is set low."}
		}, nil, "gives the maximum's noise, which 1 whole intervals cannot tell"},
		{"the maximum", func(recs []*results.Record) { recs[0].Result.Read.IOPS = 225_000 }, nil, "maximum: says 225029, the maximum's record has 225000"},
		{"not the record's", none, func(md string) string { return strings.Replace(md, "98 % busy", "89 % busy", 1) }, "is no warning of the record of 110% rate"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, recs := curveRun()
			tc.change(recs)
			r := report(t, m, recs)
			if tc.edit != nil {
				r.Markdown = tc.edit(r.Markdown)
			}
			checkFalsehoods(t, r, tc.want)
		})
	}
}

// checkFalsehoods checks what Check finds in r: nothing when want is
// empty, else a falsehood whose text holds want.
func checkFalsehoods(t *testing.T, r *Report, want string) {
	t.Helper()
	var found []string
	for _, f := range Check(r) {
		found = append(found, f.String())
	}
	got := strings.Join(found, "\n")
	switch {
	case want == "" && got != "":
		t.Errorf("false sentences in a true report:\n%s", got)
	case want != "" && !strings.Contains(got, want):
		t.Errorf("want a falsehood saying %q; found:\n%s", want, got)
	}
}

// TestPreconditionWarnings: a preconditioning pass that ran on a busy
// host is flagged in the Methodology's table and its warning listed under
// it, where the run's terminal said "details in the report" of warnings
// the report did not hold; a warning its record does not hold is caught.
func TestPreconditionWarnings(t *testing.T) {
	f, err := results.Open("../../reports/testdata/quickstart")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := f.Records()
	if err != nil {
		t.Fatal(err)
	}
	const busy = "The host's processors were 92 % busy over the step (all 2 of them), mostly with other programs."
	warned := false
	for _, rec := range recs {
		if rec.Kind == "precondition" && rec.Pass == 1 {
			rec.Warnings, warned = []results.Warning{{Kind: results.WarnHostCPU, Message: busy}}, true
		}
	}
	if !warned {
		t.Fatal("the quickstart fixture has no first preconditioning pass")
	}
	r := report(t, f.Manifest, recs)
	for _, want := range []string{"(⚠ host-bound) |", "- **Warning (fill, pass 1 on nvme0):** " + busy} {
		if !strings.Contains(r.Markdown, want) {
			t.Errorf("the report does not say %q:\n%s", want, r.Markdown)
		}
	}
	checkFalsehoods(t, r, "")
	r.Markdown = strings.Replace(r.Markdown, "92 % busy", "52 % busy", 1)
	checkFalsehoods(t, r, "(precondition warning): the pass's record holds no such warning")
}
