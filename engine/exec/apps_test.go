package exec_test

import (
	"context"
	"encoding/json"
	"net"
	"os"
	osexec "os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/script"
)

// The application examples of examples/apps, run end to end through the
// engine when their programs are installed.

// runExample loads and runs an example plan with vars, in a results
// folder under dir.
func runExample(t *testing.T, file, dir string, vars map[string]string) *engine.Outcome {
	t.Helper()
	p, sources, diags := plan.Load(filepath.Join("..", "..", "examples", "apps", file), plan.LoadOptions{Vars: vars})
	if diags.HasErrors() {
		var b strings.Builder
		sources.WriteDiagnostics(&b, diags, 100, false)
		t.Fatal(b.String())
	}
	if diags := engine.ValidateHooks(p, script.Limits{}); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	out, err := engine.Run(context.Background(), p, plan.Expand(p), engine.Options{Dir: filepath.Join(dir, "results")})
	if err != nil {
		t.Fatal(err)
	}
	summarize(t, p, out)
	for _, r := range out.Records {
		if r.Status != results.StatusOK {
			msg := r.Error
			if r.Command != nil {
				msg += "\n" + strings.Join(r.Command.StderrTail, "\n")
			}
			t.Errorf("%s: %s: %s", r.Name, r.Status, msg)
		}
	}
	return out
}

// summarize runs the plan's summary hook on the run, as drivebench run
// does once the engine returns; a hook that failed fails a step.
func summarize(t *testing.T, p *plan.Plan, out *engine.Outcome) {
	t.Helper()
	folder, err := results.Open(out.Dir)
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := folder.ReadableRecords()
	if err != nil {
		t.Fatal(err)
	}
	s, err := engine.Summarize(context.Background(), p, out.Dir, script.Limits{}, engine.SummaryInput{Manifest: folder.Manifest, Records: recs})
	if err != nil {
		t.Fatal(err)
	}
	if s != nil && s.Error != "" {
		out.SummaryFailed(s)
	}
}

// metricsOf returns each exec step's metrics by step name.
func metricsOf(out *engine.Outcome, prefix string) map[string]map[string]float64 {
	m := map[string]map[string]float64{}
	for _, r := range out.Records {
		if r.Kind == "exec" && strings.HasPrefix(r.Name, prefix) && r.Result != nil {
			m[r.Name] = r.Result.Metrics
		}
	}
	return m
}

func TestSysbenchFileioExample(t *testing.T) {
	if testing.Short() {
		t.Skip("runs sysbench")
	}
	testenv.Command(t, "sysbench", "sysbench")
	dir := t.TempDir()
	out := runExample(t, "sysbench-fileio.hcl", dir, map[string]string{
		"runtime": "1", "file_size": "32M", "files": "2", "modes": `["rndrw"]`, "threads": "[1, 2]",
	})
	runs := metricsOf(out, "fs / fileio.")
	if len(runs) != 2 {
		t.Fatalf("runs %v", runs)
	}
	for name, m := range runs {
		if m["reads_per_s"] <= 0 || m["writes_per_s"] <= 0 || m["latency_p99_ms"] <= 0 {
			t.Errorf("%s: %v", name, m)
		}
		t.Logf("%s: %.0f reads/s, %.0f writes/s, p99 %.2f ms", name, m["reads_per_s"], m["writes_per_s"], m["latency_p99_ms"])
	}
	if _, err := os.Stat(filepath.Join(dir, "results", "work-fs")); !os.IsNotExist(err) {
		t.Errorf("the working folder of the scratch drive is left behind: %v", err)
	}
}

// TestPostgresOLTPExample runs sysbench OLTP against a PostgreSQL server
// the plan starts, with its data directory in a folder of this test, and
// stops.
func TestPostgresOLTPExample(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL server")
	}
	testenv.Root(t, "the PostgreSQL example runs its server as the postgres account")
	testenv.Command(t, "sysbench", "sysbench")
	initdb, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(initdb) == 0 {
		testenv.Require(t, "PostgreSQL", "/usr/lib/postgresql/*/bin/initdb is absent (apt-get install postgresql; ./test.sh installs it)")
	}
	if _, err := user.Lookup("postgres"); err != nil {
		testenv.Require(t, "the postgres account", "%v (apt-get install postgresql makes it)", err)
	}
	// t.TempDir's parent is private to root; the server's account must
	// reach its data directory.
	dir, err := os.MkdirTemp("", "drivebench-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	pgBin := filepath.Dir(initdb[len(initdb)-1])
	data := filepath.Join(dir, "drive")
	t.Cleanup(func() { stopServer(pgBin, data) })
	out := runExample(t, "postgres-oltp.hcl", dir, map[string]string{
		"directory": data, "pg_bin": pgBin, "port": strconv.Itoa(freePort(t)),
		"tables": "2", "table_size": "10000", "threads": "[1, 4]", "runtime": "3",
	})
	runs := metricsOf(out, "pg / oltp.")
	if len(runs) != 2 {
		t.Fatalf("OLTP runs %v", runs)
	}
	for name, m := range runs {
		if m["tps"] <= 0 || m["qps"] <= 0 || m["latency_avg_ms"] <= 0 || m["latency_p95_ms"] <= 0 {
			t.Errorf("%s: %v", name, m)
		}
		t.Logf("%s: %.1f TPS, %.1f QPS, latency avg %.2f ms, p95 %.2f ms", name, m["tps"], m["qps"], m["latency_avg_ms"], m["latency_p95_ms"])
	}
	if _, err := os.Stat(filepath.Join(data, "pgdata", "PG_VERSION")); err != nil {
		t.Errorf("the data directory is not on the drive's folder: %v", err)
	}
	if _, err := os.Stat(filepath.Join(data, "pgdata", "postmaster.pid")); !os.IsNotExist(err) {
		t.Errorf("the server still runs after the plan's stop step: %v", err)
	}
	var s results.Summary
	raw, _ := os.ReadFile(filepath.Join(dir, "results", results.SummaryFile))
	if err := json.Unmarshal(raw, &s); err != nil || len(s.Sections) != 1 || len(s.Sections[0].Table.Rows) != 2 {
		t.Errorf("summary %s: %v", raw, err)
	}
}

// freePort returns a TCP port no one listens on now.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// stopServer stops a server a failed test left running.
func stopServer(pgBin, data string) {
	pgdata := filepath.Join(data, "pgdata")
	if _, err := os.Stat(filepath.Join(pgdata, "postmaster.pid")); err != nil {
		return
	}
	osexec.Command("runuser", "-u", "postgres", "--", filepath.Join(pgBin, "pg_ctl"), "-D", pgdata, "-m", "immediate", "stop").Run()
}
