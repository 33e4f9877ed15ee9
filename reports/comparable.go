package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
)

// AddComparable puts the results of another run beside this one's: its
// drives join this run's on the charts and in the rankings of the
// profiles both ran (matched by profile name), and the report says when
// it was measured on another testbed. name labels the run, such as its
// folder's name; when empty, the run's plan name stands in. A name already
// taken gets a number: "base", "base 2".
func (s *Summary) AddComparable(name string, other *Summary) {
	if other == nil {
		return
	}
	name = s.freeComparableName(cmp.Or(name, other.Plan.Name, "comparable"))
	same, diffs := testbedDifferences(s.Testbed, other.Testbed)
	s.Comparables = append(s.Comparables, Comparable{
		Name:        name,
		Plan:        other.Plan,
		Testbed:     other.Testbed,
		SameTestbed: same,
		Differences: diffs,
		Drives:      other.Drives,
		Results:     inUnit(other.Results, s.unit()),
	})
	s.arrange()
}

// inUnit is a copy of tables whose charts and figures give bandwidth in
// unit u, this run's: a comparable drawn and ranked beside this run's
// drives reads in the same unit.
func inUnit(tables []ProfileResult, u bwUnit) []ProfileResult {
	out := slices.Clone(tables)
	for i := range out {
		out[i].units = u
	}
	return out
}

func (s *Summary) freeComparableName(name string) string {
	taken := func(n string) bool {
		return slices.ContainsFunc(s.Comparables, func(c Comparable) bool { return c.Name == n })
	}
	free := name
	for i := 2; taken(free); i++ {
		free = name + " " + strconv.Itoa(i)
	}
	return free
}

// testbedDifferences compares another run's testbed with this run's: the
// same when the names and the declared facts agree. Each difference is
// stated from the other run's side.
func testbedDifferences(this, other Testbed) (same bool, diffs []string) {
	diffs = []string{}
	if this.Name != other.Name {
		diffs = append(diffs, fmt.Sprintf("testbed %s (this run: %s)", orDash(other.Name), orDash(this.Name)))
	}
	mine, theirs := factMap(this.Declared), factMap(other.Declared)
	var names []string
	for _, f := range other.Declared {
		names = append(names, f.Name)
	}
	for _, f := range this.Declared {
		if _, ok := theirs[f.Name]; !ok {
			names = append(names, f.Name)
		}
	}
	for _, n := range slices.Sorted(slices.Values(names)) {
		if mine[n] != theirs[n] {
			diffs = append(diffs, fmt.Sprintf("%s: %s (this run: %s)", n, orDash(theirs[n]), orDash(mine[n])))
		}
	}
	return len(diffs) == 0, diffs
}

func factMap(facts []Fact) map[string]string {
	m := map[string]string{}
	for _, f := range facts {
		m[f.Name] = f.Value
	}
	return m
}
