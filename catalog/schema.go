package catalog

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// migrations[i] takes a catalog from schema version i to i+1. Each runs in
// one transaction with the version bump, so a migration is applied wholly
// or not at all. The SQL is the same on SQLite and PostgreSQL except for
// the {blob} type, which is BLOB on one and BYTEA on the other. Append to
// this list; never edit an entry that has been released.
var migrations = []string{
	// 1: runs, drives, the drives of each run, steps with their figures,
	// latency per direction with the histogram, other metrics, verdicts and
	// health documents.
	`CREATE TABLE runs (
		run_id             TEXT PRIMARY KEY,
		content_hash       TEXT NOT NULL,
		plan               TEXT NOT NULL,
		plan_file          TEXT NOT NULL,
		plan_hash          TEXT NOT NULL,
		created            TEXT NOT NULL,
		drivebench_version TEXT NOT NULL,
		testbed            TEXT NOT NULL,
		host               TEXT NOT NULL,
		testbed_json       TEXT NOT NULL,
		source_dir         TEXT NOT NULL,
		added              TEXT NOT NULL
	);
	CREATE INDEX runs_created ON runs (created);
	CREATE INDEX runs_plan ON runs (plan);
	CREATE TABLE drives (
		drive_id       TEXT PRIMARY KEY,
		model          TEXT NOT NULL,
		serial         TEXT NOT NULL,
		vendor         TEXT NOT NULL,
		capacity_bytes BIGINT NOT NULL
	);
	CREATE INDEX drives_model ON drives (model);
	CREATE TABLE run_drives (
		run_id     TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
		drive      TEXT NOT NULL,
		drive_id   TEXT NOT NULL REFERENCES drives (drive_id),
		firmware   TEXT NOT NULL,
		identity   TEXT NOT NULL,
		path       TEXT NOT NULL,
		size_bytes BIGINT NOT NULL,
		facts_json TEXT NOT NULL,
		PRIMARY KEY (run_id, drive)
	);
	CREATE INDEX run_drives_drive_id ON run_drives (drive_id);
	CREATE TABLE steps (
		run_id        TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
		step_id       TEXT NOT NULL,
		drive         TEXT NOT NULL,
		kind          TEXT NOT NULL,
		name          TEXT NOT NULL,
		source        TEXT NOT NULL,
		pass          INTEGER NOT NULL,
		point         TEXT NOT NULL,
		engine        TEXT NOT NULL,
		workload_json TEXT NOT NULL,
		status        TEXT NOT NULL,
		error         TEXT NOT NULL,
		started       TEXT NOT NULL,
		finished      TEXT NOT NULL,
		runtime_ns    BIGINT NOT NULL,
		iops          DOUBLE PRECISION,
		bw_bytes      DOUBLE PRECISION,
		PRIMARY KEY (run_id, step_id)
	);
	CREATE INDEX steps_source_point ON steps (source, point);
	CREATE TABLE step_latency (
		run_id        TEXT NOT NULL,
		step_id       TEXT NOT NULL,
		direction     TEXT NOT NULL,
		ios           BIGINT NOT NULL,
		bytes         BIGINT NOT NULL,
		iops          DOUBLE PRECISION NOT NULL,
		bw_bytes      DOUBLE PRECISION NOT NULL,
		lat_min_ns    BIGINT NOT NULL,
		lat_max_ns    BIGINT NOT NULL,
		lat_mean_ns   DOUBLE PRECISION NOT NULL,
		lat_stddev_ns DOUBLE PRECISION NOT NULL,
		p50_ns        BIGINT,
		p90_ns        BIGINT,
		p99_ns        BIGINT,
		p999_ns       BIGINT,
		p9999_ns      BIGINT,
		histogram     {blob},
		PRIMARY KEY (run_id, step_id, direction),
		FOREIGN KEY (run_id, step_id) REFERENCES steps (run_id, step_id) ON DELETE CASCADE
	);
	CREATE TABLE step_metrics (
		run_id  TEXT NOT NULL,
		step_id TEXT NOT NULL,
		name    TEXT NOT NULL,
		value   DOUBLE PRECISION NOT NULL,
		PRIMARY KEY (run_id, step_id, name),
		FOREIGN KEY (run_id, step_id) REFERENCES steps (run_id, step_id) ON DELETE CASCADE
	);
	CREATE TABLE verdicts (
		run_id   TEXT NOT NULL,
		step_id  TEXT NOT NULL,
		seq      INTEGER NOT NULL,
		drive    TEXT NOT NULL,
		kind     TEXT NOT NULL,
		name     TEXT NOT NULL,
		metric   TEXT NOT NULL,
		status   TEXT NOT NULL,
		message  TEXT NOT NULL,
		claimed  DOUBLE PRECISION,
		measured DOUBLE PRECISION,
		location TEXT NOT NULL,
		PRIMARY KEY (run_id, step_id, seq),
		FOREIGN KEY (run_id, step_id) REFERENCES steps (run_id, step_id) ON DELETE CASCADE
	);
	CREATE INDEX verdicts_name ON verdicts (kind, name);
	CREATE TABLE health (
		run_id   TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
		drive    TEXT NOT NULL,
		document TEXT NOT NULL,
		PRIMARY KEY (run_id, drive)
	)`,
	// 2: what each verdict judged, the same in every run (a sweep point and
	// an expectation's expression), so verdicts of many runs line up.
	`ALTER TABLE verdicts ADD COLUMN subject TEXT NOT NULL DEFAULT ''`,
	// 3: the SMART/health readings before and after each run, as columns.
	// The counters are 128-bit in NVMe, so they are kept as decimal text.
	`CREATE TABLE smart (
		run_id              TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
		drive               TEXT NOT NULL,
		phase               TEXT NOT NULL,
		time                TEXT NOT NULL,
		temperature_c       INTEGER,
		critical_warnings   TEXT NOT NULL,
		available_spare_pct INTEGER NOT NULL,
		percent_used        INTEGER NOT NULL,
		data_units_read     TEXT NOT NULL,
		data_units_written  TEXT NOT NULL,
		media_errors        TEXT NOT NULL,
		error_log_entries   TEXT NOT NULL,
		power_on_hours      TEXT NOT NULL,
		unsafe_shutdowns    TEXT NOT NULL,
		PRIMARY KEY (run_id, drive, phase)
	)`,
	// 4: query speed. Each verdict carries its drive's model, firmware and
	// serial (NULL for a verdict on no drive of the run), so the roll-up
	// reads one covering index in its GROUP BY order instead of joining
	// every verdict to its drive; and one covering index on steps finds
	// a profile point's steps with their drives, in run order.
	`ALTER TABLE verdicts ADD COLUMN model TEXT;
	ALTER TABLE verdicts ADD COLUMN firmware TEXT;
	ALTER TABLE verdicts ADD COLUMN serial TEXT;
	` + verdictDrives + `;
	CREATE INDEX verdicts_rollup ON verdicts (model, firmware, kind, name, metric, subject, status, serial, run_id);
	CREATE INDEX steps_point_drive ON steps (source, point, status, run_id, drive, step_id)`,
	// 5: why each verdict came out as it did, the record's code (within,
	// short, over, holds, does_not_hold, hook...), so a fleet's verdicts
	// can be counted by cause; '' for verdicts added before.
	`ALTER TABLE verdicts ADD COLUMN code TEXT NOT NULL DEFAULT ''`,
	// 6: what a step on a file set, a checkpoint and a dataloader
	// measured besides their data I/O: the set and its setup with each
	// job's span, each metadata operation's latency (histogram too, so
	// they merge across runs like step_latency's), a checkpoint's passes
	// and a dataloader's accelerator. The figures' columns are named as
	// the catalog names figures (figure.Column's rule).
	`CREATE TABLE step_files (
		run_id             TEXT NOT NULL,
		step_id            TEXT NOT NULL,
		files              INTEGER NOT NULL,
		dirs               INTEGER NOT NULL,
		bytes              BIGINT NOT NULL,
		setup_created      INTEGER NOT NULL,
		setup_reused       INTEGER NOT NULL,
		setup_seconds      DOUBLE PRECISION NOT NULL,
		setup_measured     INTEGER NOT NULL,
		slowest_job_s      DOUBLE PRECISION NOT NULL,
		lowest_job_bw_bytes DOUBLE PRECISION NOT NULL,
		aggregate_bw_bytes DOUBLE PRECISION NOT NULL,
		PRIMARY KEY (run_id, step_id),
		FOREIGN KEY (run_id, step_id) REFERENCES steps (run_id, step_id) ON DELETE CASCADE
	);
	CREATE TABLE step_file_ops (
		run_id        TEXT NOT NULL,
		step_id       TEXT NOT NULL,
		op            TEXT NOT NULL,
		count         BIGINT NOT NULL,
		lat_mean_ns   DOUBLE PRECISION NOT NULL,
		lat_min_ns    BIGINT NOT NULL,
		lat_max_ns    BIGINT NOT NULL,
		lat_stddev_ns DOUBLE PRECISION NOT NULL,
		p50_ns        BIGINT,
		p90_ns        BIGINT,
		p99_ns        BIGINT,
		p999_ns       BIGINT,
		p9999_ns      BIGINT,
		histogram     {blob},
		PRIMARY KEY (run_id, step_id, op),
		FOREIGN KEY (run_id, step_id) REFERENCES steps (run_id, step_id) ON DELETE CASCADE
	);
	CREATE TABLE step_file_jobs (
		run_id   TEXT NOT NULL,
		step_id  TEXT NOT NULL,
		job      INTEGER NOT NULL,
		bytes    BIGINT NOT NULL,
		seconds  DOUBLE PRECISION NOT NULL,
		bw_bytes DOUBLE PRECISION NOT NULL,
		PRIMARY KEY (run_id, step_id, job),
		FOREIGN KEY (run_id, step_id) REFERENCES steps (run_id, step_id) ON DELETE CASCADE
	);
	CREATE TABLE checkpoints (
		run_id        TEXT NOT NULL,
		step_id       TEXT NOT NULL,
		ranks         INTEGER NOT NULL,
		bytes         BIGINT NOT NULL,
		file_per_rank INTEGER NOT NULL,
		PRIMARY KEY (run_id, step_id),
		FOREIGN KEY (run_id, step_id) REFERENCES steps (run_id, step_id) ON DELETE CASCADE
	);
	CREATE TABLE checkpoint_phases (
		run_id               TEXT NOT NULL,
		step_id              TEXT NOT NULL,
		pass                 INTEGER NOT NULL,
		phase                TEXT NOT NULL,
		phase_step_id        TEXT NOT NULL,
		seconds              DOUBLE PRECISION NOT NULL,
		lowest_rank_bw_bytes DOUBLE PRECISION NOT NULL,
		aggregate_bw_bytes   DOUBLE PRECISION NOT NULL,
		cache_drop           TEXT NOT NULL,
		PRIMARY KEY (run_id, step_id, pass, phase),
		FOREIGN KEY (run_id, step_id) REFERENCES checkpoints (run_id, step_id) ON DELETE CASCADE
	);
	CREATE TABLE step_dataloader (
		run_id               TEXT NOT NULL,
		step_id              TEXT NOT NULL,
		samples              BIGINT NOT NULL,
		batches              BIGINT NOT NULL,
		epochs               INTEGER NOT NULL,
		compute_ns           BIGINT NOT NULL,
		au                   DOUBLE PRECISION NOT NULL,
		samples_per_s        DOUBLE PRECISION NOT NULL,
		batch_wait_mean_ns   DOUBLE PRECISION NOT NULL,
		batch_wait_p50_ns    DOUBLE PRECISION NOT NULL,
		batch_wait_p99_ns    DOUBLE PRECISION NOT NULL,
		batch_wait_max_ns    DOUBLE PRECISION NOT NULL,
		batch_wait_histogram {blob},
		PRIMARY KEY (run_id, step_id),
		FOREIGN KEY (run_id, step_id) REFERENCES steps (run_id, step_id) ON DELETE CASCADE
	)`,
	// 7: what a trace replay did beside its I/O: the trace's reads and
	// writes against those it issued, how it was paced, and the lag of
	// each issue behind its scheduled time, the figure registry's replay
	// rows named by figure.Column's rule, with the lag histogram so that
	// lags merge across runs as latencies do.
	`CREATE TABLE step_replay (
		run_id        TEXT NOT NULL,
		step_id       TEXT NOT NULL,
		trace_ios     BIGINT NOT NULL,
		trace_bytes   BIGINT NOT NULL,
		issued_ios    BIGINT NOT NULL,
		issued_bytes  BIGINT NOT NULL,
		trace_ns      BIGINT NOT NULL,
		schedule_ns   BIGINT NOT NULL,
		speed         DOUBLE PRECISION NOT NULL,
		iodepth       INTEGER NOT NULL,
		slot_waits    BIGINT NOT NULL,
		lag_mean_ns   DOUBLE PRECISION NOT NULL,
		lag_p50_ns    DOUBLE PRECISION NOT NULL,
		lag_p99_ns    DOUBLE PRECISION NOT NULL,
		lag_max_ns    DOUBLE PRECISION NOT NULL,
		lag_histogram {blob},
		PRIMARY KEY (run_id, step_id),
		FOREIGN KEY (run_id, step_id) REFERENCES steps (run_id, step_id) ON DELETE CASCADE
	)`,
}

// verdictDrives fills the model, firmware and serial of the verdicts of a
// catalog older than version 4 from the drives of their run; adding a run
// writes them with its verdicts.
const verdictDrives = `UPDATE verdicts SET
	model = (SELECT d.model FROM run_drives rd JOIN drives d ON d.drive_id = rd.drive_id
		WHERE rd.run_id = verdicts.run_id AND rd.drive = verdicts.drive),
	firmware = (SELECT rd.firmware FROM run_drives rd WHERE rd.run_id = verdicts.run_id AND rd.drive = verdicts.drive),
	serial = (SELECT d.serial FROM run_drives rd JOIN drives d ON d.drive_id = rd.drive_id
		WHERE rd.run_id = verdicts.run_id AND rd.drive = verdicts.drive)`

// SchemaVersion is the version of the schema this drivebench writes.
var SchemaVersion = len(migrations)

// NewerSchemaError is returned for a catalog written by a newer
// drivebench.
type NewerSchemaError struct {
	Where         string
	Version, Know int
}

func (e *NewerSchemaError) Error() string {
	return fmt.Sprintf("catalog %s has schema version %d, but this drivebench knows versions up to %d: "+
		"it was written by a newer drivebench; upgrade drivebench to use it (the catalog is left unchanged)", e.Where, e.Version, e.Know)
}

// migrate brings the schema to SchemaVersion, or refuses a newer one.
func (c *Catalog) migrate(ctx context.Context) error {
	return c.migrateTo(ctx, SchemaVersion)
}

// migrateTo applies migrations up to version target.
func (c *Catalog) migrateTo(ctx context.Context, target int) error {
	for {
		done, err := c.migrateOne(ctx, target)
		if err != nil || done {
			return err
		}
	}
}

// migrateOne applies the next migration, if any; done is true when the
// schema is at version target. Concurrent openers are serialised: SQLite's
// transactions here take the write lock at BEGIN, and on PostgreSQL an
// advisory lock held to the end of the transaction does the same.
func (c *Catalog) migrateOne(ctx context.Context, target int) (done bool, err error) {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return false, c.openError(err)
	}
	defer tx.Rollback()
	if c.postgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7417001)`); err != nil {
			return false, c.openError(err)
		}
	}
	for _, stmt := range []string{
		`CREATE TABLE IF NOT EXISTS catalog_schema (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)`,
		`INSERT INTO catalog_schema (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING`,
	} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return false, c.openError(err)
		}
	}
	var v int
	if err := tx.QueryRowContext(ctx, `SELECT version FROM catalog_schema WHERE id = 1`).Scan(&v); err != nil {
		return false, c.openError(err)
	}
	switch {
	case v > SchemaVersion:
		return false, &NewerSchemaError{Where: c.Where, Version: v, Know: SchemaVersion}
	case v >= target:
		return true, nil
	}
	for _, stmt := range c.statements(migrations[v]) {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return false, fmt.Errorf("catalog %s: migrating the schema to version %d: %w", c.Where, v+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE catalog_schema SET version = $1 WHERE id = 1`, v+1); err != nil {
		return false, c.openError(err)
	}
	return false, tx.Commit()
}

// statements splits a migration into statements and puts in the
// database's type names.
func (c *Catalog) statements(migration string) []string {
	blob := "BLOB"
	if c.postgres {
		blob = "BYTEA"
	}
	var out []string
	for _, s := range strings.Split(migration, ";") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, strings.ReplaceAll(s, "{blob}", blob))
		}
	}
	return out
}

func (c *Catalog) openError(err error) error {
	if !c.postgres && strings.Contains(err.Error(), "file is not a database") {
		return fmt.Errorf("catalog %s is not an SQLite database: name a catalog file drivebench made, a file that does not exist yet, or a postgres:// DSN (%w)", c.Where, err)
	}
	return fmt.Errorf("catalog %s: %w", c.Where, err)
}

// Version reads the catalog's schema version.
func (c *Catalog) Version(ctx context.Context) (int, error) {
	var v int
	err := c.db.QueryRowContext(ctx, `SELECT version FROM catalog_schema WHERE id = 1`).Scan(&v)
	if err == sql.ErrNoRows {
		return 0, nil
	}
	return v, err
}
