package reports

import "github.com/drivebench/drivebench/results"

// HookModel is the report's model as a summary hook receives it: the
// Summary without the summary hook's own earlier sections, which the
// caller hands to the hook as report.json lays it out (script.Model), so
// that a hook sees exactly what the report shows, under the same names.
func (s *Summary) HookModel() *Summary {
	c := *s
	c.SummaryHook = nil
	return &c
}

// Loaded returns the manifest and the readable records Load built s
// from, of which the summary hook's view of the run's steps is made, so
// that a report reads the results folder once. Both are nil for a
// Summary that Build made.
func (s *Summary) Loaded() (*results.Manifest, []*results.Record) {
	return s.manifest, s.records
}
