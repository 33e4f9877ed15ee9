package results

import (
	"encoding/json"
	"time"

	"github.com/drivebench/drivebench/metrics"
)

// Schema versions of the files in a results folder. A reader refuses a
// major version it does not know.
const (
	ManifestSchema = "drivebench/manifest/v1"
	RecordSchema   = "drivebench/record/v1"
)

// Step status values.
const (
	StatusOK          = "ok"
	StatusFailed      = "failed"
	StatusInterrupted = "interrupted"
	StatusSkipped     = "skipped"
)

// Record is the outcome of one step, stored as steps/<id>.json.
type Record struct {
	Schema string  `json:"schema"`
	StepID string  `json:"step_id"`
	Kind   string  `json:"kind"`
	Name   string  `json:"name"`
	Drive  string  `json:"drive,omitempty"`
	Source string  `json:"source,omitempty"`
	Pass   int     `json:"pass,omitempty"`
	Point  []Param `json:"point,omitempty"`
	// PlanHash is the revision of the plan that produced this record.
	PlanHash string `json:"plan_hash"`
	Engine   string `json:"engine,omitempty"`
	// Workload is the engine's input, as the plan package encodes it.
	Workload json.RawMessage `json:"workload,omitempty"`
	Status   string          `json:"status"`
	Error    string          `json:"error,omitempty"`
	Started  time.Time       `json:"started"`
	Finished time.Time       `json:"finished"`
	Result   *metrics.Result `json:"result,omitempty"`
	Verdicts []Verdict       `json:"verdicts,omitempty"`
	// SteadyState is set on the tracked rounds of a steady-state profile:
	// the judgement of the rounds up to and including this one.
	SteadyState *SteadyState `json:"steady_state,omitempty"`
	// Log holds lines the step produced for people: hook print() output,
	// warnings from the engine.
	Log []string `json:"log,omitempty"`
}

// Param is one coordinate of a sweep point.
type Param struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// Verdict is one judgement of a check.
type Verdict struct {
	Check   string `json:"check"`
	Drive   string `json:"drive,omitempty"`
	Status  string `json:"status"` // pass, fail, warn or error
	Message string `json:"message"`
	// Where points into the hook file for errors: "checks/latency.star:12:3".
	Where string `json:"where,omitempty"`
}

// SteadyState is a steady-state judgement after some rounds.
type SteadyState struct {
	// Variable is the tracked figure: iops, bw, lat_mean or lat_p99.
	Variable string    `json:"variable"`
	Rounds   []float64 `json:"rounds"`
	// WindowFirst and WindowLast are the 1-based rounds of the latest
	// window judged; 0 when too few rounds have run.
	WindowFirst int     `json:"window_first"`
	WindowLast  int     `json:"window_last"`
	Average     float64 `json:"average"`
	Slope       float64 `json:"slope"`
	Intercept   float64 `json:"intercept"`
	Reached     bool    `json:"reached"`
	// Exhausted is true when the last allowed round ran without reaching
	// steady state.
	Exhausted bool   `json:"exhausted"`
	Message   string `json:"message"`
}

// Manifest describes a run: the plan, the testbed and the steps. It is
// written when the run starts, so a report can be made from the folder
// alone even if the run never finishes.
type Manifest struct {
	Schema   string `json:"schema"`
	Plan     string `json:"plan"`
	PlanFile string `json:"plan_file"`
	// PlanPath and VarArgs let `drivebench run -resume DIR` load the same
	// plan with the same -var values again.
	PlanPath string            `json:"plan_path,omitempty"`
	VarArgs  map[string]string `json:"var_args,omitempty"`
	VarFiles []string          `json:"var_files,omitempty"`
	PlanHash string            `json:"plan_hash"`
	Created  time.Time         `json:"created"`
	Version  string            `json:"drivebench_version"`
	Testbed  Testbed           `json:"testbed"`
	Drives   []Drive           `json:"drives"`
	// Methodology lists preconditions and profiles as the plan wrote them.
	Preconditions []Method       `json:"preconditions"`
	Profiles      []Method       `json:"profiles"`
	Checks        []Method       `json:"checks"`
	Steps         []StepInfo     `json:"steps"`
	Variables     map[string]any `json:"variables,omitempty"`
}

// Testbed is the declared and the detected description of the machine.
type Testbed struct {
	Name        string            `json:"name"`
	Description string            `json:"description,omitempty"`
	Declared    map[string]string `json:"declared,omitempty"`
	Detected    map[string]string `json:"detected,omitempty"`
}

// Drive is a drive under test as the run saw it.
type Drive struct {
	Name     string `json:"name"`
	Path     string `json:"path"`
	Scratch  bool   `json:"scratch,omitempty"`
	Size     int64  `json:"size"`
	Writable bool   `json:"writable"`
	// Facts are what the engine detected: block sizes, model, rotational.
	Facts map[string]string `json:"facts,omitempty"`
	Spec  []SpecEntry       `json:"spec,omitempty"`
}

// SpecEntry is a spec-sheet figure with its conditions.
type SpecEntry struct {
	Name    string             `json:"name"`
	Values  map[string]float64 `json:"values"`
	RW      string             `json:"rw,omitempty"`
	BS      int64              `json:"bs,omitempty"`
	IODepth int                `json:"iodepth,omitempty"`
	NumJobs int                `json:"numjobs,omitempty"`
	State   string             `json:"state,omitempty"`
}

// Method is a precondition, profile or check described for the reader:
// its parameters as strings in the plan's own units.
type Method struct {
	Name   string     `json:"name"`
	Drives []string   `json:"drives,omitempty"`
	Params []KV       `json:"params"`
	Sweep  []SweepDim `json:"sweep,omitempty"`
}

// KV is a named parameter value as text.
type KV struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// SweepDim is one swept parameter and its values as text.
type SweepDim struct {
	Param  string   `json:"param"`
	Values []string `json:"values"`
}

// StepInfo is one step of the run's graph.
type StepInfo struct {
	ID        string   `json:"id"`
	Kind      string   `json:"kind"`
	Name      string   `json:"name"`
	Drive     string   `json:"drive,omitempty"`
	Source    string   `json:"source,omitempty"`
	Pass      int      `json:"pass,omitempty"`
	Point     []Param  `json:"point,omitempty"`
	DependsOn []string `json:"depends_on,omitempty"`
}
