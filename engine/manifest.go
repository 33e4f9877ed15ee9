package engine

import (
	"fmt"
	"path/filepath"
	"slices"
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
		params := append([]results.KV{{Key: "pattern", Value: pc.Pattern}, {Key: "passes", Value: strconv.Itoa(pc.Passes)}}, workloadParams(&pc.Workload, nil)...)
		m.Preconditions = append(m.Preconditions, results.Method{Name: pc.Name, Drives: pc.Drives, Params: params})
	}
	for _, pr := range p.Profiles {
		m.Profiles = append(m.Profiles, profileMethod(p, pr))
	}
	for _, c := range p.Checks {
		params := []results.KV{{Key: "script", Value: relTo(p.Dir, c.Script)}, {Key: "function", Value: c.Function}, {Key: "profile", Value: c.Profile}}
		for k, v := range c.Args {
			params = append(params, results.KV{Key: "args." + k, Value: fmt.Sprint(v)})
		}
		m.Checks = append(m.Checks, results.Method{Name: c.Name, Drives: c.Drives, Params: params})
	}
	for _, a := range p.Accepts {
		m.Checks = append(m.Checks, acceptMethod(a))
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

// profileMethod describes a profile, an adaptive one with its hook, or an
// exec step with its command.
func profileMethod(p *plan.Plan, pr *plan.Profile) results.Method {
	if x := pr.Exec; x != nil {
		params := []results.KV{{Key: "command", Value: strings.Join(x.Command, " ")}, {Key: "timeout", Value: plan.FormatDuration(x.Timeout)}}
		if x.User != "" {
			params = append(params, results.KV{Key: "user", Value: x.User})
		}
		if x.Parse != nil {
			params = append(params, results.KV{Key: "parse", Value: relTo(p.Dir, x.Parse.Script) + ":" + x.Parse.Function})
		}
		params = append(params, results.KV{Key: "engine", Value: "exec"})
		return results.Method{Name: pr.Name, Drives: pr.Drives, Params: append(params, expectParams(pr)...)}
	}
	m := results.Method{Name: pr.Name, Drives: pr.Drives, Params: workloadParams(&pr.Workload, pr.Sweep), Sweep: sweepDims(pr.Sweep)}
	if a := pr.Adaptive; a != nil {
		m.Params = append(m.Params, results.KV{Key: "adaptive", Value: relTo(p.Dir, a.Hook.Script) + ":" + a.Hook.Function},
			results.KV{Key: "max_points", Value: strconv.Itoa(a.MaxPoints)})
	}
	m.Params = append(m.Params, expectParams(pr)...)
	return m
}

// expectParams lists a profile's expectations as written.
func expectParams(pr *plan.Profile) []results.KV {
	var kv []results.KV
	for _, e := range pr.Expect {
		kv = append(kv, results.KV{Key: "expect", Value: e.Text})
	}
	return kv
}

// acceptMethod describes an accept block among the judgements.
func acceptMethod(a *plan.Accept) results.Method {
	params := []results.KV{{Key: "accept", Value: "spec sheet"}, {Key: "tolerance_pct", Value: strconv.FormatFloat(a.TolerancePct, 'f', -1, 64)}}
	if len(a.Entries) > 0 {
		params = append(params, results.KV{Key: "entries", Value: strings.Join(a.Entries, ", ")})
	}
	if len(a.Profiles) > 0 {
		params = append(params, results.KV{Key: "profiles", Value: strings.Join(a.Profiles, ", ")})
	}
	if a.PCIeGen > 0 {
		params = append(params, results.KV{Key: "pcie_gen", Value: strconv.Itoa(a.PCIeGen)})
	}
	return results.Method{Name: a.Name, Drives: a.Drives, Params: params}
}

// workloadParams lists a workload's parameters in the plan's own units,
// leaving out the swept ones (the sweep lists their values) and the
// region (the reports describe it from each step's workload).
func workloadParams(w *plan.Workload, swept []plan.SweepAxis) []results.KV {
	isSwept := func(name string) bool {
		return slices.ContainsFunc(swept, func(a plan.SweepAxis) bool { return a.Param == name })
	}
	var kv []results.KV
	add := func(key, value string) {
		if !isSwept(key) {
			kv = append(kv, results.KV{Key: key, Value: value})
		}
	}
	add("rw", w.RW)
	if w.RW == "rw" || w.RW == "randrw" {
		add("read_pct", strconv.Itoa(w.ReadPct))
	}
	add("bs", plan.FormatSize(w.BS))
	add("iodepth", strconv.Itoa(w.IODepth))
	add("numjobs", strconv.Itoa(w.NumJobs))
	if w.Runtime > 0 {
		add("runtime", plan.FormatDuration(w.Runtime))
		add("ramp", plan.FormatDuration(w.Ramp))
	}
	if w.Bytes > 0 {
		add("io_size", plan.FormatSize(w.Bytes))
	}
	add("direct", strconv.FormatBool(w.Direct))
	add("engine", engineName(w))
	return kv
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
