package engine

import (
	"context"
	"errors"

	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/script"
)

// Summarize runs the plan's summary hook on the run recorded in dir and
// stores what it returned in dir's summary.json, so that `drivebench
// report DIR` regenerates the hook's sections from the folder alone, as
// it does every other section. The hook gets the run's records as plain
// values and, under "model", model: the report's own model of the run
// (what report.json holds), which the caller builds; nil leaves it out.
// A plan without a summary hook removes summary.json. The returned
// summary holds the hook's error when it failed, with the sections of an
// earlier call kept (Kept); the error return is for a folder that cannot
// be read or written.
func Summarize(ctx context.Context, p *plan.Plan, dir string, limits script.Limits, model map[string]any) (*results.Summary, error) {
	h := p.Report.Summary
	if h == nil {
		return nil, results.RemoveSummary(dir)
	}
	folder, err := results.Open(dir)
	if err != nil {
		return nil, err
	}
	if limits.Memory == 0 {
		limits.Memory = p.HookMemory
	}
	rt := script.New(hookRoot(p.Dir, h.Script), limits)
	defer rt.Close()
	return summarizeFolder(ctx, rt, p, folder, model)
}

// summarizeFolder calls the summary hook with runModel, and the report's
// model under "model", and writes what it returned, or its error, to
// summary.json: an error beside the sections an earlier call returned,
// which it never replaces (results.WriteSummary).
func summarizeFolder(ctx context.Context, rt *script.Runtime, p *plan.Plan, f *results.Folder, report map[string]any) (*results.Summary, error) {
	h := p.Report.Summary
	model, err := runModel(p, f)
	if err != nil {
		return nil, err
	}
	if report != nil {
		model["model"] = report
	}
	s := &results.Summary{Schema: results.SummarySchema, Hook: hookWhere(h)}
	sections, prints, err := rt.Summary(ctx, h.Script, h.Function, model, h.Args)
	s.Sections, s.Log = sections, prints
	if err != nil {
		s.Sections = nil
		s.Error, s.Where = err.Error(), ""
		var se *script.Error
		if errors.As(err, &se) {
			s.Error, s.Where = se.Msg, se.Place()
		}
	}
	return results.WriteSummary(f.Dir, s)
}

// summaryFailed records a summary hook's error in the outcome, as a
// failed step with an error verdict.
func (r *runner) summaryFailed(s *results.Summary) {
	rec := &results.Record{Kind: "summary", Name: "report summary (" + s.Hook + ")", Status: results.StatusFailed, Error: s.Error}
	rec.Verdicts = []results.Verdict{{Check: "summary", Subject: rec.Name, Status: results.VerdictError, Code: results.CodeHookError, Message: s.Error, Where: s.Where}}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.out.Records = append(r.out.Records, rec)
	r.out.Verdicts = append(r.out.Verdicts, rec.Verdicts...)
	r.out.Failed++
}

// runModel is the run as a summary hook sees it, read from its results
// folder: the plan's name and variables, the drives, every step in graph
// order (an adaptive step's points after it) with its figures and
// verdicts, every verdict, and every acceptance row. Figures use the
// names of expectations: read.iops, read.bw (bytes/s), read.lat.p99_us.
func runModel(p *plan.Plan, f *results.Folder) (map[string]any, error) {
	recs, _, err := f.ReadableRecords() // the report lists the others
	if err != nil {
		return nil, err
	}
	byID := map[string]*results.Record{}
	for _, rec := range recs {
		byID[rec.StepID] = rec
	}
	var drives, steps, verdicts, acceptance []any
	for _, d := range f.Manifest.Drives {
		drives = append(drives, map[string]any{"name": d.Name, "path": d.Path, "size": d.Size, "spec": specValue(d.Spec), "facts": d.Facts})
	}
	add := func(rec *results.Record) {
		steps = append(steps, stepModel(rec))
		for _, v := range rec.Verdicts {
			verdicts = append(verdicts, map[string]any{"check": v.Check, "drive": v.Drive, "status": v.Status, "code": v.Code, "subject": v.Subject, "message": v.Message, "where": v.Where})
		}
		for _, row := range rec.Acceptance {
			acceptance = append(acceptance, acceptanceModel(rec.Drive, row))
		}
	}
	for _, st := range f.Manifest.Steps {
		rec := byID[st.ID]
		if rec == nil || st.Kind == string(plan.KindReport) {
			continue
		}
		add(rec)
		for _, id := range rec.Points {
			if pt := byID[id]; pt != nil {
				add(pt)
			}
		}
	}
	return map[string]any{
		"plan": p.Name, "variables": p.Variables, "drives": orEmpty(drives), "steps": orEmpty(steps),
		"verdicts": orEmpty(verdicts), "acceptance": orEmpty(acceptance),
	}, nil
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
		"metrics": metrics, "runtime_s": 0.0, "series": []any{}, "thermal": []any{}, "ended_by": rec.EndedBy,
	}
	if res := rec.Result; res != nil {
		me := judging.Measured(res)
		m["read"], m["write"], m["total"] = dirModel(me.Read), dirModel(me.Write), dirModel(me.Total)
		m["runtime_s"] = me.RuntimeS
		m["series"], m["thermal"] = seriesModel(res.Series), thermalModel(res.Thermal)
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
	m := map[string]any{"ios": d.IOs, "bytes": d.Bytes, "lat": d.OldLatency()}
	for k, v := range d.Figures {
		m[k] = v
	}
	return m
}

func acceptanceModel(drive string, row results.AcceptanceRow) map[string]any {
	m := map[string]any{
		"drive": drive, "spec": row.Spec, "metric": row.Metric, "unit": row.Unit, "claimed": row.Claimed,
		"measured": nil, "ratio": nil, "verdict": row.Verdict, "code": row.Code, "reason": row.Reason, "conditions": results.ConditionTexts(row.Conditions),
		"step": row.Step, "tolerance_pct": row.TolerancePct,
	}
	if row.Measured != nil {
		m["measured"], m["ratio"] = *row.Measured, *row.Ratio
	}
	return m
}

// seriesModel is a step's time series as a summary hook sees it: one dict
// per interval, as the report charts it (write saturation against time
// and against the data written).
func seriesModel(series []metrics.Sample) []any {
	out := make([]any, len(series))
	for i, s := range series {
		out[i] = map[string]any{
			"t": s.T, "read_iops": s.ReadIOPS, "write_iops": s.WriteIOPS, "bw_bytes": s.BW,
			"mean_lat_ns": s.MeanLatNs, "p99_ns": s.P99Ns, "bytes_written": s.BytesWritten,
		}
	}
	return out
}

// thermalModel is an NVMe drive's temperature readings during a step.
func thermalModel(samples []metrics.ThermalSample) []any {
	out := make([]any, len(samples))
	for i, s := range samples {
		out[i] = map[string]any{
			"t": s.T, "temp_c": s.TempC, "tmt1_transitions": s.Throttle1, "tmt2_transitions": s.Throttle2,
			"tmt1_seconds": s.Throttle1Sec, "tmt2_seconds": s.Throttle2Sec,
		}
	}
	return out
}
