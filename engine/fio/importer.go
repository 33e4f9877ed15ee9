package fio

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// Import turns fio JSON or json+ outputs into a results folder at dir,
// so that reports review runs made without drivebench. Each job name of
// each fio run becomes one profile step: the jobs of that name (numjobs
// clones, or one job per host in client mode, kept as the per-host
// breakdown) are merged exactly as the driver merges them. A file may
// hold the reports of several runs appended one after another; each is
// imported, its steps numbered by report. Every file is read before
// anything is written; a file that holds no fio report, or one that
// cannot be read (a report cut short), fails the import, naming the file
// and the place.
//
// drive, when not nil, is who the drive measured is (its declared
// identity, spec entries and spec sheet, as a drive block says), for the
// reports and the catalog, which otherwise know it by fio's filename
// only; the outputs must then be of one drive.
func Import(dir string, files []string, drive *results.Drive) error {
	if len(files) == 0 {
		return errors.New("no fio output files to import")
	}
	var imports []imported
	var errs []error
	for _, f := range files {
		ims, err := readImport(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		imports = append(imports, ims...)
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if err := sameSteps(imports); err != nil {
		return err
	}
	m := importManifest(imports)
	if err := declareDrive(m, drive); err != nil {
		return err
	}
	folder, err := results.Create(dir, m)
	if err != nil {
		return err
	}
	for _, im := range imports {
		for _, g := range im.groups() {
			if err := folder.WriteRecord(im.record(g)); err != nil {
				return err
			}
		}
	}
	return nil
}

// imported is one fio run of an output file: the file's only report, or
// one of the reports of several runs appended to it.
type imported struct {
	file string
	hash string
	out  *Output
	// report counts the file's runs from 1, of runs; line is where its
	// report starts.
	report, runs, line int
}

func readImport(file string) ([]imported, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	outs, err := ParseRuns(raw)
	if err != nil {
		return nil, importError(file, err)
	}
	sum := sha256.Sum256(raw)
	var ims []imported
	for i, o := range outs {
		im := imported{file: file, hash: hex.EncodeToString(sum[:]), out: o, report: i + 1, runs: len(outs)}
		im.line, _ = position(raw, o.Offset)
		if len(o.Jobs) == 0 {
			return nil, fmt.Errorf("%s: fio's report%s lists no jobs", file, im.where())
		}
		ims = append(ims, im)
	}
	return ims, nil
}

// importError names the file and, for a place that cannot be read, the
// line, column and byte.
func importError(file string, err error) error {
	var re *ReadError
	if !errors.As(err, &re) {
		return fmt.Errorf("%s: %w", file, err)
	}
	keep := ""
	if re.Cut {
		keep = fmt.Sprintf(" (truncate -s %d %s)", re.Offset, file)
	}
	return fmt.Errorf("%s:%d:%d: byte %d: %s%s", file, re.Line, re.Column, re.Offset, re.Problem, keep)
}

// where places the run's report in a file of several: " 2 of 3 (line
// 57)"; "" in a file of one.
func (im imported) where() string {
	if im.runs == 1 {
		return ""
	}
	return fmt.Sprintf(" %d of %d (line %d)", im.report, im.runs, im.line)
}

// sameSteps refuses two imported runs that would write the same step: job
// files exported by drivebench name their step, and a results folder
// holds one record per step.
func sameSteps(imports []imported) error {
	seen := map[string]string{}
	for _, im := range imports {
		for _, g := range im.groups() {
			id, what := im.stepInfo(g).ID, im.file+" report"+im.where()+" job "+g.name
			if other, ok := seen[id]; ok && other != what {
				return fmt.Errorf("%s and %s both ran step %s; a results folder keeps one record per step, so import them into separate folders", other, what, id)
			}
			seen[id] = what
		}
	}
	return nil
}

// jobGroup is the jobs of one name in one file.
type jobGroup struct {
	name string
	jobs []Job
}

// groups gathers the file's jobs by name, in order of first appearance.
func (im imported) groups() []jobGroup {
	var gs []jobGroup
	index := map[string]int{}
	for _, j := range im.out.Jobs {
		i, ok := index[j.Name]
		if !ok {
			i = len(gs)
			index[j.Name] = i
			gs = append(gs, jobGroup{name: j.Name})
		}
		gs[i].jobs = append(gs[i].jobs, j)
	}
	return gs
}

// identity is the step a job file exported by drivebench ran, read from
// the job's description.
func (g jobGroup) identity() (StepIdentity, bool) {
	return parseIdentity(g.jobs[0].Options["description"])
}

// stepInfo is the group's step: the exported step it ran, or a profile
// named after the job.
func (im imported) stepInfo(g jobGroup) results.StepInfo {
	if id, ok := g.identity(); ok {
		return results.StepInfo{ID: id.Step, Kind: id.Kind, Name: id.Name, Drive: id.Drive, Source: id.Source, Pass: id.Pass,
			Point: id.Point, Group: id.Group, Round: id.Round, Rounds: id.Rounds}
	}
	return results.StepInfo{ID: im.stepID(g), Kind: "profile", Name: im.stepName(g), Drive: g.drive(), Source: g.name, Point: im.point(g)}
}

// stepID derives the step's ID from the file's content, the report's
// number in a file of several and the job name, so importing the same
// output again gives the same step.
func (im imported) stepID(g jobGroup) string {
	key := im.hash + "\x00" + g.name
	if im.runs > 1 {
		key = im.hash + "\x00" + strconv.Itoa(im.report) + "\x00" + g.name
	}
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:8])
}

// stepName is the file and the job, with the report's number in a file
// of several: "out.json report 2 / randread".
func (im imported) stepName(g jobGroup) string {
	if im.runs > 1 {
		return fmt.Sprintf("%s report %d / %s", filepath.Base(im.file), im.report, g.name)
	}
	return filepath.Base(im.file) + " / " + g.name
}

// drive is what the job ran against: fio's filename option.
func (g jobGroup) drive() string {
	if f := g.jobs[0].Options["filename"]; f != "" {
		return f
	}
	return "unknown"
}

// point tells the steps of a profile apart: the sweepable parameters of
// workload.Options that the job sets, as its workload holds them ("4k" is
// bs=4096), or as fio printed them when drivebench has no such value
// (bs=4k,8k), then the file.
func (im imported) point(g jobGroup) []workload.Param {
	var pt []workload.Param
	jw := g.workload()
	for _, o := range workload.Options {
		v, ok := g.jobs[0].Options[o.Fio]
		if !o.Sweep || o.Fio == "" || !ok {
			continue
		}
		var value any = v
		if jw.read[o.Name] {
			value = o.Get(&jw.w)
		}
		pt = append(pt, workload.Param{Name: o.Name, Value: value})
	}
	pt = append(pt, workload.Param{Name: "file", Value: filepath.Base(im.file)})
	if im.runs > 1 {
		pt = append(pt, workload.Param{Name: "report", Value: im.report})
	}
	return pt
}

// record is the step record of a group: the merged result, the hosts,
// and notes on what fio's output allowed.
func (im imported) record(g jobGroup) *results.Record {
	res := Merge(g.jobs)
	res.Hosts = hostBreakdown(g.jobs)
	res.Latency = im.out.LatencyDefinition()
	info := im.stepInfo(g)
	jw := g.workload()
	rec := &results.Record{
		StepID: info.ID, Kind: info.Kind, Name: info.Name, Drive: info.Drive, Source: info.Source, Pass: info.Pass,
		Point: info.Point, Engine: "fio", Workload: &jw.w, Status: results.StatusOK,
		Started: res.Start, Finished: im.out.Time, Result: res,
		Log: append(im.notes(g, res), jw.notes...),
	}
	if len(g.jobs) > 1 && !hasHist(res) {
		rec.Warnings = append(rec.Warnings, results.Warning{Kind: results.WarnNoPercentiles, Message: noPercentiles})
	}
	var errs []error
	for _, j := range g.jobs {
		if j.Error != 0 {
			errs = append(errs, jobError(j))
		}
	}
	if err := errors.Join(errs...); err != nil {
		rec.Status, rec.Error = results.StatusFailed, strings.ReplaceAll(err.Error(), "\n", "; ")
	}
	if problems := g.problems(); len(problems) > 0 && rec.Status == results.StatusOK {
		rec.Status = results.StatusFailed
		rec.Error = "fio's output does not add up, so its figures are not taken as measured: " + strings.Join(problems, "; ")
	}
	return rec
}

// problems lists what makes a group's figures untrustworthy: the jobs'
// own problems and options drivebench reads that are not what fio takes.
func (g jobGroup) problems() []string {
	var out []string
	for _, j := range g.jobs {
		for _, p := range append(j.Problems, optionProblems(j.Options)...) {
			out = appendNew(out, "job "+j.Name+" "+p)
		}
	}
	return out
}

// fioPatterns are the values of fio's rw option.
var fioPatterns = []string{"read", "write", "trim", "randread", "randwrite", "randtrim", "rw", "readwrite", "randrw", "trimwrite", "randtrimwrite"}

// optionProblems checks the options that name a step's point.
func optionProblems(opts map[string]string) []string {
	var out []string
	if rw, ok := opts["rw"]; ok {
		pattern, _, _ := strings.Cut(rw, ":")
		if !slices.Contains(fioPatterns, pattern) {
			out = append(out, fmt.Sprintf("has rw=%s, which is not one of fio's patterns", rw))
		}
	}
	if bs, ok := opts["bs"]; ok {
		for _, part := range strings.FieldsFunc(bs, func(r rune) bool { return r == ',' || r == '-' || r == ':' }) {
			if n, err := workload.ParseSize(part); err != nil || n <= 0 {
				out = append(out, fmt.Sprintf("has bs=%s, which is not a block size", bs))
				break
			}
		}
	}
	for _, o := range workload.Options {
		if v, ok := opts[o.Fio]; ok && o.Sweep && o.Kind == workload.Count {
			if n, err := strconv.Atoi(v); err != nil || n < 1 {
				out = append(out, fmt.Sprintf("has %s=%s, which is not a count of 1 or more", o.Fio, v))
			}
		}
	}
	return out
}

// hostBreakdown merges a client-mode run's jobs per host; nil for a local
// run.
func hostBreakdown(jobs []Job) []metrics.HostResult {
	var out []metrics.HostResult
	index := map[string]int{}
	byHost := map[string][]Job{}
	for _, j := range jobs {
		if j.Host == "" {
			continue
		}
		if _, ok := index[j.Host]; !ok {
			index[j.Host] = len(out)
			out = append(out, metrics.HostResult{Host: j.Host})
		}
		byHost[j.Host] = append(byHost[j.Host], j)
	}
	for i := range out {
		r := Merge(byHost[out[i].Host])
		out[i].Read, out[i].Write = r.Read, r.Write
	}
	return out
}

// notes tell the reader how the figures were read.
func (im imported) notes(g jobGroup, res *metrics.Result) []string {
	notes := []string{fmt.Sprintf("imported from %s (%s, %d job entries)", filepath.Base(im.file), im.out.Version, len(g.jobs))}
	if im.runs > 1 {
		notes = append(notes, fmt.Sprintf("%s holds the reports of %d fio runs appended one after another; this is report%s, so the step's name and point carry its number",
			filepath.Base(im.file), im.runs, im.where()))
	}
	if n := im.out.Snapshots; n > 0 {
		notes = append(notes, fmt.Sprintf("fio printed %d status reports of this run before its last (--status-interval); the figures are the last report's", n))
	}
	if len(im.out.Messages) > 0 {
		notes = append(notes, "fio printed beside the report: "+quoteLines(im.out.Messages, 5))
	}
	if im.out.Latency == "clat" {
		notes = append(notes, "latency is fio's clat (from submission done to completion; fio recorded no lat percentiles)")
	}
	if len(g.jobs) > 1 && !hasHist(res) {
		notes = append(notes, noPercentiles)
	}
	return append(notes, im.out.Warnings...)
}

// quoteLines quotes the first n lines, each at most 200 bytes, and counts
// the rest.
func quoteLines(lines []string, n int) string {
	var out []string
	for _, l := range lines[:min(len(lines), n)] {
		if len(l) > 200 {
			l = strings.ToValidUTF8(l[:200], "") + "…"
		}
		out = append(out, strconv.Quote(l))
	}
	if more := len(lines) - n; more > 0 {
		out = append(out, fmt.Sprintf("and %d more lines", more))
	}
	return strings.Join(out, ", ")
}

// noPercentiles says why the percentiles of an import are missing.
const noPercentiles = "No latency percentiles: fio's plain json output has no latency bins, and the percentiles of several jobs cannot be merged without them. Run fio with --output-format=json+, or with group_reporting."

func hasHist(r *metrics.Result) bool {
	for _, d := range []*metrics.DirStats{r.Read, r.Write} {
		if d != nil && d.Hist == nil {
			return false
		}
	}
	return true
}

// declaredByImport is who declares an imported drive's identity: the
// import, not a plan (results.Drive.DeclaredBy); the command line names
// the flags that gave it.
const declaredByImport = "import fio"

// importManifest describes the imported runs: one profile per job name,
// with fio's options as its parameters, and one drive per filename.
// declareDrive gives the one drive of the import m who drive says it is;
// nothing when drive is nil.
func declareDrive(m *results.Manifest, drive *results.Drive) error {
	if drive == nil {
		return nil
	}
	if len(m.Drives) != 1 {
		names := make([]string, len(m.Drives))
		for i, d := range m.Drives {
			names[i] = d.Name
		}
		return fmt.Errorf("the outputs measured %d drives (%s), and a drive's identity names one: import each drive's outputs on their own, each with its identity",
			len(m.Drives), strings.Join(names, ", "))
	}
	d := &m.Drives[0]
	d.Declared, d.Spec, d.SpecSheet = drive.Declared, drive.Spec, drive.SpecSheet
	d.DeclaredBy = cmp.Or(drive.DeclaredBy, d.DeclaredBy)
	return nil
}

func importManifest(imports []imported) *results.Manifest {
	m := &results.Manifest{Plan: "fio-import", Testbed: results.Testbed{Name: "imported", Detected: map[string]string{}}}
	planHash := sha256.New()
	var names []string
	versions := map[string]bool{}
	drives := map[string]bool{}
	planNames := map[string]bool{}
	methods := map[string]*results.Method{}
	var methodOrder []string
	points := map[string][][]workload.Param{}
	for _, im := range imports {
		if im.report == 1 {
			planHash.Write([]byte(im.hash))
			names = append(names, filepath.Base(im.file))
		}
		versions[im.out.Version] = true
		if im.out.Time.After(m.Created) {
			m.Created = im.out.Time
		}
		for _, g := range im.groups() {
			info := im.stepInfo(g)
			m.Steps = append(m.Steps, info)
			id, exported := g.identity()
			if exported && id.Plan != "" {
				planNames[id.Plan] = true
			}
			if !drives[info.Drive] {
				drives[info.Drive] = true
				m.Drives = append(m.Drives, results.Drive{Name: info.Drive, Path: g.drive(), Size: id.Size, DeclaredBy: declaredByImport})
			}
			key := info.Kind + "\x00" + info.Source
			if _, ok := methods[key]; !ok {
				methods[key] = &results.Method{Name: info.Source, Params: optionParams(g.jobs[0].Options)}
				methodOrder = append(methodOrder, key)
			}
			methods[key].Drives = appendNew(methods[key].Drives, info.Drive)
			points[key] = append(points[key], info.Point)
			for _, c := range id.Checks {
				if !slices.ContainsFunc(m.Checks, func(have results.Method) bool { return have.Name == c.Name }) {
					m.Checks = append(m.Checks, c)
				}
			}
		}
	}
	for _, key := range methodOrder {
		meth := methods[key]
		meth.Sweep = sweepOf(points[key])
		meth.Params = withoutSwept(meth.Params, meth.Sweep)
		if strings.HasPrefix(key, "precondition\x00") {
			m.Preconditions = append(m.Preconditions, *meth)
		} else {
			m.Profiles = append(m.Profiles, *meth)
		}
	}
	if len(planNames) == 1 {
		m.Plan = slices.Collect(maps.Keys(planNames))[0]
	}
	m.PlanFile = strings.Join(names, ", ")
	m.PlanHash = hex.EncodeToString(planHash.Sum(nil))
	m.Testbed.Detected["fio_version"] = strings.Join(slices.Sorted(maps.Keys(versions)), ", ")
	if m.Created.IsZero() {
		m.Created = time.Unix(0, 0).UTC()
	}
	return m
}

// optionParams lists fio's options by name, but for the job's name and
// file, which the step already shows.
func optionParams(opts map[string]string) []results.KV {
	var kv []results.KV
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		if k != "name" && k != "filename" && k != "description" {
			kv = append(kv, results.KV{Key: k, Value: opts[k]})
		}
	}
	return kv
}

// appendNew appends s unless list holds it.
func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// sweepOf lists the parameters whose values differ between the points of
// one profile, with their values in order of first appearance.
func sweepOf(points [][]workload.Param) []results.SweepDim {
	var dims []results.SweepDim
	for _, pt := range points {
		for _, p := range pt {
			if p.Name == "file" {
				continue
			}
			i := slices.IndexFunc(dims, func(d results.SweepDim) bool { return d.Param == p.Name })
			if i < 0 {
				dims = append(dims, results.SweepDim{Param: p.Name})
				i = len(dims) - 1
			}
			dims[i].Values = appendNew(dims[i].Values, fmt.Sprint(p.Value))
		}
	}
	var swept []results.SweepDim
	for _, d := range dims {
		if len(d.Values) > 1 {
			swept = append(swept, d)
		}
	}
	return swept
}

// withoutSwept drops the options a sweep lists, which differ per point.
func withoutSwept(params []results.KV, sweep []results.SweepDim) []results.KV {
	var out []results.KV
	for _, kv := range params {
		if !slices.ContainsFunc(sweep, func(d results.SweepDim) bool { return d.Param == kv.Key }) {
			out = append(out, kv)
		}
	}
	return out
}
