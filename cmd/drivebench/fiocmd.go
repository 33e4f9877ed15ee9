package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/engine/fio"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/script"
)

// cmdImport turns fio outputs into a results folder and writes its
// reports: drivebench import fio FILE... [-out DIR].
func cmdImport(ctx context.Context, args []string, io stdio) int {
	fs := newFlagSet("import", "fio FILE...", "Turn fio JSON or json+ outputs (--output-format=json or json+) into a results folder and write its reports, to review runs made without drivebench.\n"+
		"A file may hold the reports of several runs appended one after another; each becomes steps named by its report's number.\n"+
		"-model, -serial, -firmware and -capacity, or -drive FILE (a drive block), say which drive fio measured, so the reports and the catalog name it.", io)
	out := fs.String("out", "", "results folder (default ./results/fio-import-<timestamp>)")
	var who importedDrive
	who.register(fs)
	files, code, ok := formatArgs(fs, args, "fio output file")
	if !ok {
		return code
	}
	drive, ok := who.drive(io)
	if !ok {
		return exitUsage
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join("results", "fio-import-"+time.Now().Format("20060102-150405"))
	}
	lock, err := lockFolder(io, "import", dir, true, "wait for it to end, or give the import another folder with -out")
	if err != nil {
		return exitUsage
	}
	defer lock.Release()
	if err := fio.Import(dir, files, drive); err != nil {
		fmt.Fprintln(io.err, "drivebench import:", err)
		return exitUsage
	}
	if _, _, err := writeReports(ctx, nil, dir, nil, nil, script.Limits{}); err != nil {
		fmt.Fprintln(io.err, "drivebench import:", err)
		return exitUsage
	}
	fmt.Fprintf(io.out, "Results: %s\n", dir)
	printReportPaths(io, dir, nil)
	return importedFailures(io, dir)
}

// importedDrive is who the drive measured by imported fio outputs is:
// -drive FILE, a drive block as a plan writes it, and the flags, which
// take precedence over it.
type importedDrive struct {
	file                            string
	model, serial, firmware, vendor string
	capacity                        sizeFlag
}

func (d *importedDrive) register(fs *flagSet) {
	fs.StringVar(&d.file, "drive", "", "a file holding the drive's drive block, as a plan writes it (model, serial, firmware, vendor, spec_sheet)")
	fs.StringVar(&d.model, "model", "", "the drive's model, as it reports it (KIOXIA KCM9XRJE15T3)")
	fs.StringVar(&d.serial, "serial", "", "the drive's serial number; the catalog keys drives by model and serial")
	fs.StringVar(&d.firmware, "firmware", "", "the drive's firmware revision")
	fs.StringVar(&d.vendor, "vendor", "", "the drive's vendor")
	fs.Var(&d.capacity, "capacity", "the drive's capacity, such as 1.92TB")
}

// drive is the identity the flags give, nil when they give none; false
// when the drive file does not load, which it has said why.
func (d *importedDrive) drive(io stdio) (*results.Drive, bool) {
	out := &results.Drive{}
	if d.file != "" {
		pd, src, diags := plan.LoadDrive(d.file)
		if len(diags) > 0 {
			src.WriteDiagnostics(io.err, diags, 100, false)
		}
		if diags.HasErrors() {
			fmt.Fprintf(io.err, "%s: %s\n", d.file, countErrors(diags))
			return nil, false
		}
		*out = engine.DeclaredDrive(pd)
	}
	declared := maps.Clone(out.Declared)
	for k, v := range map[string]string{"model": d.model, "serial": d.serial, "firmware": d.firmware, "vendor": d.vendor} {
		if v = strings.TrimSpace(v); v != "" {
			declared = setKey(declared, k, v)
		}
	}
	if d.capacity > 0 {
		declared = setKey(declared, results.DeclaredCapacity, strconv.FormatInt(int64(d.capacity), 10))
	}
	out.Declared = declared
	if d.file == "" && len(declared) == 0 {
		return nil, true
	}
	out.DeclaredBy = d.declaredBy()
	return out, true
}

// declaredBy names the import and the flags that declared the drive, as
// its report says where the identity comes from: "import fio -drive
// drive.hcl, -firmware".
func (d *importedDrive) declaredBy() string {
	var flags []string
	if d.file != "" {
		flags = append(flags, "-drive "+filepath.Base(d.file))
	}
	for _, f := range []struct{ name, value string }{
		{"model", d.model}, {"serial", d.serial}, {"firmware", d.firmware}, {"vendor", d.vendor},
	} {
		if strings.TrimSpace(f.value) != "" {
			flags = append(flags, "-"+f.name)
		}
	}
	if d.capacity > 0 {
		flags = append(flags, "-capacity")
	}
	return "import fio " + strings.Join(flags, ", ")
}

// setKey sets m[k] = v, making m when it is nil.
func setKey(m map[string]string, k, v string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	m[k] = v
	return m
}

// importedFailures lists the imported steps whose figures cannot be taken
// as measured, and picks the exit code: 3 when there are any.
func importedFailures(io stdio, dir string) int {
	folder, err := results.Open(dir)
	if err != nil {
		fmt.Fprintln(io.err, "drivebench import:", err)
		return exitUsage
	}
	recs, err := folder.Records()
	if err != nil {
		fmt.Fprintln(io.err, "drivebench import:", err)
		return exitUsage
	}
	code := exitOK
	for _, r := range recs {
		if r.Status != results.StatusOK {
			fmt.Fprintf(io.err, "drivebench import: %s: %s: %s\n", r.Name, r.Status, r.Error)
			code = exitStepFailed
		}
	}
	return code
}

// cmdExport writes the fio job files of a plan's steps: drivebench export
// fio PLAN [-out DIR] [-var name=value].
func cmdExport(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("export", "fio PLAN", "Write the fio job file of every step of a plan, numbered in run order, to run by hand with fio --output-format=json+ FILE.", io)
	var pf planFlags
	pf.register(fs)
	out := fs.String("out", "", "folder for the job files (default ./<plan>-fio)")
	paths, code, ok := formatArgs(fs, args, "plan file")
	if !ok {
		return code
	}
	if len(paths) != 1 {
		fmt.Fprintf(io.err, "drivebench export: expected one plan file, got %d\n", len(paths))
		return exitUsage
	}
	p, g, ok := loadPlan(paths[0], &pf, io)
	if !ok {
		return exitUsage
	}
	dir := *out
	if dir == "" {
		dir = p.Name + "-fio"
	}
	files, notes, err := exportJobFiles(p, g, dir)
	for _, n := range notes {
		fmt.Fprintln(io.err, "drivebench export:", n)
	}
	if err != nil {
		fmt.Fprintln(io.err, "drivebench export:", err)
		return exitUsage
	}
	for _, f := range files {
		fmt.Fprintf(io.out, "%s\t%s\n", f.path, f.step)
	}
	return exitOK
}

// formatArgs parses flags that may follow the positional arguments and
// checks that the first positional names the fio format; it returns the
// rest, or ok = false and the exit code.
func formatArgs(fs *flagSet, args []string, what string) (rest []string, code int, ok bool) {
	var positional []string
	for {
		if code, done := parseFlags(fs, args); done {
			return nil, code, false
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch {
	case len(positional) == 0 || positional[0] != "fio":
		fmt.Fprintf(fs.Output(), "drivebench %s: the first argument names the format, and fio is the one supported\n\n", fs.Name())
	case len(positional) == 1:
		fmt.Fprintf(fs.Output(), "drivebench %s: expected a %s after fio\n\n", fs.Name(), what)
	default:
		return positional[1:], exitOK, true
	}
	fs.printUsage()
	return nil, exitUsage, false
}

// exportedFile is one job file written and the step it runs.
type exportedFile struct {
	path, step string
}

// exportJobFiles translates every workload step of g into a job file in
// dir. Nothing is written when a step cannot be translated; every such
// step is reported. Steps whose rate is measured at run time are left out
// with a note.
func exportJobFiles(p *plan.Plan, g *plan.Graph, dir string) ([]exportedFile, []string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, err
	}
	targets, err := exportTargets(p, g, abs)
	if err != nil {
		return nil, nil, err
	}
	type job struct{ name, text, step string }
	var jobs []job
	var notes []string
	var errs []error
	width := len(fmt.Sprint(len(g.Nodes)))
	aggregates := aggregateRules(g)
	checks := engine.CheckMethods(p)
	for i, n := range g.Nodes {
		if n.Workload == nil {
			continue
		}
		w := *n.Workload
		if w.RatePct > 0 && w.RateIOPS == 0 {
			notes = append(notes, fmt.Sprintf("step %s: its rate is %g%% of the IOPS step %s measures, known only when the plan runs; no job file", n.Name, w.RatePct, w.RateBase))
			continue
		}
		id := fio.StepIdentity{Plan: p.Name, Step: n.ID, Name: n.Name, Kind: string(n.Kind), Source: n.Source, Drive: n.Drive,
			Size: targets[n.Drive].Capacity, Pass: n.Pass, Passes: n.Passes, Point: slices.Clone(n.Point),
			Group: n.Group, Round: n.Round, Rounds: n.Rounds, Aggregate: aggregates[n.ID], Checks: checks}
		target := targets[n.Drive]
		if w.IsFileSet() {
			if target, err = engine.PlannedSetRoot(driveNamed(p, n.Drive), abs); err != nil {
				errs = append(errs, fmt.Errorf("step %s: %w", n.Name, err))
				continue
			}
			for _, note := range fio.FileSetNotes(w) {
				notes = append(notes, fmt.Sprintf("step %s: fio cannot %s; the job file says so", n.Name, note))
			}
		}
		text, err := fio.ExportJob(id, filepath.Base(p.File), target, w)
		if err != nil {
			errs = append(errs, fmt.Errorf("step %s: %w", n.Name, err))
			continue
		}
		jobs = append(jobs, job{name: fmt.Sprintf("%0*d-%s.fio", width, i+1, fileStem(n.Name)), text: text, step: n.Name})
	}
	if err := errors.Join(errs...); err != nil {
		return nil, notes, err
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, notes, err
	}
	var files []exportedFile
	for _, j := range jobs {
		path := filepath.Join(dir, j.name)
		if err := os.WriteFile(path, []byte(j.text), 0o644); err != nil {
			return files, notes, err
		}
		files = append(files, exportedFile{path: path, step: j.step})
	}
	return files, notes, nil
}

// exportTargets describes each drive as a run would find it
// (engine.PlannedTarget); every drive that cannot be described is
// reported.
func exportTargets(p *plan.Plan, g *plan.Graph, dir string) (map[string]driver.Target, error) {
	targets := map[string]driver.Target{}
	var errs []error
	for _, d := range p.Drives {
		if !slices.ContainsFunc(g.Nodes, func(n *plan.Node) bool { return n.Drive == d.Name && n.Workload != nil && !n.Workload.IsFileSet() }) {
			continue // its steps run on file sets, in a folder (PlannedSetRoot)
		}
		t, err := engine.PlannedTarget(d, dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		targets[d.Name] = t
	}
	return targets, errors.Join(errs...)
}

// aggregateRules gives each round of a repeated step the rule its
// aggregate step combines the rounds with, as the plan's repeat block
// writes it: use = "best", keep = 1.
func aggregateRules(g *plan.Graph) map[string]string {
	rules := map[string]string{}
	for _, n := range g.Nodes {
		if n.Aggregate == nil {
			continue
		}
		rule := fmt.Sprintf("use = %q", n.Aggregate.Use)
		if n.Aggregate.Keep > 0 {
			rule += fmt.Sprintf(", keep = %d", n.Aggregate.Keep)
		}
		for _, dep := range n.DependsOn {
			rules[dep] = rule
		}
	}
	return rules
}

var unsafeFileChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// fileStem makes a step name usable in a file name:
// "scratch / 4k-random-read / iodepth=4" is "scratch-4k-random-read-iodepth-4".
func fileStem(name string) string {
	return strings.Trim(unsafeFileChars.ReplaceAllString(name, "-"), "-")
}

// driveNamed is the plan's drive of that name.
func driveNamed(p *plan.Plan, name string) *plan.Drive {
	i := slices.IndexFunc(p.Drives, func(d *plan.Drive) bool { return d.Name == name })
	return p.Drives[i]
}
