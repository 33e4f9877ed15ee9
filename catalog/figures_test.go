package catalog

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/figure"
)

// TestLatencyColumnsInSchema: every figure the registry gives the catalog
// a column for is a column of step_latency, and every number column of
// step_latency but the counts is such a figure.
func TestLatencyColumnsInSchema(t *testing.T) {
	m := regexp.MustCompile(`(?s)CREATE TABLE step_latency \((.*?)\n\t\);`).FindStringSubmatch(strings.Join(migrations, "\n"))
	if m == nil {
		t.Fatal("no CREATE TABLE step_latency in the migrations")
	}
	table := m[1]
	var columns []string
	for _, m := range regexp.MustCompile(`(?m)^\t\t([a-z0-9_]+)\s+(BIGINT|DOUBLE PRECISION)`).FindAllStringSubmatch(table, -1) {
		if m[1] != "ios" && m[1] != "bytes" {
			columns = append(columns, m[1])
		}
	}
	keys := figure.Keys(figure.Column)
	slices.Sort(columns)
	slices.Sort(keys)
	if !slices.Equal(columns, keys) {
		t.Errorf("step_latency's figure columns are %q; the figure registry's are %q", columns, keys)
	}
	if want := []float64{50, 90, 99, 99.9, 99.99}; !slices.Equal(catalogPercentiles, want) {
		t.Errorf("catalog percentiles %v, want %v", catalogPercentiles, want)
	}
}
