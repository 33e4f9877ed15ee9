package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestNewerSchemaIsRefused(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			c, err := Open(ctx, b.target)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.db.Exec(`UPDATE catalog_schema SET version = $1`, SchemaVersion+1); err != nil {
				t.Fatal(err)
			}
			c.Close()
			_, err = Open(ctx, b.target)
			var newer *NewerSchemaError
			if !errors.As(err, &newer) || newer.Version != SchemaVersion+1 {
				t.Fatalf("a catalog of a newer version opened: %v", err)
			}
			if !strings.Contains(err.Error(), "upgrade drivebench") {
				t.Errorf("the error does not say what to do: %v", err)
			}
		})
	}
}

// TestOlderSchemaMigrates opens catalogs an older drivebench left: at
// version 0 (its version table only), at version 1 holding a run and a
// verdict, and at version 6. Each is migrated to the current version,
// keeping its rows.
func TestOlderSchemaMigrates(t *testing.T) {
	dir := writeRun(t, t.TempDir(), drive{"ACME X1", "S001", "1.0"}, time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC), nil, nil)
	for _, from := range []int{0, 1, 6} {
		for _, b := range backends(t) {
			t.Run(fmt.Sprintf("%s/from-%d", b.name, from), func(t *testing.T) {
				ctx := context.Background()
				leaveOldCatalog(t, b.target, from)
				c := openMigrated(t, b.target, from)
				defer c.Close()
				if _, err := c.Add(ctx, dir); err != nil {
					t.Fatal(err)
				}
				want := 1
				if from == 1 {
					want = 2
					checkMigratedVerdict(t, c)
				}
				if n := count(t, c, "runs"); n != want {
					t.Errorf("%d runs, want %d", n, want)
				}
			})
		}
	}
}

// leaveOldCatalog makes the catalog at target as a drivebench of schema
// version from left it; at version 1, with a run that has a failed
// verdict.
func leaveOldCatalog(t *testing.T, target string, from int) {
	t.Helper()
	old, err := connect(target, false)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := old.migrateTo(context.Background(), from); err != nil {
		t.Fatal(err)
	}
	if from != 1 {
		return
	}
	for _, s := range []string{
		`INSERT INTO runs VALUES ('r1', 'h', 'p', 'p.hcl', 'ph', '2026-01-01T00:00:00.000Z', 'old', 'tb', 'host', '{}', '/nowhere', '2026-01-01T00:00:00.000Z')`,
		`INSERT INTO drives VALUES ('dr1', 'OLD M1', 'OLD-S1', 'v', 0)`,
		`INSERT INTO run_drives VALUES ('r1', 'd', 'dr1', '0.9', 'declared', '', 0, '{}')`,
		`INSERT INTO steps (run_id, step_id, drive, kind, name, source, pass, point, engine, workload_json, status, error, started, finished, runtime_ns)
			VALUES ('r1', 's1', 'd', 'check', 'c', 'c', 0, '', '', '', 'ok', '', '', '', 0)`,
		`INSERT INTO verdicts VALUES ('r1', 's1', 0, 'd', 'check', 'c', '', 'fail', 'too slow', NULL, NULL, '')`,
	} {
		if _, err := old.db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
}

// openMigrated opens the catalog of schema version from for writing,
// which migrates it, after checking that opening it to read refuses,
// naming the command that migrates. (A catalog of version 0 holds no
// catalog yet: it is created.)
func openMigrated(t *testing.T, target string, from int) *Catalog {
	t.Helper()
	ctx := context.Background()
	access := Create
	if from > 0 {
		access = Write
		if _, err := OpenFor(ctx, target, Read); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("has schema version %d, and this drivebench reads version %d: migrate it with drivebench catalog init", from, SchemaVersion)) {
			t.Errorf("reading a catalog of version %d: %v", from, err)
		}
	}
	c, err := OpenFor(ctx, target, access)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := c.Version(ctx); err != nil || v != SchemaVersion {
		c.Close()
		t.Fatalf("version %d after migration (%v), want %d", v, err, SchemaVersion)
	}
	return c
}

// checkMigratedVerdict checks the failed verdict of a catalog of
// version 1 after its migration: no subject or code, which version 1
// had not, and, from version 4, its drive's model, firmware and serial,
// so the roll-up still counts it.
func checkMigratedVerdict(t *testing.T, c *Catalog) {
	t.Helper()
	var subject, code string
	if err := c.db.QueryRow(`SELECT subject, code FROM verdicts WHERE run_id = 'r1'`).Scan(&subject, &code); err != nil || subject != "" || code != "" {
		t.Errorf("the old verdict after migration: subject %q, code %q, %v", subject, code, err)
	}
	rows, err := c.Rollup(context.Background(), Filter{Model: "OLD M1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Firmware != "0.9" || rows[0].Fail != 1 || !slices.Equal(rows[0].FailingSerials, []string{"OLD-S1"}) {
		t.Errorf("roll-up of the migrated catalog: %+v, want one line on firmware 0.9 failed by OLD-S1", rows)
	}
}

func TestNotACatalog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("a text file opened as a catalog, or the error does not name it: %v", err)
	}
	t.Log(err)
}

func TestQueryIsReadOnly(t *testing.T) {
	dirs, _ := fleetCatalog(t)
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		ctx := context.Background()
		addAll(t, c, dirs[:2])
		tab, err := c.Query(ctx, `SELECT d.model, COUNT(*) AS runs FROM run_drives rd JOIN drives d ON d.drive_id = rd.drive_id GROUP BY d.model`)
		if err != nil {
			t.Fatal(err)
		}
		if len(tab.Rows) != 1 || tab.Columns[1] != "runs" || fmt.Sprint(tab.Rows[0][1]) != "2" {
			t.Errorf("query: %+v", tab)
		}
		for _, q := range []string{
			`DELETE FROM runs`,
			`INSERT INTO drives (drive_id, model, serial, vendor, capacity_bytes) VALUES ('x', 'x', 'x', 'x', 0)`,
			`DROP TABLE verdicts`,
			`UPDATE catalog_schema SET version = 99`,
		} {
			if _, err := c.Query(ctx, q); err == nil {
				t.Errorf("%s: not refused", q)
			} else {
				t.Logf("%s: %v", q, err)
			}
		}
		if n := count(t, c, "runs"); n != 2 {
			t.Errorf("%d runs after the refused writes, want 2", n)
		}
		if _, err := c.Query(ctx, `SELECT nonsense FROM nowhere`); err == nil {
			t.Error("a bad query gave no error")
		}
	})
}

// TestConcurrentAdds adds runs from several catalog handles at once, as
// several local runs (SQLite) or several hosts (PostgreSQL) do, the same
// run from more than one of them: every run is kept once.
func TestConcurrentAdds(t *testing.T) {
	dirs, _ := fleetCatalog(t)
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			const writers = 4
			var wg sync.WaitGroup
			errs := make(chan error, writers*len(dirs))
			for w := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c, err := Open(ctx, b.target)
					if err != nil {
						errs <- err
						return
					}
					defer c.Close()
					// Writers 0 and 2 add the even runs, 1 and 3 the odd
					// ones, each from its own starting point: each run is
					// added by two writers.
					for k := range dirs {
						j := (k + 5*w) % len(dirs)
						if j%2 != w%2 {
							continue
						}
						r := dirs[j]
						if _, err := c.AddRecords(ctx, r.dir, r.manifest, r.records, nil); err != nil {
							errs <- err
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			c, err := Open(ctx, b.target)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if n := count(t, c, "runs"); n != len(dirs) {
				t.Errorf("%d runs, want %d", n, len(dirs))
			}
			if n := count(t, c, "steps"); n != 24*len(dirs) {
				t.Errorf("%d steps, want %d", n, 24*len(dirs))
			}
		})
	}
}
