package results

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// SummaryFile holds the sections a plan's summary hook adds to the
// report; SummarySchema is its schema.
const (
	SummaryFile   = "summary.json"
	SummarySchema = "drivebench/summary/v1"
)

// Summary is what the plan's summary hook returned, written at the end of
// a run for the reports to show after their own sections.
type Summary struct {
	Schema string `json:"schema"`
	// Hook names the function: "report/summary.star:summary".
	Hook     string           `json:"hook"`
	Sections []SummarySection `json:"sections,omitempty"`
	// Error is set when the hook failed; Where points into its file.
	Error string `json:"error,omitempty"`
	Where string `json:"where,omitempty"`
	// Kept is set when the hook failed on a later call (drivebench
	// report, a resumed run) and Sections and Log are those an earlier
	// call returned: a failure never replaces a hook's output.
	Kept bool `json:"kept,omitempty"`
	// Log holds what the hook print()ed.
	Log []string `json:"log,omitempty"`
}

// SummarySection is one section a summary hook adds: a title, Markdown
// text, and optionally a table and a chart.
type SummarySection struct {
	Title string        `json:"title"`
	Text  string        `json:"text,omitempty"`
	Table *SummaryTable `json:"table,omitempty"`
	Chart *SummaryChart `json:"chart,omitempty"`
}

// SummaryTable is a table of text cells; every row has one cell per
// column.
type SummaryTable struct {
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
}

// SummaryChart is a line chart of one or more series of (x, y) points.
type SummaryChart struct {
	Title  string          `json:"title,omitempty"`
	XLabel string          `json:"x_label,omitempty"`
	YLabel string          `json:"y_label,omitempty"`
	Series []SummarySeries `json:"series"`
}

// SummarySeries is one line of a chart.
type SummarySeries struct {
	Name   string       `json:"name"`
	Points [][2]float64 `json:"points"`
}

// ReadSummary reads the summary.json of the results folder dir; nil when
// it has none (the plan has no summary hook, or the run has not reached
// its end).
func ReadSummary(dir string) (*Summary, error) {
	return readOptional(filepath.Join(dir, SummaryFile), SummaryFile, SummarySchema, func(h *Summary) string { return h.Schema })
}

// WriteSummary stores what a summary hook returned as dir's
// summary.json. A failure does not replace the output of an earlier
// call: when s failed and summary.json holds sections the hook returned,
// those are kept, with s's error beside them (Kept), and returned.
func WriteSummary(dir string, s *Summary) (*Summary, error) {
	s.Schema = SummarySchema
	if s.Error != "" {
		if earlier, err := ReadSummary(dir); err == nil && earlier != nil && (earlier.Error == "" || earlier.Kept) {
			kept := *earlier
			kept.Hook, kept.Error, kept.Where, kept.Kept = s.Hook, s.Error, s.Where, true
			s = &kept
		}
	}
	return s, WriteJSONAtomic(filepath.Join(dir, SummaryFile), s)
}

// RemoveSummary removes dir's summary.json, for a plan that has no
// summary hook (any longer).
func RemoveSummary(dir string) error {
	err := os.Remove(filepath.Join(dir, SummaryFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
