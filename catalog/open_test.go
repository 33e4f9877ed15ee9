package catalog

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/testenv"
)

// TestOpenAccess: only Create makes a catalog; Read and Write of a path
// that holds none fail, naming it, and leave no file; Read writes
// nothing, and refuses to add.
func TestOpenAccess(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	missing := filepath.Join(dir, "typo", "catalog.db")
	for _, access := range []Access{Read, Write} {
		_, err := OpenFor(ctx, missing, access)
		var none *NoCatalogError
		if !errors.As(err, &none) || err.Error() != "there is no catalog at "+missing {
			t.Errorf("access %d to %s: %v, want no catalog", access, missing, err)
		}
	}
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o644)
	for _, access := range []Access{Read, Write} {
		if _, err := OpenFor(ctx, empty, access); !errors.As(err, new(*NoCatalogError)) {
			t.Errorf("access %d to an empty file: %v, want no catalog", access, err)
		}
	}
	if _, err := os.Stat(filepath.Dir(missing)); !os.IsNotExist(err) {
		t.Errorf("opening a missing catalog made its folder: %v", err)
	}

	path := filepath.Join(dir, "made", "catalog.db")
	c, err := OpenFor(ctx, path, Create)
	if err != nil {
		t.Fatal(err)
	}
	runs, _ := fleetCatalog(t)
	addAll(t, c, runs[:1])
	c.Close()

	r, err := OpenFor(ctx, path, Read)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if rows, err := r.Runs(ctx, Filter{}); err != nil || len(rows) != 1 {
		t.Errorf("runs of a catalog opened to read: %v, %v", rows, err)
	}
	if _, err := r.db.ExecContext(ctx, `DELETE FROM runs`); err == nil {
		t.Error("a catalog opened to read took a write")
	}
	if _, err := r.AddRecords(ctx, runs[1].dir, runs[1].manifest, runs[1].records, nil); err == nil || !strings.Contains(err.Error(), "opened to read") {
		t.Errorf("adding to a catalog opened to read: %v", err)
	}
}

// readerEnv names, to the test binary run again as another user, the
// catalog it reads.
const readerEnv = "DRIVEBENCH_TEST_READ_CATALOG"

// TestReadOnlyCatalogForAnotherUser: a user who may only read the
// catalog's file and folder (0444 in 0555, owned by root) lists and
// queries it, where opening it wrote to it ("attempt to write a readonly
// database"). The test runs its own binary again as nobody.
func TestReadOnlyCatalogForAnotherUser(t *testing.T) {
	if path := os.Getenv(readerEnv); path != "" {
		readAsReader(t, path)
		return
	}
	testenv.Root(t, "a catalog is read as another user, nobody, which only root can become")
	setpriv := testenv.Command(t, "setpriv", "util-linux")
	root := t.TempDir()
	// t.TempDir's folders are the test user's alone.
	for d := root; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		os.Chmod(d, 0o755)
	}
	path := filepath.Join(root, "shared", "catalog.db")
	c, err := OpenFor(context.Background(), path, Create)
	if err != nil {
		t.Fatal(err)
	}
	runs, _ := fleetCatalog(t)
	addAll(t, c, runs[:2])
	c.Close()
	os.Chmod(path, 0o444)
	os.Chmod(filepath.Dir(path), 0o555)
	t.Cleanup(func() { os.Chmod(filepath.Dir(path), 0o755) })
	bin := filepath.Join(root, "catalog.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(bin, data, 0o755)
	cmd := exec.Command(setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups", bin, "-test.run=^TestReadOnlyCatalogForAnotherUser$", "-test.v")
	cmd.Env = append(os.Environ(), readerEnv+"="+path, testenv.RequireEnv+"=none")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestReadOnlyCatalogForAnotherUser") {
		t.Errorf("reading as nobody: %v\n%s", err, out)
	}
	for _, f := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + f); err == nil {
			t.Errorf("reading left %s%s", path, f)
		}
	}
}

// readAsReader lists and queries the catalog at path, as the user the
// test runs as, who may not write it.
func readAsReader(t *testing.T, path string) {
	ctx := context.Background()
	if _, err := OpenFor(ctx, path, Write); err == nil {
		t.Fatalf("%d may write %s: the test would prove nothing", os.Geteuid(), path)
	}
	c, err := OpenFor(ctx, path, Read)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if rows, err := c.Runs(ctx, Filter{}); err != nil || len(rows) != 2 {
		t.Errorf("runs: %d, %v", len(rows), err)
	}
	if tab, err := c.Query(ctx, `SELECT COUNT(*) FROM steps`); err != nil || tab.Rows[0][0].(int64) == 0 {
		t.Errorf("query: %v, %v", tab, err)
	}
}
