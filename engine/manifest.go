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
	"github.com/drivebench/drivebench/workload"
)

// buildManifest describes the run for the results folder, so a report can
// be written from the folder alone.
func buildManifest(p *plan.Plan, g *plan.Graph, targets map[string]*target, opt Options) *results.Manifest {
	m := &results.Manifest{
		Plan: p.Name, PlanFile: filepath.Base(p.File), PlanHash: p.Hash, Created: time.Now().UTC(),
		Version: opt.Version, Variables: p.Variables, VarArgs: opt.VarArgs, VarFiles: opt.VarFiles, VarEnv: opt.VarEnv,
		HookLimits:  recordedLimits(opt.HookLimits),
		Testbed:     results.Testbed{Name: "local", Detected: DetectTestbed()},
		Percentiles: p.Report.Percentiles, Units: p.Report.Units, FioLogs: p.Report.FioLogs,
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
	m.Checks = CheckMethods(p)
	for _, n := range g.Nodes {
		s := results.StepInfo{
			ID: n.ID, Kind: string(n.Kind), Name: n.Name, Drive: n.Drive, Source: n.Source, Pass: n.Pass, DependsOn: n.DependsOn,
			Group: n.Group, Round: n.Round, Rounds: n.Rounds, Aggregate: n.Aggregate,
		}
		if n.Workload != nil {
			s.RatePct = n.Workload.RatePct
		}
		if n.Checkpoint != nil {
			s.Phase = n.Checkpoint.Phase
		}
		s.Point = slices.Clone(n.Point)
		m.Steps = append(m.Steps, s)
	}
	return m
}

// profileMethod describes a profile, an adaptive one with its hook, or an
// exec step with its command.
// CheckMethods describes the plan's checks and acceptance blocks as the
// methodology lists them.
func CheckMethods(p *plan.Plan) []results.Method {
	var out []results.Method
	for _, c := range p.Checks {
		params := []results.KV{{Key: "script", Value: relTo(p.Dir, c.Script)}, {Key: "function", Value: c.Function}, {Key: "profile", Value: c.Profile}}
		for k, v := range c.Args {
			params = append(params, results.KV{Key: "args." + k, Value: fmt.Sprint(v)})
		}
		out = append(out, results.Method{Name: c.Name, Drives: c.Drives, Params: params})
	}
	for _, a := range p.Accepts {
		out = append(out, acceptMethod(a))
	}
	return out
}

func profileMethod(p *plan.Plan, pr *plan.Profile) results.Method {
	if x := pr.Exec; x != nil {
		params := []results.KV{{Key: "command", Value: strings.Join(x.Command, " ")}, {Key: "timeout", Value: workload.FormatDuration(x.Timeout)}}
		if x.User != "" {
			params = append(params, results.KV{Key: "user", Value: x.User})
		}
		if x.Parse != nil {
			params = append(params, results.KV{Key: "parse", Value: relTo(p.Dir, x.Parse.Script) + ":" + x.Parse.Function})
		}
		params = append(params, results.KV{Key: "engine", Value: "exec"})
		return results.Method{Name: pr.Name, Drives: pr.Drives, Params: append(params, expectParams(pr)...)}
	}
	axes, points := pr.Sweep, ""
	if pr.Points != nil {
		axes, points = listedAxes(pr), pointsText(pr)
	}
	params := append(mixParams(p, pr), workloadParams(&pr.Workload, pr.Sweep)...)
	if points != "" {
		params = append(params, results.KV{Key: "points", Value: points})
	}
	if pr.Pause > 0 {
		params = append(params, results.KV{Key: "pause", Value: workload.FormatDuration(pr.Pause)})
	}
	if pr.Headline != "" {
		params = append(params, results.KV{Key: "headline", Value: pr.Headline})
	}
	m := results.Method{Name: pr.Name, Drives: pr.Drives, Params: params, Sweep: sweepDims(axes)}
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
// as workload.Options writes them, leaving out the swept ones (the sweep
// lists their values) and those the workload does not set.
func workloadParams(w *workload.Workload, swept []plan.SweepAxis) []results.KV {
	isSwept := func(name string) bool {
		return slices.ContainsFunc(swept, func(a plan.SweepAxis) bool { return a.Param == name })
	}
	var kv []results.KV
	for _, o := range workload.Options {
		// a swept bs replaces a mix's split, as each point sets it
		if isSwept(o.Name) || (o.Kind == workload.Split && isSwept("bs")) {
			continue
		}
		if text := o.Value(w); text != "" {
			kv = append(kv, results.KV{Key: o.Name, Value: text})
		}
	}
	return kv
}

// mixParams names the mix a profile starts from and says what it is.
func mixParams(p *plan.Plan, pr *plan.Profile) []results.KV {
	if pr.Mix == "" {
		return nil
	}
	kv := []results.KV{{Key: "mix", Value: pr.Mix}}
	for _, m := range p.Mixes {
		if m.Name == pr.Mix && m.Description != "" {
			kv = append(kv, results.KV{Key: "mix_description", Value: m.Description})
		}
	}
	return kv
}

// listedAxes are a profile's swept parameters that are lists of their
// own, not keys of its explicit points.
func listedAxes(pr *plan.Profile) []plan.SweepAxis {
	var axes []plan.SweepAxis
	for _, a := range pr.Sweep {
		if len(pr.ListedPoints) == 0 || !slices.ContainsFunc(pr.ListedPoints[0], func(p workload.Param) bool { return p.Name == a.Param }) {
			axes = append(axes, a)
		}
	}
	return axes
}

// pointsText writes a profile's explicit points as listed:
// "numjobs=1 iodepth=1; numjobs=4 iodepth=32".
func pointsText(pr *plan.Profile) string {
	parts := make([]string, len(pr.ListedPoints))
	for i, pt := range pr.ListedPoints {
		words := make([]string, len(pt))
		for j, prm := range pt {
			words[j] = prm.String()
		}
		parts[i] = strings.Join(words, " ")
	}
	return strings.Join(parts, "; ")
}
func sweepDims(axes []plan.SweepAxis) []results.SweepDim {
	var dims []results.SweepDim
	for _, a := range axes {
		d := results.SweepDim{Param: a.Param}
		for _, v := range a.Values {
			d.Values = append(d.Values, workload.Param{Name: a.Param, Value: v}.ValueText())
		}
		dims = append(dims, d)
	}
	return dims
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
