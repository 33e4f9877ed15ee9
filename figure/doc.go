// Package figure is the registry of the figures drivebench measures and
// judges: IOPS, bandwidth and the latency statistics, one row each in
// Figures, as workload.Options is the table of workload parameters.
//
// A row says what a figure is (its canonical name, unit, which way is
// better, which latency and which percentile it reads), how it is read
// from a point's statistics (a metrics.DirStats) and how it merges
// across jobs, directions and rounds, its doc line, and how each place
// that names figures spells it: an expectation (result.read.p99_us), a
// spec sheet (p99_us), a hook (p.read.p99_ns), report.json (p99_ns), the
// catalog's columns (p99_ns), a steady_state metric, compare -threshold
// and catalog -figure (p99). The spellings follow from the canonical name
// and the place's unit; a row lists the few that a published format
// fixed otherwise (report.json's mean_lat_ns) and the old names that
// users wrote before the registry (lat_p99, read.lat.p99_us,
// lat_ns.p["99"], p99.9), which Resolve still accepts and marks
// deprecated, so each place can warn where the old name was written.
//
// Expectations, hooks, reports, compare, the catalog and steady state
// look figures up here, and docs/figures.md is tested against the table:
// a new figure is a row here (and, for one that a DirStats does not
// hold, the engine code that measures it).
//
// It is a leaf beside metrics, whose statistics it reads, and imports
// only metrics and format, so that plan, results, judging, script and
// reports can all read it.
package figure
