package reports

import (
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// SchemaVersion identifies the layout of report.json. Fields may be added
// within a version; renaming, removing or changing the meaning of a field
// makes a new version. docs/report-json.md documents every field.
const SchemaVersion = "drivebench/report/v1"

// StatusNotRun is the status of a step the manifest lists but no record
// covers: the run stopped, or has not reached it yet.
const StatusNotRun = "not_run"

// StatusUnreadable is the status of a step whose record is in the
// results folder but cannot be read: damaged, or written by a newer
// drivebench (see Summary.UnreadableRecords).
const StatusUnreadable = "unreadable"

// Summary is the report model: everything a report shows, built from the
// results of a run alone and rendered many ways.
type Summary struct {
	Schema string `json:"schema"`
	Plan   Plan   `json:"plan"`
	// EarlierRevisions are the revisions of the plan, other than the
	// current one, that produced results of the run: a run resumed after
	// the plan changed keeps the records of the steps the change left
	// alone. Results they produced carry their revision's hash and are
	// marked with its marker.
	EarlierRevisions []PlanRevision `json:"earlier_revisions"`
	// EarlierSteps are the records of steps the plan no longer has: a run
	// resumed after its plan changed keeps what the earlier revision
	// measured, listed apart from the current tables, in step order.
	EarlierSteps []EarlierStep `json:"earlier_steps"`
	// GeneratedAt is the latest finish time of the run's steps (the
	// manifest's creation time when no step has finished), so the same
	// results always give the same report.
	GeneratedAt time.Time   `json:"generated_at"`
	Version     string      `json:"drivebench_version"`
	Testbed     Testbed     `json:"testbed"`
	Drives      []Drive     `json:"drives"`
	Methodology Methodology `json:"methodology"`
	// Results holds one table per profile and drive, in step order.
	Results []ProfileResult `json:"results"`
	// Applications lists the exec steps: commands run on the drives and
	// the metrics they gave, one per exec block and drive.
	Applications []Application `json:"applications"`
	// Dataloaders lists the dataloader steps: what each one's accelerator
	// saw of the reads, in step order.
	Dataloaders []DataloaderRun `json:"dataloaders"`
	// FileSets lists the steps that ran on file sets (a checkpoint's
	// passes among them): each set and the file operations it timed, in
	// step order.
	FileSets []FileSetRun `json:"file_sets"`
	// Checkpoints lists the checkpoint steps: each pass's seconds and
	// bandwidth, in step order.
	Checkpoints []CheckpointRun `json:"checkpoints"`
	// Sections gathers each profile's tables, this run's drives and the
	// comparables' alike, with the charts drawn from them and a ranking,
	// in the order the profiles first ran.
	Sections []Section `json:"sections"`
	// Comparables are other runs whose results are drawn and ranked beside
	// this run's.
	Comparables     []Comparable       `json:"comparables"`
	Preconditioning []PreconditionPass `json:"preconditioning"`
	// SteadyState lists the steady-state searches of the run.
	SteadyState []SteadyState `json:"steady_state"`
	// Units is the unit of bandwidth in the report: "MB/s" or "MiB/s".
	Units string `json:"units"`
	// Grids pair the read and the write of each test of a drive, as
	// CrystalDiskMark shows them.
	Grids []Grid `json:"grids"`
	// Acceptance compares the drives' spec sheets with what was measured,
	// figure by figure, as the acceptance steps recorded it.
	Acceptance []AcceptanceRow `json:"acceptance"`
	// Health holds what each NVMe drive reported about itself before and
	// after the run: identity, temperature, SMART counters.
	Health []DriveHealth  `json:"health"`
	Checks []CheckVerdict `json:"checks"`
	// Problems lists the steps that failed, were interrupted or carry a
	// status this version does not know.
	Problems []Problem `json:"problems"`
	// Skipped counts the steps the run decided not to run, by profile and
	// reason: the rest of a rate curve after its stop condition, the
	// rounds after steady state.
	Skipped []SkipGroup `json:"skipped"`
	// Runs are the runs of the results folder, in order, from its
	// journal: when each started and ended, how (complete, interrupted,
	// stopped, or no end: killed or crashed), whether it resumed the
	// folder, and what it found there. [] for a folder whose journal does
	// not keep runs.
	Runs []RunSession `json:"runs"`
	// UnreadableRecords are the records of the folder the report could
	// not read, left out and left as they are; their steps have the
	// status StatusUnreadable.
	UnreadableRecords []UnreadableRecord `json:"unreadable_records"`
	// Notes lists what the report could not read from the results folder,
	// such as a damaged health document; the rest of the report stands.
	Notes  []string `json:"notes"`
	Counts Counts   `json:"counts"`
	// SummaryHook holds the sections the plan's summary hook added, shown
	// after the report's own; absent when the plan has no summary hook.
	SummaryHook *HookReport `json:"summary_hook,omitempty"`

	// manifest and records are what Load read, kept for the summary
	// hook (Loaded), so that the folder is read once.
	manifest *results.Manifest
	records  []*results.Record
}

// PlanRevision is an earlier revision of the plan that produced some of
// the run's results.
type PlanRevision struct {
	Hash string `json:"hash"`
	// Marker is the footnote mark the report sets beside the results of
	// this revision: "¹", "²".
	Marker string `json:"marker"`
	// Steps counts the steps whose records this revision produced.
	Steps int `json:"steps"`
}

// Target is the file or device a step ran on, by identity.
type Target = results.Target

// SetAsideRecord is a damaged record a resumed run moved to damaged/.
type SetAsideRecord = results.SetAsideRecord

// RunSession is one run of the results folder: the first, or a resume.
type RunSession struct {
	// Number counts the folder's runs from 1, as records' run does.
	Number int `json:"number"`
	// Started and Ended are absent when the journal does not say (steps
	// journaled before it kept runs; a run with no end).
	Started *time.Time `json:"started,omitempty"`
	Ended   *time.Time `json:"ended,omitempty"`
	// Outcome is RunComplete, RunInterrupted, RunStopped, RunNoEnd, or
	// RunUnknown for steps journaled before the journal kept runs; Reason
	// says why a run did not complete.
	Outcome string `json:"outcome"`
	Reason  string `json:"reason,omitempty"`
	// Resumed is true when the run went on with the folder's earlier
	// steps; PlanHash is the plan revision it ran.
	Resumed  bool   `json:"resumed"`
	PlanHash string `json:"plan_hash,omitempty"`
	// Steps counts the steps the run finished.
	Steps int `json:"steps"`
	// Reruns are the preconditions the run ran again, complete before,
	// because their drive's state had been lost.
	Reruns []Rerun `json:"reruns"`
	// SetAside are the damaged records the run moved aside before it ran
	// their steps again.
	SetAside []SetAsideRecord `json:"set_aside"`
}

// Run outcomes beside those the journal records (results.RunComplete,
// RunInterrupted, RunStopped).
const (
	// RunNoEnd: the journal has the run's start and no end: the process
	// was killed or crashed, or the machine stopped.
	RunNoEnd = "no_end"
	// RunUnknown: steps journaled before the journal kept runs.
	RunUnknown = "unknown"
)

// Rerun is a precondition a resumed run ran again, and why.
type Rerun struct {
	StepID string `json:"step_id"`
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// UnreadableRecord is a record file the report could not read.
type UnreadableRecord struct {
	// File is its path in the results folder: steps/<id>.json.
	File   string `json:"file"`
	StepID string `json:"step_id"`
	// Newer is true when a newer drivebench wrote it; otherwise it is
	// damaged. Reason says what is wrong, and what to do.
	Newer  bool   `json:"newer"`
	Reason string `json:"reason"`
}

// EarlierStep is the record of a step the current plan no longer has (a
// changed step has a new ID): still a measurement, made under the
// earlier revision PlanHash.
type EarlierStep struct {
	StepID string `json:"step_id"`
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Drive  string `json:"drive"`
	Source string `json:"source"`
	// Point is the sweep point for people, as a row's.
	Point    string    `json:"point"`
	Status   string    `json:"status"`
	Error    string    `json:"error,omitempty"`
	PlanHash string    `json:"plan_hash,omitempty"`
	Finished time.Time `json:"finished"`
	// Total adds both directions; nil when the step recorded no result.
	Total *Figures `json:"total,omitempty"`
}

// Plan identifies the plan revision that produced the run.
type Plan struct {
	Name string `json:"name"`
	File string `json:"file"`
	Hash string `json:"hash"`
}

// Testbed is the machine as the plan declared it and as the run detected it.
type Testbed struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Declared    []Fact `json:"declared"`
	Detected    []Fact `json:"detected"`
}

// Fact is one named property, such as cpu = "2x Xeon Gold 6430".
type Fact struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Drive is a drive under test with its detected facts and spec sheet.
type Drive struct {
	Name      string `json:"name"`
	Path      string `json:"path"`
	Scratch   bool   `json:"scratch"`
	SizeBytes int64  `json:"size_bytes"`
	Writable  bool   `json:"writable"`
	Facts     []Fact `json:"facts"`
	// Identity is who the drive is: its model, serial, firmware and
	// capacity as it reported them and as the plan declared them.
	Identity DriveIdentity `json:"identity"`
	Spec     []SpecEntry   `json:"spec"`
	// SpecSheet is the identity of the sheet the drive is held to; absent
	// when it names none.
	SpecSheet *results.SpecSheet `json:"spec_sheet,omitempty"`
	// Targets are the files or devices the drive's steps ran on, by
	// identity, in the order first used: one, unless the drive's path was
	// given to another file or device between steps. [] when no step
	// recorded one.
	Targets []Target `json:"targets"`
}

// DriveIdentity is a drive's identity: Known, what the drive reported
// with what the plan declared for the rest, by which reports name it;
// each side as it was; and where the two disagree.
type DriveIdentity struct {
	Known    results.IdentityFields `json:"known"`
	Detected results.IdentityFields `json:"detected"`
	Declared results.IdentityFields `json:"declared"`
	// DeclaredBy is who declared Declared when no plan did: the command
	// of an import with its flags ("import fio -model, -serial"); empty
	// for a plan's drive block.
	DeclaredBy string   `json:"declared_by,omitempty"`
	Mismatches []string `json:"mismatches"`
}

// SpecEntry is a spec-sheet claim with the conditions it holds under, as
// the manifest keeps it. A zero condition was not stated by the vendor.
type SpecEntry = results.SpecEntry

// Methodology is how the run was done, as the plan wrote it.
type Methodology struct {
	Preconditions []Method `json:"preconditions"`
	Profiles      []Method `json:"profiles"`
	Checks        []Method `json:"checks"`
}

// Method is one precondition, profile or check with its parameters in the
// plan's own units.
type Method struct {
	Name string `json:"name"`
	// Drives is empty when the method applies to every drive.
	Drives []string   `json:"drives"`
	Params []KV       `json:"params"`
	Sweep  []SweepDim `json:"sweep"`
	// Region is the part of the drive the steps worked on, as recorded in
	// their workloads: "whole drive", "first 25% of capacity", "a set of 8
	// files in a folder of the drive".
	Region string `json:"region,omitempty"`
}

// KV is a parameter and its value as text.
type KV struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// SweepDim is one swept parameter and the values it took, as text.
type SweepDim struct {
	Param  string   `json:"param"`
	Values []string `json:"values"`
}

// ProfileResult is the table of one profile on one drive.
type ProfileResult struct {
	// units is the report's bandwidth unit, for the highlight.
	units   bwUnit `json:"-"`
	Profile string `json:"profile"`
	Drive   string `json:"drive"`
	// Mixed is true when some point both read and wrote; rows then carry
	// each direction's figures.
	Mixed bool  `json:"mixed"`
	Rows  []Row `json:"rows"`
	// Headline is the figure reviews quote for the profile: "iops", or
	// "bw" when every point moved blocks of 64 KiB or more.
	Headline string `json:"headline"`
	// Highlight is a few sentences on the peak, the tail latency, the
	// lightest load and, for long runs, how IOPS held over time.
	Highlight string `json:"highlight"`
	// Latency is the latency distribution of the peak row, one curve per
	// direction it measured.
	Latency []LatencyCurve `json:"latency"`
	// Series is the time series of the peak row, at most maxSeries
	// samples: longer series are merged into that many intervals.
	Series []SeriesSample `json:"series"`
	// Thermal is what an NVMe drive's SMART log said of its temperature
	// during the peak row's step, read every few seconds, at most
	// maxThermal readings (longer lists are merged, see thermalReadings);
	// absent when the step has none.
	Thermal []metrics.ThermalSample `json:"thermal,omitempty"`
	// Search is set when a hook chose the points one by one.
	Search *Search `json:"search,omitempty"`
	// Columns are the table's latency percentiles, in order (100 is the
	// maximum); each row's figures hold one cell per column in Tail.
	Columns []float64 `json:"columns"`
	// TailNote says which percentile columns were left out and which
	// cells rest on too few I/Os; LatencyNote which latency the figures
	// hold.
	TailNote    string `json:"tail_note,omitempty"`
	LatencyNote string `json:"latency_note,omitempty"`
	// Warnings are the run's reasons to doubt the figures of some rows.
	Warnings []TableWarning `json:"warnings,omitempty"`
	// NoiseNote says how much each point's IOPS varied over its intervals
	// and rounds.
	NoiseNote string `json:"noise_note,omitempty"`
}

// LatencyCurve is a latency distribution: the latency below which each
// percentage of I/Os completed.
type LatencyCurve struct {
	Direction   string            `json:"direction"`
	Percentiles []PercentileValue `json:"percentiles"`
}

// PercentileValue is the latency in nanoseconds below which P percent of
// I/Os completed.
type PercentileValue struct {
	P  float64 `json:"p"`
	Ns uint64  `json:"ns"`
}

// SeriesSample is one interval of a run's time series. T is the end of
// the interval in seconds since the measured phase began.
type SeriesSample struct {
	T         float64 `json:"t"`
	IOPS      float64 `json:"iops"`
	BWBytes   float64 `json:"bw_bytes"`
	MeanLatNs float64 `json:"mean_lat_ns"`
	// P99Ns is the worst per-interval p99 of the merged intervals; 0 when
	// the engine kept no histogram per interval.
	P99Ns uint64 `json:"p99_ns"`
	// BytesWritten is the running total written since the phase began.
	BytesWritten uint64 `json:"bytes_written"`
}

// Row is one sweep point of a profile on a drive.
type Row struct {
	// skipped is why a skipped row's step was not run.
	skipped string
	// throttled is set when the drive throttled or ran above its warning
	// temperature during the row's step (Thermal says how).
	throttled bool
	// workload is what the row's step ran, nil without a record: Compare
	// refuses to set figures of two workloads side by side.
	workload *workload.Workload `json:"-"`
	// result is what the row shows when no one record holds it: a
	// steady-state window's rounds combined; nil otherwise, when the
	// row's step's record holds it.
	result *metrics.Result `json:"-"`
	StepID string          `json:"step_id"`
	// Point is the sweep point for people, "iodepth=4, numjobs=2"; empty
	// when the profile has no sweep.
	Point  string  `json:"point"`
	Params []Param `json:"params"`
	Status string  `json:"status"`
	Error  string  `json:"error,omitempty"`
	// Total adds both directions; nil when the step recorded no result.
	Total *Figures `json:"total,omitempty"`
	// Replay is set on the row of a trace replay: the trace against what
	// the replay issued, and its lag.
	Replay *Replay `json:"replay,omitempty"`
	// Read and Write are set in mixed tables for the directions the step
	// measured.
	Read  *Figures `json:"read,omitempty"`
	Write *Figures `json:"write,omitempty"`
	// Peak marks the row the table's headline picks out among completed
	// points: the highest IOPS, or the lowest mean latency when the
	// headline is "lat".
	Peak bool `json:"peak"`
	// RatePct is set on the points of a rate curve: the step ran at this
	// percentage of the curve's uncontrolled maximum.
	RatePct *float64 `json:"rate_pct,omitempty"`
	// PlanHash is the revision of the plan that produced the row's result
	// when it is an earlier one (see Summary.EarlierRevisions); empty for
	// the current revision.
	PlanHash string `json:"plan_hash,omitempty"`
	// Target is the file or device the row's step ran on; absent when its
	// record does not say.
	Target *Target `json:"target,omitempty"`
	// Averaged is set on the row of a repeated point: the number of rounds
	// whose figures the row averages.
	Averaged int `json:"averaged,omitempty"`
	// EndedBy names the bound that ended a run bounded by bytes and by
	// time: "io_size" or "runtime".
	EndedBy string `json:"ended_by,omitempty"`
	// Thermal is what an NVMe drive's temperature did during the step,
	// from its SMART log read every few seconds (the record's thermal
	// summary): "drive temperature 50 to 71 °C over 13 readings;
	// THROTTLED: ...".
	Thermal string `json:"thermal,omitempty"`
	// Aggregate says, in the plan's words, which rounds the row of a
	// repeated point averages: "mean of last 3 of 5 rounds", "best of 5 rounds".
	Aggregate string `json:"aggregate,omitempty"`
	// Round is set on the row of a steady-state profile's point: the
	// round whose figures the row shows, the point's last round that ran.
	// Once a measurement window has been judged the row shows instead
	// the window's rounds, WindowFirst to WindowLast, combined as PTS
	// reports each cell: rates averaged, latency from their merged
	// histograms.
	Round       int `json:"round,omitempty"`
	WindowFirst int `json:"window_first,omitempty"`
	WindowLast  int `json:"window_last,omitempty"`
	// NotSteady is set on such a row when its search has not reached
	// steady state: the window is the last one judged, whose rounds did
	// not meet the criteria, not a measurement window.
	NotSteady bool `json:"not_steady,omitempty"`
	// Rounds are the rounds behind the row of a repeated point or of a
	// steady-state profile's point, in order; [] for other rows.
	Rounds []RoundResult `json:"rounds"`
	// Flags are the kinds of the warnings the table lists for the row
	// (see TableWarning), which every sentence and headline quoting its
	// figures carries; absent when there are none.
	Flags []string `json:"flags,omitempty"`
	// Host is how busy the machine was while the row's step ran.
	Host *results.HostLoad `json:"host,omitempty"`
	// Intervals is the spread of the step's per-interval IOPS (its
	// stability); RoundSpread that of its rounds' IOPS, with the 95 %
	// confidence interval of their mean.
	Intervals   *Spread `json:"intervals,omitempty"`
	RoundSpread *Spread `json:"round_spread,omitempty"`
	// LatencyIntervals are the spreads of the step's per-interval mean,
	// p50 and p99 latency (both directions), keyed by the figure's name
	// (mean_lat_ns, p50_ns, p99_ns): the noise of its latency figures.
	LatencyIntervals map[string]*Spread `json:"latency_intervals,omitempty"`
}

// RoundResult is one round of a repeated point or of a steady-state
// search.
type RoundResult struct {
	// Round counts from 1.
	Round  int    `json:"round"`
	StepID string `json:"step_id"`
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// Total adds both directions; nil when the round recorded no result.
	Total *Figures `json:"total,omitempty"`
	// Used marks the rounds the row stands for: those an aggregate
	// averaged, or those of a steady-state search's measurement window.
	Used     bool   `json:"used"`
	PlanHash string `json:"plan_hash,omitempty"`
}

// Param is one coordinate of a sweep point; Value is a number or a string.
type Param struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// Figures are the headline measurements of a step or of one direction.
// Latencies are completion latencies in nanoseconds; nil means unknown.
type Figures struct {
	IOPS      float64  `json:"iops"`
	BWBytes   float64  `json:"bw_bytes"`
	MeanLatNs *float64 `json:"mean_lat_ns,omitempty"`
	P50Ns     *uint64  `json:"p50_ns,omitempty"`
	P99Ns     *uint64  `json:"p99_ns,omitempty"`
	P999Ns    *uint64  `json:"p99_9_ns,omitempty"`
	// ServiceMeanNs and ServiceP99Ns are set on a paced step's figures,
	// whose latencies count from each I/O's due time: its service
	// latency, from submission to completion. A headline that quotes a
	// paced row quotes these, the due-time latency beside them.
	ServiceMeanNs *float64 `json:"service_mean_lat_ns,omitempty"`
	ServiceP99Ns  *uint64  `json:"service_p99_ns,omitempty"`
	// IOs is the number of I/Os behind the figures; Tail the table's
	// percentile columns (see ProfileResult.Columns).
	IOs  uint64           `json:"ios,omitempty"`
	Tail []PercentileCell `json:"tail,omitempty"`
}

// PreconditionPass is one pass of a precondition over a drive.
type PreconditionPass struct {
	StepID       string  `json:"step_id"`
	Precondition string  `json:"precondition"`
	Drive        string  `json:"drive"`
	Pass         int     `json:"pass"`
	Status       string  `json:"status"`
	Error        string  `json:"error,omitempty"`
	PlanHash     string  `json:"plan_hash,omitempty"`
	BytesWritten uint64  `json:"bytes_written"`
	BWBytes      float64 `json:"bw_bytes"`
	DurationNs   int64   `json:"duration_ns"`
	// Warnings are the warnings its step recorded (a busy host): its
	// bandwidth is flagged with them and they are listed under the table.
	Warnings []results.Warning `json:"warnings,omitempty"`
}

// CheckVerdict is one judgement of a check. Where points into the hook
// file ("checks/latency.star:12:3") when the hook failed.
type CheckVerdict struct {
	StepID string `json:"step_id"`
	Check  string `json:"check"`
	Drive  string `json:"drive"`
	Status string `json:"status"`
	// Code says why, in a word a program can test (results.Code*): within,
	// short, over, conditions_differ, holds, does_not_hold, hook...
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
	// Subject is what was judged, stable across runs: the point and
	// expression of an expectation, the spec figure of an acceptance row,
	// the check of a hook's verdict (the step, within its drive).
	Subject string `json:"subject,omitempty"`
	Where   string `json:"where,omitempty"`
	// DurationNs is the wall time of the step that gave the verdict.
	DurationNs int64 `json:"duration_ns"`
}

// SkipGroup counts the steps of one profile on one drive that the run
// skipped for one reason.
type SkipGroup struct {
	Drive string `json:"drive"`
	// Profile is the profile, or the source of another kind of step.
	Profile string `json:"profile"`
	// Reason is the engine's, such as "steady state reached over rounds
	// 2-6".
	Reason string `json:"reason"`
	Steps  int    `json:"steps"`
}

// Problem is a step that failed, was interrupted or has a status this
// version does not know.
type Problem struct {
	StepID string `json:"step_id"`
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Drive  string `json:"drive"`
	Status string `json:"status"`
	Error  string `json:"error"`
	// DurationNs is the step's wall time until it stopped.
	DurationNs int64 `json:"duration_ns"`
	// Output holds the last lines of a failed command's outputs; [] for
	// other steps.
	Output []OutputTail `json:"output"`
}

// Counts are the totals a reader checks first.
type Counts struct {
	Steps  StepCounts    `json:"steps"`
	Checks VerdictCounts `json:"checks"`
}

// StepCounts counts the manifest's steps by status. Unlisted counts
// records of steps the manifest does not list (an earlier revision of the
// plan); they are left out of the report.
type StepCounts struct {
	Total       int `json:"total"`
	OK          int `json:"ok"`
	Failed      int `json:"failed"`
	Interrupted int `json:"interrupted"`
	Skipped     int `json:"skipped"`
	NotRun      int `json:"not_run"`
	Other       int `json:"other"`
	Unlisted    int `json:"unlisted"`
}

// VerdictCounts counts verdicts by status; Other counts statuses this
// version does not know.
type VerdictCounts struct {
	Pass  int `json:"pass"`
	Fail  int `json:"fail"`
	Warn  int `json:"warn"`
	Error int `json:"error"`
	Other int `json:"other"`
}

// Section is one profile across every drive that ran it: this run's and
// the comparables'.
type Section struct {
	Profile string `json:"profile"`
	// Shape is what the profile's points are, and so how they are drawn:
	// "rate_curve", "sweep" (one parameter), "matrix" (two), "multi"
	// (more) or "single".
	Shape  string     `json:"shape"`
	Charts []ChartRef `json:"charts"`
	// Ranking orders the drives by their peak headline figure, best
	// first: the highest IOPS or bandwidth, or the lowest mean latency.
	Ranking []Rank `json:"ranking"`
	// Highlight is a sentence on the ranking; empty with one drive.
	Highlight string `json:"highlight"`
}

// ChartRef names a chart of the report and the file that holds it.
type ChartRef struct {
	// Kind is one of sweep_iops, sweep_latency, heatmap, rate_curve,
	// series_time, thermal_time, series_written, percentiles,
	// latency_ladder, replay_lag, steady_state, grid and summary_chart.
	Kind string `json:"kind"`
	// File is the SVG file's path relative to the report:
	// "charts/4k-random-read-percentiles.svg".
	File  string `json:"file"`
	Title string `json:"title"`
}

// Rank is one drive's place in a section's ranking.
type Rank struct {
	Rank  int    `json:"rank"`
	Drive string `json:"drive"`
	// Run is the comparable the drive's result comes from; empty for this
	// run.
	Run    string `json:"run"`
	StepID string `json:"step_id"`
	Point  string `json:"point"`
	// Identity names the drive by model, serial and firmware when the
	// ranking compares other runs' drives; empty otherwise.
	Identity string  `json:"identity,omitempty"`
	Total    Figures `json:"total"`
	// Flags are the peak row's flags.
	Flags []string `json:"flags,omitempty"`
	// OtherTestbed is set when the result was measured on another testbed
	// than this run's.
	OtherTestbed bool `json:"other_testbed"`
}

// Comparable is another run shown beside this one.
type Comparable struct {
	// Name labels the run in charts and tables, such as its folder name.
	Name    string  `json:"name"`
	Plan    Plan    `json:"plan"`
	Testbed Testbed `json:"testbed"`
	// SameTestbed is set when the run's testbed has this run's name and
	// declared facts.
	SameTestbed bool `json:"same_testbed"`
	// Differences lists how its testbed differs from this run's:
	// "cpu: 1x AMD EPYC 7452 (this run: 2x Intel Xeon Gold 6430)".
	Differences []string        `json:"differences"`
	Drives      []Drive         `json:"drives"`
	Results     []ProfileResult `json:"results"`
}

// AcceptanceRow compares one figure of a drive's spec sheet with the
// measurement made under the closest conditions, as an accept block's
// step recorded it.
type AcceptanceRow struct {
	Drive string `json:"drive"`
	// Accept is the accept block that made the comparison.
	Accept string `json:"accept"`
	// Spec is the spec-sheet entry's name; Metric the figure's key: iops,
	// bw (bytes/s), lat_us, a latency percentile such as p99_us, or a
	// figure drivebench does not measure (dwpd).
	Spec   string `json:"spec"`
	Metric string `json:"metric"`
	// Unit is "IOPS", "B/s" or "µs"; empty for a figure that is not
	// measured. Better is "higher" or "lower": which way passes.
	Unit   string `json:"unit"`
	Better string `json:"better"`
	// Claimed is the spec's figure; Measured and Ratio (measured /
	// claimed) are absent when nothing was compared.
	Claimed  float64  `json:"claimed"`
	Measured *float64 `json:"measured,omitempty"`
	Ratio    *float64 `json:"ratio,omitempty"`
	// TolerancePct is how far on the wrong side of the claim a
	// measurement may be and still pass.
	TolerancePct float64 `json:"tolerance_pct"`
	// Verdict is pass, fail, warn or skip; Code says why in a word
	// (results.Code*: within, short, over, conditions_differ,
	// not_measured, not_judged...), absent for a row of an older record
	// whose cause only its reason gives; Reason says why in a sentence.
	Verdict string `json:"verdict"`
	Code    string `json:"code,omitempty"`
	Reason  string `json:"reason"`
	// Conditions says, in plain words, where the measurement's conditions
	// differ from the spec's and what the spec leaves unstated.
	Conditions []string `json:"conditions"`
	// StepID and Step name the step whose result was compared.
	StepID string `json:"step_id,omitempty"`
	Step   string `json:"step,omitempty"`
}

// DataloaderRun is one dataloader step: the training input pipeline it
// ran and what its accelerator saw of it.
type DataloaderRun struct {
	StepID string `json:"step_id"`
	// Name is the dataloader block's name.
	Name   string `json:"name"`
	Drive  string `json:"drive"`
	Status string `json:"status"`
	// PlanHash is set when an earlier revision of the plan made the record.
	PlanHash string `json:"plan_hash,omitempty"`
	// The shape it ran: its data set, batches, readers, compute time per
	// batch and epochs, and whether it read with O_DIRECT.
	Files          int   `json:"files"`
	SamplesPerFile int   `json:"samples_per_file"`
	RecordSize     int64 `json:"record_size_bytes"`
	BatchSize      int   `json:"batch_size"`
	ReaderThreads  int   `json:"reader_threads"`
	ComputeTimeNs  int64 `json:"compute_time_ns"`
	Epochs         int   `json:"epochs"`
	Direct         bool  `json:"direct"`
	// What it measured; zero without a result. EpochsRun are the epochs
	// it completed, Samples and Batches what the accelerator consumed,
	// ComputeNs its compute time in the RuntimeNs the step ran, ReadBW
	// the bandwidth of its reads in bytes per second.
	RuntimeNs int64 `json:"runtime_ns"`
	EpochsRun int   `json:"epochs_run"`
	// EpochSeconds is the run's length over the epochs it completed: its
	// seconds per pass over the data set; 0 without one.
	EpochSeconds  float64 `json:"epoch_seconds"`
	Samples       uint64  `json:"samples"`
	Batches       uint64  `json:"batches"`
	SamplesPerSec float64 `json:"samples_per_s"`
	ComputeNs     int64   `json:"compute_ns"`
	ReadBW        float64 `json:"read_bw_bytes"`
	// AU is the accelerator utilisation, ComputeNs over RuntimeNs, 0 to 1.
	AU float64 `json:"au"`
	// BatchWait is how long the batches kept the accelerator waiting for
	// their samples; absent without a batch.
	BatchWait *BatchWait `json:"batch_wait,omitempty"`
	// AUTarget is the utilisation the step was judged against, 0 to 1,
	// and Verdict and Code the judgement's status and code (au_reached,
	// au_short); absent when it was not judged.
	AUTarget *float64 `json:"au_target,omitempty"`
	Verdict  string   `json:"verdict,omitempty"`
	Code     string   `json:"code,omitempty"`
	// Flags are the warning kinds of its step (a file system in memory,
	// a busy or held host), carried beside its figures.
	Flags []string `json:"flags,omitempty"`
}

// MetadataOp is one kind of file operation a step timed: how many and
// their latency in ns.
type MetadataOp struct {
	Op     string  `json:"op"`
	Count  uint64  `json:"count"`
	MeanNs float64 `json:"mean_ns"`
	P50Ns  uint64  `json:"p50_ns"`
	P99Ns  uint64  `json:"p99_ns"`
	MaxNs  uint64  `json:"max_ns"`
}

// BatchWait sums up how long a dataloader's batches kept the accelerator
// waiting, in ns.
type BatchWait struct {
	MeanNs float64 `json:"mean_ns"`
	P50Ns  uint64  `json:"p50_ns"`
	P99Ns  uint64  `json:"p99_ns"`
	MaxNs  uint64  `json:"max_ns"`
}

// Application is an exec step of the plan on one drive: a command such as
// sysbench, with the metrics its parse hook read from the output. An exec
// block with for_each is one application whose instances are its runs.
type Application struct {
	// Name is the exec block's name; for a block with for_each, the part
	// its instances share ("fileio" of "fileio.rndrw-1t").
	Name  string           `json:"name"`
	Drive string           `json:"drive"`
	Runs  []ApplicationRun `json:"runs"`
	// Metrics names every metric of the runs, the headline ones first,
	// then latencies, then the rest by name: the columns of its table.
	Metrics []string `json:"metrics"`
	// Headline names the metrics that are rates (tps, qps, iops, names
	// ending in _per_s, _mib_s or _mb_s), in the order of Metrics; the
	// conclusion quotes them.
	Headline []string `json:"headline"`
}

// ApplicationRun is one exec step: the command, how it ended and what it
// measured.
type ApplicationRun struct {
	StepID string `json:"step_id"`
	// Name is the step's source: the exec block's name, or its instance's
	// ("fileio.rndrw-1t").
	Name   string `json:"name"`
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// Command is the program and its arguments; [] when the step has no
	// record. Dir is where it ran, User the account it ran as ("" for
	// drivebench's own).
	Command []string `json:"command"`
	Dir     string   `json:"dir"`
	User    string   `json:"user,omitempty"`
	// ExitCode is -1 when the command could not start or was killed.
	ExitCode   int   `json:"exit_code"`
	DurationNs int64 `json:"duration_ns"`
	TimedOut   bool  `json:"timed_out"`
	// StdoutFile and StderrFile hold the whole output, relative to the
	// results folder.
	StdoutFile string `json:"stdout_file,omitempty"`
	StderrFile string `json:"stderr_file,omitempty"`
	// Metrics are the figures the parse hook returned, by name, in the
	// units their names say.
	Metrics  map[string]float64 `json:"metrics"`
	PlanHash string             `json:"plan_hash,omitempty"`
}

// Search is an adaptive search: a hook chose the profile's points one by
// one, and the table's rows are the points in the order it chose them.
type Search struct {
	// StepID is the search's own step, whose record lists the points.
	StepID string `json:"step_id"`
	Status string `json:"status"`
	// Points counts the points measured; Last is the last of them.
	Points int    `json:"points"`
	Last   string `json:"last"`
	// Stop says why the search ended, in the engine's words: the hook
	// returned None, asked for a point it had measured, reached
	// max_points, or failed.
	Stop string `json:"stop"`
}

// OutputTail is the last lines of one output of a command.
type OutputTail struct {
	// Stream is stdout or stderr; File holds the whole output, relative
	// to the results folder.
	Stream string   `json:"stream"`
	File   string   `json:"file"`
	Lines  []string `json:"lines"`
}

// HookReport is what the plan's summary hook added to the report: its
// sections, or the error it failed with.
type HookReport struct {
	// Hook names the function: "checks/summary.star:acceptance".
	Hook     string        `json:"hook"`
	Sections []HookSection `json:"sections"`
	// Error is set when the hook failed; Where points into its file.
	Error string `json:"error,omitempty"`
	Where string `json:"where,omitempty"`
	// Kept is set when the hook failed on a later call (drivebench
	// report, a resumed run) and Sections and Log are what an earlier
	// call returned, kept rather than lost.
	Kept bool `json:"kept"`
	// Log holds what the hook print()ed.
	Log []string `json:"log"`
}

// HookSection is one section a summary hook added: a title, Markdown text,
// and optionally a table and a line chart.
type HookSection struct {
	Title string        `json:"title"`
	Text  string        `json:"text"`
	Table *SummaryTable `json:"table,omitempty"`
	Chart *HookChart    `json:"chart,omitempty"`
}

// SummaryTable and SummarySeries are the results folder's own types: the
// report shows a hook's tables and chart lines as summary.json holds them
// (rows cut or padded to one cell per column, points JSON can carry).
type (
	SummaryTable  = results.SummaryTable
	SummarySeries = results.SummarySeries
)

// HookChart is a line chart of one or more series of (x, y) points, with
// the file the report drew it in.
type HookChart struct {
	Title  string          `json:"title"`
	XLabel string          `json:"x_label"`
	YLabel string          `json:"y_label"`
	Series []SummarySeries `json:"series"`
	// File is the SVG file of the chart, relative to the report.
	File string `json:"file"`
}

// SteadyState is a steady-state search: rounds of a profile repeated
// until a tracked figure settled within a window of rounds.
type SteadyState struct {
	Drive   string `json:"drive"`
	Profile string `json:"profile"`
	// Variable is the tracked figure, such as iops.
	Variable string        `json:"variable"`
	Rounds   []SteadyRound `json:"rounds"`
	// Rule is the rule that judged the rounds: "snia", or "hook
	// <file>:<function>" for the plan's own; empty when the record does
	// not say.
	Rule string `json:"rule"`
	// WindowFirst and WindowLast are the first and last round of the
	// measurement window; 0 when no window was judged.
	WindowFirst int `json:"window_first"`
	WindowLast  int `json:"window_last"`
	// Average is the tracked figure's mean over the window; the best-fit
	// line over the window is Intercept + Slope x round.
	Average   float64 `json:"average"`
	Slope     float64 `json:"slope"`
	Intercept float64 `json:"intercept"`
	// RangePct and SlopePct are the window's range (max - min) and the
	// change of its best-fit line across it, in percent of its average,
	// and RangeLimitPct and SlopeLimitPct the rule's limits; zero for a
	// plan's own rule.
	RangePct      float64 `json:"range_pct"`
	SlopePct      float64 `json:"slope_pct"`
	RangeLimitPct float64 `json:"range_limit_pct"`
	SlopeLimitPct float64 `json:"slope_limit_pct"`
	Reached       bool    `json:"reached"`
	// Exhausted is set when the last allowed round ran without reaching
	// steady state.
	Exhausted bool   `json:"exhausted"`
	Message   string `json:"message"`
	// StepID is the round whose record holds the judgement.
	StepID string `json:"step_id"`
	// PlanHash is set when an earlier revision of the plan made the
	// judgement.
	PlanHash string `json:"plan_hash,omitempty"`
	// Chart is the SVG file of the rounds, relative to the report.
	Chart string `json:"chart"`
}

// Grid is the read-and-write table of a drive's tests: profiles that each
// run the read and the write of one pattern, as CrystalDiskMark's rows.
type Grid struct {
	Drive string    `json:"drive"`
	Rows  []GridRow `json:"rows"`
	// Chart is the SVG file of the grid's bars, relative to the report.
	Chart string `json:"chart"`
}

// GridRow is one test of a grid: its read and its write; nil where that
// half did not finish.
type GridRow struct {
	Test    string   `json:"test"`
	Profile string   `json:"profile"`
	Read    *Figures `json:"read,omitempty"`
	Write   *Figures `json:"write,omitempty"`
	// At says what the figures stand for: "best of 5 rounds", "single
	// run".
	At string `json:"at"`
}

// SteadyRound is the tracked figure of one round and the judgement made
// after it: the window ending there, its range and slope as shares of
// its mean, and why the search went on or stopped.
type SteadyRound struct {
	Round     int     `json:"round"`
	Value     float64 `json:"value"`
	RangePct  float64 `json:"range_pct,omitempty"`
	SlopePct  float64 `json:"slope_pct,omitempty"`
	Judgement string  `json:"judgement,omitempty"`
}
