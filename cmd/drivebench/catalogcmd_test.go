package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/drivebench/drivebench/catalog"
)

// catalogRuns runs testdata/catalog.hcl once per drive with -catalog, as
// three drives of two models, and returns the catalog and the folders.
func catalogRuns(t *testing.T) (string, []string) {
	t.Helper()
	root := t.TempDir()
	cat := filepath.Join(root, "catalog.db")
	if code, out, errOut := runCLI(t, "catalog", "init", "-catalog", cat); code != exitOK || out != "Catalog "+cat+": created, sqlite, schema version "+strconv.Itoa(catalog.SchemaVersion)+"\n" {
		t.Fatalf("catalog init: exit %d\n%s%s", code, out, errOut)
	}
	var dirs []string
	for _, d := range [][3]string{{"ACME X1", "AX1-001", "1.0"}, {"ACME X1", "AX1-002", "1.1"}, {"Globex G7", "G7-001", "7.2"}} {
		dir := filepath.Join(root, d[1])
		code, out, errOut := runCLI(t, "run", "-catalog", cat, "-out", dir,
			"-var", "model="+d[0], "-var", "serial="+d[1], "-var", "firmware="+d[2], "testdata/catalog.hcl")
		if code != exitCheckFailed {
			t.Fatalf("run %s: exit %d, want %d (one expectation fails)\n%s%s", d[1], code, exitCheckFailed, out, errOut)
		}
		if !strings.Contains(out, "\n2 check verdicts failed.\n") {
			t.Errorf("run %s does not count its failed verdicts, one a point, in words:\n%s", d[1], out)
		}
		if !strings.Contains(out, "Catalog: added run") {
			t.Errorf("run %s did not add itself to the catalog:\n%s%s", d[1], out, errOut)
		}
		dirs = append(dirs, dir)
	}
	return cat, dirs
}

func TestCatalogCommands(t *testing.T) {
	cat, dirs := catalogRuns(t)
	run := func(args ...string) string {
		t.Helper()
		code, out, errOut := runCLI(t, append([]string{"catalog"}, args...)...)
		if code != exitOK {
			t.Fatalf("catalog %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
		return out
	}

	if out := run("add", "-catalog", cat, dirs[0]); !strings.HasPrefix(out, "unchanged") {
		t.Errorf("adding a run again: %s", out)
	}
	code, _, errOut := runCLI(t, "catalog", "add", "-catalog", cat, t.TempDir(), dirs[1])
	if code != exitUsage || !strings.Contains(errOut, "no manifest.json") || !strings.Contains(errOut, "1 of 2 folders skipped") {
		t.Errorf("adding a folder that is not a run: exit %d\n%s", code, errOut)
	}

	ls := run("ls", "-catalog", cat, "-format", "csv")
	rows, err := csv.NewReader(strings.NewReader(ls)).ReadAll()
	if err != nil || len(rows) != 4 || rows[0][0] != "created" {
		t.Fatalf("ls -format csv: %v\n%s", err, ls)
	}
	if out := run("ls", "-catalog", cat, "-drives", "-model", "ACME*"); strings.Count(out, "AX1-") != 2 || strings.Contains(out, "G7-001") {
		t.Errorf("ls -drives -model ACME*:\n%s", out)
	}

	var q struct {
		Columns []string `json:"columns"`
		Rows    [][]any  `json:"rows"`
	}
	out := run("query", "-catalog", cat, "-format", "json", "SELECT COUNT(*) AS n FROM runs")
	if err := json.Unmarshal([]byte(out), &q); err != nil || len(q.Rows) != 1 || q.Rows[0][0] != float64(3) {
		t.Errorf("query: %v\n%s", err, out)
	}
	if code, _, errOut := runCLI(t, "catalog", "query", "-catalog", cat, "DELETE FROM runs"); code != exitUsage || !strings.Contains(errOut, "DELETE is not a query") {
		t.Errorf("a writing query: exit %d: %s", code, errOut)
	}

	fleet := run("fleet", "-catalog", cat, "-profile", "read", "-point", "iodepth=4", "-figure", "iops")
	for _, want := range []string{"read iodepth=4, read, iops", "ACME X1", "Globex G7", "merged p99"} {
		if !strings.Contains(fleet, want) {
			t.Errorf("fleet lacks %q:\n%s", want, fleet)
		}
	}
	code, oldName, errOut := runCLI(t, "catalog", "fleet", "-catalog", cat, "-profile", "read", "-point", "iodepth=4", "-figure", "p99.9")
	if code != exitOK || !strings.Contains(oldName, "read iodepth=4, read, p99_9") ||
		!strings.Contains(errOut, `drivebench catalog fleet: -figure: warning: "p99.9", the old command-line flag name of the p99.9 latency, is deprecated: write "p99_9"`) {
		t.Errorf("fleet -figure p99.9: exit %d\n%s%s", code, oldName, errOut)
	}
	// CSV is for programs: plain numbers, never 1.2e+06, and the unit of
	// each column's numbers in its name.
	fleetCSV := run("fleet", "-catalog", cat, "-profile", "read", "-point", "iodepth=4", "-figure", "p99", "-format", "csv")
	fr, err := csv.NewReader(strings.NewReader(fleetCSV)).ReadAll()
	if err != nil || len(fr) != 3 || strings.Join(fr[0], ",") != "model,drives,I/Os,merged p50 (ns),merged p90 (ns),merged p99 (ns),merged p99.9 (ns),merged p99.99 (ns),p99 min (ns),median (ns),max (ns),MAD (ns),outliers" {
		t.Errorf("fleet -format csv: %v\n%s", err, fleetCSV)
	}
	if regexp.MustCompile(`[0-9][eE][+-]?[0-9]`).MatchString(fleetCSV) || cellText(1_234_567.5, false) != "1234567.5" || cellText(2.5e-7, false) != "0.00000025" {
		t.Errorf("fleet -format csv writes a number in exponent form:\n%s", fleetCSV)
	}
	rollup := run("rollup", "-catalog", cat, "-format", "csv")
	rr, _ := csv.NewReader(strings.NewReader(rollup)).ReadAll()
	failing := 0
	for _, r := range rr[1:] {
		if r[2] == "expect" && r[6] != "0" {
			failing++
			if !strings.HasSuffix(r[3], "result.read.iops > 1000000000") || r[0] == "ACME X1" && r[1] == "1.0" && r[8] != "AX1-001" {
				t.Errorf("rollup line %v", r)
			}
		}
	}
	// Per model and firmware, the impossible expectation at both points.
	if failing != 6 {
		t.Errorf("%d lines with a failed expectation, want 6:\n%s", failing, rollup)
	}
	if trend := run("trend", "-catalog", cat, "-profile", "read", "-point", "iodepth=1", "-model", "ACME X1"); !strings.Contains(trend, "1.0") || !strings.Contains(trend, "1.1") {
		t.Errorf("trend:\n%s", trend)
	}
	om := run("export", "-catalog", cat, "-format", "openmetrics")
	for _, want := range []string{`drivebench_latency_seconds{run="`, `",drive="dut",model="Globex G7",serial="G7-001",firmware="7.2",plan="catalog"`, `quantile="0.99"`,
		"# TYPE drivebench_verdict stateset\n", `subject="read / iodepth=4: result.read.iops > 1000000000",index="1",drivebench_verdict="fail"} 1`, "# EOF\n"} {
		if !strings.Contains(om, want) {
			t.Errorf("openmetrics lacks %q", want)
		}
	}
	if prom := run("export", "-catalog", cat, "-format", "prometheus"); !strings.Contains(prom, "# TYPE drivebench_verdict gauge\n") || strings.Contains(prom, "# EOF") {
		t.Errorf("the Prometheus text has no verdict gauge or has an EOF line:\n%s", prom)
	}
	page := run("report", "-catalog", cat, "-out", filepath.Join(t.TempDir(), "page"), "-profile", "read", "-point", "iodepth=4")
	if html, err := os.ReadFile(strings.TrimSpace(page)); err != nil || !strings.Contains(string(html), "Globex G7") {
		t.Errorf("fleet page %s: %v", page, err)
	}
}

func TestReportComparablesFromCatalog(t *testing.T) {
	cat, dirs := catalogRuns(t)
	code, out, errOut := runCLI(t, "report", "-catalog", cat, "-format", "json", "-compare", "catalog:model=ACME*", dirs[0])
	if code != exitOK {
		t.Fatalf("report: exit %d\n%s%s", code, out, errOut)
	}
	var rep struct {
		Comparables []struct {
			Name string `json:"name"`
		} `json:"comparables"`
	}
	raw, err := os.ReadFile(filepath.Join(dirs[0], "report.json"))
	if err != nil || json.Unmarshal(raw, &rep) != nil {
		t.Fatalf("report.json: %v", err)
	}
	if len(rep.Comparables) != 1 || rep.Comparables[0].Name != "AX1-002" {
		t.Errorf("comparables %+v, want the other ACME drive's run only", rep.Comparables)
	}
	for _, bad := range []string{"catalog:colour=red", "catalog:model=Nothing*"} {
		code, _, errOut := runCLI(t, "report", "-catalog", cat, "-compare", bad, dirs[0])
		if code != exitUsage || !strings.Contains(errOut, bad) {
			t.Errorf("-compare %s: exit %d: %s", bad, code, errOut)
		}
	}
}

// fixtureCatalog is a catalog holding the run of reports' vendor-acceptance
// fixture: 24 steps, so that steps joined with itself five times are
// about eight million rows.
func fixtureCatalog(t *testing.T) string {
	t.Helper()
	cat := filepath.Join(t.TempDir(), "catalog.db")
	if code, out, errOut := runCLI(t, "catalog", "add", "-create", "-catalog", cat, "../../reports/testdata/vendor-acceptance"); code != exitOK {
		t.Fatalf("catalog add: exit %d\n%s%s", code, out, errOut)
	}
	return cat
}

const (
	crossJoin = "SELECT a.step_id, b.name FROM steps a, steps b, steps c, steps d, steps e"
	endless   = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c"
)

// TestCatalogQueryBounds: a query is cut at its row limit, stopped at its
// time limit, and refused when it is not one statement that reads; each
// says so on stderr and exits 2, and nothing is created.
func TestCatalogQueryBounds(t *testing.T) {
	cat := fixtureCatalog(t)
	dir := t.TempDir()
	cases := []struct {
		name      string
		args      []string
		rows      int // lines of stdout, -1 for none
		wantOut   string
		wantError string
	}{
		{"limit", []string{"-format", "csv", "-limit", "5", crossJoin}, 6, "step_id,name\n",
			"drivebench catalog query: output cut after 5 rows (-limit 5): the query returns more; narrow it (WHERE, LIMIT, an aggregate), or give a larger -limit, or -limit 0 for every row\n"},
		{"default limit", []string{crossJoin}, 10_001, "step_id", "output cut after 10,000 rows (-limit 10000)"},
		{"json stays whole", []string{"-format", "json", "-limit", "2", crossJoin}, 7, "{\n  \"columns\": [\"step_id\",\"name\"],\n  \"rows\": [\n", "output cut after 2 rows"},
		{"timeout", []string{"-timeout", "500ms", "SELECT COUNT(*) FROM (" + endless + ") e"}, -1, "",
			"time limit reached: stopped after 500ms and 0 rows; narrow the query, or give a longer -timeout\n"},
		{"attach", []string{"ATTACH DATABASE '" + filepath.Join(dir, "x.db") + "' AS x"}, -1, "", "ATTACH is not a query"},
		{"vacuum into", []string{"VACUUM INTO '" + filepath.Join(dir, "copy.db") + "'"}, -1, "", "VACUUM is not a query"},
		{"two statements", []string{"SELECT 1; DELETE FROM runs"}, -1, "", `give one statement: a second one starts at line 1, column 11 ("DELETE")`},
		{"pragma write", []string{"PRAGMA user_version = 3"}, -1, "", "PRAGMA user_version is not a read"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, append([]string{"catalog", "query", "-catalog", cat}, tc.args...)...)
			if code != exitUsage || !strings.Contains(errOut, tc.wantError) || !strings.HasPrefix(out, tc.wantOut) {
				t.Errorf("exit %d, stderr %q, stdout starts %.200q", code, errOut, out)
			}
			var doc struct{ Rows [][]string }
			if strings.HasPrefix(out, "{") && (json.Unmarshal([]byte(out), &doc) != nil || len(doc.Rows) != 2) {
				t.Errorf("the JSON cut after 2 rows does not parse as 2 rows:\n%s", out)
			}
			if lines := strings.Count(out, "\n"); tc.rows >= 0 && lines != tc.rows || tc.rows < 0 && out != "" {
				t.Errorf("%d lines of output, want %d", lines, tc.rows)
			}
		})
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("a refused query made %s", ents[0].Name())
	}
	if code, out, _ := runCLI(t, "catalog", "query", "-catalog", cat, "-limit", "0", "-format", "csv", "SELECT a.step_id FROM steps a, steps b, steps c"); code != exitOK || strings.Count(out, "\n") != 24*24*24+1 {
		t.Errorf("-limit 0: exit %d, %d lines", code, strings.Count(out, "\n"))
	}
}

// TestCatalogQuerySignal: SIGINT or SIGTERM ends a query that would never
// end at once: exit 130, saying it was interrupted.
func TestCatalogQuerySignal(t *testing.T) {
	cat := fixtureCatalog(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "catalog", "query", "-catalog", cat, "-limit", "0", "-timeout", "1h", "-format", "csv", endless)
			cmd.Env = append(os.Environ(), "DRIVEBENCH_TEST_AS_COMMAND=1")
			out := &headBuffer{}
			var errOut lockedBuffer
			cmd.Stdout, cmd.Stderr = out, &errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(time.Minute)
			for out.Len() == 0 {
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatalf("no row within a minute: %s", errOut.String())
				}
				time.Sleep(10 * time.Millisecond)
			}
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted || !strings.Contains(errOut.String(), "interrupted after") {
				t.Errorf("%v: %v, stderr %q", sig, err, errOut.String())
			}
		})
	}
}

// headBuffer counts what a child writes and keeps none of it.
type headBuffer struct{ n atomic.Int64 }

func (h *headBuffer) Write(p []byte) (int, error) {
	h.n.Add(int64(len(p)))
	return len(p), nil
}

func (h *headBuffer) Len() int64 { return h.n.Load() }

// TestCatalogMustExist: a catalog named by -catalog or $DRIVEBENCH_CATALOG
// is not created by a command that lists or adds to it, so a mistyped path
// is an error, not a new, empty catalog; catalog init and -create make
// one, and the default file is made by the first run added to it. A run
// whose -catalog names none is refused before it starts.
func TestCatalogMustExist(t *testing.T) {
	work := t.TempDir()
	typo := filepath.Join(work, "catlog", "catalog.db")
	fixture := "../../reports/testdata/vendor-acceptance"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"catalog", "ls", "-catalog", typo}, "drivebench catalog ls: there is no catalog at " + typo + ": name the catalog with -catalog or $DRIVEBENCH_CATALOG"},
		{[]string{"catalog", "query", "-catalog", typo, "SELECT 1"}, "there is no catalog at " + typo},
		{[]string{"catalog", "add", "-catalog", typo, fixture}, "drivebench catalog add: there is no catalog at " + typo + ": create it with drivebench catalog init -catalog " + typo + ", or give -create"},
		{[]string{"run", "-catalog", typo, "-out", filepath.Join(work, "run"), "-var", "model=M", "-var", "serial=S", "-var", "firmware=F", "testdata/catalog.hcl"}, "drivebench run: -catalog: there is no catalog at " + typo},
	} {
		code, _, errOut := runCLI(t, tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, %s; want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
	for _, p := range []string{filepath.Dir(typo), filepath.Join(work, "run")} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s was made: %v", p, err)
		}
	}

	if code, out, errOut := runCLI(t, "catalog", "add", "-create", "-catalog", typo, fixture); code != exitOK || !strings.HasPrefix(out, "added") {
		t.Errorf("add -create: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := runCLI(t, "catalog", "init", "-catalog", typo); code != exitOK || !strings.Contains(out, ": ready, sqlite") {
		t.Errorf("init of an existing catalog: exit %d, %s", code, out)
	}
	env := map[string]string{"HOME": work}
	if code, out, errOut := runCLIWith(t, nil, env, "catalog", "add", fixture); code != exitOK || !strings.HasPrefix(out, "added") {
		t.Errorf("add to the default catalog: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(work, ".local", "share", "drivebench", "catalog.db")); err != nil {
		t.Errorf("the default catalog: %v", err)
	}
}

// TestCatalogFileSetRuns: run -catalog of the checkpoint example, scaled
// down on a scratch folder, puts its passes in checkpoint_phases, each
// pass's seconds its slowest rank's of step_file_jobs, with the set's
// metadata operations in step_file_ops; catalog add of a dataloader run
// puts each step's AU and batch waits in step_dataloader.
func TestCatalogFileSetRuns(t *testing.T) {
	root := t.TempDir()
	cat := filepath.Join(root, "catalog.db")
	plan := filepath.Join("..", "..", "examples", "ai", "checkpoint.hcl")
	if code, out, errOut := runCLI(t, "catalog", "init", "-catalog", cat); code != exitOK {
		t.Fatalf("catalog init: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut := runCLI(t, "run", "-catalog", cat, "-out", filepath.Join(root, "out"), "-var-file", filepath.Join(filepath.Dir(plan), "smoke.vars.hcl"),
		"-var", "directory="+filepath.Join(root, "set"), plan)
	if code != exitOK || !strings.Contains(out, "Catalog: added run") {
		t.Fatalf("run -catalog: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, "catalog", "add", "-catalog", cat, filepath.Join("..", "..", "catalog", "testdata", "dataloader")); code != exitOK {
		t.Fatalf("catalog add: exit %d\n%s%s", code, out, errOut)
	}
	query := func(sql string) [][]any {
		t.Helper()
		code, out, errOut := runCLI(t, "catalog", "query", "-catalog", cat, "-format", "json", sql)
		var q struct {
			Rows [][]any `json:"rows"`
		}
		if err := json.Unmarshal([]byte(out), &q); code != exitOK || err != nil {
			t.Fatalf("catalog query %s: exit %d, %v\n%s%s", sql, code, err, out, errOut)
		}
		return q.Rows
	}
	passes := query(`SELECT p.pass, p.phase, p.seconds, MAX(j.seconds), COUNT(*), k.ranks FROM checkpoint_phases p
		JOIN checkpoints k ON k.run_id = p.run_id AND k.step_id = p.step_id
		JOIN step_file_jobs j ON j.run_id = p.run_id AND j.step_id = p.phase_step_id
		GROUP BY p.pass, p.phase, p.seconds, k.ranks ORDER BY p.phase DESC`)
	if len(passes) != 2 || passes[0][1] != "write" || passes[1][1] != "read" {
		t.Fatalf("checkpoint_phases of the run: %v, want pass 1's write and read", passes)
	}
	for _, p := range passes {
		if p[0] != float64(1) || p[2] != p[3] || p[2].(float64) <= 0 || p[4] != p[5] || p[5] != float64(8) {
			t.Errorf("pass %v: want pass 1, its seconds its slowest of 8 ranks' (pass, phase, seconds, slowest rank, ranks' rows, ranks)", p)
		}
	}
	if ops := query(`SELECT o.op, o.count FROM step_file_ops o JOIN checkpoint_phases p ON p.run_id = o.run_id AND p.phase_step_id = o.step_id
		WHERE p.phase = 'write' AND o.op = 'fsync'`); len(ops) != 1 || ops[0][1] != float64(8) {
		t.Errorf("fsyncs of the write: %v, want one per rank", ops)
	}
	loaders := query(`SELECT s.source, d.au, d.batch_wait_p99_ns FROM step_dataloader d JOIN steps s ON s.run_id = d.run_id AND s.step_id = d.step_id ORDER BY s.source`)
	if len(loaders) != 3 || loaders[2][0] != "unet3d" {
		t.Fatalf("step_dataloader: %v, want cosmoflow, resnet50, unet3d", loaders)
	}
	for _, l := range loaders {
		if au := l[1].(float64); au <= 0 || au > 1 || l[2].(float64) <= 0 {
			t.Errorf("dataloader %v: want an AU in (0, 1] and a p99 batch wait", l)
		}
	}
}
