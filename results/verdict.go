package results

import (
	"encoding/json"
	"strings"
)

// A judgement is recorded as data: a status, a code that says why, what
// was judged (Subject) and, for a verdict that held a measured figure
// against a claimed one, both figures, their ratio, the tolerance and
// the conditions. The sentence a record carries beside them (Message, an
// acceptance row's Reason) is for people reading the record; a report
// says it again from the data, in its own unit, and never reads it back.

// Verdict statuses: the outcome of one judgement, the same words in every
// record, report and hook. A check or expectation says pass, fail or warn,
// or error when it could not judge at all; an acceptance row says skip for
// a spec figure that cannot be compared with a measurement.
const (
	VerdictPass  = "pass"
	VerdictFail  = "fail"
	VerdictWarn  = "warn"
	VerdictError = "error"
	VerdictSkip  = "skip"
)

// Verdict codes: why a judgement came out as it did, one word a program
// can test where the message is a sentence.
const (
	// CodeWithin: a measured figure within the tolerance of its claim
	// (pass).
	CodeWithin = "within"
	// CodeShort and CodeOver: a figure more than the tolerance short of a
	// claim where higher is better, or over one where lower is, under the
	// spec's own conditions (fail).
	CodeShort = "short"
	CodeOver  = "over"
	// CodeConditionsDiffer: a figure short or over, measured under other
	// conditions than the spec's, so not like with like (warn).
	CodeConditionsDiffer = "conditions_differ"
	// CodeNotMeasured: no step ran the spec figure's I/O pattern (warn).
	CodeNotMeasured = "not_measured"
	// CodeNotJudged: a step ran the spec figure's conditions, and no
	// accept block compared it (a report's row for the figure: skip).
	CodeNotJudged = "not_judged"
	// CodeNotMeasurable: drivebench does not measure the figure
	// (endurance, power) (skip).
	CodeNotMeasurable = "not_measurable"
	// CodeNoPattern: the spec entry states no I/O pattern to match a step
	// with (skip).
	CodeNoPattern = "no_pattern"
	// CodeOtherLink: the figure is for another PCIe generation than the
	// drive's link (skip).
	CodeOtherLink = "other_link"
	// CodeNoClaim: the spec's figure is zero or negative (skip).
	CodeNoClaim = "no_claim"

	// CodeHolds, CodeDoesNotHold and CodeCannotJudge: an expectation held
	// (pass), did not (fail), or could not be evaluated (error).
	CodeHolds       = "holds"
	CodeDoesNotHold = "does_not_hold"
	CodeCannotJudge = "cannot_judge"

	// CodeAUReached and CodeAUShort: a dataloader step's accelerator
	// utilisation reached its target (pass) or fell short of it (fail);
	// the verdict's Figure holds both, in percent.
	CodeAUReached = "au_reached"
	CodeAUShort   = "au_short"

	// CodeHook: a check hook's own verdict, its message the hook's words.
	CodeHook = "hook"
	// CodeHookError: a hook failed (an error, or a value it may not
	// return), so nothing was judged.
	CodeHookError = "hook_error"
	// CodeMaxPoints: an adaptive search stopped at max_points while its
	// hook asked for more (warn); CodeBadPoint: it asked for a point that
	// cannot run (error).
	CodeMaxPoints = "max_points"
	CodeBadPoint  = "bad_point"
)

// Verdict is one judgement of a check.
type Verdict struct {
	Check  string `json:"check"`
	Drive  string `json:"drive,omitempty"`
	Status string `json:"status"` // VerdictPass, VerdictFail, VerdictWarn or VerdictError
	// Code says why, one of the Code constants.
	Code    string `json:"code"`
	Message string `json:"message"`
	// Subject is what was judged, the same in every run of the plan, never
	// a measured value: CI systems key a test's history on it. An
	// expectation's is its point and expression ("iodepth=4:
	// result.read.iops >= 1000"), an acceptance verdict's the spec figure
	// ("rand_read_4k iops"), a hook's the step that gave it, named within
	// its drive (the check's name, "p99-under-limit").
	Subject string `json:"subject"`
	// Where points into the hook file for errors: "checks/latency.star:12:3".
	Where string `json:"where,omitempty"`
	// Figure is the measured figure held against the claimed one, for an
	// acceptance verdict; nil for other verdicts.
	Figure *Comparison `json:"figure,omitempty"`
}

// Comparison is a measured figure held against a claimed one: an
// acceptance row, and the verdict it gives.
type Comparison struct {
	// Metric is the figure's key in the spec (iops, bw, lat_us, p99_us,
	// or one drivebench does not measure).
	Metric string `json:"metric"`
	// Unit is "IOPS", "B/s" or "µs"; empty for a figure that is not
	// measured. Better is "higher" or "lower": which way passes.
	Unit   string `json:"unit,omitempty"`
	Better string `json:"better,omitempty"`
	// Claimed is the spec's figure; Measured the step's, in the same unit,
	// nil when nothing was compared. Ratio is Measured / Claimed.
	Claimed  float64  `json:"claimed"`
	Measured *float64 `json:"measured,omitempty"`
	Ratio    *float64 `json:"ratio,omitempty"`
	// TolerancePct is how far on the wrong side of the claim a measurement
	// may be and still pass.
	TolerancePct float64 `json:"tolerance_pct"`
	// Conditions lists each way the measurement's conditions differ from
	// the spec's (block size, queue depth, drive state, link), or what the
	// spec leaves unstated.
	Conditions []Condition `json:"conditions,omitempty"`
}

// Condition kinds: what a condition of a comparison is about.
const (
	ConditionBlockSize  = "block_size"
	ConditionQueueDepth = "queue_depth"
	ConditionDriveState = "drive_state"
	ConditionLink       = "link"
)

// Condition is one way a measurement's conditions differ from a spec
// figure's: what it is about (a Condition* kind), whether the spec leaves
// it unstated, and the difference in plain words.
type Condition struct {
	Kind     string `json:"kind"`
	Unstated bool   `json:"unstated,omitempty"`
	Text     string `json:"text"`
}

// UnmarshalJSON reads a condition, or the sentence a version 1 record
// holds for one, which gives only its Text.
func (c *Condition) UnmarshalJSON(b []byte) error {
	var text string
	if json.Unmarshal(b, &text) == nil {
		*c = Condition{Text: text}
		return nil
	}
	type plain Condition
	return json.Unmarshal(b, (*plain)(c))
}

// ConditionTexts are the conditions in words.
func ConditionTexts(conditions []Condition) []string {
	out := make([]string, len(conditions))
	for i, c := range conditions {
		out[i] = c.Text
	}
	return out
}

// expectPrefix starts the Check of an expectation's verdicts, followed by
// the profile's name: "expect 4k-random-read".
const expectPrefix = "expect "

// ExpectCheck is the Check of the verdicts of a profile's expectations.
func ExpectCheck(profile string) string { return expectPrefix + profile }

// ExpectProfile returns the profile whose expectation v judges, and
// whether v is an expectation's verdict at all.
func (v Verdict) ExpectProfile() (profile string, ok bool) {
	return strings.CutPrefix(v.Check, expectPrefix)
}

// adaptivePrefix starts the Check of an adaptive search's verdicts,
// followed by the profile's name: "adaptive latency-qos".
const adaptivePrefix = "adaptive "

// AdaptiveCheck is the Check of the verdicts of a profile's adaptive
// search.
func AdaptiveCheck(profile string) string { return adaptivePrefix + profile }

// StepWithin is a step's name within its drive, as a table of that drive
// shows it and a hook's verdict names what it judged: "random.randread /
// iodepth=64", of "dut / random.randread / iodepth=64" on drive dut.
func StepWithin(name, drive string) string {
	return strings.TrimPrefix(name, drive+" / ")
}
