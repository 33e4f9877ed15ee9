// Package plan turns a test plan written in HCL into data the engine can
// run.
//
// A plan says what to test (drives, with the figures their spec sheets
// claim), how to prepare them (preconditions), which workloads to measure
// (profiles, optionally swept over parameters) and how to judge the results
// (Starlark checks). People write plans by hand and run them on machines
// where a mistake costs hours or destroys data, so this package exists to
// catch every problem before the first I/O: Load decodes and validates the
// whole file and reports all of its problems at once, each as an HCL
// diagnostic that points at the offending text and says what to do.
//
// The result of Load is a Plan: plain, validated data with every unit
// resolved to bytes and nanoseconds. Expand turns a Plan into a Graph, the
// DAG of concrete steps (one per precondition pass, sweep point and drive,
// one per check and drive, one report). Expansion is a pure function and
// node IDs are derived from node content, so the same plan always yields
// the same IDs and a changed step gets a new one; that is what lets a run
// resume and re-run only what changed.
//
// The unit parsers and formatters (ParseSize, FormatSize, ParseDuration,
// ...) are exported because reports and the command line print and read
// the same units as plans.
//
// The plan language is documented in docs/plan-language.md.
package plan
