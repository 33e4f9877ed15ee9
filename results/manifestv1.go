package results

import (
	"regexp"
	"strconv"

	"github.com/drivebench/drivebench/workload"
)

// earlierAggregate is the end of an aggregate step's name as drivebench
// wrote it before the manifest kept the step's rule: "mean of 3 rounds",
// "mean of last 2 of 3 rounds", "mean of best 1 of 5 rounds".
var earlierAggregate = regexp.MustCompile(` / mean of (?:(last|best) (\d+) of )?(\d+) rounds$`)

// earlierAggregates gives the aggregate steps of a manifest written
// before steps carried their rule (Aggregate) the rule their names state.
// Those names are fixed, since no drivebench writes them any more, so
// reading them cannot be broken by a later rewording; a name that does
// not hold a rule leaves the step without one, and the reports say only
// how many rounds it averaged.
func (m *Manifest) earlierAggregates() {
	for i := range m.Steps {
		s := &m.Steps[i]
		if s.Kind != "aggregate" || s.Aggregate != nil {
			continue
		}
		g := earlierAggregate.FindStringSubmatch(s.Name)
		if g == nil {
			continue
		}
		rounds, _ := strconv.Atoi(g[3])
		a := workload.Aggregate{Use: "all", Keep: rounds}
		if g[1] != "" {
			a.Use = g[1]
			a.Keep, _ = strconv.Atoi(g[2])
		}
		s.Aggregate = &a
	}
}
