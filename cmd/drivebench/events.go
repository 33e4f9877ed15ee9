package main

import (
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// eventsVersion is the version of run -json's event stream
// (docs/run-events.md): a new event type or field keeps it, a renamed or
// removed one, or a changed meaning, makes it "2".
const eventsVersion = "1"

// runEvent is one line of run -json: every event has type and time, the
// other fields belong to the types docs/run-events.md lists.
type runEvent struct {
	Type string `json:"type"`
	Time string `json:"time"`

	// plan_loaded
	EventsVersion string   `json:"events_version,omitempty"`
	Drivebench    string   `json:"drivebench_version,omitempty"`
	Plan          string   `json:"plan,omitempty"`
	File          string   `json:"file,omitempty"`
	Hash          string   `json:"hash,omitempty"`
	Drives        []string `json:"drives,omitempty"`
	Steps         int      `json:"steps,omitempty"`
	EstimateS     *float64 `json:"estimate_s,omitempty"`

	// step events
	Index   *int   `json:"index,omitempty"` // 0-based, of total
	Total   int    `json:"total,omitempty"`
	StepID  string `json:"step_id,omitempty"`
	Name    string `json:"name,omitempty"`
	Kind    string `json:"kind,omitempty"`
	Drive   string `json:"drive,omitempty"`
	Message string `json:"message,omitempty"`
	// step_warning
	WarningKind string `json:"warning_kind,omitempty"`

	// interval
	Interval *metrics.Sample `json:"interval,omitempty"`
	// step_progress
	Fraction *float64 `json:"fraction,omitempty"`

	// step_finished
	Status    string             `json:"status,omitempty"`
	Error     string             `json:"error,omitempty"`
	DurationS *float64           `json:"duration_s,omitempty"`
	Read      dirFigures         `json:"read,omitempty"`
	Write     dirFigures         `json:"write,omitempty"`
	Metrics   map[string]float64 `json:"metrics,omitempty"`
	ExitCode  *int               `json:"exit_code,omitempty"`

	// verdict
	Verdict *results.Verdict `json:"verdict,omitempty"`

	// diagnostic
	Diagnostic *plan.JSONDiagnostic `json:"diagnostic,omitempty"`

	// run_finished
	ResultsDir string         `json:"results_dir,omitempty"`
	Counts     map[string]int `json:"counts,omitempty"`
}

// dirFigures are one direction's figures of a finished step, by the
// names the figure registry gives them in a step_finished event
// (figure.Event: iops, bw_bytes, lat_mean_ns, lat_p99_ns).
type dirFigures map[string]float64

// eventStream writes a run as JSON events, one per line.
type eventStream struct {
	mu  sync.Mutex
	enc *json.Encoder
	now func() time.Time
	// counts of step statuses and verdict statuses, for run_finished.
	counts map[string]int
	// report is the report step once it started: it writes no record, so
	// its step_finished comes with run_finished.
	report     *runEvent
	reportFrom time.Time
}

func newEventStream(w io.Writer) *eventStream {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &eventStream{enc: enc, now: time.Now, counts: map[string]int{}}
}

func (s *eventStream) write(e runEvent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e.Time = s.now().UTC().Format(time.RFC3339Nano)
	s.enc.Encode(e)
}

func (s *eventStream) planLoaded(p *plan.Plan, g *plan.Graph) {
	est := 0.0
	for _, n := range g.Nodes {
		est += n.Estimate.Seconds()
	}
	var drives []string
	for _, d := range p.Drives {
		drives = append(drives, d.Name)
	}
	s.write(runEvent{Type: "plan_loaded", EventsVersion: eventsVersion, Drivebench: buildVersion(), Plan: p.Name, File: p.File,
		Hash: p.Hash, Drives: drives, Steps: len(g.Nodes), EstimateS: &est})
}

func (s *eventStream) diagnostics(c checked) {
	for _, d := range c.src.JSONDiagnostics(c.diags) {
		s.write(runEvent{Type: "diagnostic", Diagnostic: &d})
	}
}

func stepFields(e engine.Event) runEvent {
	i := e.Index
	return runEvent{Index: &i, Total: e.Total, StepID: e.Node.ID, Name: e.Node.Name, Kind: string(e.Node.Kind), Drive: e.Node.Drive}
}

// observe turns an engine event into its JSON event.
func (s *eventStream) observe(e engine.Event) {
	ev := stepFields(e)
	switch e.Kind {
	case engine.StepStarted:
		ev.Type = "step_started"
		if e.Node.Kind == plan.KindReport {
			s.mu.Lock()
			s.report, s.reportFrom = &ev, s.now()
			s.mu.Unlock()
		}
		if e.Node.Estimate > 0 {
			est := e.Node.Estimate.Seconds()
			ev.EstimateS = &est
		}
	case engine.StepLive:
		sample := e.Sample
		ev.Type, ev.Interval = "interval", &sample
	case engine.StepProgress:
		f := e.Progress
		ev.Type, ev.Fraction = "step_progress", &f
	case engine.StepWarning:
		ev.Type, ev.Message, ev.WarningKind = "step_warning", e.Message, e.WarningKind
	case engine.StepReused:
		ev.Type, ev.Status = "step_reused", e.Record.Status
	case engine.StepFinished:
		s.finished(ev, e.Record)
		return
	default:
		return
	}
	s.write(ev)
}

// finished writes step_finished with the step's figures, then a verdict
// event per verdict it gave.
func (s *eventStream) finished(ev runEvent, r *results.Record) {
	ev.Type, ev.Status, ev.Error = "step_finished", r.Status, r.Error
	if !r.Started.IsZero() && !r.Finished.Before(r.Started) {
		d := r.Finished.Sub(r.Started).Seconds()
		ev.DurationS = &d
	}
	if res := r.Result; res != nil {
		ev.Read, ev.Write, ev.Metrics = figuresOf(res.Read), figuresOf(res.Write), res.Metrics
	}
	if r.Command != nil {
		code := r.Command.ExitCode
		ev.ExitCode = &code
	}
	s.mu.Lock()
	s.counts["steps_"+r.Status]++
	s.mu.Unlock()
	s.write(ev)
	for _, v := range r.Verdicts {
		s.mu.Lock()
		s.counts["verdicts_"+v.Status]++
		s.mu.Unlock()
		s.write(runEvent{Type: "verdict", StepID: ev.StepID, Verdict: &v})
	}
}

func figuresOf(d *metrics.DirStats) dirFigures {
	if d == nil || d.IOs == 0 {
		return nil
	}
	out := dirFigures{}
	for _, f := range figure.In(figure.Event) {
		out[f.Key(figure.Event)] = f.Read(d)
	}
	return out
}

// runFinished ends the stream with the exit code and the totals.
func (s *eventStream) runFinished(code int, dir string) {
	status := map[int]string{exitOK: "passed", exitCheckFailed: "check_failed", exitUsage: "error",
		exitStepFailed: "step_failed", exitInterrupted: "interrupted"}[code]
	s.mu.Lock()
	counts, report, from := s.counts, s.report, s.reportFrom
	s.mu.Unlock()
	if report != nil {
		ev := *report
		ev.Type, ev.Status, ev.EstimateS = "step_finished", results.StatusOK, nil
		if code == exitUsage || code == exitInterrupted {
			ev.Status = results.StatusFailed
		}
		d := s.now().Sub(from).Seconds()
		ev.DurationS = &d
		s.write(ev)
	}
	s.write(runEvent{Type: "run_finished", Status: status, ExitCode: &code, ResultsDir: dir, Counts: counts})
}
