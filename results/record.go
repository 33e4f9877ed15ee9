package results

import (
	"fmt"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
)

// Schema versions of the files in a results folder. A reader refuses a
// major version it does not know.
const (
	ManifestSchema = "drivebench/manifest/v1"
	RecordSchema   = "drivebench/record/v2"
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
	Schema string         `json:"schema"`
	StepID string         `json:"step_id"`
	Kind   string         `json:"kind"`
	Name   string         `json:"name"`
	Drive  string         `json:"drive,omitempty"`
	Source string         `json:"source,omitempty"`
	Pass   int            `json:"pass,omitempty"`
	Point  workload.Point `json:"point,omitempty"`
	// PlanHash is the revision of the plan that produced this record.
	PlanHash string `json:"plan_hash"`
	Engine   string `json:"engine,omitempty"`
	// Workload is the engine's input as the step ran it.
	Workload *workload.Workload `json:"workload,omitempty"`
	Status   string             `json:"status"`
	Error    string             `json:"error,omitempty"`
	// Skipped is why a skipped step was not run, the same for every step
	// of a group skipped at once: "steady state reached over rounds 2-6".
	Skipped  string          `json:"skipped,omitempty"`
	Started  time.Time       `json:"started"`
	Finished time.Time       `json:"finished"`
	Result   *metrics.Result `json:"result,omitempty"`
	// EndedBy names the bound that ended a run with two, a byte count
	// (io_size) and a runtime: "io_size" or "runtime".
	EndedBy  string    `json:"ended_by,omitempty"`
	Verdicts []Verdict `json:"verdicts,omitempty"`
	// SteadyState is set on the tracked rounds of a steady-state profile:
	// the judgement of the rounds up to and including this one.
	SteadyState *SteadyState `json:"steady_state,omitempty"`
	// Log holds lines the step produced for people: hook print() output,
	// warnings from the engine.
	Log []string `json:"log,omitempty"`
	// Acceptance is set on acceptance steps: one row per figure of the
	// drive's spec, in spec order.
	Acceptance []AcceptanceRow `json:"acceptance,omitempty"`
	// Command is set on exec steps: the command that ran and how it ended.
	// The metrics its parse hook found are in Result.Metrics.
	Command *Command `json:"command,omitempty"`
	// Parent is set on the points an adaptive step measured: the ID of
	// that step. Points, on the adaptive step, lists its points' IDs in
	// the order they were measured.
	Parent string   `json:"parent,omitempty"`
	Points []string `json:"points,omitempty"`
	// Search, on an adaptive step that ran to its end, says why it
	// stopped asking for points.
	Search *SearchEnd `json:"search,omitempty"`
	// DriveState is the state of the step's drive as the step began.
	DriveState *StepDriveState `json:"drive_state,omitempty"`
	// Target is the file or device the step ran on, as the step began;
	// nil for a step that does no I/O on a drive.
	Target *Target `json:"target,omitempty"`
	// Run is the run of the results folder that made the record: 1 for
	// the first, 2 for the first resume, and so on (the journal's runs).
	Run int `json:"run,omitempty"`
	// Host is how busy the machine was over the step.
	Host *HostLoad `json:"host,omitempty"`
	// Thermal is how hot an NVMe drive ran over the step, from the
	// readings in Result.Thermal; nil for other drives.
	Thermal *metrics.ThermalSummary `json:"thermal,omitempty"`
	// Uses names the rounds an aggregate step combined, in order.
	Uses []string `json:"uses,omitempty"`
	// Warnings say, a sentence each, why a figure of the step may not
	// measure what it seems to.
	Warnings []Warning `json:"warnings,omitempty"`
	// Checkpoint is set on a checkpoint's summary step: each pass's
	// figures, from its write and read-back steps.
	Checkpoint *Checkpoint `json:"checkpoint,omitempty"`
}

// StepDriveState is what a step found on its drive.
type StepDriveState struct {
	// Preconditions names the precondition steps the drive had been
	// through in this run, in order, since its last purge.
	Preconditions []string `json:"preconditions"`
	// UnwrittenPct is the share of the region a read step covers that was
	// never written (holes of a regular file); nil when not measured (a
	// block device, a write step).
	UnwrittenPct *float64 `json:"unwritten_pct,omitempty"`
	// FileSystem is the type of the file system that holds a file
	// drive's file, read as the step began ("ext4", "tmpfs"); empty for a
	// block device.
	FileSystem string `json:"file_system,omitempty"`
	// Rerun says why a precondition complete in an earlier run of the
	// folder ran again: the drive's state had been lost.
	Rerun string `json:"rerun,omitempty"`
}

// HostLoad is the machine's CPU use over a step.
type HostLoad struct {
	// CPUs is the number of processors; BusyPct their average utilisation
	// over the step (100 is every processor busy all the time).
	CPUs    int     `json:"cpus"`
	BusyPct float64 `json:"busy_pct"`
	// BusiestThreadPct is the utilisation of the engine's busiest thread
	// (100 is one processor all the time), and BusiestThread its name.
	BusiestThreadPct float64 `json:"busiest_thread_pct"`
	BusiestThread    string  `json:"busiest_thread,omitempty"`
	// EnginePct is the share of all processors that drivebench and the
	// processes it started (fio) used; BusyPct less EnginePct is other
	// programs'.
	EnginePct float64 `json:"engine_pct"`
	// CachedPct is, for a buffered read step, the share of its region
	// the page cache held after the step; nil when not measured.
	CachedPct *float64 `json:"cached_pct,omitempty"`
	// Stalls are the times the whole machine was held over the step; nil
	// when not measured (drivebench could not raise a thread to real-time
	// priority).
	Stalls *HostStalls `json:"stalls,omitempty"`
	// HeldS is how long, in seconds, drivebench's process was held during
	// the measured phase (stopped, or its machine paused: none of its
	// threads ran while its clocks went on), as its stall probe and its
	// interval series saw it, and HeldPct that time's share of the
	// measured phase's wall time, 0 to 100; both absent when it was not.
	// A profile's step held for a second and 10 % or more fails.
	HeldS   float64 `json:"held_s,omitempty"`
	HeldPct float64 `json:"held_pct,omitempty"`
}

// HostStalls are the times over a step when no program on the machine
// ran at all, as when a virtual machine's host holds all its CPUs: a
// thread of real-time priority woke at random moments over the step, and
// a wake-up more than 2 ms late found the machine held.
type HostStalls struct {
	// Samples is how many times the thread woke and Held how many of them
	// were late; HeldMs is the time the late ones were held, in
	// milliseconds, from when each was due to when it came. HeldPct, 0 to
	// 100, estimates the share of the step's time the machine was held:
	// the share of late wake-ups (holds of a few ms, which the thread
	// mostly sleeps through), or HeldMs's share of the time the thread
	// watched when larger (holds of seconds, which one wake-up spans).
	Samples int     `json:"samples"`
	Held    int     `json:"held"`
	HeldMs  float64 `json:"held_ms"`
	HeldPct float64 `json:"held_pct"`
	// MaxLateMs is the latest wake-up, in milliseconds: the longest
	// stall lasted at least that long.
	MaxLateMs float64 `json:"max_late_ms"`
}

// Warning kinds.
const (
	WarnDriveState = "drive_state"
	WarnUnwritten  = "unwritten"
	WarnHostCPU    = "host_cpu"
	// WarnHostStall: the whole machine was held for part of the step,
	// and I/Os in flight then completed late whatever the drive did.
	WarnHostStall = "host_stall"
	// WarnHeld: drivebench's process was held (stopped, or its machine
	// paused) during the measured phase for a second or 10 % of it, or
	// the phase ran more than 10 % and a second beyond its runtime.
	WarnHeld      = "held"
	WarnPageCache = "page_cache"
	// WarnRateShort: a rate step missed its target rate by more than
	// 1 %, the drive did not keep up.
	WarnRateShort = "rate_short"
	// WarnRateAboveMax: a rate step beat its curve's uncontrolled
	// maximum by more than the maximum's noise.
	WarnRateAboveMax = "rate_above_max"
	// WarnNoiseUnknown: a figure was compared with one whose noise is
	// unknown, measured over fewer than three whole intervals: a rate
	// step above a curve's uncontrolled maximum of one or two intervals.
	WarnNoiseUnknown = "noise_unknown"
	// WarnMemoryFS: the step's file is on a file system that lives in
	// memory (tmpfs, ramfs), so its figures are memory speed.
	WarnMemoryFS = "memory_fs"
	// WarnNoPercentiles: imported fio output of several jobs without
	// latency bins, whose percentiles cannot be merged.
	WarnNoPercentiles = "no_percentiles"
)

// Warning is one reason to doubt a step's figures, in words a reader
// understands.
type Warning struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// AcceptanceRow compares one figure of a spec entry with what was
// measured under the conditions closest to the entry's.
type AcceptanceRow struct {
	// Spec is the entry's name (rand_read_4k).
	Spec string `json:"spec"`
	Comparison
	// Verdict is VerdictPass, VerdictFail, VerdictWarn or VerdictSkip;
	// Code says why (CodeWithin, CodeShort...) and Reason in one sentence.
	Verdict string `json:"verdict"`
	Code    string `json:"code"`
	Reason  string `json:"reason"`
	// StepID and Step name the step whose result was compared.
	StepID string `json:"step_id,omitempty"`
	Step   string `json:"step,omitempty"`
}

// Subject is what the row judges, its verdict's subject: "rand_read_4k
// iops".
func (a AcceptanceRow) Subject() string { return a.Spec + " " + a.Metric }

// Why an adaptive search stopped asking for points.
const (
	// SearchNone: next_point returned None.
	SearchNone = "none"
	// SearchConverged: next_point asked again for a point measured
	// already.
	SearchConverged = "converged"
	// SearchMaxPoints: the search reached max_points while next_point
	// still asked for more.
	SearchMaxPoints = "max_points"
)

// SearchEnd is why an adaptive search stopped: Code (a Search*
// constant), the points it had measured, and for SearchConverged the
// point asked for again.
type SearchEnd struct {
	Code   string `json:"code"`
	Points int    `json:"points"`
	Point  string `json:"point,omitempty"`
}

// Text says why the search stopped, as the step's verdict and the
// report do: "next_point returned None after 10 points".
func (e SearchEnd) Text() string {
	switch e.Code {
	case SearchConverged:
		return fmt.Sprintf("next_point asked again for %s, measured already: the search has converged", e.Point)
	case SearchMaxPoints:
		return fmt.Sprintf("stopped after max_points = %d points while next_point still asked for more; raise max_points if the search needs them", e.Points)
	}
	return fmt.Sprintf("next_point returned None after %d points", e.Points)
}

// Command is what an exec step ran and how it ended. The full output is
// kept beside the record, in the files StdoutFile and StderrFile
// (relative to the results folder); the record holds the last lines.
type Command struct {
	Args []string `json:"args"`
	// Dir is the working directory; User the account it ran as, "" for
	// drivebench's own.
	Dir        string   `json:"dir"`
	User       string   `json:"user,omitempty"`
	ExitCode   int      `json:"exit_code"`
	DurationNs int64    `json:"duration_ns"`
	TimedOut   bool     `json:"timed_out,omitempty"`
	StdoutFile string   `json:"stdout_file,omitempty"`
	StderrFile string   `json:"stderr_file,omitempty"`
	StdoutTail []string `json:"stdout_tail,omitempty"`
	StderrTail []string `json:"stderr_tail,omitempty"`
}

// SteadyState is a steady-state judgement after some rounds.
type SteadyState struct {
	// Variable is the tracked figure, by its name in the figure registry
	// (figure.Steady: iops, bw, mean, p99); records written before the
	// registry say lat_mean or lat_p99.
	Variable string    `json:"variable"`
	Rounds   []float64 `json:"rounds"`
	// WindowFirst and WindowLast are the 1-based rounds of the latest
	// window judged; 0 when too few rounds have run.
	WindowFirst int `json:"window_first"`
	WindowLast  int `json:"window_last"`
	// Window is the rule's window in rounds; RangePct and SlopePct are
	// the latest window's range (max - min) and the change of its
	// best-fit line, in percent of its mean, against the rule's limits
	// RangeLimitPct and SlopeLimitPct (SNIA: 20 and 10). A plan's own
	// rule leaves them zero.
	Window        int     `json:"window,omitempty"`
	RangePct      float64 `json:"range_pct,omitempty"`
	SlopePct      float64 `json:"slope_pct,omitempty"`
	RangeLimitPct float64 `json:"range_limit_pct,omitempty"`
	SlopeLimitPct float64 `json:"slope_limit_pct,omitempty"`
	Average       float64 `json:"average"`
	Slope         float64 `json:"slope"`
	Intercept     float64 `json:"intercept"`
	Reached       bool    `json:"reached"`
	// Exhausted is true when the last allowed round ran without reaching
	// steady state.
	Exhausted bool `json:"exhausted"`
	// Code is the judgement in a word (a Steady* constant); Message in a
	// sentence, made from the fields above under SNIA's rule, the hook's
	// words with it under a plan's own.
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
	// Rule is "snia", or "hook <file>:<function>" for a plan's own rule,
	// which sets only Rounds, Reached, Exhausted and Message.
	Rule string `json:"rule,omitempty"`
}

// Steady-state judgements.
const (
	// SteadyReached: the latest window met the rule.
	SteadyReached = "reached"
	// SteadyNotReached: the last allowed round ran without reaching it.
	SteadyNotReached = "not_reached"
	// SteadyTooFewRounds: fewer rounds ran than a window needs.
	SteadyTooFewRounds = "too_few_rounds"
	// SteadyNotYet: the latest window did not meet the rule, and more
	// rounds may run.
	SteadyNotYet = "not_steady_yet"
	// SteadyHookError: a plan's own rule failed, so no round is judged.
	SteadyHookError = "hook_error"
)

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
	// VarEnv holds the plan variables the environment set
	// (DRIVEBENCH_VAR_<name>), by name: -resume and report load the plan
	// with them again, whatever their environment holds.
	VarEnv map[string]string `json:"var_env,omitempty"`
	// HookLimits are the limits the run's hooks were given on the command
	// line (-hook-steps, -hook-timeout, -hook-memory); report DIR and
	// -resume give the hooks the same. nil or a zero field: the default.
	HookLimits *HookLimits `json:"hook_limits,omitempty"`
	PlanHash   string      `json:"plan_hash"`
	Created    time.Time   `json:"created"`
	Version    string      `json:"drivebench_version"`
	Testbed    Testbed     `json:"testbed"`
	Drives     []Drive     `json:"drives"`
	// Methodology lists preconditions and profiles as the plan wrote them.
	Preconditions []Method       `json:"preconditions"`
	Profiles      []Method       `json:"profiles"`
	Checks        []Method       `json:"checks"`
	Steps         []StepInfo     `json:"steps"`
	Variables     map[string]any `json:"variables,omitempty"`
	// Percentiles are the latency columns the plan's report block asks
	// for (100 is the maximum); empty for the default columns.
	Percentiles []float64 `json:"report_percentiles,omitempty"`
	// Units is the plan's bandwidth unit for the reports, "MB/s" or
	// "MiB/s"; empty means MB/s.
	Units string `json:"units,omitempty"`
	// FioLogs says whether the plan's report block asks for fio's logs of
	// each step's interval series beside its CSV (WriteSeries).
	FioLogs bool `json:"fio_logs,omitempty"`
}

// HookLimits bound each call of a Starlark hook: its execution steps,
// its wall-clock time and the memory of the hooks' worker.
type HookLimits struct {
	MaxSteps    uint64 `json:"max_steps,omitempty"`
	TimeoutNs   int64  `json:"timeout_ns,omitempty"`
	MemoryBytes int64  `json:"memory_bytes,omitempty"`
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
	// Declared is the identity the plan gave the drive (model, serial,
	// firmware, vendor), for drives that cannot report their own, such as
	// scratch files standing in for a batch of drives.
	Declared map[string]string `json:"declared,omitempty"`
	// DeclaredBy is who declared it when no plan did: the command, with
	// the flags that gave it, of an imported run ("import fio -model,
	// -serial"; "import fio" when they gave nothing). Empty for a plan's
	// drive.
	DeclaredBy string      `json:"declared_by,omitempty"`
	Spec       []SpecEntry `json:"spec,omitempty"`
	// SpecSheet is the identity of the sheet the drive is held to; nil
	// when it names none.
	SpecSheet *SpecSheet `json:"spec_sheet,omitempty"`
}

// SpecSheet says which drive a spec sheet describes.
type SpecSheet struct {
	Name   string `json:"name"`
	Vendor string `json:"vendor,omitempty"`
	Model  string `json:"model,omitempty"`
	// Capacity is in bytes; 0 when the sheet covers every capacity.
	Capacity  int64  `json:"capacity,omitempty"`
	Interface string `json:"interface,omitempty"`
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
	PCIeGen int                `json:"pcie_gen,omitempty"`
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
	ID        string         `json:"id"`
	Kind      string         `json:"kind"`
	Name      string         `json:"name"`
	Drive     string         `json:"drive,omitempty"`
	Source    string         `json:"source,omitempty"`
	Pass      int            `json:"pass,omitempty"`
	Point     workload.Point `json:"point,omitempty"`
	DependsOn []string       `json:"depends_on,omitempty"`
	// Group, Round and Rounds place the step in a rate curve or a set of
	// rounds; RatePct is a curve point's share of the curve's maximum.
	Group   string  `json:"group,omitempty"`
	Round   int     `json:"round,omitempty"`
	Rounds  int     `json:"rounds,omitempty"`
	RatePct float64 `json:"rate_pct,omitempty"`
	// Aggregate is set on an aggregate step: which of its rounds it
	// combines, so the reports say it from data, not from its name.
	Aggregate *workload.Aggregate `json:"aggregate,omitempty"`
	// Phase is set on a checkpoint's pass steps: "write" or "read"; the
	// checkpoint's summary step tells them apart, and the reports show
	// them there rather than as points of a profile.
	Phase string `json:"phase,omitempty"`
}
