package reports

import (
	"fmt"
	"strings"

	"github.com/drivebench/drivebench/results"
)

// unreadableRecords describes the records of the folder dir that cannot
// be read, with what to do about each.
func unreadableRecords(f *results.Folder, errs []*results.RecordError) []UnreadableRecord {
	out := []UnreadableRecord{}
	for _, e := range errs {
		out = append(out, UnreadableRecord{File: f.Rel(e.Path), StepID: e.StepID, Newer: e.Newer, Reason: unreadableReason(f, e)})
	}
	return out
}

// unreadableSteps stand for the records that cannot be read among the
// steps, so that each step is shown with the status StatusUnreadable and
// listed with the problems, not as a step that never ran.
func unreadableSteps(f *results.Folder, errs []*results.RecordError) []*results.Record {
	var out []*results.Record
	for _, e := range errs {
		out = append(out, &results.Record{StepID: e.StepID, Status: StatusUnreadable, Error: unreadableReason(f, e)})
	}
	return out
}

// unreadableReason says what is wrong with a record and what to do.
func unreadableReason(f *results.Folder, e *results.RecordError) string {
	file := f.Rel(e.Path)
	if e.Newer {
		return fmt.Sprintf("%s was written by a newer drivebench (schema %s): report this folder with that version; the file is left as it is", file, e.Schema)
	}
	return fmt.Sprintf("%s is damaged (%v): left out and left as it is; drivebench run -resume sets it aside in %s/ and runs its step again", file, e.Err, results.DamagedDir)
}

// setAsideNote says which damaged records a resumed run set aside.
func setAsideNote(names []string, err error) string {
	if err != nil {
		return fmt.Sprintf("the folder %s/ of damaged records cannot be read: %v", results.DamagedDir, err)
	}
	return fmt.Sprintf("%d damaged record(s) were set aside in %s/ by a resumed run, which ran their steps again: %s",
		len(names), results.DamagedDir, strings.Join(names, ", "))
}
