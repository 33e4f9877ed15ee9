package reports

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/results"
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

// notableRuns reports whether the runs are worth a section: more than
// one, or one that did not complete or set records aside.
func notableRuns(runs []RunSession) bool {
	switch {
	case len(runs) == 0:
		return false
	case len(runs) > 1:
		return true
	}
	r := runs[0]
	return r.Outcome != results.RunComplete || len(r.SetAside) > 0 || len(r.Reruns) > 0
}

// runsText sums up the runs for the header: "3 runs: interrupted, no end
// (killed or crashed), resumed and complete".
func runsText(runs []RunSession) string {
	var outcomes []string
	for _, r := range runs {
		outcomes = append(outcomes, outcomeWords(r.Outcome))
	}
	return fmt.Sprintf("Measured over %s (%s); see Run history", format.Counted(len(runs), "run"), strings.Join(outcomes, ", then "))
}

// outcomeWords says how a run ended.
func outcomeWords(outcome string) string {
	switch outcome {
	case RunNoEnd:
		return "no end recorded: killed, crashed or the machine stopped"
	case RunUnknown:
		return "before the journal kept runs"
	}
	return outcome
}

// docRunHistory lists the runs of the folder, when it took more than one
// or the one did not complete: when each ran, how it ended and what a
// resumed run found.
func docRunHistory(d *document, s *Summary) {
	if !notableRuns(s.Runs) {
		return
	}
	d.heading(2, plain("Run history"))
	d.para(plain("The results folder's journal keeps every run that wrote into it. A resumed run keeps the steps complete before and runs the others."))
	var rows [][]string
	var notes [][]span
	for _, r := range s.Runs {
		how := outcomeWords(r.Outcome)
		if r.Reason != "" {
			how += ": " + r.Reason
		}
		run := fmt.Sprint(r.Number)
		if r.Resumed {
			run += " (resumed)"
		}
		rows = append(rows, []string{run, secondText(r.Started), secondText(r.Ended), how, fmt.Sprint(r.Steps), s.revisionText(s.earlierHash(r.PlanHash))})
		for _, a := range r.SetAside {
			notes = append(notes, spans(fmt.Sprintf("Run %d set the damaged record %s aside as %s (%s) and ran its step again.", r.Number, a.Record, a.KeptAs, a.Reason)))
		}
		for _, x := range r.Reruns {
			notes = append(notes, spans(fmt.Sprintf("Run %d ran %s again: %s.", r.Number, x.Name, x.Reason)))
		}
	}
	d.table([]column{{"Run", true}, {title: "Started"}, {title: "Ended"}, {title: "How it ended"}, {"Steps finished", true}, {title: "Plan revision"}}, rows)
	if len(notes) > 0 {
		d.list(notes)
	}
}

// earlierHash is hash when it is an earlier revision than the report's
// plan, "" for the current one.
func (s *Summary) earlierHash(hash string) string {
	if hash == s.Plan.Hash {
		return ""
	}
	return hash
}

// secondText writes a time to the second, in UTC; a dash when unknown.
func secondText(t *time.Time) string {
	if t == nil {
		return format.Dash
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

// targetsSentence says which file or device a drive's steps ran on.
func targetsSentence(drv Drive) string {
	switch len(drv.Targets) {
	case 0:
		return ""
	case 1:
		return "Its steps ran on " + targetText(drv.Targets[0]) + "."
	}
	texts := make([]string, len(drv.Targets))
	for i, t := range drv.Targets {
		texts[i] = targetText(t)
	}
	return fmt.Sprintf("Its steps ran on %d different targets, %s: its path was given to another file or device between steps, and the tables below flag the rows that ran on another target than their first.",
		len(texts), strings.Join(texts, "; "))
}
