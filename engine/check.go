package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/script"
)

// checkStep runs a check node: its Starlark hook judges the records it
// depends on.
type checkStep struct{}

func (checkStep) run(ctx context.Context, r *runner, _ int, n *plan.Node, rec *results.Record) error {
	r.runCheck(ctx, n, rec)
	return nil
}

func (checkStep) reusable() bool { return false }

// runCheck calls the check's hook with the results of its profile on its
// drive. A hook that fails is recorded as a failed step with an "error"
// verdict that points into the .star file; the measurements stay as they
// are.
func (r *runner) runCheck(ctx context.Context, n *plan.Node, rec *results.Record) {
	c := n.Check
	input := script.CheckInput(c.Name, c.Profile, r.driveValue(n.Drive), c.Args, r.plan.Variables, r.pointValues(n))
	verdicts, prints, err := r.hooksFor(c.Script).Check(ctx, c.Script, c.Function, input)
	rec.Log = prints
	if err != nil {
		r.hookFailed(rec, c.Name, err)
		return
	}
	for _, v := range verdicts {
		rec.Verdicts = append(rec.Verdicts, results.Verdict{Check: c.Name, Drive: n.Drive, Subject: results.StepWithin(n.Name, n.Drive),
			Status: v.Status, Code: results.CodeHook, Message: v.Message})
	}
}

// hookFailed records a hook's error on a step: the step fails, with an
// "error" verdict of the judgement named check that points into the .star
// file, its subject the step, and the hook's backtrace in the log.
func (r *runner) hookFailed(rec *results.Record, check string, err error) {
	rec.Status, rec.Error = results.StatusFailed, err.Error()
	v := results.Verdict{Check: check, Drive: rec.Drive, Subject: results.StepWithin(rec.Name, rec.Drive),
		Status: results.VerdictError, Code: results.CodeHookError, Message: err.Error()}
	var se *script.Error
	if errors.As(err, &se) {
		v.Message, v.Where = se.Msg, se.Place()
		if se.Backtrace != "" {
			rec.Log = append(rec.Log, strings.Split(strings.TrimRight(se.Backtrace, "\n"), "\n")...)
		}
	}
	rec.Verdicts = append(rec.Verdicts, v)
}

// driveValue is a drive as hooks see it: its identity, spec and, for an
// NVMe drive, its SMART snapshots.
func (r *runner) driveValue(name string) script.Drive {
	t := r.targets[name]
	return script.Drive{Name: name, Path: t.io.Path, Size: t.io.Capacity, Spec: specValue(t.manifestDrive().Spec), Facts: t.facts, Health: r.healthValue(name)}
}

// specValue is a drive's spec entries as hooks see them: figures and
// stated conditions by key, under the entry's name.
func specValue(entries []results.SpecEntry) map[string]map[string]any {
	spec := map[string]map[string]any{}
	for _, s := range entries {
		entry := map[string]any{}
		for k, v := range s.Values {
			entry[k] = v
		}
		for k, v := range map[string]any{"rw": s.RW, "bs": s.BS, "iodepth": s.IODepth, "numjobs": s.NumJobs, "state": s.State, "pcie_gen": s.PCIeGen} {
			if v != "" && v != int64(0) && v != 0 {
				entry[k] = v
			}
		}
		spec[s.Name] = entry
	}
	return spec
}

// healthValue is a drive's NVMe identity and SMART snapshots as plain
// values, nil for a drive that is not NVMe.
func (r *runner) healthValue(name string) any {
	r.mu.Lock()
	h := r.health[name]
	r.mu.Unlock()
	if h == nil {
		return nil
	}
	raw, err := json.Marshal(h)
	if err != nil {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	return v
}

// pointValues lists what the check judges, one entry per sweep point in
// graph order: the averages of a repeated profile rather than its rounds,
// the points an adaptive profile measured, and no step that was skipped.
func (r *runner) pointValues(n *plan.Node) []script.Point {
	var points []script.Point
	for _, rec := range r.measuredPoints(n) {
		if rec.Status != results.StatusSkipped {
			pt := pointValue(rec)
			pt.Name = roundPointName(r.graph.Node(rec.StepID), pt.Name)
			points = append(points, pt)
		}
	}
	return points
}

// measuredPoints returns the records of the points n depends on: the
// aggregates of a repeated profile, else its points, with an adaptive
// node standing for the points it measured, and an exec step's record.
func (r *runner) measuredPoints(n *plan.Node) []*results.Record {
	if recs := r.dependencies(n, string(plan.KindAggregate)); len(recs) > 0 {
		return recs
	}
	var recs []*results.Record
	for _, dep := range n.DependsOn {
		rec := r.record(dep)
		switch {
		case rec == nil:
		case rec.Kind == string(plan.KindAdaptive):
			for _, id := range rec.Points {
				if p := r.record(id); p != nil {
					recs = append(recs, p)
				}
			}
		case rec.Kind == string(plan.KindProfile) || rec.Kind == string(plan.KindExec):
			recs = append(recs, rec)
		}
	}
	return recs
}

// dependencies returns the records of n's dependencies of one kind.
func (r *runner) dependencies(n *plan.Node, kind string) []*results.Record {
	var recs []*results.Record
	for _, dep := range n.DependsOn {
		if rec := r.record(dep); rec != nil && rec.Kind == kind {
			recs = append(recs, rec)
		}
	}
	return recs
}

// pointValue is a step's record as hooks see it.
func pointValue(rec *results.Record) script.Point {
	params := map[string]any{}
	for _, p := range rec.Point {
		params[p.Name] = p.Value
	}
	pt := script.Point{Name: rec.Point.Key(), Params: params, Status: rec.Status}
	if res := rec.Result; res != nil {
		pt.Read, pt.Write, pt.Metrics = direction(res.Read), direction(res.Write), res.Metrics
		pt.Series = res.Series
	}
	return pt
}

// roundPointName names a steady-state round for a check, which sees
// every round: "round 3" or "round 3,bs=4096"; other points keep name.
func roundPointName(n *plan.Node, name string) string {
	if n == nil || n.SteadyState == nil || n.Round == 0 {
		return name
	}
	round := fmt.Sprintf("round %d", n.Round)
	if name == "" {
		return round
	}
	return round + "," + name
}

// direction shows one direction's statistics to a hook; nil when the step
// did no I/O that way.
func direction(d *metrics.DirStats) *script.Direction {
	if d == nil {
		return nil
	}
	return &script.Direction{Stats: d}
}

// hooksFor returns the runtime for a check script, one per sandbox root.
func (r *runner) hooksFor(scriptPath string) *script.Runtime {
	root := hookRoot(r.plan.Dir, scriptPath)
	r.mu.Lock()
	defer r.mu.Unlock()
	rt, ok := r.hooks[root]
	if !ok {
		rt = script.New(root, r.opt.HookLimits)
		r.hooks[root] = rt
	}
	return rt
}

// closeHooks stops the hook workers of the run.
func (r *runner) closeHooks() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rt := range r.hooks {
		rt.Close()
	}
}

// hookRoot is the sandbox root of a check script: the plan's folder for
// the plan's own scripts, a module's folder for the module's, so load()
// reaches the files next to each script and nothing else.
func hookRoot(planDir, scriptPath string) string {
	if abs, err := filepath.Abs(planDir); err == nil {
		planDir = abs
	}
	if rel, err := filepath.Rel(planDir, scriptPath); err != nil || strings.HasPrefix(rel, "..") {
		return filepath.Dir(scriptPath)
	}
	return planDir
}
