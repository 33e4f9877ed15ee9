// Package reports turns the records of a run into the documents people
// read: report.md and report.html for reviewers, report.json for tools, and
// the SVG charts they show, each with a PNG beside it; and it compares
// runs.
//
// Results are the product of a run and reports are views of them, so a
// report is made from the results folder alone, at any time, without the
// drive or the plan file. The work is split the way k6 splits its
// end-of-test summary: Build reduces the manifest and the step records to a
// Summary, a plain data model that holds every figure and judgement a report
// shows, and renderers (WriteJSON, WriteMarkdown, WriteHTML, Render) only
// lay that model out. Markdown and HTML are written from one layout of the
// review, so they say the same thing.
//
// Charts are drawn by the project's own small SVG plotter (package plot) rather than a
// plotting library: a handful of chart kinds is all a review needs, and
// owning the drawing keeps the output byte-for-byte stable (every
// coordinate is written with one decimal), so charts are golden-tested
// like the text. Which charts a profile gets follows from its data: the
// shape of its sweep (one parameter, two, a rate curve), the length of its
// time series and the percentiles it recorded.
//
// A point run several times is one row: the aggregate step that averages
// a repeated point's rounds, or the last round of a steady-state search,
// with the rounds beside it; steady-state searches are charted from the
// judgement their last round recorded. Skipped steps (a rate curve past
// its stop condition, rounds after steady state) are the plan at work and
// are counted, not listed as problems; interrupted steps keep their
// partial figures, shown but never ranked. When a resumed run reused
// records of an earlier revision of the plan, the results they hold are
// marked with that revision, and the records of steps the plan no longer
// has (a changed step is a new one) are listed apart, still measurements.
// The runs of the folder (interrupted, killed, resumed) are told from its
// journal, and each row names the file or device it ran on by identity,
// so a table measured on two targets is flagged row by row. Load also reads what each NVMe drive said
// about itself before and after the run (identity, temperature, SMART
// counters) and sets it beside the spec sheet and the data drivebench
// wrote.
//
// What a plan judged and ran beside its profiles is reported too. Each
// figure of a drive's spec sheet is set against the measurement an accept
// block compared it with, skipped figures included, with the reason for
// the verdict and the ways the conditions differ. Exec steps (sysbench,
// a database) are applications: their commands, how they ended and the
// metrics their parse hooks read, the instances of a for_each as the runs
// of one table, and a failed command's last lines of output. The points
// an adaptive search chose are its profile's rows in the order it chose
// them, with where and why it stopped. The sections a plan's summary hook
// left in summary.json follow the report's own.
//
// AddComparable puts other runs on the same charts and rankings, noting
// when they were measured on another testbed. Compare matches two runs
// point by point and judges every figure against a threshold, for
// firmware-to-firmware regression checks.
//
// Build is deterministic: the same records give byte-identical reports.
// Its clock is the latest step's finish time, and every list follows the
// order of the manifest's steps. It never fails: records that are missing,
// partial (no result, one direction, no percentiles) or foreign to the
// manifest become statuses, dashes and counts in the report, not errors.
package reports
