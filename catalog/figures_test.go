package catalog

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/figure"
)

// TestFigureColumnsInSchema: every figure the registry gives a table of
// the catalog a column for (figure.Column: step_latency, figure.KindColumn:
// the table of its step kind) is a number column of that table, and every
// number column of it but those that count or describe the step is such
// a figure, so that a row added to the registry cannot go unstored, nor a
// column drift from the row it is read by.
func TestFigureColumnsInSchema(t *testing.T) {
	cases := []struct {
		table string
		// other are the table's number columns that are no figure.
		other   []string
		figures []string
	}{
		{"step_latency", []string{"ios", "bytes"}, figure.Keys(figure.Column)},
		{"step_files", []string{"bytes", "setup_seconds"}, columnNames(figure.KindColumn, fileSetColumns)},
		{"step_file_ops", []string{"count"}, columnNames(figure.Column, fileOpColumns)},
		{"step_dataloader", []string{"samples", "batches", "compute_ns"}, columnNames(figure.KindColumn, dataloaderColumns)},
		{"step_replay", []string{"trace_ios", "trace_bytes", "issued_ios", "issued_bytes", "trace_ns", "schedule_ns", "speed", "slot_waits"}, columnNames(figure.KindColumn, replayColumns)},
	}
	for _, c := range cases {
		t.Run(c.table, func(t *testing.T) {
			m := regexp.MustCompile(`(?s)CREATE TABLE ` + c.table + ` \((.*?)\n\t\);?`).FindStringSubmatch(strings.Join(migrations, "\n"))
			if m == nil {
				t.Fatalf("no CREATE TABLE %s in the migrations", c.table)
			}
			var columns []string
			for _, m := range regexp.MustCompile(`(?m)^\t\t([a-z0-9_]+)\s+(BIGINT|DOUBLE PRECISION)`).FindAllStringSubmatch(m[1], -1) {
				if !slices.Contains(c.other, m[1]) {
					columns = append(columns, m[1])
				}
			}
			keys := slices.Clone(c.figures)
			slices.Sort(columns)
			slices.Sort(keys)
			if len(keys) == 0 || !slices.Equal(columns, keys) {
				t.Errorf("%s's figure columns are %q; the figure registry's are %q", c.table, columns, keys)
			}
		})
	}
	// A row given a column of a step kind's table is in one of them.
	stored := slices.Concat(fileSetColumns, dataloaderColumns, replayColumns)
	for _, f := range figure.In(figure.KindColumn) {
		if !slices.Contains(stored, f) {
			t.Errorf("figure %s has a catalog column of a step kind, but no table of one holds it", f.Name)
		}
	}
	if want := []float64{50, 90, 99, 99.9, 99.99}; !slices.Equal(catalogPercentiles, want) {
		t.Errorf("catalog percentiles %v, want %v", catalogPercentiles, want)
	}
}
