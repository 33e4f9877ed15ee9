// Package docs holds drivebench's reference documents, embedded in the
// command so that `drivebench help plan` (and hooks, catalog, trace) prints them
// where they are needed: a drivebench installed with go install has no
// checkout to read them in.
package docs

import _ "embed"

// PlanLanguage is plan-language.md: every block, attribute and function
// of the plan language.
//
//go:embed plan-language.md
var PlanLanguage string

// Hooks is hooks.md: expectations, acceptance and the Starlark hooks.
//
//go:embed hooks.md
var Hooks string

// Catalog is catalog.md: the catalog's commands and its schema.
//
//go:embed catalog.md
var Catalog string

// Trace is trace.md: the trace formats and the trace commands.
//
//go:embed trace.md
var Trace string

// Figures is figures.md: the figure registry's tables (every figure, its
// unit and its name in each place) and how a report chooses its figures.
//
//go:embed figures.md
var Figures string
