package catalog

import (
	"cmp"
	"context"
	"slices"

	"github.com/drivebench/drivebench/results"
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
// every verdict of the matching runs. One pass over the verdicts, counted
// per drive in SQL, then per line here, gives both the counts and the
// failing serials. The verdicts carry their drive's model, firmware and
// serial (schema version 4), so the pass reads the verdicts_rollup index
// in its GROUP BY order and joins runs only for a filter on them. The
// verdicts of drives without a model or a serial, which each run names
// apart (modelLabel, serialLabel), are counted by a second pass that
// groups them by run too.
func (c *Catalog) Rollup(ctx context.Context, f Filter) ([]RollupRow, error) {
	cond, args := f.whereOn(1, "v.model", "v.firmware", "v.serial")
	from := "verdicts v"
	if f.onRuns() {
		from += " JOIN runs r ON r.run_id = v.run_id"
	}
	lines := map[[6]string]*RollupRow{}
	identified := `SELECT '', v.model, v.firmware, v.kind, v.name, v.metric, v.subject, v.status, v.serial, COUNT(*)
		FROM ` + from + `
		WHERE v.model IS NOT NULL AND v.model <> '' AND v.serial <> '' AND ` + cond + `
		GROUP BY v.model, v.firmware, v.kind, v.name, v.metric, v.subject, v.status, v.serial`
	unidentified := `SELECT v.run_id, v.model, v.firmware, v.kind, v.name, v.metric, v.subject, v.status, v.serial, COUNT(*)
		FROM ` + from + `
		WHERE (v.model = '' OR v.serial = '') AND ` + cond + `
		GROUP BY v.run_id, v.model, v.firmware, v.kind, v.name, v.metric, v.subject, v.status, v.serial`
	for _, q := range []string{identified, unidentified} {
		if err := c.countVerdicts(ctx, q, args, lines); err != nil {
			return nil, err
		}
	}
	out := make([]RollupRow, 0, len(lines))
	for _, r := range lines {
		slices.Sort(r.FailingSerials)
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b RollupRow) int {
		return cmp.Or(cmp.Compare(a.Model, b.Model), cmp.Compare(a.Firmware, b.Firmware), cmp.Compare(a.Kind, b.Kind),
			cmp.Compare(a.Name, b.Name), cmp.Compare(a.Metric, b.Metric), cmp.Compare(a.Subject, b.Subject))
	})
	return out, nil
}

// countVerdicts adds the verdict counts query q returns (run, model,
// firmware, kind, name, metric, subject, status, serial, count) to lines.
func (c *Catalog) countVerdicts(ctx context.Context, q string, args []any, lines map[[6]string]*RollupRow) error {
	rows, err := c.db.QueryContext(ctx, q, args...)
	if err != nil {
		return c.queryError(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k [6]string
		var run, status, serial string
		var n int
		if err := rows.Scan(&run, &k[0], &k[1], &k[2], &k[3], &k[4], &k[5], &status, &serial, &n); err != nil {
			return err
		}
		k[0], serial = modelLabel(k[0], run), serialLabel(serial, run)
		r := lines[k]
		if r == nil {
			r = &RollupRow{Model: k[0], Firmware: k[1], Kind: k[2], Name: k[3], Metric: k[4], Subject: k[5], FailingSerials: []string{}}
			lines[k] = r
		}
		switch status {
		case results.VerdictPass:
			r.Pass += n
		case results.VerdictWarn:
			r.Warn += n
		case results.VerdictFail:
			r.Fail += n
		default:
			r.Other += n
		}
		if (status == results.VerdictFail || status == results.VerdictError) && !slices.Contains(r.FailingSerials, serial) {
			r.FailingSerials = append(r.FailingSerials, serial)
		}
	}
	if err := rows.Err(); err != nil {
		return c.queryError(err)
	}
	return nil
}
