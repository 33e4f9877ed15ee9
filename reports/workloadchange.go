package reports

import (
	"cmp"

	"github.com/drivebench/drivebench/workload"
)

// ParamChange is one workload parameter that differs between the base
// and the new run of a point, as the plan names it, with its value in
// each run.
type ParamChange struct {
	Param string `json:"param"`
	Base  string `json:"base"`
	New   string `json:"new"`
}

// WorkloadChange is a point both runs measured with different workloads:
// their figures measure something else, so they are compared only when
// the caller allows it.
type WorkloadChange struct {
	Point  string        `json:"point"`
	Params []ParamChange `json:"params"`
}

// workloadDiff lists the parameters that differ between two workloads,
// among those that change what a step measures (workload.Options marks
// them: a run's length and its seed do not); nil when either is unknown.
// Each value is written as the plan would write it.
func workloadDiff(base, next *workload.Workload) []ParamChange {
	if base == nil || next == nil {
		return nil
	}
	var out []ParamChange
	for _, o := range workload.Options {
		if !o.Measured {
			continue
		}
		b, n := unsetText(o.Value(base), o), unsetText(o.Value(next), o)
		if b != n {
			out = append(out, ParamChange{Param: o.Name, Base: b, New: n})
		}
	}
	return out
}

// unsetText is a parameter's value, or how a workload without it reads.
func unsetText(text string, o workload.Option) string {
	return orDash(cmp.Or(text, o.Unset))
}
