package catalog

import (
	"cmp"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// What Add did with a results folder.
const (
	Added     = "added"
	Unchanged = "unchanged"
	Replaced  = "replaced"
)

// AddResult describes one results folder added to the catalog.
type AddResult struct {
	Dir    string
	RunID  string
	Plan   string
	Status string // Added, Unchanged or Replaced
	Steps  int
}

// Add reads the results folder dir and puts its run in the catalog in one
// transaction. A folder that does not parse is refused whole, before the
// database is touched. The same run added again is kept once: unchanged
// when its records are the same, replaced when they have changed (a
// resumed run that finished more steps).
func (c *Catalog) Add(ctx context.Context, dir string) (AddResult, error) {
	f, err := results.Open(dir)
	if err != nil {
		return AddResult{Dir: dir}, err
	}
	recs, err := f.Records()
	if err != nil {
		return AddResult{Dir: dir}, err
	}
	health, err := f.Health()
	if err != nil {
		return AddResult{Dir: dir}, fmt.Errorf("%s: %w", dir, err)
	}
	return c.AddRecords(ctx, dir, f.Manifest, recs, health)
}

// AddRecords adds a run that is already in memory, read from (or about
// to be written to) the results folder dir, as Add does.
func (c *Catalog) AddRecords(ctx context.Context, dir string, m *results.Manifest, recs []*results.Record, health map[string]*results.Health) (AddResult, error) {
	if c.reading {
		return AddResult{Dir: dir}, fmt.Errorf("add %s to catalog %s: the catalog was opened to read", dir, c.Where)
	}
	run, err := newRun(dir, m, recs, health)
	if err != nil {
		return AddResult{Dir: dir}, err
	}
	status, err := c.store(ctx, run)
	if err != nil {
		return AddResult{Dir: dir}, fmt.Errorf("add %s to catalog %s: %w", dir, c.Where, err)
	}
	return AddResult{Dir: dir, RunID: run.id, Plan: m.Plan, Status: status, Steps: len(recs)}, nil
}

// run is a results folder read whole, before anything is stored.
type run struct {
	dir         string
	id, content string
	manifest    *results.Manifest
	records     []*results.Record
	health      map[string]*results.Health
}

func newRun(dir string, m *results.Manifest, recs []*results.Record, health map[string]*results.Health) (*run, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	r := &run{dir: abs, manifest: m, records: recs, health: health}
	r.id = runID(m, recs)
	if r.content, err = contentHash(m, recs, health); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return r, nil
}

// runID names a run by what stays the same when it is resumed or its
// folder is copied: the plan, the testbed's host and the start of its
// first step (the manifest's creation time when no step has run). The
// manifest's own time is rewritten by each resume.
func runID(m *results.Manifest, recs []*results.Record) string {
	start := m.Created
	for _, r := range recs {
		if !r.Started.IsZero() && r.Started.Before(start) {
			start = r.Started
		}
	}
	return shortHash(m.Plan, m.Testbed.Name, m.Testbed.Detected["hostname"], start.UTC().Format(time.RFC3339Nano))
}

// contentHash tells whether a run already in the catalog has changed. It
// hashes the records as JSON, but their histograms in the compact binary
// form: the JSON form of hundreds of bins per histogram would cost more
// than the rest of an add.
func contentHash(m *results.Manifest, recs []*results.Record, health map[string]*results.Health) (string, error) {
	h := sha256.New()
	enc := json.NewEncoder(h)
	for _, v := range []any{m, health} {
		if err := enc.Encode(v); err != nil {
			return "", err
		}
	}
	for _, r := range recs {
		light := *r
		if r.Result != nil {
			res := *r.Result
			res.Read, res.Write = withoutHistogram(h, res.Read), withoutHistogram(h, res.Write)
			light.Result = &res
		}
		if err := enc.Encode(&light); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// withoutHistogram writes d's histogram to w in binary and returns d
// without it.
func withoutHistogram(w io.Writer, d *metrics.DirStats) *metrics.DirStats {
	if d == nil || d.Hist == nil {
		return d
	}
	bin, _ := d.Hist.MarshalBinary()
	w.Write(bin)
	light := *d
	light.Hist = nil
	return &light
}

func shortHash(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:8])
}

// store writes the run's rows in one transaction.
func (c *Catalog) store(ctx context.Context, r *run) (string, error) {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	status := Added
	var content string
	switch err := tx.QueryRowContext(ctx, `SELECT content_hash FROM runs WHERE run_id = $1`, r.id).Scan(&content); {
	case err == sql.ErrNoRows:
	case err != nil:
		return "", err
	case content == r.content:
		return Unchanged, nil
	default:
		if _, err := tx.ExecContext(ctx, `DELETE FROM runs WHERE run_id = $1`, r.id); err != nil {
			return "", err
		}
		status = Replaced
	}
	inserted, err := c.insertRun(ctx, tx, r)
	if err != nil {
		return "", err
	}
	if !inserted {
		// Another process added the same run between our look and our
		// insert; its copy is the one kept.
		return Unchanged, nil
	}
	if err := c.insertDrives(ctx, tx, r); err != nil {
		return "", err
	}
	for _, b := range stepRows(r) {
		if err := b.exec(ctx, tx, c.postgres); err != nil {
			return "", err
		}
	}
	return status, tx.Commit()
}

func (c *Catalog) insertRun(ctx context.Context, tx *sql.Tx, r *run) (bool, error) {
	m := r.manifest
	testbed, err := json.Marshal(m.Testbed)
	if err != nil {
		return false, err
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO runs (run_id, content_hash, plan, plan_file, plan_hash, created,
		drivebench_version, testbed, host, testbed_json, source_dir, added)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (run_id) DO NOTHING`,
		r.id, r.content, m.Plan, m.PlanFile, m.PlanHash, timeText(m.Created), m.Version, m.Testbed.Name,
		m.Testbed.Detected["hostname"], string(testbed), r.dir, timeText(time.Now()))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// timeText is the stored form of a time: RFC 3339 in UTC, which sorts as
// text and compares with dates written as 2026-03-01.
func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// identity is a drive as the catalog keys it.
type identity struct {
	id, model, serial, firmware, vendor, source string
	capacity                                    int64
}

// driveIdentity takes what the drive reported (NVMe identify, sysfs)
// first, and what the plan declared for what it did not
// (results.Identity). A drive with no serial either way is a drive of
// its own in each run.
func driveIdentity(runID string, d results.Drive) identity {
	ident := d.Identity()
	k := ident.Known()
	id := identity{model: k.Model, serial: k.Serial, firmware: k.Firmware, vendor: k.Vendor, capacity: cmp.Or(k.CapacityBytes, d.Size), source: "none"}
	var detected, declared bool
	for _, f := range [][2]string{
		{ident.Detected.Model, ident.Declared.Model}, {ident.Detected.Serial, ident.Declared.Serial},
		{ident.Detected.Firmware, ident.Declared.Firmware}, {ident.Detected.Vendor, ident.Declared.Vendor},
	} {
		detected = detected || f[0] != ""
		declared = declared || f[0] == "" && f[1] != ""
	}
	switch {
	case detected && declared:
		id.source = "detected+declared"
	case detected:
		id.source = "detected"
	case declared:
		id.source = "declared"
	}
	if id.serial == "" {
		id.id = shortHash("unidentified", runID, d.Name)
	} else {
		id.id = shortHash(id.model, id.serial)
	}
	return id
}

func (c *Catalog) insertDrives(ctx context.Context, tx *sql.Tx, r *run) error {
	rd := newBatch("run_drives", "run_id", "drive", "drive_id", "firmware", "identity", "path", "size_bytes", "facts_json")
	for _, d := range r.manifest.Drives {
		id := driveIdentity(r.id, d)
		// The latest run's view of a drive's model and capacity wins.
		if _, err := tx.ExecContext(ctx, `INSERT INTO drives (drive_id, model, serial, vendor, capacity_bytes) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (drive_id) DO UPDATE SET model = excluded.model, vendor = excluded.vendor, capacity_bytes = excluded.capacity_bytes`,
			id.id, id.model, id.serial, id.vendor, id.capacity); err != nil {
			return err
		}
		facts, err := json.Marshal(d.Facts)
		if err != nil {
			return err
		}
		rd.add(r.id, d.Name, id.id, id.firmware, id.source, d.Path, d.Size, string(facts))
	}
	if err := rd.exec(ctx, tx, c.postgres); err != nil {
		return err
	}
	h := newBatch("health", "run_id", "drive", "document")
	smart := newBatch("smart", "run_id", "drive", "phase", "time", "temperature_c", "critical_warnings", "available_spare_pct",
		"percent_used", "data_units_read", "data_units_written", "media_errors", "error_log_entries", "power_on_hours", "unsafe_shutdowns")
	for _, name := range slices.Sorted(mapKeys(r.health)) {
		for _, reading := range []struct {
			phase string
			r     *results.HealthReading
		}{{"before", r.health[name].Before}, {"after", r.health[name].After}} {
			if x := reading.r; x != nil {
				var temp any
				if x.TemperatureC != nil {
					temp = *x.TemperatureC
				}
				smart.add(r.id, name, reading.phase, timeText(x.Time), temp, strings.Join(x.CriticalWarnings, ","), x.AvailableSparePct,
					x.PercentUsed, x.DataUnitsRead, x.DataUnitsWritten, x.MediaErrors, x.ErrorLogEntries, x.PowerOnHours, x.UnsafeShutdowns)
			}
		}
		doc, err := json.Marshal(r.health[name])
		if err != nil {
			return err
		}
		h.add(r.id, name, string(doc))
	}
	if err := h.exec(ctx, tx, c.postgres); err != nil {
		return err
	}
	return smart.exec(ctx, tx, c.postgres)
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// latencyColumns are the figures of step_latency, one column each, as the
// figure registry names them there (figure.Column), and
// catalogPercentiles the percentiles among them.
var (
	latencyColumns     = figure.In(figure.Column)
	catalogPercentiles = func() []float64 {
		var out []float64
		for _, f := range latencyColumns {
			if f.Percentile > 0 {
				out = append(out, f.Percentile)
			}
		}
		return out
	}()
)

// stepRows turns the records into the rows of steps, step_latency,
// step_metrics and verdicts, then those of file sets, checkpoints,
// dataloaders and trace replays (fileRows), in that order (the order of
// their foreign keys).
func stepRows(r *run) []*batch {
	steps := newBatch("steps", "run_id", "step_id", "drive", "kind", "name", "source", "pass", "point", "engine",
		"workload_json", "status", "error", "started", "finished", "runtime_ns", "iops", "bw_bytes")
	lat := newBatch("step_latency", append(append([]string{"run_id", "step_id", "direction", "ios", "bytes"},
		figure.Keys(figure.Column)...), "histogram")...)
	mets := newBatch("step_metrics", "run_id", "step_id", "name", "value")
	verdicts := newBatch("verdicts", "run_id", "step_id", "seq", "drive", "kind", "name", "metric", "subject", "status", "code", "message", "claimed", "measured", "location",
		"model", "firmware", "serial")
	// A verdict carries its drive's model, firmware and serial, as
	// verdictDrives fills them in a migrated catalog: NULL for a verdict
	// on no drive of the run.
	files := newFileRows()
	drives := map[string][]any{}
	for _, d := range r.manifest.Drives {
		id := driveIdentity(r.id, d)
		drives[d.Name] = []any{id.model, id.firmware, id.serial}
	}
	for _, rec := range r.records {
		var runtime int64
		var iops, bw any
		if res := rec.Result; res != nil {
			runtime = res.RuntimeNs
			if res.Read != nil || res.Write != nil {
				iops, bw = judging.TotalIOPS(res), judging.TotalBW(res)
			}
			for dir, d := range map[string]*metrics.DirStats{"read": res.Read, "write": res.Write} {
				if d != nil {
					lat.add(latencyRow(r.id, rec.StepID, dir, d)...)
				}
			}
			for _, name := range slices.Sorted(mapKeys(res.Metrics)) {
				mets.add(r.id, rec.StepID, name, res.Metrics[name])
			}
		}
		steps.add(r.id, rec.StepID, rec.Drive, rec.Kind, rec.Name, rec.Source, rec.Pass, rec.Point.Key(), rec.Engine,
			workloadJSON(rec.Workload), rec.Status, rec.Error, timeText(rec.Started), timeText(rec.Finished), runtime, iops, bw)
		files.add(r.id, rec)
		for i, v := range verdictRows(rec) {
			drive := drives[v[0].(string)]
			if drive == nil {
				drive = []any{nil, nil, nil}
			}
			verdicts.add(append(append([]any{r.id, rec.StepID, i}, v...), drive...)...)
		}
	}
	return append([]*batch{steps, lat, mets, verdicts}, files.batches()...)
}

// workloadJSON is a record's workload as the JSON text the catalog
// stores; "" for a step that ran none.
func workloadJSON(w *workload.Workload) string {
	if w == nil {
		return ""
	}
	data, err := json.Marshal(w)
	if err != nil {
		return ""
	}
	return string(data)
}

// latencyRow is one direction's row of step_latency: each figure read
// through the figure registry, a whole figure as an integer, and a
// percentile NULL when the record kept no histogram and did not store
// that percentile.
func latencyRow(runID, stepID, dir string, d *metrics.DirStats) []any {
	row := []any{runID, stepID, dir, int64(d.IOs), int64(d.Bytes)}
	for _, f := range latencyColumns {
		row = append(row, columnValue(f, d))
	}
	return append(row, histogramBytes(d.Hist))
}

// columnValue is figure f of d as step_latency stores it.
func columnValue(f *figure.Figure, d *metrics.DirStats) any {
	if f.Percentile > 0 && d.Hist == nil && !slices.ContainsFunc(d.Lat.Percentiles, func(s metrics.Percentile) bool { return s.P == f.Percentile }) {
		return nil
	}
	if f.Whole {
		return int64(f.Read(d))
	}
	return f.Read(d)
}

// verdictRows are a record's judgements: one row per acceptance line
// (skipped lines too, with their reason), and one per check or expect
// verdict. Each row holds drive, kind, name, metric, subject, status, code,
// message, claimed, measured and location.
func verdictRows(rec *results.Record) [][]any {
	var rows [][]any
	for _, a := range rec.Acceptance {
		var measured any
		if a.Measured != nil {
			measured = *a.Measured
		}
		rows = append(rows, []any{rec.Drive, "acceptance", a.Spec, a.Metric, "", a.Verdict, a.Code, a.Reason, a.Claimed, measured, ""})
	}
	if len(rec.Acceptance) > 0 {
		// The record's verdicts repeat its acceptance lines.
		return rows
	}
	for _, v := range rec.Verdicts {
		kind, name := "check", v.Check
		if n, ok := v.ExpectProfile(); ok {
			kind, name = "expect", n
		}
		rows = append(rows, []any{cmp.Or(v.Drive, rec.Drive), kind, name, "", v.Subject, v.Status, v.Code, v.Message, nil, nil, v.Where})
	}
	return rows
}
