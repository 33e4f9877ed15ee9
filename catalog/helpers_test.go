package catalog

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// PostgresEnv names the DSN of a PostgreSQL server the tests may create
// databases on; ./test.sh starts one and sets it.
const PostgresEnv = "DRIVEBENCH_TEST_POSTGRES"

// fixture is a results folder of real records that tests copy and vary.
const fixture = "../reports/testdata/vendor-acceptance"

// backend is a fresh, empty catalog on one database.
type backend struct {
	name   string
	target string
}

var dbSeq atomic.Int64

// backends returns a new SQLite file and, when a server is configured, a
// new PostgreSQL database, each dropped at the end of the test.
func backends(t *testing.T) []backend {
	t.Helper()
	out := []backend{{"sqlite", filepath.Join(t.TempDir(), "catalog.db")}}
	if dsn := os.Getenv(PostgresEnv); dsn != "" {
		out = append(out, backend{"postgresql", freshPostgres(t, dsn)})
	} else {
		testenv.RequirePart(t, "PostgreSQL", "%s is unset, so the catalog is not tested on it (./test.sh starts a server and sets it)", PostgresEnv)
	}
	return out
}

// freshPostgres creates a database of its own for one test.
func freshPostgres(t *testing.T, dsn string) string {
	t.Helper()
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	name := fmt.Sprintf("drivebench_test_%d_%d", os.Getpid(), dbSeq.Add(1))
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("create a test database on %s: %v", redact(dsn), err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec("DROP DATABASE " + name + " WITH (FORCE)"); err != nil {
			t.Logf("drop %s: %v", name, err)
		}
	})
	return withDatabase(t, dsn, name)
}

func withDatabase(t *testing.T, dsn, name string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// forEachBackend runs f against every backend as a subtest.
func forEachBackend(t *testing.T, f func(t *testing.T, c *Catalog)) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			c, err := Open(context.Background(), b.target)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			f(t, c)
		})
	}
}

// eachRow runs query on db and calls row once a row, with scan to read
// that row's columns; a failing query, scan or iteration fails the test.
func eachRow(t *testing.T, db *sql.DB, query string, row func(scan func(dest ...any))) {
	t.Helper()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatalf("%v\n%s", err, query)
	}
	defer rows.Close()
	scan := func(dest ...any) {
		t.Helper()
		if err := rows.Scan(dest...); err != nil {
			t.Fatal(err)
		}
	}
	for rows.Next() {
		row(scan)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// drive is the identity a generated run declares for its drive.
type drive struct {
	model, serial, firmware string
}

// memRun is a generated run held in memory, as if read from dir.
type memRun struct {
	dir      string
	manifest *results.Manifest
	records  []*results.Record
}

// writeRun makes a run with makeRun and writes it as a results folder.
func writeRun(t *testing.T, root string, d drive, start time.Time, lat func(r *rand.Rand) uint64, sink func(profile, point string, ns uint64)) string {
	t.Helper()
	r := makeRun(t, root, d, start, lat, sink)
	f, err := results.Create(r.dir, r.manifest)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range r.records {
		if err := f.WriteRecord(rec); err != nil {
			t.Fatal(err)
		}
	}
	return r.dir
}

// makeRun copies the fixture's records into a run of d started at start,
// to be kept in a folder under root. When lat is set, each profile step's
// read histogram is replaced by 2000 samples drawn from lat, each also
// given to sink with the step's profile and point.
func makeRun(t *testing.T, root string, d drive, start time.Time, lat func(r *rand.Rand) uint64, sink func(profile, point string, ns uint64)) memRun {
	t.Helper()
	src, err := results.Open(fixture)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := src.Records()
	if err != nil {
		t.Fatal(err)
	}
	m := *src.Manifest
	m.Schema = results.ManifestSchema
	m.Created = start
	m.Drives = append([]results.Drive(nil), m.Drives...)
	m.Drives[0].Declared = map[string]string{"model": d.model, "serial": d.serial, "firmware": d.firmware}
	dir := filepath.Join(root, strings.ReplaceAll(d.serial+"-"+start.Format("20060102T150405"), " ", "_"))
	seed := uint64(start.Unix())
	for _, c := range d.serial {
		seed = seed*31 + uint64(c)
	}
	r := rand.New(rand.NewPCG(seed, 7))
	for i, rec := range recs {
		rec.Started = start.Add(time.Duration(i) * time.Minute)
		rec.Finished = rec.Started.Add(30 * time.Second)
		if lat != nil && rec.Result != nil && rec.Result.Read != nil && rec.Kind == "profile" {
			var h metrics.Histogram
			for range 2000 {
				ns := lat(r)
				h.Record(ns)
				if sink != nil {
					sink(rec.Source, rec.Point.Key(), ns)
				}
			}
			rec.Result.Read.Hist = &h
			rec.Result.Read.IOs = h.Count()
			rec.Result.Read.Lat = h.Summary(metrics.DefaultPercentiles)
		}
	}
	return memRun{dir: dir, manifest: &m, records: recs}
}
