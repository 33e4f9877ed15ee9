package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/drivebench/drivebench/catalog"
	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/reports"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/script"
)

func cmdRun(ctx context.Context, args []string, io stdio) int {
	fs := newFlagSet("run", "PLAN | -resume DIR", "Run a plan: every step, its checks and its reports.", io)
	var pf planFlags
	pf.register(fs)
	var rf runFlags
	fs.StringVar(&rf.out, "out", "", "results folder (default ./results/<plan>-<timestamp>); a folder holding an unfinished run of the same plan goes on with it, one holding another plan's run or a finished run is refused (see -force)")
	fs.StringVar(&rf.resume, "resume", "", "resume the run in this results folder: its plan with its -var values; complete steps are kept")
	fs.BoolVar(&rf.force, "force", false, "with -out: move a run the folder already holds aside, to a sibling folder <out>.replaced-<timestamp> (never deleted), and start afresh")
	fs.StringVar(&rf.junit, "junit", "", "also write every verdict, failed and skipped step as JUnit XML to this file, for CI; a plan that does not load writes one error case")
	hookSteps := fs.Uint64("hook-steps", 0, "execution-step limit of each Starlark hook (default 10,000,000)")
	hookTimeout := fs.Duration("hook-timeout", 0, "wall-clock limit of each Starlark hook (default 5s)")
	var hookMemory sizeFlag
	fs.Var(&hookMemory, "hook-memory", "memory limit of the Starlark hooks, such as 1GiB (default the plan's hook_memory, else 512MiB)")
	asJSON := fs.Bool("json", false, "print the run as JSON events, one per line (docs/run-events.md, version "+eventsVersion+"); progress and the summary go to stderr")
	catalogFlag := fs.String("catalog", "", "add the run to this catalog (an SQLite file or a postgres:// DSN) when it ends; default $"+catalog.EnvVar+", else none")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	var events *eventStream
	if *asJSON {
		events = newEventStream(io.out)
		// Everything for people goes to stderr; stdout is the stream.
		io.out, io.tty, io.size = io.err, io.errTTY, io.errSize
	}
	rf.catalog = catalogConfigured(*catalogFlag, io.getenv)
	rf.limits = script.Limits{MaxSteps: *hookSteps, Timeout: *hookTimeout, Memory: int64(hookMemory)}
	return runPlan(ctx, fs, &pf, rf, events, io)
}

// runFlags are the run command's flags beside the plan's own.
type runFlags struct {
	out, resume, junit string
	// force moves aside a run the -out folder holds.
	force bool
	// catalog is the catalog the run is added to, "" for none.
	catalog string
	limits  script.Limits
}

// runPlan runs the plan the flags name and adds it to the catalog target
// when that is set; events, when not nil, receives the run as JSON events.
func runPlan(ctx context.Context, fs *flagSet, pf *planFlags, rf runFlags, events *eventStream, io stdio) int {
	finish := func(code int, dir string) int {
		if events != nil {
			events.runFinished(code, dir)
		}
		return code
	}
	path, dir, ok := runTarget(fs, pf, &rf)
	if !ok {
		return finish(exitUsage, "")
	}
	c := checkPlan(path, pf, io, false)
	if !c.report(io) {
		if events != nil {
			events.diagnostics(c)
		}
		writePlanErrorJUnit(io, rf.junit, c)
		return finish(exitUsage, "")
	}
	p, g := c.plan, c.graph
	if !checkRunCatalog(ctx, io, rf.catalog) {
		return finish(exitUsage, "")
	}
	if dir == "" {
		dir = filepath.Join("results", p.Name+"-"+time.Now().Format("20060102-150405"))
	}
	lock, err := lockFolder(io, "run", dir, true, runLockRemedy(rf.resume))
	if err != nil {
		if rf.junit != "" {
			writeJUnitFile(io, rf.junit, func() ([]byte, error) { return reports.JUnitPlanError(p.Name, err.Error(), err.Error()) })
		}
		return finish(exitUsage, "")
	}
	defer lock.Release()
	if !claimFolder(io, dir, c, rf, lock) {
		return finish(exitUsage, "")
	}
	compare, err := expandComparables(ctx, p.Report.Compare, rf.catalog, dir, io.getenv)
	if err != nil {
		fmt.Fprintln(io.err, "drivebench run:", err)
		return finish(exitUsage, "")
	}
	prog := newProgress(io, g, p.Report.Units, cmp.Or(io.heartbeat, heartbeatEvery))
	observe := prog.observe
	if events != nil {
		events.planLoaded(p, g)
		observe = func(e engine.Event) {
			prog.observe(e)
			events.observe(e)
		}
	}
	outcome, err := engine.Run(ctx, p, g, engine.Options{
		Dir:        dir,
		Version:    buildVersion(),
		VarArgs:    pf.vars,
		VarFiles:   absPaths(pf.varFiles),
		VarEnv:     pf.env,
		Observe:    observe,
		HookLimits: rf.limits,
	})
	var report *reports.Summary
	if err == nil {
		report, err = reportRun(ctx, p, dir, compare, rf.limits, outcome)
	}
	prog.finish(outcome)
	if outcome != nil {
		addRunToCatalog(ctx, io, rf.catalog, dir)
	}
	switch {
	case rf.junit == "":
	case outcome != nil:
		writeJUnit(io, rf.junit, dir, report)
	case err != nil && !errors.Is(err, context.Canceled):
		// Refused before the first step (a device not marked writable, say).
		writeJUnitFile(io, rf.junit, func() ([]byte, error) { return reports.JUnitPlanError(p.Name, err.Error(), err.Error()) })
	}
	if err != nil {
		return finish(runError(io, dir, err, outcome, p.Report.Formats), dir)
	}
	return finish(summarize(io, dir, p, outcome), dir)
}

// reportRun writes the reports of a run that went through, which loads
// the results folder once, runs the summary hook on what it loaded and
// renders it, and returns the report's model; a hook that failed counts
// as a failed step.
func reportRun(ctx context.Context, p *plan.Plan, dir string, compare []string, limits script.Limits, o *engine.Outcome) (*reports.Summary, error) {
	s, hook, err := writeReports(ctx, p, dir, p.Report.Formats, compare, limits)
	if err != nil {
		return nil, fmt.Errorf("write reports: %w", err)
	}
	if hook != nil && hook.Error != "" {
		o.SummaryFailed(hook)
	}
	return s, nil
}

// runLockRemedy says what to do when another process holds the results
// folder of a run.
func runLockRemedy(resume string) string {
	if resume != "" {
		return "wait for it to end, then resume the run if it did not finish"
	}
	return "wait for it to end, or give this run another folder with -out"
}

// runTarget decides which plan to load and where the results go: the
// plan argument and -out, or, with -resume, the plan, the variables and
// the hook limits (those not given again) the results folder recorded.
func runTarget(fs *flagSet, pf *planFlags, rf *runFlags) (planPath, dir string, ok bool) {
	if rf.resume == "" {
		planPath, ok = onePositional(fs, "plan file")
		return planPath, rf.out, ok
	}
	if fs.NArg() > 0 || rf.out != "" || len(pf.vars) > 0 || len(pf.varFiles) > 0 || rf.force {
		fmt.Fprintln(fs.Output(), "drivebench run: -resume takes the plan and its variables from the results folder; give no plan, -out, -force, -var or -var-file")
		return "", "", false
	}
	folder, err := results.Open(rf.resume)
	if err != nil {
		fmt.Fprintln(fs.Output(), "drivebench run:", err)
		return "", "", false
	}
	if folder.Manifest.PlanPath == "" {
		fmt.Fprintf(fs.Output(), "drivebench run: %s does not record its plan's path; run the plan again with -out %s\n", rf.resume, rf.resume)
		return "", "", false
	}
	m := folder.Manifest
	for k, v := range m.VarArgs {
		pf.vars[k] = v
	}
	pf.varFiles = m.VarFiles
	pf.recordedEnv = m.VarEnv
	if pf.recordedEnv == nil {
		pf.recordedEnv = map[string]string{}
	}
	recorded := engine.HookLimits(m)
	rf.limits.MaxSteps = cmp.Or(rf.limits.MaxSteps, recorded.MaxSteps)
	rf.limits.Timeout = cmp.Or(rf.limits.Timeout, recorded.Timeout)
	rf.limits.Memory = cmp.Or(rf.limits.Memory, recorded.Memory)
	return m.PlanPath, rf.resume, true
}

// runError explains a run that stopped early. When the results folder
// was started, the reports of what was done are written before exiting.
func runError(io stdio, dir string, err error, outcome *engine.Outcome, formats []string) int {
	if outcome != nil {
		if _, _, rerr := writeReports(context.Background(), nil, dir, formats, nil, script.Limits{}); rerr != nil {
			fmt.Fprintln(io.err, "drivebench: reports:", rerr)
		}
	}
	keptScratch(io, dir, outcome)
	if errors.Is(err, context.Canceled) {
		fmt.Fprintf(io.err, "drivebench: interrupted; the results measured so far are in %s\n", dir)
		return exitInterrupted
	}
	fmt.Fprintln(io.err, "drivebench:", err)
	if outcome == nil {
		return exitUsage
	}
	fmt.Fprintf(io.err, "drivebench: the results measured so far are in %s\n", dir)
	return exitStepFailed
}

// keptScratch says which scratch files an unfinished run left for
// -resume.
func keptScratch(io stdio, dir string, o *engine.Outcome) {
	if o == nil {
		return
	}
	for _, path := range o.Kept {
		fmt.Fprintf(io.err, "drivebench: the scratch file %s is kept with the state the steps left it in, for drivebench run -resume %s; delete it if you will not resume\n", path, dir)
	}
}

// summarize prints where the reports are and each check's verdicts, and
// picks the exit code.
func summarize(io stdio, dir string, p *plan.Plan, o *engine.Outcome) int {
	fmt.Fprintf(io.out, "\nResults: %s\n", dir)
	printReportPaths(io, dir, p.Report.Formats)
	failedChecks := 0
	if len(o.Verdicts) > 0 {
		fmt.Fprintln(io.out, "\nChecks:")
	}
	for _, v := range o.Verdicts {
		where := ""
		if v.Where != "" {
			where = " (" + v.Where + ")"
		}
		fmt.Fprintf(io.out, "  %-5s %s on %s: %s%s\n", v.Status, v.Check, v.Drive, v.Message, where)
		if v.Status == results.VerdictFail {
			failedChecks++
		}
	}
	var skipped []string // why, once per reason, in order
	skips := map[string]int{}
	for _, r := range o.Records {
		switch {
		case r.Status == results.StatusSkipped:
			why := strings.TrimPrefix(r.Error, "not run: ")
			if skips[why] == 0 {
				skipped = append(skipped, why)
			}
			skips[why]++
		case r.Status != results.StatusOK && r.Kind != "check":
			fmt.Fprintf(io.out, "  step %s: %s: %s\n", r.Status, r.Name, r.Error)
		}
	}
	keptScratch(io, dir, o)
	for _, why := range skipped {
		fmt.Fprintf(io.out, "\n%s not run: %s.", format.Counted(skips[why], "step"), why)
	}
	if len(skipped) > 0 {
		fmt.Fprintln(io.out)
	}
	switch {
	case o.Failed > 0:
		fmt.Fprintf(io.out, "\n%s failed to run.\n", format.Counted(o.Failed, "step"))
		return exitStepFailed
	case failedChecks > 0:
		fmt.Fprintf(io.out, "\n%s failed.\n", format.Counted(failedChecks, "check verdict"))
		return exitCheckFailed
	}
	return exitOK
}

// writeJUnit writes the JUnit XML of a results folder, rendered from its
// records like the other reports: from s, the report's model the reports
// were written from, or, when nil, from the folder dir.
func writeJUnit(io stdio, path, dir string, s *reports.Summary) {
	writeJUnitFile(io, path, func() ([]byte, error) {
		if s == nil {
			var err error
			if s, err = reports.Load(dir); err != nil {
				return nil, err
			}
		}
		return reports.JUnit(s)
	})
}

// writePlanErrorJUnit writes, when -junit was given, a JUnit file whose
// one case says the plan did not load, so CI shows why nothing ran.
func writePlanErrorJUnit(io stdio, path string, c checked) {
	if path == "" {
		return
	}
	var text bytes.Buffer
	c.src.WriteDiagnostics(&text, c.diags, 0, false)
	name := strings.TrimSuffix(filepath.Base(c.path), filepath.Ext(c.path))
	writeJUnitFile(io, path, func() ([]byte, error) {
		return reports.JUnitPlanError(name, c.path+": "+countErrors(c.diags), text.String())
	})
}

func writeJUnitFile(io stdio, path string, render func() ([]byte, error)) {
	data, err := render()
	if err == nil {
		err = results.WriteFileAtomic(path, data)
	}
	if err != nil {
		fmt.Fprintln(io.err, "drivebench: junit:", err)
	}
}

// absPaths makes paths absolute so a resumed run finds them from any
// working directory.
func absPaths(paths []string) []string {
	var out []string
	for _, p := range paths {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		out = append(out, p)
	}
	return out
}
