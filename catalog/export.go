package catalog

import (
	"context"
	"strconv"
)

// Export is each matching drive's latest run: its figures and verdicts.
type Export struct {
	Drives []ExportDrive `json:"drives"`
}

// ExportDrive is one drive's latest run.
type ExportDrive struct {
	Model    string          `json:"model"`
	Serial   string          `json:"serial"`
	Firmware string          `json:"firmware"`
	RunID    string          `json:"run_id"`
	Created  string          `json:"created"`
	Plan     string          `json:"plan"`
	Drive    string          `json:"drive"`
	Figures  []ExportFigure  `json:"figures"`
	Verdicts []ExportVerdict `json:"verdicts"`
}

// ExportFigure is one direction of one step. Percentiles are in ns, nil
// when the record had none.
type ExportFigure struct {
	StepID    string            `json:"step_id"`
	Profile   string            `json:"profile"`
	Point     string            `json:"point"`
	Direction string            `json:"direction"`
	IOPS      float64           `json:"iops"`
	BW        float64           `json:"bw_bytes"`
	MeanNs    float64           `json:"lat_mean_ns"`
	IOs       int64             `json:"ios"`
	Pct       map[string]*int64 `json:"percentiles_ns"`
}

// ExportVerdict is one verdict of the run on the drive.
type ExportVerdict struct {
	StepID string `json:"step_id"`
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	Metric string `json:"metric,omitempty"`
	// Subject is what the verdict judged (a point and expression, a spec
	// figure, a hook's check).
	Subject string `json:"subject,omitempty"`
	Status  string `json:"status"`
	// Code says why (within, short, over, holds, does_not_hold, hook...);
	// empty for a verdict added to the catalog before it kept codes.
	Code string `json:"code,omitempty"`
}

// latestRuns picks, for each drive matching f, its newest matching run.
func latestRuns(cond string) string {
	return `WITH m AS (
		SELECT r.run_id, r.created, r.plan, rd.drive, rd.firmware, d.drive_id, d.model, d.serial,
			ROW_NUMBER() OVER (PARTITION BY d.drive_id ORDER BY r.created DESC, r.run_id DESC) AS n
		FROM ` + runDrives + ` WHERE ` + cond + `)
	SELECT run_id, created, plan, drive, firmware, model, serial FROM m WHERE n = 1`
}

// Export reads each matching drive's latest run.
func (c *Catalog) Export(ctx context.Context, f Filter) (*Export, error) {
	cond, args := f.where(1)
	rows, err := c.db.QueryContext(ctx, latestRuns(cond)+` ORDER BY model, serial, run_id`, args...)
	if err != nil {
		return nil, c.queryError(err)
	}
	out := &Export{Drives: []ExportDrive{}}
	for rows.Next() {
		var d ExportDrive
		if err := rows.Scan(&d.RunID, &d.Created, &d.Plan, &d.Drive, &d.Firmware, &d.Model, &d.Serial); err != nil {
			rows.Close()
			return nil, err
		}
		out.Drives = append(out.Drives, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out.Drives {
		if err := c.exportDrive(ctx, &out.Drives[i]); err != nil {
			return nil, c.queryError(err)
		}
	}
	return out, nil
}

func (c *Catalog) exportDrive(ctx context.Context, d *ExportDrive) error {
	rows, err := c.db.QueryContext(ctx, `SELECT s.step_id, s.source, s.point, l.direction, l.iops, l.bw_bytes, l.lat_mean_ns, l.ios,
		l.p50_ns, l.p90_ns, l.p99_ns, l.p999_ns, l.p9999_ns
		FROM steps s JOIN step_latency l ON l.run_id = s.run_id AND l.step_id = s.step_id
		WHERE s.run_id = $1 AND s.drive = $2 AND s.status = 'ok' ORDER BY s.source, s.point, s.step_id, l.direction`, d.RunID, d.Drive)
	if err != nil {
		return err
	}
	d.Figures = []ExportFigure{}
	for rows.Next() {
		var e ExportFigure
		p := make([]*int64, len(catalogPercentiles))
		if err := rows.Scan(&e.StepID, &e.Profile, &e.Point, &e.Direction, &e.IOPS, &e.BW, &e.MeanNs, &e.IOs, &p[0], &p[1], &p[2], &p[3], &p[4]); err != nil {
			rows.Close()
			return err
		}
		e.Pct = map[string]*int64{}
		for i, q := range catalogPercentiles {
			e.Pct[strconv.FormatFloat(q, 'f', -1, 64)] = p[i]
		}
		d.Figures = append(d.Figures, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	vr, err := c.db.QueryContext(ctx, `SELECT step_id, kind, name, metric, subject, status, code FROM verdicts WHERE run_id = $1 AND drive = $2 ORDER BY step_id, seq`, d.RunID, d.Drive)
	if err != nil {
		return err
	}
	defer vr.Close()
	d.Verdicts = []ExportVerdict{}
	for vr.Next() {
		var v ExportVerdict
		if err := vr.Scan(&v.StepID, &v.Kind, &v.Name, &v.Metric, &v.Subject, &v.Status, &v.Code); err != nil {
			return err
		}
		d.Verdicts = append(d.Verdicts, v)
	}
	return vr.Err()
}

// ExportTable has one row per figure of each drive's latest run (CSV).
func ExportTable(e *Export) *Table {
	t := &Table{Columns: []string{"model", "serial", "firmware", "run", "created", "plan", "step", "profile", "point", "direction", "iops", "bw_bytes", "lat_mean_ns"}}
	for _, p := range catalogPercentiles {
		t.Columns = append(t.Columns, "p"+strconv.FormatFloat(p, 'f', -1, 64)+"_ns")
	}
	for _, d := range e.Drives {
		for _, f := range d.Figures {
			row := []any{d.Model, d.Serial, d.Firmware, d.RunID, d.Created, d.Plan, f.StepID, f.Profile, f.Point, f.Direction, f.IOPS, f.BW, f.MeanNs}
			for _, p := range catalogPercentiles {
				if v := f.Pct[strconv.FormatFloat(p, 'f', -1, 64)]; v != nil {
					row = append(row, *v)
				} else {
					row = append(row, nil)
				}
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}
