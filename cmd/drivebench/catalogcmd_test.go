package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// catalogRuns runs testdata/catalog.hcl once per drive with -catalog, as
// three drives of two models, and returns the catalog and the folders.
func catalogRuns(t *testing.T) (string, []string) {
	t.Helper()
	root := t.TempDir()
	cat := filepath.Join(root, "catalog.db")
	var dirs []string
	for _, d := range [][3]string{{"ACME X1", "AX1-001", "1.0"}, {"ACME X1", "AX1-002", "1.1"}, {"Globex G7", "G7-001", "7.2"}} {
		dir := filepath.Join(root, d[1])
		code, out, errOut := runCLI(t, "run", "-catalog", cat, "-out", dir,
			"-var", "model="+d[0], "-var", "serial="+d[1], "-var", "firmware="+d[2], "testdata/catalog.hcl")
		if code != exitCheckFailed {
			t.Fatalf("run %s: exit %d, want %d (one expectation fails)\n%s%s", d[1], code, exitCheckFailed, out, errOut)
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
	if code, _, errOut := runCLI(t, "catalog", "query", "-catalog", cat, "DELETE FROM runs"); code != exitUsage || !strings.Contains(errOut, "readonly") {
		t.Errorf("a writing query: exit %d: %s", code, errOut)
	}

	fleet := run("fleet", "-catalog", cat, "-profile", "read", "-point", "iodepth=4", "-figure", "iops")
	for _, want := range []string{"read iodepth=4, read, iops", "ACME X1", "Globex G7", "merged p99"} {
		if !strings.Contains(fleet, want) {
			t.Errorf("fleet lacks %q:\n%s", want, fleet)
		}
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
