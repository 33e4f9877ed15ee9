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
// with the results folders in compare shown as comparables, and returns
// the report's model. With a plan that has a summary hook it first runs
// the hook on the report's model and sets its sections in the report; it
// returns what the hook returned (nil without a plan or a hook). Without
// a plan the sections the folder holds stay as they are.
func writeReports(ctx context.Context, p *plan.Plan, dir string, formats, compare []string, limits script.Limits) (*reports.Summary, *results.Summary, error) {
	s, err := reports.Load(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range compare {
		other, err := reports.Load(c)
		if err != nil {
			return s, nil, fmt.Errorf("comparable %s: %w", c, err)
		}
		s.AddComparable(filepath.Base(filepath.Clean(c)), other)
	}
	var hook *results.Summary
	if p != nil {
		if hook, err = runSummaryHook(ctx, p, s, dir, limits); err != nil {
			return s, nil, err
		}
	}
	if len(formats) == 0 {
		formats = defaultFormats
	}
	files, err := reports.Render(s, formats)
	if err != nil {
		return s, hook, err
	}
	return s, hook, reports.WriteFiles(dir, files)
}

// runSummaryHook runs p's summary hook on the results folder dir, as
// Load read it into the report's model s, and sets the sections it
// returned, or its error, in s.
func runSummaryHook(ctx context.Context, p *plan.Plan, s *reports.Summary, dir string, limits script.Limits) (*results.Summary, error) {
	m, recs := s.Loaded()
	in := engine.SummaryInput{Manifest: m, Records: recs}
	if p.Report.Summary != nil {
		in.Model = s.HookModel()
	}
	hook, err := engine.Summarize(ctx, p, dir, limits, in)
	if err != nil {
		return nil, fmt.Errorf("summary hook: %w", err)
	}
	s.SetSummaryHook(hook)
	return hook, nil
}

// listFlag collects a repeatable flag's values.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	*l = append(*l, s)
	return nil
}

func cmdReport(ctx context.Context, args []string, io stdio) int {
	fs := newFlagSet("report", "DIR", "Rewrite the reports of a results folder, and its steps' interval series (series/*.csv, fio-logs/), from its records alone; the drive is not needed.", io)
	formats := fs.String("format", strings.Join(defaultFormats, ","), "comma-separated report formats: "+strings.Join(reports.Formats, ", "))
	fs.choose("format", true, reports.Formats...)
	var compare listFlag
	fs.Var(&compare, "compare", "a results folder of another drive or run to show beside this one, or catalog:FILTER for the latest run of each drive the catalog filter matches, such as catalog:model=KIOXIA*,plan=review (repeatable)")
	catalogFlag := fs.String("catalog", "", "the catalog of catalog: comparables (default $"+catalog.EnvVar+", else "+catalog.DefaultPath(io.getenv)+")")
	junit := fs.String("junit", "", "also write the verdicts and failed steps as JUnit XML to this file, as run -junit does")
	fioLogs := fs.Bool("fio-logs", false, "also write fio's bw, iops and lat logs of every step's interval series (fio-logs/), as a plan's report { fio_logs = true } does; without it they are written when the plan asked")
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
	lock, err := lockFolder(io, "report", dir, false, "wait for it to end: a run writes its reports itself when it ends")
	if err != nil {
		return exitUsage
	}
	defer lock.Release()
	code := exitOK
	p, limits := recordedPlan(dir, io)
	rep, hook, err := writeReports(ctx, p, dir, list, dirs, limits)
	if err == nil {
		err = rewriteSeries(dir, *fioLogs)
	}
	if err != nil {
		fmt.Fprintln(io.err, "drivebench report:", err)
		return exitUsage
	}
	for _, u := range rep.UnreadableRecords {
		fmt.Fprintf(io.err, "drivebench report: left out %s: %s\n", u.File, u.Reason)
	}
	if hook != nil && hook.Error != "" {
		kept := ""
		if hook.Kept {
			kept = fmt.Sprintf("; the sections it returned before are kept in %s and the report", results.SummaryFile)
		}
		fmt.Fprintf(io.err, "drivebench report: summary hook %s failed: %s%s\n", hook.Hook, strings.TrimPrefix(hook.Where+": "+hook.Error, ": "), kept)
		code = exitStepFailed
	}
	for _, f := range reportFiles(list) {
		fmt.Fprintln(io.out, filepath.Join(dir, f))
	}
	if *junit != "" {
		writeJUnit(io, *junit, dir, rep)
		fmt.Fprintln(io.out, *junit)
	}
	return code
}

// rewriteSeries writes the interval series files of every step of the
// results folder dir again from its records (series/<step>.csv), and
// fio's logs when the run's plan asked for them or fioLogs does, so a
// folder written before they existed gets them too.
func rewriteSeries(dir string, fioLogs bool) error {
	folder, err := results.Open(dir)
	if err != nil {
		return err
	}
	return folder.RewriteSeries(fioLogs || folder.Manifest.FioLogs)
}

// recordedPlan loads the plan the results folder records, with the
// variables it ran with, so that its summary hook runs again on the
// folder, under the hook limits the run was given, and its sections are
// rewritten like every other part of the report. The plan is nil when
// the folder names no plan or the plan no longer loads: then the
// sections summary.json holds stay, and a message says why.
func recordedPlan(dir string, io stdio) (*plan.Plan, script.Limits) {
	folder, err := results.Open(dir)
	if err != nil {
		return nil, script.Limits{} // writeReports says what is wrong with the folder
	}
	m := folder.Manifest
	if m.PlanPath == "" {
		return nil, script.Limits{}
	}
	p, _, diags := plan.Load(m.PlanPath, plan.LoadOptions{Vars: m.VarArgs, VarFiles: m.VarFiles, Env: recordedEnv(m.VarEnv), Engines: engine.Engines()})
	if diags.HasErrors() {
		fmt.Fprintf(io.err, "drivebench report: the summary hook's sections are kept from %s: the plan %s does not load (%s)\n",
			results.SummaryFile, m.PlanPath, diags.Errs()[0])
		return nil, script.Limits{}
	}
	return p, engine.HookLimits(m)
}
