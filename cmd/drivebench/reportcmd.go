package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/drivebench/drivebench/catalog"
	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/reports"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/script"
)

// defaultFormats are written when the plan does not choose.
var defaultFormats = reports.Formats

// reportFiles lists the main report files the formats produce.
func reportFiles(formats []string) []string {
	if len(formats) == 0 {
		formats = defaultFormats
	}
	var files []string
	for _, f := range formats {
		if name := reports.FileName(f); name != "" {
			files = append(files, name)
		}
	}
	return files
}

// writeReports renders the reports of a results folder from its records,
// with the results folders in compare shown as comparables.
func writeReports(dir string, formats, compare []string) error {
	s, err := reports.Load(dir)
	if err != nil {
		return err
	}
	for _, c := range compare {
		other, err := reports.Load(c)
		if err != nil {
			return fmt.Errorf("comparable %s: %w", c, err)
		}
		s.AddComparable(filepath.Base(filepath.Clean(c)), other)
	}
	if len(formats) == 0 {
		formats = defaultFormats
	}
	files, err := reports.Render(s, formats)
	if err != nil {
		return err
	}
	return reports.WriteFiles(dir, files)
}

// listFlag collects a repeatable flag's values.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	*l = append(*l, s)
	return nil
}

func cmdReport(ctx context.Context, args []string, io stdio) int {
	fs := newFlagSet("report", "DIR", "Rewrite the reports of a results folder from its records alone; the drive is not needed.", io)
	formats := fs.String("format", strings.Join(defaultFormats, ","), "comma-separated report formats: "+strings.Join(reports.Formats, ", "))
	var compare listFlag
	fs.Var(&compare, "compare", "a results folder of another drive or run to show beside this one, or catalog:FILTER for the latest run of each drive the catalog filter matches, such as catalog:model=KIOXIA*,plan=review (repeatable)")
	catalogFlag := fs.String("catalog", "", "the catalog of catalog: comparables (default $"+catalog.EnvVar+", else "+catalog.DefaultPath(io.getenv)+")")
	junit := fs.String("junit", "", "also write the verdicts and failed steps as JUnit XML to this file, as run -junit does")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	dir, ok := onePositional(fs, "results folder")
	if !ok {
		return exitUsage
	}
	list := strings.Split(*formats, ",")
	dirs, err := expandComparables(ctx, compare, *catalogFlag, dir, io.getenv)
	if err != nil {
		fmt.Fprintln(io.err, "drivebench report:", err)
		return exitUsage
	}
	code := exitOK
	if !regenerateSummary(ctx, dir, io) {
		code = exitStepFailed
	}
	if err := writeReports(dir, list, dirs); err != nil {
		fmt.Fprintln(io.err, "drivebench report:", err)
		return exitUsage
	}
	for _, f := range reportFiles(list) {
		fmt.Fprintln(io.out, filepath.Join(dir, f))
	}
	if *junit != "" {
		writeJUnit(io, *junit, dir)
		fmt.Fprintln(io.out, *junit)
	}
	return code
}

// regenerateSummary runs the summary hook of the plan the folder records
// again, on the folder, so its sections are rewritten like every other
// part of the report. When the plan can no longer be loaded the sections
// summary.json holds stay, and a note says why. false when the hook
// failed.
func regenerateSummary(ctx context.Context, dir string, io stdio) bool {
	folder, err := results.Open(dir)
	if err != nil {
		return true // writeReports says what is wrong with the folder
	}
	m := folder.Manifest
	if m.PlanPath == "" {
		return true
	}
	p, _, diags := plan.Load(m.PlanPath, plan.LoadOptions{Vars: m.VarArgs, VarFiles: m.VarFiles, Env: io.getenv})
	if diags.HasErrors() {
		fmt.Fprintf(io.err, "drivebench report: the summary hook's sections are kept from %s: the plan %s does not load (%s)\n",
			results.SummaryFile, m.PlanPath, diags.Errs()[0])
		return true
	}
	s, err := engine.Summarize(ctx, p, dir, script.Limits{})
	switch {
	case err != nil:
		fmt.Fprintln(io.err, "drivebench report: summary hook:", err)
		return false
	case s != nil && s.Error != "":
		fmt.Fprintf(io.err, "drivebench report: summary hook %s failed: %s\n", s.Hook, strings.TrimPrefix(s.Where+": "+s.Error, ": "))
		return false
	}
	return true
}
