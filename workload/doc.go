// Package workload is the vocabulary of what a step does: the Workload an
// engine runs and a record keeps, the table of its parameters (Options),
// the units they are written in, and the sweep Point with its one text
// form.
//
// Options is drivebench's fio options.c: one row per parameter with its
// name, kind, bounds, default, doc line, whether a sweep can vary it,
// whether it changes what a step measures, its fio option and how its
// value goes to fio and comes back, and how its value reads for people.
// The plan decoder checks swept and adaptive parameters by it, expansion
// applies a point with it, the fio engine writes and the fio importer
// reads options by it, the manifest and the reports write values with
// it, compare lists changed parameters by it, and docs/plan-language.md
// is tested against it. A new parameter is a row here and the code of the
// engines that honour it.
//
// It is a leaf beside plan, results and the engines rather than part of
// plan: results and reports read workloads and points from records
// without importing the plan language, and the engines run them. It
// imports only format, the leaf that writes numbers for people, so that a
// block size reads the same in a step name, a table and a comparison.
//
// The engines a build has are not a list here: each engine package
// registers itself with engine/driver, and the engine hands their names
// to plan.Load (plan.LoadOptions.Engines), which checks engine attributes
// against them. A leaf registry filled by init functions would make the
// plan's validity depend on which packages a binary happens to link.
package workload
