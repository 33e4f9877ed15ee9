package catalog

import (
	"context"
	"slices"
)

// RollupRow counts the verdicts of one line (a spec line of acceptance, a
// check or an expectation) on one model and firmware.
type RollupRow struct {
	Model    string `json:"model"`
	Firmware string `json:"firmware"`
	// Kind is acceptance, check or expect; Name the spec entry, check or
	// profile; Metric the spec line's figure (empty for checks).
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	Metric string `json:"metric,omitempty"`
	// Subject is what was judged, for expectations and checks that say:
	// the sweep point and the expression.
	Subject string `json:"subject,omitempty"`
	Pass    int    `json:"pass"`
	Warn    int    `json:"warn"`
	Fail    int    `json:"fail"`
	// Other counts skipped lines and hook errors.
	Other int `json:"other"`
	// FailingSerials are the drives with a fail or error on the line.
	FailingSerials []string `json:"failing_serials"`
}

// Rollup counts pass, warn and fail per line per model and firmware over
// every verdict of the matching runs.
func (c *Catalog) Rollup(ctx context.Context, f Filter) ([]RollupRow, error) {
	cond, args := f.where(1)
	q := `SELECT d.model, rd.firmware, v.kind, v.name, v.metric, v.subject,
		SUM(CASE WHEN v.status = 'pass' THEN 1 ELSE 0 END),
		SUM(CASE WHEN v.status = 'warn' THEN 1 ELSE 0 END),
		SUM(CASE WHEN v.status = 'fail' THEN 1 ELSE 0 END),
		SUM(CASE WHEN v.status NOT IN ('pass', 'warn', 'fail') THEN 1 ELSE 0 END)
		FROM ` + runDrives + ` JOIN verdicts v ON v.run_id = r.run_id AND v.drive = rd.drive
		WHERE ` + cond + `
		GROUP BY d.model, rd.firmware, v.kind, v.name, v.metric, v.subject
		ORDER BY d.model, rd.firmware, v.kind, v.name, v.metric, v.subject`
	rows, err := c.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, c.queryError(err)
	}
	defer rows.Close()
	var out []RollupRow
	index := map[[6]string]int{}
	for rows.Next() {
		var r RollupRow
		if err := rows.Scan(&r.Model, &r.Firmware, &r.Kind, &r.Name, &r.Metric, &r.Subject, &r.Pass, &r.Warn, &r.Fail, &r.Other); err != nil {
			return nil, err
		}
		r.FailingSerials = []string{}
		index[[6]string{r.Model, r.Firmware, r.Kind, r.Name, r.Metric, r.Subject}] = len(out)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, c.failingSerials(ctx, cond, args, out, index)
}

// failingSerials fills in which drives failed each line.
func (c *Catalog) failingSerials(ctx context.Context, cond string, args []any, out []RollupRow, index map[[6]string]int) error {
	q := `SELECT DISTINCT d.model, rd.firmware, v.kind, v.name, v.metric, v.subject, d.serial
		FROM ` + runDrives + ` JOIN verdicts v ON v.run_id = r.run_id AND v.drive = rd.drive
		WHERE v.status IN ('fail', 'error') AND ` + cond + `
		ORDER BY d.serial`
	rows, err := c.db.QueryContext(ctx, q, args...)
	if err != nil {
		return c.queryError(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k [6]string
		var serial string
		if err := rows.Scan(&k[0], &k[1], &k[2], &k[3], &k[4], &k[5], &serial); err != nil {
			return err
		}
		if i, ok := index[k]; ok && !slices.Contains(out[i].FailingSerials, serial) {
			out[i].FailingSerials = append(out[i].FailingSerials, serial)
		}
	}
	return rows.Err()
}
