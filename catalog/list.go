package catalog

import (
	"context"
	"fmt"
)

// RunRow is one drive of one run, as ls lists it.
type RunRow struct {
	RunID    string `json:"run_id"`
	Created  string `json:"created"`
	Plan     string `json:"plan"`
	Testbed  string `json:"testbed"`
	Host     string `json:"host"`
	Drive    string `json:"drive"`
	Model    string `json:"model"`
	Serial   string `json:"serial"`
	Firmware string `json:"firmware"`
	Identity string `json:"identity"`
	Steps    int    `json:"steps"`
	// FileSets, Checkpoints and Dataloaders count the drive's steps on a
	// file set, checkpoints and dataloader steps: the rows it has in
	// step_files, checkpoints and step_dataloader.
	FileSets    int    `json:"file_set_steps"`
	Checkpoints int    `json:"checkpoints"`
	Dataloaders int    `json:"dataloaders"`
	Failed      int    `json:"failed_verdicts"`
	Dir         string `json:"source_dir"`
}

// stepsIn counts the steps of the run and drive of ls's row that have a
// row in table.
func stepsIn(table string) string {
	return `(SELECT COUNT(*) FROM ` + table + ` x JOIN steps s ON s.run_id = x.run_id AND s.step_id = x.step_id
		WHERE x.run_id = r.run_id AND s.drive = rd.drive)`
}

// Runs lists the drives of the runs that match f, newest first.
func (c *Catalog) Runs(ctx context.Context, f Filter) ([]RunRow, error) {
	cond, args := f.where(1)
	q := `SELECT r.run_id, r.created, r.plan, r.testbed, r.host, rd.drive, d.model, d.serial, rd.firmware, rd.identity, r.source_dir,
		(SELECT COUNT(*) FROM steps s WHERE s.run_id = r.run_id AND s.drive = rd.drive),
		` + stepsIn("step_files") + `, ` + stepsIn("checkpoints") + `, ` + stepsIn("step_dataloader") + `,
		(SELECT COUNT(*) FROM verdicts v WHERE v.run_id = r.run_id AND v.drive = rd.drive AND v.status IN ('fail', 'error'))
		FROM ` + runDrives + ` WHERE ` + cond + ` ORDER BY r.created DESC, r.run_id, rd.drive`
	rows, err := c.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, c.queryError(err)
	}
	defer rows.Close()
	var out []RunRow
	for rows.Next() {
		var r RunRow
		if err := rows.Scan(&r.RunID, &r.Created, &r.Plan, &r.Testbed, &r.Host, &r.Drive, &r.Model, &r.Serial, &r.Firmware,
			&r.Identity, &r.Dir, &r.Steps, &r.FileSets, &r.Checkpoints, &r.Dataloaders, &r.Failed); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// DriveRow is one drive of the catalog with the span of its runs.
type DriveRow struct {
	DriveID  string `json:"drive_id"`
	Model    string `json:"model"`
	Serial   string `json:"serial"`
	Firmware string `json:"firmware"`
	Capacity int64  `json:"capacity_bytes"`
	Runs     int    `json:"runs"`
	First    string `json:"first_run"`
	Last     string `json:"last_run"`
}

// Drives lists the drives with a run matching f, by model and serial.
// Firmware is the one of the drive's latest matching run. A drive without
// a model or a serial is named by its (first) run (modelLabel).
func (c *Catalog) Drives(ctx context.Context, f Filter) ([]DriveRow, error) {
	cond, args := f.where(1)
	q := `SELECT d.drive_id, d.model, d.serial, d.capacity_bytes, COUNT(*), MIN(r.created), MAX(r.created), MIN(r.run_id),
		(SELECT rd2.firmware FROM run_drives rd2 JOIN runs r2 ON r2.run_id = rd2.run_id WHERE rd2.drive_id = d.drive_id
			ORDER BY r2.created DESC LIMIT 1)
		FROM ` + runDrives + ` WHERE ` + cond + `
		GROUP BY d.drive_id, d.model, d.serial, d.capacity_bytes ORDER BY d.model, d.serial, d.drive_id`
	rows, err := c.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, c.queryError(err)
	}
	defer rows.Close()
	var out []DriveRow
	for rows.Next() {
		var d DriveRow
		var run string
		if err := rows.Scan(&d.DriveID, &d.Model, &d.Serial, &d.Capacity, &d.Runs, &d.First, &d.Last, &run, &d.Firmware); err != nil {
			return nil, err
		}
		d.Model, d.Serial = modelLabel(d.Model, run), serialLabel(d.Serial, run)
		out = append(out, d)
	}
	return out, rows.Err()
}

func (c *Catalog) queryError(err error) error {
	return fmt.Errorf("catalog %s: %w", c.Where, err)
}
