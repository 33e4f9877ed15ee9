// Package reports turns the records of a run into the documents people
// read: report.json for tools and report.md for reviewers.
//
// Results are the product of a run and reports are views of them, so a
// report is made from the results folder alone, at any time, without the
// drive or the plan file. The work is split the way k6 splits its
// end-of-test summary: Build reduces the manifest and the step records to a
// Summary, a plain data model that holds every figure and judgement a report
// shows, and renderers (WriteJSON, WriteMarkdown) only lay that model out.
// A new format is a new renderer over the same Summary.
//
// Build is deterministic: the same records give byte-identical reports.
// Its clock is the latest step's finish time, and every list follows the
// order of the manifest's steps. It never fails: records that are missing,
// partial (no result, one direction, no percentiles) or foreign to the
// manifest become statuses, dashes and counts in the report, not errors.
package reports
