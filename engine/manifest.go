package engine

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// buildManifest describes the run for the results folder, so a report can
// be written from the folder alone.
func buildManifest(p *plan.Plan, g *plan.Graph, targets map[string]*target, opt Options) *results.Manifest {
	m := &results.Manifest{
		Plan: p.Name, PlanFile: filepath.Base(p.File), PlanHash: p.Hash, Created: time.Now().UTC(),
		Version: opt.Version, Variables: p.Variables, VarArgs: opt.VarArgs, VarFiles: opt.VarFiles,
		Testbed: results.Testbed{Name: "local", Detected: DetectTestbed()},
	}
	if abs, err := filepath.Abs(p.File); err == nil {
		m.PlanPath = abs
	}
	if tb := p.Testbed; tb != nil {
		m.Testbed.Name, m.Testbed.Description, m.Testbed.Declared = tb.Name, tb.Description, tb.Facts
	}
	for _, d := range p.Drives {
		if t := targets[d.Name]; t != nil {
			m.Drives = append(m.Drives, t.manifestDrive())
		}
	}
	for _, pc := range p.Preconditions {
		params := append([]results.KV{{Key: "pattern", Value: pc.Pattern}, {Key: "passes", Value: strconv.Itoa(pc.Passes)}}, workloadParams(&pc.Workload)...)
		m.Preconditions = append(m.Preconditions, results.Method{Name: pc.Name, Drives: pc.Drives, Params: params})
	}
	for _, pr := range p.Profiles {
		m.Profiles = append(m.Profiles, results.Method{Name: pr.Name, Drives: pr.Drives, Params: workloadParams(&pr.Workload), Sweep: sweepDims(pr.Sweep)})
	}
	for _, c := range p.Checks {
		params := []results.KV{{Key: "script", Value: relTo(p.Dir, c.Script)}, {Key: "function", Value: c.Function}, {Key: "profile", Value: c.Profile}}
		for k, v := range c.Args {
			params = append(params, results.KV{Key: "args." + k, Value: fmt.Sprint(v)})
		}
		m.Checks = append(m.Checks, results.Method{Name: c.Name, Drives: c.Drives, Params: params})
	}
	for _, n := range g.Nodes {
		s := results.StepInfo{
			ID: n.ID, Kind: string(n.Kind), Name: n.Name, Drive: n.Drive, Source: n.Source, Pass: n.Pass, DependsOn: n.DependsOn,
			Group: n.Group, Round: n.Round, Rounds: n.Rounds,
		}
		if n.Workload != nil {
			s.RatePct = n.Workload.RatePct
		}
		for _, pt := range n.Point {
			s.Point = append(s.Point, results.Param{Name: pt.Name, Value: pt.Value})
		}
		m.Steps = append(m.Steps, s)
	}
	return m
}

// workloadParams lists a workload's parameters in the plan's own units.
func workloadParams(w *plan.Workload) []results.KV {
	kv := []results.KV{{Key: "rw", Value: w.RW}}
	if w.RW == "rw" || w.RW == "randrw" {
		kv = append(kv, results.KV{Key: "read_pct", Value: strconv.Itoa(w.ReadPct)})
	}
	kv = append(kv,
		results.KV{Key: "bs", Value: plan.FormatSize(w.BS)},
		results.KV{Key: "iodepth", Value: strconv.Itoa(w.IODepth)},
		results.KV{Key: "numjobs", Value: strconv.Itoa(w.NumJobs)},
	)
	if w.Runtime > 0 {
		kv = append(kv, results.KV{Key: "runtime", Value: plan.FormatDuration(w.Runtime)}, results.KV{Key: "ramp", Value: plan.FormatDuration(w.Ramp)})
	}
	if w.Bytes > 0 {
		kv = append(kv, results.KV{Key: "io_size", Value: plan.FormatSize(w.Bytes)})
	}
	kv = append(kv, results.KV{Key: "direct", Value: strconv.FormatBool(w.Direct)}, results.KV{Key: "region", Value: regionText(w)})
	return append(kv, results.KV{Key: "engine", Value: engineName(w)})
}

func regionText(w *plan.Workload) string {
	size := "to the end"
	switch {
	case w.Size > 0:
		size = plan.FormatSize(w.Size)
	case w.SizePct > 0:
		size = strconv.FormatFloat(w.SizePct, 'f', -1, 64) + "% of capacity"
	}
	if w.Offset == 0 {
		return size + " from the start"
	}
	return size + " from offset " + plan.FormatSize(w.Offset)
}

func sweepDims(axes []plan.SweepAxis) []results.SweepDim {
	var dims []results.SweepDim
	for _, a := range axes {
		d := results.SweepDim{Param: a.Param}
		for _, v := range a.Values {
			d.Values = append(d.Values, sweepValueText(a.Param, v))
		}
		dims = append(dims, d)
	}
	return dims
}

func sweepValueText(param string, v any) string {
	if n, ok := v.(int64); ok && param == "bs" {
		return plan.FormatSize(n)
	}
	return fmt.Sprint(v)
}

// relTo shows path relative to dir when it lies inside it.
func relTo(dir, path string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}
