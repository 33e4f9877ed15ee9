package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/script"
)

// runCheck calls the check's hook with the results of its profile on its
// drive. A hook that fails is recorded as a failed step with an "error"
// verdict that points into the .star file; the measurements stay as they
// are.
func (r *runner) runCheck(ctx context.Context, n *plan.Node, rec *results.Record) {
	c := n.Check
	input := script.Struct{
		"check":   c.Name,
		"profile": c.Profile,
		"drive":   r.driveValue(n.Drive),
		"args":    c.Args,
		"points":  r.pointValues(n),
	}
	verdicts, prints, err := r.hooksFor(c.Script).Check(ctx, c.Script, c.Function, input)
	rec.Log = prints
	if err != nil {
		rec.Status, rec.Error = results.StatusFailed, err.Error()
		v := results.Verdict{Check: c.Name, Drive: n.Drive, Status: "error", Message: err.Error()}
		var se *script.Error
		if errors.As(err, &se) {
			v.Message, v.Where = se.Msg, fmt.Sprintf("%s:%d:%d", se.File, se.Line, se.Col)
			rec.Log = append(rec.Log, strings.Split(strings.TrimRight(se.Backtrace, "\n"), "\n")...)
		}
		rec.Verdicts = []results.Verdict{v}
		return
	}
	for _, v := range verdicts {
		rec.Verdicts = append(rec.Verdicts, results.Verdict{Check: c.Name, Drive: n.Drive, Status: v.Status, Message: v.Message})
	}
}

func (r *runner) driveValue(name string) script.Struct {
	t := r.targets[name]
	spec := map[string]any{}
	for _, s := range t.drive.Spec {
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
	return script.Struct{"name": name, "path": t.io.Path, "size": t.io.Capacity, "spec": spec}
}

// pointValues lists what the check judges, one entry per sweep point in
// graph order: the averages of a repeated profile rather than its rounds,
// and no step that was skipped.
func (r *runner) pointValues(n *plan.Node) []any {
	recs := r.dependencies(n, string(plan.KindAggregate))
	if len(recs) == 0 {
		recs = r.dependencies(n, string(plan.KindProfile))
	}
	var points []any
	for _, rec := range recs {
		if rec.Status == results.StatusSkipped {
			continue
		}
		points = append(points, pointValue(rec))
	}
	return points
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

func pointValue(rec *results.Record) script.Struct {
	params := map[string]any{}
	for _, p := range rec.Point {
		params[p.Name] = p.Value
	}
	pt := script.Struct{"name": pointName(rec.Point), "params": params, "status": rec.Status, "read": nil, "write": nil}
	if rec.Result != nil {
		pt["read"] = dirValue(rec.Result.Read)
		pt["write"] = dirValue(rec.Result.Write)
	}
	return pt
}

func pointName(point []results.Param) string {
	parts := make([]string, len(point))
	for i, p := range point {
		parts[i] = fmt.Sprintf("%s=%v", p.Name, p.Value)
	}
	return strings.Join(parts, ",")
}

// dirValue shows one direction's statistics to a hook; None when the step
// did no I/O that way.
func dirValue(d *metrics.DirStats) any {
	if d == nil {
		return nil
	}
	pcts := map[string]any{}
	for _, p := range d.Lat.Percentiles {
		pcts[strconv.FormatFloat(p.P, 'f', -1, 64)] = p.Ns
	}
	quantile := script.Func(func(args ...float64) (float64, error) {
		if len(args) != 1 || args[0] <= 0 || args[0] > 100 {
			return 0, fmt.Errorf("quantile takes one percentile in (0, 100], such as quantile(99.9)")
		}
		return float64(d.Quantile(args[0])), nil
	})
	return script.Struct{
		"ios": d.IOs, "bytes": d.Bytes, "iops": d.IOPS, "bw_bytes": d.BW,
		"lat_ns":   script.Struct{"min": d.Lat.Min, "max": d.Lat.Max, "mean": d.Lat.Mean, "stddev": d.Lat.Stddev, "p": pcts},
		"quantile": quantile,
	}
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
