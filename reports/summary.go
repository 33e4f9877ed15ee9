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
	// GeneratedAt is the latest finish time of the run's steps (the
	// manifest's creation time when no step has finished), so the same
	// results always give the same report.
	GeneratedAt time.Time   `json:"generated_at"`
	Version     string      `json:"drivebench_version"`
	Testbed     Testbed     `json:"testbed"`
	Drives      []Drive     `json:"drives"`
	Methodology Methodology `json:"methodology"`
	// Results holds one table per profile and drive, in step order.
	Results         []ProfileResult    `json:"results"`
	Preconditioning []PreconditionPass `json:"preconditioning"`
	Checks          []CheckVerdict     `json:"checks"`
	// Problems lists the steps that did not finish well.
	Problems []Problem `json:"problems"`
	Counts   Counts    `json:"counts"`
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
	// Highlight is one sentence on the peak and the tail latency.
	Highlight string `json:"highlight"`
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
