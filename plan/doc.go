// Package plan turns a test plan written in HCL into data the engine can
// run.
//
// A plan says what to test (drives, with the figures their spec sheets
// claim), how to prepare them (preconditions), which workloads to measure
// (profiles, optionally swept over parameters, run as rate curves, repeated,
// run to steady state or swept adaptively by a hook, and application
// workloads run as external commands) and how to judge the results
// (expectations written in HCL, Starlark checks, spec-sheet acceptance).
// People write plans by hand, keep them in version control and share them
// (a reviewer's methodology as a module, a vendor's spec sheet as an
// included file), and run them on machines where a mistake costs hours or
// destroys data, so this package exists to catch every problem before the
// first I/O: Load decodes and validates the plan, the files it includes
// and its modules, with its variables set from the command line, variable
// files and the environment, and reports all of their problems at once,
// each as an HCL diagnostic that points at the offending text and says
// what to do.
//
// The result of Load is a Plan: plain, validated data with every unit
// resolved to bytes and nanoseconds, every for_each and module expanded
// and every mix applied. Expand turns a Plan into a Graph, the DAG of
// concrete steps (one per precondition pass, sweep point, curve step or
// round and drive, one per check and drive, one report). Expansion is a
// pure function and node IDs are derived from node content, so the same
// plan always yields the same IDs and a changed step gets a new one; that
// is what lets a run resume and re-run only what changed.
//
// The workload parameters (their names, kinds, bounds, defaults and how
// a point sets them) and the units they are written in are the workload
// package's: plan decodes each parameter by its row of workload.Options,
// with code of its own only where a parameter depends on others. The
// engines a plan may name are given to Load (LoadOptions.Engines).
//
// The plan language is documented in docs/plan-language.md; expectations,
// acceptance, hooks and exec steps in docs/hooks.md. An expectation is the
// one part of a Plan that is not plain data: it keeps its HCL expression,
// checked against the result's schema by Load and evaluated per point by
// Expectation.Eval, as k6 keeps its thresholds.
package plan
