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

// SummaryInput is the run a summary hook reads, from a results folder the
// caller has read once (reports.Load): its manifest, its readable records
// and the report's own model of them (what report.json holds), which the
// hook gets under "model" as report.json lays it out; a nil Model leaves
// it out.
type SummaryInput struct {
	Manifest *results.Manifest
	Records  []*results.Record
	Model    any
}

// Summarize runs the plan's summary hook on the run in, recorded in dir,
// and stores what it returned in dir's summary.json, so that `drivebench
// report DIR` regenerates the hook's sections from the folder alone, as
// it does every other section. A plan without a summary hook removes
// summary.json. The returned summary holds the hook's error when it
// failed, with the sections of an earlier call kept (Kept); the error
// return is for a folder that cannot be written.
func Summarize(ctx context.Context, p *plan.Plan, dir string, limits script.Limits, in SummaryInput) (*results.Summary, error) {
	h := p.Report.Summary
	if h == nil {
		return nil, results.RemoveSummary(dir)
	}
	if limits.Memory == 0 {
		limits.Memory = p.HookMemory
	}
	rt := script.New(hookRoot(p.Dir, h.Script), limits)
	defer rt.Close()
	model := runModel(p, in.Manifest, in.Records)
	if in.Model != nil {
		model["model"] = script.Model(in.Model)
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
	return results.WriteSummary(dir, s)
}

// SummaryFailed records a summary hook's error in the outcome, as a
// failed step with an error verdict: the caller runs the hook as it
// writes the reports, once Run has returned.
func (o *Outcome) SummaryFailed(s *results.Summary) {
	rec := &results.Record{Kind: "summary", Name: "report summary (" + s.Hook + ")", Status: results.StatusFailed, Error: s.Error}
	rec.Verdicts = []results.Verdict{{Check: "summary", Subject: rec.Name, Status: results.VerdictError, Code: results.CodeHookError, Message: s.Error, Where: s.Where}}
	o.Records = append(o.Records, rec)
	o.Verdicts = append(o.Verdicts, rec.Verdicts...)
	o.Failed++
}

// runModel is the run as a summary hook sees it, from its manifest and
// records: the plan's name and variables, the drives, every step in graph
// order (an adaptive step's points after it) with its figures and
// verdicts, every verdict, and every acceptance row. Figures use the
// names of expectations: read.iops, read.bw (bytes/s), read.p99_us (the
// figure registry's, figure.Expect), and read.lat with the old names.
func runModel(p *plan.Plan, m *results.Manifest, recs []*results.Record) map[string]any {
	if m == nil {
		m = &results.Manifest{}
	}
	byID := map[string]*results.Record{}
	for _, rec := range recs {
		byID[rec.StepID] = rec
	}
	var drives, steps, verdicts, acceptance []any
	for _, d := range m.Drives {
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
	for _, st := range m.Steps {
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
// per interval, as a check's point has it (script.IntervalFields).
func seriesModel(series []metrics.Sample) []any {
	out := make([]any, len(series))
	for i := range series {
		out[i] = script.IntervalFields(&series[i])
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
