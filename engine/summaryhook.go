package engine

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// summarize calls the plan's summary hook with the run as plain values
// and stores the sections it returns in summary.json, for the reports to
// add. A hook that fails leaves its error there instead and counts as a
// failed step; the error return is for a file that cannot be written.
func (r *runner) summarize(ctx context.Context) error {
	path := filepath.Join(r.opt.Dir, results.SummaryFile)
	h := r.plan.Report.Summary
	if h == nil {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	s := &results.Summary{Schema: results.SummarySchema, Hook: hookWhere(h)}
	sections, prints, err := r.hooksFor(h.Script).Summary(ctx, h.Script, h.Function, r.reportModel(), h.Args)
	s.Log = prints
	if err != nil {
		r.summaryFailed(s, err)
	}
	s.Sections = sections
	if err := results.WriteJSONAtomic(path, s); err != nil {
		return r.saveError(err)
	}
	return nil
}

// summaryFailed records a summary hook's error in the summary and in the
// outcome, as a failed step with an error verdict.
func (r *runner) summaryFailed(s *results.Summary, err error) {
	rec := &results.Record{Kind: "summary", Name: "report summary (" + s.Hook + ")", Status: results.StatusOK}
	r.hookFailed(rec, "summary", err)
	s.Error, s.Where = rec.Verdicts[0].Message, rec.Verdicts[0].Where
	r.mu.Lock()
	defer r.mu.Unlock()
	r.out.Records = append(r.out.Records, rec)
	r.out.Verdicts = append(r.out.Verdicts, rec.Verdicts...)
	r.out.Failed++
}

// reportModel is the run as a summary hook sees it: the plan's name and
// variables, the drives, every step in graph order (an adaptive step's
// points after it) with its figures and verdicts, every verdict, and
// every acceptance row. Figures use the names of expectations:
// read.iops, read.bw (bytes/s), read.lat.p99_us.
func (r *runner) reportModel() map[string]any {
	var drives, steps, verdicts, acceptance []any
	for _, d := range r.plan.Drives {
		if t := r.targets[d.Name]; t != nil {
			dv := r.driveValue(d.Name)
			drives = append(drives, map[string]any{"name": dv.Name, "path": dv.Path, "size": dv.Size, "spec": dv.Spec, "facts": dv.Facts})
		}
	}
	for _, n := range r.graph.Nodes {
		rec := r.record(n.ID)
		if rec == nil {
			continue
		}
		steps = append(steps, stepModel(rec))
		for _, id := range rec.Points {
			if p := r.record(id); p != nil {
				steps = append(steps, stepModel(p))
			}
		}
		for _, row := range rec.Acceptance {
			acceptance = append(acceptance, acceptanceModel(rec.Drive, row))
		}
	}
	r.mu.Lock()
	for _, v := range r.out.Verdicts {
		verdicts = append(verdicts, map[string]any{"check": v.Check, "drive": v.Drive, "status": v.Status, "message": v.Message, "where": v.Where})
	}
	r.mu.Unlock()
	return map[string]any{
		"plan": r.plan.Name, "variables": r.plan.Variables, "drives": orEmpty(drives), "steps": orEmpty(steps),
		"verdicts": orEmpty(verdicts), "acceptance": orEmpty(acceptance),
	}
}

func orEmpty(list []any) []any {
	if list == nil {
		return []any{}
	}
	return list
}

// stepModel is one step's record as plain values.
func stepModel(rec *results.Record) map[string]any {
	point := map[string]any{}
	for _, p := range rec.Point {
		point[p.Name] = p.Value
	}
	metrics := map[string]any{}
	m := map[string]any{
		"id": rec.StepID, "kind": rec.Kind, "name": rec.Name, "drive": rec.Drive, "source": rec.Source,
		"point": point, "status": rec.Status, "error": rec.Error, "read": nil, "write": nil, "total": nil,
		"metrics": metrics, "runtime_s": 0.0,
	}
	if res := rec.Result; res != nil {
		me := measured(res)
		m["read"], m["write"], m["total"] = dirModel(me.Read), dirModel(me.Write), dirModel(me.Total)
		m["runtime_s"] = me.RuntimeS
		for k, v := range res.Metrics {
			metrics[k] = v
		}
	}
	return m
}

func dirModel(d *plan.DirMeasure) any {
	if d == nil {
		return nil
	}
	lat := map[string]any{}
	for k, v := range d.Lat {
		lat[k] = v
	}
	return map[string]any{"iops": d.IOPS, "bw": d.BW, "ios": d.IOs, "bytes": d.Bytes, "lat": lat}
}

func acceptanceModel(drive string, row results.AcceptanceRow) map[string]any {
	m := map[string]any{
		"drive": drive, "spec": row.Spec, "metric": row.Metric, "unit": row.Unit, "claimed": row.Claimed,
		"measured": nil, "ratio": nil, "verdict": row.Verdict, "reason": row.Reason, "conditions": row.Conditions,
		"step": row.Step, "tolerance_pct": row.TolerancePct,
	}
	if row.Measured != nil {
		m["measured"], m["ratio"] = *row.Measured, *row.Ratio
	}
	if row.Conditions == nil {
		m["conditions"] = []string{}
	}
	return m
}
