package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/results"
)

// Where and when each figure was measured: the runs of the results
// folder (a run interrupted, killed, resumed), what a resumed run found
// (damaged records it set aside, drive states lost, so preconditions ran
// again) and the file or device, by identity, each step ran on. A path
// can be given to another file or device between two steps; a table whose
// rows ran on two is flagged, row by row.

// warnOtherTarget is the kind of the warning on a row that ran on another
// target than the table's first row.
const warnOtherTarget = "other_target"

// setDriveTargets lists, for each drive, the targets its steps ran on.
func setDriveTargets(drives []Drive, steps []step) {
	for i := range drives {
		drives[i].Targets = []Target{}
		for _, s := range steps {
			if s.rec == nil || s.rec.Target == nil || s.info.Drive != drives[i].Name {
				continue
			}
			if !containsTarget(drives[i].Targets, *s.rec.Target) {
				drives[i].Targets = append(drives[i].Targets, *s.rec.Target)
			}
		}
	}
}

func containsTarget(list []Target, t Target) bool {
	for _, o := range list {
		if o.SameAs(t) {
			return true
		}
	}
	return false
}

// rowTarget is the target a row's step ran on, or for an average or a
// steady-state window, which run on no target of their own, that of its
// first round that says.
func rowTarget(rec *results.Record, row *Row, recs map[string]*results.Record) *Target {
	if rec.Target != nil {
		return rec.Target
	}
	for _, round := range row.Rounds {
		if r := recs[round.StepID]; r != nil && r.Target != nil {
			return r.Target
		}
	}
	return nil
}

// warnOtherTargets flags the rows of a table that ran on another target
// than its first row that says which.
func warnOtherTargets(t *ProfileResult, curve bool) {
	var first *Target
	for i := range t.Rows {
		row := &t.Rows[i]
		switch {
		case row.Target == nil:
		case first == nil:
			first = row.Target
		case !row.Target.SameAs(*first):
			t.Warnings = append(t.Warnings, TableWarning{Point: pointText(*row, curve), Kind: warnOtherTarget, Message: fmt.Sprintf(
				"This row ran on %s, the table's first row on %s: the table's rows are not measurements of one target.", targetText(*row.Target), targetText(*first))})
		}
	}
}

// targetText describes a target for people: "/tmp/d.img (file on device
// 8:1, inode 1234, 8MiB)", "/dev/nvme0n1 (block device 259:0, model
// KCD6XLUL3T84, serial 1234, WWN eui.00..., 3.84 TB)".
func targetText(t Target) string {
	var parts []string
	switch t.Kind {
	case "file":
		parts = append(parts, "file on device "+t.Device, fmt.Sprintf("inode %d", t.Inode))
	default:
		parts = append(parts, strings.TrimSpace(t.Kind+" device "+t.Device))
		for _, f := range [][2]string{{"model", t.Model}, {"serial", t.Serial}, {"WWN", t.WWID}} {
			if f[1] != "" {
				parts = append(parts, f[0]+" "+f[1])
			}
		}
		if t.BackingInode != 0 {
			parts = append(parts, fmt.Sprintf("attached to the file on device %s, inode %d", t.BackingDevice, t.BackingInode))
		}
	}
	parts = append(parts, format.BlockSize(t.Size))
	return t.Path + " (" + strings.Join(parts, ", ") + ")"
}

// setRuns sets the runs of the folder from its journal's history, with
// the preconditions each ran again from the records (recs); none when the
// journal was written before it kept runs.
func (s *Summary) setRuns(history []results.RunHistory, m *results.Manifest, recs []*results.Record) {
	names := map[string]string{}
	for _, st := range m.Steps {
		names[st.ID] = st.Name
	}
	ranIn := map[string]int{} // the last run that journaled each step
	s.Runs = []RunSession{}
	if !slices.ContainsFunc(history, func(h results.RunHistory) bool { return h.Start.Run != "" }) {
		return // a journal from before runs were kept
	}
	for i, h := range history {
		run := RunSession{Number: i + 1, Outcome: RunUnknown, Resumed: h.Start.Resumed, PlanHash: h.Start.PlanHash,
			Steps: len(h.Steps), Reruns: []Rerun{}, SetAside: append([]SetAsideRecord{}, h.Start.SetAside...)}
		if h.Start.Run != "" {
			run.Started, run.Outcome = timeOf(h.Start.Time), RunNoEnd
		}
		if h.End != nil {
			run.Ended, run.Outcome, run.Reason = timeOf(h.End.Time), h.End.Outcome, h.End.Reason
		}
		for _, id := range h.Steps {
			ranIn[id] = run.Number
		}
		s.Runs = append(s.Runs, run)
	}
	for _, r := range recs {
		n := r.Run
		if n == 0 {
			n = ranIn[r.StepID]
		}
		if r.DriveState == nil || r.DriveState.Rerun == "" || n < 1 || n > len(s.Runs) {
			continue
		}
		s.Runs[n-1].Reruns = append(s.Runs[n-1].Reruns, Rerun{StepID: r.StepID, Name: cmp.Or(names[r.StepID], r.Name, r.StepID), Reason: r.DriveState.Rerun})
	}
}

func timeOf(t time.Time) *time.Time {
	u := t.UTC()
	return &u
}
