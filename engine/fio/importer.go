package fio

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// Import turns fio JSON or json+ outputs into a results folder at dir,
// so that reports review runs made without drivebench. Each job name of
// each file becomes one profile step: the jobs of that name (numjobs
// clones, or one job per host in client mode, kept as the per-host
// breakdown) are merged exactly as the driver merges them. Every file is
// read before anything is written; a file that holds no fio report fails
// the import, naming the file.
func Import(dir string, files []string) error {
	if len(files) == 0 {
		return errors.New("no fio output files to import")
	}
	var imports []imported
	var errs []error
	for _, f := range files {
		im, err := readImport(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		imports = append(imports, im)
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	folder, err := results.Create(dir, importManifest(imports))
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

// imported is one parsed fio output file.
type imported struct {
	file string
	hash string
	out  *Output
}

func readImport(file string) (imported, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return imported{}, err
	}
	o, err := Parse(raw)
	if err != nil {
		return imported{}, fmt.Errorf("%s: %w", file, err)
	}
	if len(o.Jobs) == 0 {
		return imported{}, fmt.Errorf("%s: fio's report lists no jobs", file)
	}
	sum := sha256.Sum256(raw)
	return imported{file: file, hash: hex.EncodeToString(sum[:]), out: o}, nil
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

// stepID derives the step's ID from the file's content and the job name,
// so importing the same output again gives the same step.
func (im imported) stepID(g jobGroup) string {
	sum := sha256.Sum256([]byte(im.hash + "\x00" + g.name))
	return hex.EncodeToString(sum[:8])
}

func (im imported) stepName(g jobGroup) string {
	return filepath.Base(im.file) + " / " + g.name
}

// drive is what the job ran against: fio's filename option.
func (g jobGroup) drive() string {
	if f := g.jobs[0].Options["filename"]; f != "" {
		return f
	}
	return "unknown"
}

// pointParams are the options that tell the steps of a profile apart,
// as fio printed them, and the file.
var pointParams = []string{"rw", "bs", "iodepth", "numjobs"}

func (im imported) point(g jobGroup) []results.Param {
	var pt []results.Param
	for _, k := range pointParams {
		if v, ok := g.jobs[0].Options[k]; ok {
			pt = append(pt, results.Param{Name: k, Value: v})
		}
	}
	return append(pt, results.Param{Name: "file", Value: filepath.Base(im.file)})
}

// record is the step record of a group: the merged result, the hosts,
// and notes on what fio's output allowed.
func (im imported) record(g jobGroup) *results.Record {
	res := Merge(g.jobs)
	res.Hosts = hostBreakdown(g.jobs)
	res.Latency = im.out.LatencyDefinition()
	rec := &results.Record{
		StepID: im.stepID(g), Kind: "profile", Name: im.stepName(g), Drive: g.drive(), Source: g.name,
		Point: im.point(g), Engine: "fio", Status: results.StatusOK,
		Started: res.Start, Finished: im.out.Time, Result: res,
		Log: im.notes(g, res),
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
	return rec
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
	if im.out.Latency == "clat" {
		notes = append(notes, "latency is fio's clat (from submission done to completion; fio recorded no lat percentiles)")
	}
	if len(g.jobs) > 1 && !hasHist(res) {
		notes = append(notes, "no percentiles: fio's plain json output has no latency bins, and percentiles of several jobs cannot be merged without them; use --output-format=json+ or group_reporting")
	}
	if im.out.Truncated {
		notes = append(notes, "fio's output ends in a report cut short; these figures are from the last complete one")
	}
	return append(notes, im.out.Warnings...)
}

func hasHist(r *metrics.Result) bool {
	for _, d := range []*metrics.DirStats{r.Read, r.Write} {
		if d != nil && d.Hist == nil {
			return false
		}
	}
	return true
}

// importManifest describes the imported runs: one profile per job name,
// with fio's options as its parameters, and one drive per filename.
func importManifest(imports []imported) *results.Manifest {
	m := &results.Manifest{Plan: "fio-import", Testbed: results.Testbed{Name: "imported", Detected: map[string]string{}}}
	planHash := sha256.New()
	var names []string
	versions := map[string]bool{}
	drives := map[string]bool{}
	profiles := map[string]bool{}
	for _, im := range imports {
		planHash.Write([]byte(im.hash))
		names = append(names, filepath.Base(im.file))
		versions[im.out.Version] = true
		if im.out.Time.After(m.Created) {
			m.Created = im.out.Time
		}
		for _, g := range im.groups() {
			m.Steps = append(m.Steps, results.StepInfo{ID: im.stepID(g), Kind: "profile", Name: im.stepName(g), Drive: g.drive(), Source: g.name, Point: im.point(g)})
			if !drives[g.drive()] {
				drives[g.drive()] = true
				m.Drives = append(m.Drives, results.Drive{Name: g.drive(), Path: g.drive()})
			}
			if !profiles[g.name] {
				profiles[g.name] = true
				m.Profiles = append(m.Profiles, results.Method{Name: g.name, Params: optionParams(g.jobs[0].Options)})
			}
		}
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
		if k != "name" && k != "filename" {
			kv = append(kv, results.KV{Key: k, Value: opts[k]})
		}
	}
	return kv
}
