package catalog

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func count(t *testing.T, c *Catalog, table string) int {
	t.Helper()
	var n int
	if err := c.db.QueryRow("SELECT COUNT(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestAddIsIdempotent(t *testing.T) {
	root := t.TempDir()
	start := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	dir := writeRun(t, root, drive{"ACME X1", "S001", "1.0"}, start, nil, nil)
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		ctx := context.Background()
		res, err := c.Add(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != Added || res.Steps != 24 {
			t.Fatalf("first add: %+v", res)
		}
		counts := map[string]int{}
		for _, table := range []string{"runs", "drives", "run_drives", "steps", "step_latency", "verdicts"} {
			counts[table] = count(t, c, table)
		}
		if counts["runs"] != 1 || counts["drives"] != 1 || counts["steps"] != 24 || counts["verdicts"] == 0 || counts["step_latency"] == 0 {
			t.Fatalf("rows after one add: %v", counts)
		}
		again, err := c.Add(ctx, dir)
		if err != nil || again.Status != Unchanged || again.RunID != res.RunID {
			t.Fatalf("second add: %+v, %v", again, err)
		}
		// A copy of the folder is the same run.
		copyDir(t, dir, filepath.Join(root, "copy-"+c.Kind()))
		if cp, err := c.Add(ctx, filepath.Join(root, "copy-"+c.Kind())); err != nil || cp.Status != Unchanged {
			t.Fatalf("copy: %+v, %v", cp, err)
		}
		for table, n := range counts {
			if got := count(t, c, table); got != n {
				t.Errorf("%s: %d rows after adding the run again, want %d", table, got, n)
			}
		}
	})
}

func TestAddReplacesAGrownRun(t *testing.T) {
	root := t.TempDir()
	start := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	dir := writeRun(t, root, drive{"ACME X1", "S001", "1.0"}, start, nil, nil)
	steps, _ := filepath.Glob(filepath.Join(dir, "steps", "*.json"))
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		ctx := context.Background()
		// First the run with one record missing, as if stopped early.
		hidden := steps[len(steps)-1] + ".hidden"
		if err := os.Rename(steps[len(steps)-1], hidden); err != nil {
			t.Fatal(err)
		}
		first, err := c.Add(ctx, dir)
		os.Rename(hidden, steps[len(steps)-1])
		if err != nil || first.Steps != 23 {
			t.Fatalf("partial run: %+v, %v", first, err)
		}
		second, err := c.Add(ctx, dir)
		if err != nil || second.Status != Replaced || second.RunID != first.RunID {
			t.Fatalf("resumed run: %+v, %v", second, err)
		}
		if n := count(t, c, "steps"); n != 24 {
			t.Errorf("%d steps after the replacement, want 24", n)
		}
		if n := count(t, c, "runs"); n != 1 {
			t.Errorf("%d runs after the replacement, want 1", n)
		}
	})
}

func TestAddRefusesABrokenFolderWhole(t *testing.T) {
	root := t.TempDir()
	dir := writeRun(t, root, drive{"ACME X1", "S001", "1.0"}, time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC), nil, nil)
	steps, _ := filepath.Glob(filepath.Join(dir, "steps", "*.json"))
	if err := os.WriteFile(steps[5], []byte(`{"schema": "drivebench/record/v1", "step_id": `), 0o644); err != nil {
		t.Fatal(err)
	}
	notResults := t.TempDir()
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		for _, d := range []string{dir, notResults} {
			_, err := c.Add(context.Background(), d)
			if err == nil {
				t.Fatalf("%s was added", d)
			}
			t.Logf("%s: %v", d, err)
		}
		_, err := c.Add(context.Background(), dir)
		if !strings.Contains(err.Error(), steps[5]) {
			t.Errorf("the error does not name the broken file %s: %v", steps[5], err)
		}
		for _, table := range []string{"runs", "steps", "drives"} {
			if n := count(t, c, table); n != 0 {
				t.Errorf("%s holds %d rows after a refused add", table, n)
			}
		}
	})
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestAddKeepsSMART adds the QEMU fixture, whose drive's health was read
// before and after the run: both readings are in the smart table.
func TestAddKeepsSMART(t *testing.T) {
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		if _, err := c.Add(context.Background(), "../reports/testdata/qemu"); err != nil {
			t.Fatal(err)
		}
		tab, err := c.Query(context.Background(), `SELECT s.phase, s.data_units_written, d.model, d.serial, rd.firmware, rd.identity
			FROM smart s JOIN run_drives rd ON rd.run_id = s.run_id AND rd.drive = s.drive JOIN drives d ON d.drive_id = rd.drive_id
			ORDER BY s.phase DESC`)
		if err != nil {
			t.Fatal(err)
		}
		if len(tab.Rows) != 2 || tab.Rows[0][0] != "before" || tab.Rows[1][0] != "after" || tab.Rows[0][1] == tab.Rows[1][1] {
			t.Fatalf("smart rows: %v", tab.Rows)
		}
		if r := tab.Rows[0]; r[2] != "QEMU NVMe Ctrl" || r[3] != "deadbeef" || r[4] != "7.2.22" || r[5] != "detected" {
			t.Errorf("the drive's identity from NVMe identify: %v", r)
		}
	})
}
