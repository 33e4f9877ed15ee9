package reports

import (
	"cmp"
	"time"

	"github.com/drivebench/drivebench/format"
)

// docEarlierSteps lists the measurements of steps the plan no longer
// has: a run resumed after its plan changed keeps them, and they stand
// as measured, under the revision that made them.
func docEarlierSteps(d *document, s *Summary) {
	if len(s.EarlierSteps) == 0 {
		return
	}
	d.heading(2, plain("Measurements of earlier plan revisions"))
	d.para(plain("The run was resumed after its plan changed. These steps are no longer in the plan (a changed step is a new one); what they measured was kept as it was, under the revision of the plan that ran them, and is not part of the tables above."))
	var rows [][]string
	for _, e := range s.EarlierSteps {
		rows = append(rows, []string{
			cmp.Or(e.Name, e.StepID), s.revisionText(e.PlanHash), statusWords(e.Status, e.Total != nil),
			figureOrDash(e.Total, func(f *Figures) string { return format.Count(f.IOPS) }),
			figureOrDash(e.Total, func(f *Figures) string { return s.unit().number(f.BWBytes) }),
			figureOrDash(e.Total, func(f *Figures) string { return latencyText(f.MeanLatNs) }),
			figureOrDash(e.Total, func(f *Figures) string { return nsText(f.P99Ns) }),
			dateText(e.Finished),
		})
	}
	d.table([]column{{title: "Step"}, {title: "Plan revision"}, {title: "Status"}, {"IOPS", true}, {s.unit().column(), true},
		{"Mean latency", true}, {"p99", true}, {title: "Finished"}}, rows)
}

// revisionText names a plan revision in a table: its marker and short
// hash, or "current".
func (s *Summary) revisionText(hash string) string {
	if hash == "" {
		return "current"
	}
	return s.revisionMarker(hash) + " " + shortHash(hash)
}

// dateText writes a time to the minute, in UTC; a dash when unknown.
func dateText(t time.Time) string {
	if t.IsZero() {
		return format.Dash
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}
