package catalog

import (
	"strings"

	"github.com/drivebench/drivebench/format"
)

// The tables below are the rows of each listing for terminals (human:
// figures written in their units) and for CSV (raw numbers: ns, B/s,
// bytes, with the unit in the column's name: "median (ns)").

// unitColumn is a column's name: for people as it is, its cells carry
// their units; for programs with the unit its raw numbers are in.
func unitColumn(name, unit string, human bool) string {
	if human || unit == "" {
		return name
	}
	return name + " (" + unit + ")"
}

// RunsTable lists runs.
func RunsTable(rows []RunRow) *Table {
	t := &Table{Columns: []string{"created", "run", "plan", "testbed", "drive", "model", "serial", "firmware", "identity", "steps",
		"file sets", "checkpoints", "dataloaders", "failed", "folder"}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []any{r.Created, r.RunID, r.Plan, r.Testbed, r.Drive, r.Model, r.Serial, r.Firmware, r.Identity, int64(r.Steps),
			int64(r.FileSets), int64(r.Checkpoints), int64(r.Dataloaders), int64(r.Failed), r.Dir})
	}
	return t
}

// DrivesTable lists drives.
func DrivesTable(rows []DriveRow, human bool) *Table {
	t := &Table{Columns: []string{"model", "serial", "firmware", unitColumn("capacity", "B", human), "runs", "first run", "last run"}}
	for _, d := range rows {
		t.Rows = append(t.Rows, []any{d.Model, d.Serial, d.Firmware, figureCell("B", float64(d.Capacity), human), int64(d.Runs), d.First, d.Last})
	}
	return t
}

// figureCell is a value for a table cell: written in its unit for people, raw
// for programs.
func figureCell(unit string, v float64, human bool) any {
	if !human {
		return v
	}
	if unit == "B" {
		return format.Bytes(uint64(max(v, 0)))
	}
	return FormatFigure(unit, v)
}

// FormatFigure writes a figure in its unit for people.
func FormatFigure(unit string, v float64) string {
	switch unit {
	case "ns":
		return format.Latency(v)
	case "B/s":
		return format.Bandwidth(v)
	}
	return format.Count(v)
}

// FleetTable has one row per group: drives, merged percentiles and the
// spread of the figure.
func FleetTable(f *Fleet, human bool) *Table {
	cols := []string{"model"}
	if f.GroupBy == "firmware" {
		cols = append(cols, "firmware")
	}
	cols = append(cols, "drives", "I/Os")
	for _, p := range FleetPercentiles {
		cols = append(cols, unitColumn("merged p"+format.Trim(p), "ns", human))
	}
	for _, c := range []string{f.Figure + " min", "median", "max", "MAD"} {
		cols = append(cols, unitColumn(c, f.Unit, human))
	}
	cols = append(cols, "outliers")
	t := &Table{Columns: cols}
	for _, g := range f.Groups {
		row := []any{g.Model}
		if f.GroupBy == "firmware" {
			row = append(row, g.Firmware)
		}
		row = append(row, int64(g.Drives), int64(g.IOs))
		for i := range FleetPercentiles {
			if i < len(g.Merged) {
				row = append(row, figureCell("ns", float64(g.Merged[i].Ns), human))
			} else {
				row = append(row, nil)
			}
		}
		var outliers []string
		for _, o := range g.Outliers {
			outliers = append(outliers, o.Serial)
		}
		row = append(row, figureCell(f.Unit, g.Min, human), figureCell(f.Unit, g.Median, human), figureCell(f.Unit, g.Max, human), figureCell(f.Unit, g.MAD, human), strings.Join(outliers, " "))
		t.Rows = append(t.Rows, row)
	}
	return t
}

// RollupTable has one row per line per model and firmware.
func RollupTable(rows []RollupRow) *Table {
	t := &Table{Columns: []string{"model", "firmware", "kind", "line", "pass", "warn", "fail", "other", "failing serials"}}
	for _, r := range rows {
		line := r.Name
		for _, more := range []string{r.Metric, r.Subject} {
			if more != "" {
				line += " " + more
			}
		}
		t.Rows = append(t.Rows, []any{r.Model, r.Firmware, r.Kind, line, int64(r.Pass), int64(r.Warn), int64(r.Fail), int64(r.Other), strings.Join(r.FailingSerials, " ")})
	}
	return t
}

// TrendTable has one row per model and firmware (or date).
func TrendTable(tr *Trend, human bool) *Table {
	t := &Table{Columns: []string{"model", tr.By, "runs", "drives"}}
	for _, c := range []string{tr.Figure + " min", "median", "max", "merged"} {
		t.Columns = append(t.Columns, unitColumn(c, tr.Unit, human))
	}
	for _, r := range tr.Rows {
		var merged any
		if r.Merged != nil {
			merged = figureCell(tr.Unit, *r.Merged, human)
		}
		t.Rows = append(t.Rows, []any{r.Model, r.X, int64(r.Runs), int64(r.Drives), figureCell(tr.Unit, r.Min, human), figureCell(tr.Unit, r.Median, human), figureCell(tr.Unit, r.Max, human), merged})
	}
	return t
}
