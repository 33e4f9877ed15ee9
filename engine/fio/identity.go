package fio

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// StepIdentity says which step of which plan an exported job file runs.
// It travels in the job's description option, which fio echoes in its
// JSON output, so that importing the output puts the figures back on the
// step: its profile, sweep point, drive and round.
type StepIdentity struct {
	Plan   string           `json:"plan"`
	Step   string           `json:"step"` // the step's ID
	Name   string           `json:"name"`
	Kind   string           `json:"kind"`
	Source string           `json:"source,omitempty"`
	Drive  string           `json:"drive,omitempty"`
	Size   int64            `json:"drive_size,omitempty"`
	Pass   int              `json:"pass,omitempty"`
	Passes int              `json:"passes,omitempty"`
	Point  []workload.Param `json:"point,omitempty"`
	Group  string           `json:"group,omitempty"`
	Round  int              `json:"round,omitempty"`
	Rounds int              `json:"rounds,omitempty"`
	// Aggregate is how the report combines the rounds, as the plan's
	// repeat block says it: use = "best", keep = 1.
	Aggregate string `json:"aggregate,omitempty"`
	// Checks are the plan's checks as its methodology lists them, so the
	// report of an import lists them too (their verdicts need the plan's
	// hooks, which fio does not run).
	Checks []results.Method `json:"checks,omitempty"`
}

// identityPrefix starts a description that holds a StepIdentity; the
// version changes if its fields change meaning.
const identityPrefix = "drivebench/v1 "

func (id StepIdentity) description() string {
	b, _ := json.Marshal(id)
	return identityPrefix + string(b)
}

// parseIdentity reads a StepIdentity from a job's description; ok is
// false for jobs drivebench did not export.
func parseIdentity(desc string) (StepIdentity, bool) {
	rest, ok := strings.CutPrefix(desc, identityPrefix)
	if !ok {
		return StepIdentity{}, false
	}
	var id StepIdentity
	if err := json.Unmarshal([]byte(rest), &id); err != nil || id.Step == "" {
		return StepIdentity{}, false
	}
	return id, true
}

// ExportJob is the job file of one step for running by hand: the job
// named after the step, a header saying which plan, step, point and
// round it is, group_reporting when it runs several jobs (so fio prints
// one result, as the step records), and the step's identity for import.
func ExportJob(id StepIdentity, planFile string, t driver.Target, w workload.Workload) (string, error) {
	spec, err := buildSpec(id.Name, t, w)
	if err != nil {
		return "", err
	}
	spec.comments = exportHeader(id, planFile, w)
	grouped := false
	for i := range spec.jobs {
		spec.jobs[i].options = append(spec.jobs[i].options, option{"description", id.description()})
		for _, o := range spec.jobs[i].options {
			grouped = grouped || o.key == "numjobs"
		}
	}
	if grouped || len(spec.jobs) > 1 {
		spec.global = append(spec.global, option{"group_reporting", "1"})
	}
	return spec.render(), nil
}

func exportHeader(id StepIdentity, planFile string, w workload.Workload) []string {
	c := []string{
		fmt.Sprintf("drivebench plan %s (%s)", id.Plan, planFile),
		fmt.Sprintf("step: %s (%s, step ID %s)", id.Name, id.Kind, id.Step),
	}
	if len(id.Point) > 0 {
		var pt []string
		for _, p := range id.Point {
			pt = append(pt, fmt.Sprintf("%s=%v", p.Name, p.Value))
		}
		c = append(c, fmt.Sprintf("profile %s, sweep point %s", id.Source, strings.Join(pt, ", ")))
	}
	if id.Passes > 1 {
		c = append(c, fmt.Sprintf("precondition %s, pass %d of %d", id.Source, id.Pass, id.Passes))
	}
	if id.Rounds > 1 {
		rule := "each round is reported on its own"
		if id.Aggregate != "" {
			rule = "the report combines the rounds with " + id.Aggregate
		}
		c = append(c, fmt.Sprintf("round %d of %d: run every round's file; %s", id.Round, id.Rounds, rule))
	}
	if w.RatePct > 0 && w.RateBase != "" {
		c = append(c, fmt.Sprintf("rate: %g%% of the IOPS measured by step %s", w.RatePct, w.RateBase))
	}
	return append(c, "rerun: fio --output-format=json+ THIS_FILE > OUTPUT.json; then drivebench import fio OUTPUT.json...")
}
