package reports

import (
	"fmt"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/results"
)

// splitSearches parts a table's steps into the adaptive searches and the
// points, which are rows.
func splitSearches(steps []step) (searches, points []step) {
	for _, s := range steps {
		if s.is(kindAdaptive) {
			searches = append(searches, s)
		} else {
			points = append(points, s)
		}
	}
	return searches, points
}

// buildSearch describes the search behind a table from its step and its
// points' rows; nil when the table has no search.
func buildSearch(searches []step, rows []Row) *Search {
	if len(searches) == 0 {
		return nil
	}
	s := searches[0]
	search := &Search{StepID: s.info.ID, Status: s.status(), Points: len(rows)}
	if len(rows) > 0 {
		search.Last = pointText(rows[len(rows)-1], false)
	}
	search.Stop = stopReason(s.rec)
	return search
}

// stopReason is why a search ended: its error, or why it stopped asking
// for points.
func stopReason(rec *results.Record) string {
	switch {
	case rec == nil:
		return ""
	case rec.Error != "":
		return rec.Error
	case rec.Search != nil:
		return rec.Search.Text()
	}
	return ""
}

// searchSentence says where a search stopped and why: "The search
// measured 10 points, in the order listed, and stopped after
// iodepth=31: next_point returned None after 10 points."
func searchSentence(sr *Search) string {
	if sr == nil {
		return ""
	}
	measured := "The search measured " + format.Counted(sr.Points, "point") + ", in the order listed,"
	reason := ""
	if sr.Stop != "" {
		reason = ": " + strings.TrimSuffix(sr.Stop, ".")
	}
	switch {
	case sr.Status == StatusNotRun:
		return "The search has not run."
	case sr.Status == results.StatusInterrupted && sr.Points == 0:
		return "The search was interrupted before its first point."
	case sr.Status == results.StatusInterrupted:
		return fmt.Sprintf("%s and was interrupted after %s.", measured, sr.Last)
	case sr.Points == 0 && sr.Status == results.StatusOK:
		return "The search measured no point" + reason + "."
	case sr.Points == 0:
		return "The search " + statusText(sr.Status) + " before its first point" + reason + "."
	case sr.Status == results.StatusOK:
		return fmt.Sprintf("%s and stopped after %s%s.", measured, sr.Last, reason)
	}
	return fmt.Sprintf("%s and %s after %s%s.", measured, statusText(sr.Status), sr.Last, reason)
}
