package plan

import (
	"time"

	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
)

// Plan is a decoded, validated test plan. It is plain data: expanding it
// into a Graph is a pure function of it.
type Plan struct {
	// Name is the plan file's base name without its extension.
	Name string
	// File is the path of the plan file as given; Dir is its folder, the
	// root that hooks may load() from.
	File string
	Dir  string
	// Hash identifies the plan's content: its source files and the values
	// of its variables.
	Hash string
	// Variables holds the final value of each variable, as JSON-compatible
	// Go values (string, float64, bool, []any, map[string]any).
	Variables map[string]any
	// Unset names the variables that had no value when the plan was loaded
	// with LoadOptions.Unset: the plan is checked but cannot be run.
	Unset []string

	Testbed       *Testbed
	Drives        []*Drive
	Preconditions []*Precondition
	Profiles      []*Profile
	Checks        []*Check
	// Accepts compare each drive's measurements with its spec.
	Accepts []*Accept
	Report  Report
	// Mixes are the named workload mixes the profiles use, in the order
	// first used, so that reports can say what each one is (and whether it
	// is a shipped approximation).
	Mixes []*Mix
	// OnError is what a failed step does to the rest of the run:
	// "continue" (the default) runs the remaining steps, "abort" stops.
	OnError string
	// HookMemory is the most memory, in bytes, the plan's hooks may use
	// (hook_memory); 0 leaves the default.
	HookMemory int64
}

// Testbed is the machine the plan runs on, as the plan declares it; the
// engine adds the facts it detects.
type Testbed struct {
	Name        string
	Description string
	// Facts are declared facts (server model, HBA, ...) by name.
	Facts map[string]string
	// Parallel lets steps of different drives run at the same time;
	// by default drives run one after another to keep the host quiet.
	Parallel bool
	// Hosts are fio servers ("host:port") that fio steps run on in
	// client/server mode, each host running the whole job; empty runs fio
	// locally.
	Hosts []string
	// Engine is the default driver of the testbed's drives ("" when the
	// plan does not say; drives then default to "native").
	Engine string
}

// Drive is one device or file under test.
type Drive struct {
	Name string
	// Path is a block device or regular file; "" means a scratch file that
	// the engine creates in the results folder and removes afterwards.
	Path string
	// Directory, instead of Path, makes the drive a folder on the file
	// system under test: profiles run on a file of Size bytes in it
	// (created and removed like a scratch file), exec steps run in it.
	Directory string
	// Size is the capacity to use in bytes; 0 means the whole device or
	// file (required for a scratch file).
	Size int64
	// Writable must be true for any step that writes to the drive.
	Writable bool
	// AllowExistingData lets the engine write to a block device or file
	// that holds a filesystem, partition table, LVM or RAID signature, or
	// a file attached to an idle loop device. A device in use (mounted,
	// swap, held by md, dm or LVM), or a file behind one, is refused even
	// so.
	AllowExistingData bool
	// Shared lets other runs measure the drive at the same time as this
	// one, for a drive the plan only reads; a run otherwise locks each
	// drive for itself.
	Shared bool
	// Engine names the default driver for this drive's steps ("native").
	Engine string
	// Declared is the identity the plan gives the drive: model, serial,
	// firmware and vendor, each only when set.
	Declared map[string]string
	// VolatileWriteCache, when set, is the state the drive's volatile
	// write cache is put in for the run (NVMe Set Features, Volatile
	// Write Cache) and restored from afterwards; nil leaves it alone.
	VolatileWriteCache *bool
	// SpecSheet is the spec sheet the drive is held to, nil when it names
	// none; Spec holds the sheet's entries followed by the drive's own.
	SpecSheet *SpecSheet
	Spec      []*SpecEntry
	Range     hcl.Range
}

// SpecSheet is a vendor's data sheet for one drive model and capacity,
// usually kept in a file of its own that plans include.
type SpecSheet struct {
	Name   string
	Vendor string
	Model  string
	// Capacity is the user capacity in bytes; 0 when the sheet covers
	// every capacity of the model alike.
	Capacity    int64
	Interface   string
	Description string
	// File is the file the sheet is written in.
	File  string
	Spec  []*SpecEntry
	Range hcl.Range
}

// SpecEntry is one spec-sheet figure with the conditions it was measured
// under, e.g. rand_read_4k = 1.0M IOPS at 4 KiB, QD32, 4 workers.
type SpecEntry struct {
	Name string
	// Values are the claimed figures by metric name: iops, bw (bytes/s),
	// lat_us and so on.
	Values map[string]float64
	// Conditions; zero values mean "not stated".
	RW      string
	BS      int64
	IODepth int
	NumJobs int
	State   string
	// PCIeGen is the PCIe generation of the link the figure was measured
	// on (3, 4, 5, ...), for drives whose sheet lists figures per link.
	PCIeGen int
	Range   hcl.Range
}

// Precondition is a pass over the drive before the profiles run.
type Precondition struct {
	Name string
	// Drives restricts the precondition to the named drives; empty means
	// every drive.
	Drives []string
	// Pattern is "sequential_write", "random_write" or "purge".
	Pattern string
	// Method is how a purge erases the drive: "sanitize-block",
	// "sanitize-crypto", "sanitize-overwrite", "format" or
	// "format-crypto". Destructive is the plan's explicit consent to it.
	Method      string
	Destructive bool
	// Passes is how many times the region is written; each pass is its own
	// step. A purge has one pass.
	Passes int
	// Workload is the writing pass; unused by a purge.
	Workload workload.Workload
	Range    hcl.Range
}

// Profile is a workload, possibly swept over several parameter values.
type Profile struct {
	Name     string
	Drives   []string
	Workload workload.Workload
	// Sweep lists the swept parameters in the order written, each with
	// the values it takes; the points are their cartesian product, the
	// first axis varying slowest, unless Points lists them.
	Sweep []SweepAxis
	// Points, when the sweep gives explicit points, are the sweep's
	// points in run order (SweepPoints returns them either way), and
	// ListedPoints the explicit points as the plan lists them, before
	// they are combined with the swept lists.
	Points       [][]workload.Param
	ListedPoints [][]workload.Param
	// Mix names the workload mix the profile starts from, "" for none.
	Mix string
	// Preconditions name the preconditions that run again right before
	// this profile, on each of its drives, in the order listed.
	Preconditions []string
	// At most one of RateCurve, Repeat and SteadyState is set; each turns
	// a sweep point into several steps.
	RateCurve   *RateCurve
	Repeat      *Repeat
	SteadyState *SteadyState
	// Adaptive, when set, replaces the sweep: a hook picks each point
	// from the ones measured before it.
	Adaptive *Adaptive
	// Exec is set for an exec block: the profile runs an external command
	// instead of a workload, and Workload is unused.
	Exec *Exec
	// Dataloader is set for a dataloader block: the profile's Workload is
	// a training job's input pipeline (workload.Workload.Dataloader).
	Dataloader *Dataloader
	// Checkpoint is set for a checkpoint block: the profile's Workload is
	// its write pass, which it expands into with its read-backs.
	Checkpoint *Checkpoint
	// Expect are conditions each measured point must meet.
	Expect []*Expectation
	// Pause is an idle time before each of the profile's steps on a drive
	// after its first, such as CrystalDiskMark's interval between tests.
	Pause time.Duration
	// Headline is the figure the reports lead with: "iops", "bw" or
	// "lat"; "" lets them choose by transfer size.
	Headline string
	Range    hcl.Range
}

// Hook names a Starlark function a plan calls: a steady-state rule, an
// adaptive sweep, an output parser or a report summary.
type Hook struct {
	// Script is the absolute path of the .star file; ScriptName the path
	// as written, relative to the folder of the file that names it;
	// ScriptHash the hex SHA-256 of its content. Node IDs use the name and
	// the hash, so that a moved plan keeps its IDs and an edited script
	// gets new ones.
	Script     string `json:"-"`
	ScriptName string `json:"script"`
	ScriptHash string `json:"script_sha256"`
	Function   string `json:"function"`
	// Args, when not nil, are passed to the function as the keyword
	// argument args.
	Args  map[string]any `json:"args,omitempty"`
	Range hcl.Range      `json:"-"`
}

// Adaptive sweeps a profile point by point: the engine calls the hook's
// next_point(history) with the points measured so far and measures the
// point it returns, until it returns None or MaxPoints points ran.
type Adaptive struct {
	Hook      *Hook `json:"hook"`
	MaxPoints int   `json:"max_points"`
}

// Exec is an application workload: a command run on a drive, in the
// drive's working folder, its output turned into metrics by a parse hook.
type Exec struct {
	// Command is the program and its arguments; a program without a "/"
	// is looked up in PATH.
	Command []string `json:"command"`
	// Env adds environment variables to drivebench's own.
	Env map[string]string `json:"env,omitempty"`
	// User runs the command as another account (drivebench must run as
	// root); "" runs it as drivebench's own.
	User    string        `json:"user,omitempty"`
	Timeout time.Duration `json:"timeout_ns"`
	// Parse turns the output into metrics; nil keeps none.
	Parse *Hook `json:"parse,omitempty"`
}

// Dataloader is what a dataloader step adds to its workload: the preset
// and scale it was made from, and the accelerator utilisation it is
// judged against.
// Checkpoint is what a checkpoint block asks for: Ranks ranks writing a
// checkpoint of Bytes bytes times Scale, a file each (FilePerRank) or
// one shared file, flushed (Fsync), then read back (ReadBack) after the
// page cache is emptied (DropCache), Passes times.
type Checkpoint struct {
	Preset      string  `json:"preset,omitempty"`
	Ranks       int     `json:"ranks"`
	Bytes       int64   `json:"bytes"`
	Scale       float64 `json:"scale,omitempty"`
	FilePerRank bool    `json:"file_per_rank"`
	Fsync       bool    `json:"fsync"`
	DropCache   bool    `json:"drop_cache"`
	ReadBack    bool    `json:"read_back"`
	Passes      int     `json:"passes"`
}

// CheckpointPass is set on the nodes of a checkpoint: Pass of Passes and
// Phase ("write" or "read"); the checkpoint's summary node has no phase.
type CheckpointPass struct {
	Pass   int    `json:"pass,omitempty"`
	Passes int    `json:"passes"`
	Phase  string `json:"phase,omitempty"`
}

// The phases of a checkpoint pass.
const (
	CheckpointWrite = "write"
	CheckpointRead  = "read"
)

type Dataloader struct {
	Preset string  `json:"preset,omitempty"`
	Scale  float64 `json:"scale,omitempty"`
	// AUTarget is the accelerator utilisation the step must reach, more
	// than 0 and at most 1.
	AUTarget float64 `json:"au_target"`
}

// Accept compares the measurements of each of its drives with the
// drive's spec: for every figure, the measured point whose conditions
// come closest to the figure's, under a tolerance.
type Accept struct {
	Name string `json:"name"`
	// Drives, Profiles and Entries restrict the comparison; empty means
	// every drive with a spec, every profile on it, every spec entry.
	Drives   []string `json:"drives,omitempty"`
	Profiles []string `json:"profiles,omitempty"`
	Entries  []string `json:"entries,omitempty"`
	// TolerancePct is how far on the wrong side of a claim a measurement
	// may be and still pass.
	TolerancePct float64 `json:"tolerance_pct"`
	// PCIeGen is the link generation of the drives under test; 0 when not
	// stated.
	PCIeGen int       `json:"pcie_gen,omitempty"`
	Range   hcl.Range `json:"-"`
}

// RateCurve runs each point first without a rate limit, to measure the
// drive's maximum, and then at each of Percents percent of that maximum
// (vdbench's iorate=curve).
type RateCurve struct {
	// Percents are in increasing order, such as 10, 20, ..., 120.
	Percents []float64
	// Stop, when set, skips the rest of the curve once a point's latency
	// exceeds a limit.
	Stop *StopCondition
	// MaxRamp and MaxRuntime are the ramp and runtime of the
	// uncontrolled maximum; zero for the defaults (see MaxWorkload).
	MaxRamp, MaxRuntime time.Duration
}

// MaxWorkload is the workload of the curve's uncontrolled point, whose
// IOPS set every later point's rate. It runs MaxRuntime when set (the
// profile's runtime otherwise) after a ramp of MaxRamp, which defaults to
// the profile's ramp plus its runtime: the first point of a curve follows
// whatever ran before it (a precondition, another curve's writes), while
// each later point follows a step of its own workload, so the maximum is
// measured only after running the workload unmeasured as long as one step.
// A run bounded by bytes instead of time has no ramp and keeps its budget.
func (c *RateCurve) MaxWorkload(w workload.Workload) workload.Workload {
	if w.Runtime <= 0 {
		return w
	}
	w.Ramp = w.Ramp + w.Runtime
	if c.MaxRamp > 0 {
		w.Ramp = c.MaxRamp
	}
	if c.MaxRuntime > 0 {
		w.Runtime = c.MaxRuntime
	}
	return w
}

// Repeat runs each point Rounds times and combines the rounds.
type Repeat struct {
	Rounds    int
	Aggregate workload.Aggregate
}

// SteadyState repeats the profile's whole sweep, round after round, until
// the tracked metric is steady in the sense of SNIA's PTS: over the last
// Window rounds, its range is at most ExcursionPct percent of the window's
// mean and the change of its least-squares line across the window at most
// SlopePct percent of the mean. After MaxRounds rounds the run ends
// unsteady.
type SteadyState struct {
	// Metric is the tracked figure's name in the figure registry
	// (figure.Steady: "iops", "bw", "mean", "p99"), over both directions.
	Metric       string  `json:"metric"`
	Window       int     `json:"window"`
	MaxRounds    int     `json:"max_rounds"`
	ExcursionPct float64 `json:"excursion_pct"`
	SlopePct     float64 `json:"slope_pct"`
	// Track is the sweep point whose metric is tracked, for a swept
	// profile; empty tracks the only point.
	Track []workload.Param `json:"track,omitempty"`
	// Hook, when set, replaces SNIA's rule: the engine calls the hook's
	// steady_state(rounds) after each round, and Window, ExcursionPct and
	// SlopePct are unused.
	Hook *Hook `json:"hook,omitempty"`
}

// Mix is a named workload shape: direction and randomness, transfer sizes
// and skew. Profiles that use it start from it.
type Mix struct {
	Name        string
	Description string
	// RW is derived from ReadPct and RandomPct.
	RW        string
	ReadPct   int
	RandomPct int
	// BS, or BSSplit when the mix has several transfer sizes.
	BS      int64
	BSSplit []workload.SizeWeight
	Zones   []workload.Zone
	// Preset is true for the mixes shipped with drivebench, which
	// approximate published workloads.
	Preset bool
	Range  hcl.Range
}

// SweepAxis is one swept parameter: a workload attribute name and the
// values it takes (int64 for counts and sizes, string for rw).
type SweepAxis struct {
	Param  string
	Values []any
}

// Check is a Starlark hook that judges a profile's results.
type Check struct {
	Name string
	// Script is the absolute path of the .star file; Function the name of
	// the function in it to call.
	Script   string
	Function string
	// ScriptName is the script path as written in the plan, relative to
	// the plan's folder; ScriptHash is the hex SHA-256 of the script's
	// content. Both go into the check nodes' IDs, so that a moved plan
	// keeps its IDs and an edited script gets new ones.
	ScriptName string
	ScriptHash string
	// Profile names the profile whose results the function receives.
	Profile string
	Drives  []string
	// Args are passed to the function as a frozen dict.
	Args  map[string]any
	Range hcl.Range
}

// Report configures which report files are written.
type Report struct {
	Formats []string
	// Summary, when set, is called at the end of a run with the run as
	// plain values, and returns sections the reports add.
	Summary *Hook
	// Compare lists results folders of other drives or runs that the
	// reports show beside this one; the plan writes them relative to its
	// folder, Load makes them absolute. An entry starting "catalog:" is a
	// catalog filter instead, kept as written.
	Compare []string
	// Units is the bandwidth unit of the reports, "MB/s" or "MiB/s"; ""
	// means MB/s.
	Units string
	// Percentiles are the latency columns of the result tables, in
	// order; 100 stands for the maximum. Nil means the default columns.
	Percentiles []float64
	// FioLogs asks for fio's bw, iops and lat logs of every step's
	// interval series beside its CSV (results.FioLogs), for fio's tools.
	FioLogs bool
}
