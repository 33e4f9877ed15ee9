package reports

import "time"

// SchemaVersion identifies the layout of report.json. Fields may be added
// within a version; renaming, removing or changing the meaning of a field
// makes a new version. docs/report-json.md documents every field.
const SchemaVersion = "drivebench/report/v1"

// StatusNotRun is the status of a step the manifest lists but no record
// covers: the run stopped, or has not reached it yet.
const StatusNotRun = "not_run"

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
	// Acceptance compares the drives' spec sheets with what was measured.
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
	// Notes lists what the report could not read from the results folder,
	// such as a damaged health document; the rest of the report stands.
	Notes  []string `json:"notes"`
	Counts Counts   `json:"counts"`
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
	Name      string      `json:"name"`
	Path      string      `json:"path"`
	Scratch   bool        `json:"scratch"`
	SizeBytes int64       `json:"size_bytes"`
	Writable  bool        `json:"writable"`
	Facts     []Fact      `json:"facts"`
	Spec      []SpecEntry `json:"spec"`
}

// SpecEntry is a spec-sheet claim with the conditions it holds under. A
// zero condition was not stated by the vendor.
type SpecEntry struct {
	Name string `json:"name"`
	// Values are the claimed figures by metric: iops, bw (bytes/s), lat_us.
	Values  map[string]float64 `json:"values"`
	RW      string             `json:"rw,omitempty"`
	BS      int64              `json:"bs,omitempty"`
	IODepth int                `json:"iodepth,omitempty"`
	NumJobs int                `json:"numjobs,omitempty"`
	State   string             `json:"state,omitempty"`
}

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
	// their workloads: "whole drive", "first 25% of capacity".
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
	StepID string `json:"step_id"`
	// Point is the sweep point for people, "iodepth=4, numjobs=2"; empty
	// when the profile has no sweep.
	Point  string  `json:"point"`
	Params []Param `json:"params"`
	Status string  `json:"status"`
	Error  string  `json:"error,omitempty"`
	// Total adds both directions; nil when the step recorded no result.
	Total *Figures `json:"total,omitempty"`
	// Read and Write are set in mixed tables for the directions the step
	// measured.
	Read  *Figures `json:"read,omitempty"`
	Write *Figures `json:"write,omitempty"`
	// Peak marks the row with the highest IOPS among completed points.
	Peak bool `json:"peak"`
	// RatePct is set on the points of a rate curve: the step ran at this
	// percentage of the curve's uncontrolled maximum.
	RatePct *float64 `json:"rate_pct,omitempty"`
	// PlanHash is the revision of the plan that produced the row's result
	// when it is an earlier one (see Summary.EarlierRevisions); empty for
	// the current revision.
	PlanHash string `json:"plan_hash,omitempty"`
	// Averaged is set on the row of a repeated point: the number of rounds
	// whose figures the row averages.
	Averaged int `json:"averaged,omitempty"`
	// Round is set on the row of a steady-state profile's point: the
	// round whose figures the row shows, the point's last round that ran.
	Round int `json:"round,omitempty"`
	// Rounds are the rounds behind the row of a repeated point or of a
	// steady-state profile's point, in order; [] for other rows.
	Rounds []RoundResult `json:"rounds"`
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
}

// CheckVerdict is one judgement of a check. Where points into the hook
// file ("checks/latency.star:12:3") when the hook failed.
type CheckVerdict struct {
	StepID  string `json:"step_id"`
	Check   string `json:"check"`
	Drive   string `json:"drive"`
	Status  string `json:"status"`
	Message string `json:"message"`
	Where   string `json:"where,omitempty"`
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
	// first.
	Ranking []Rank `json:"ranking"`
	// Highlight is a sentence on the ranking; empty with one drive.
	Highlight string `json:"highlight"`
}

// ChartRef names a chart of the report and the file that holds it.
type ChartRef struct {
	// Kind is one of sweep_iops, sweep_latency, heatmap, rate_curve,
	// series_time, series_written, percentiles and steady_state.
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
	Run    string  `json:"run"`
	StepID string  `json:"step_id"`
	Point  string  `json:"point"`
	Total  Figures `json:"total"`
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

// AcceptanceRow compares one claim of a spec sheet with the measurement
// made under the closest conditions.
type AcceptanceRow struct {
	Drive string `json:"drive"`
	// Spec is the spec-sheet entry's name; Metric the claimed figure:
	// iops, bw (bytes/s) or lat_us, as in SpecEntry.Values.
	Spec    string  `json:"spec"`
	Metric  string  `json:"metric"`
	Claimed float64 `json:"claimed"`
	// Measured and Ratio (measured / claimed) are absent when no step
	// measured the claim.
	Measured *float64 `json:"measured,omitempty"`
	Ratio    *float64 `json:"ratio,omitempty"`
	// Verdict is pass, fail, warn or not_measured.
	Verdict string `json:"verdict"`
	// Conditions says where the measurement's conditions differ from the
	// vendor's: "measured at QD16, the spec states QD32".
	Conditions []string `json:"conditions"`
	StepID     string   `json:"step_id,omitempty"`
}

// SteadyState is a steady-state search: rounds of a profile repeated
// until a tracked figure settled within a window of rounds.
type SteadyState struct {
	Drive   string `json:"drive"`
	Profile string `json:"profile"`
	// Variable is the tracked figure, such as iops.
	Variable string        `json:"variable"`
	Rounds   []SteadyRound `json:"rounds"`
	// WindowFirst and WindowLast are the first and last round of the
	// measurement window; 0 when no window was judged.
	WindowFirst int `json:"window_first"`
	WindowLast  int `json:"window_last"`
	// Average is the tracked figure's mean over the window; the best-fit
	// line over the window is Intercept + Slope x round.
	Average   float64 `json:"average"`
	Slope     float64 `json:"slope"`
	Intercept float64 `json:"intercept"`
	Reached   bool    `json:"reached"`
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

// SteadyRound is the tracked figure of one round.
type SteadyRound struct {
	Round int     `json:"round"`
	Value float64 `json:"value"`
}
