package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/format"
)

// TestRunReplay runs a plan that replays a 2,000-I/O trace (fio iolog
// version 3, reads and writes of 4 to 64 KiB every 100 µs) on a scratch
// file, and reads the reports: report.json's row has the trace's exact
// I/O count and bytes as issued, and its lag; the step's replay fidelity
// verdict passes; report.md gives the replay's table and sentence.
func TestRunReplay(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("fio version 3 iolog\n0 /dev/vdb add\n0 /dev/vdb open\n")
	var bytes int64
	for i := range 2000 {
		size := int64(4096 << (i % 5))
		op := "read"
		if i%4 == 0 {
			op = "write"
		}
		fmt.Fprintf(&b, "%d /dev/vdb %s %d %d\n", i*100, op, int64(i)*65536%(32<<20), size)
		bytes += size
	}
	if err := os.WriteFile(filepath.Join(dir, "boot.iolog"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	planFile := filepath.Join(dir, "replay.hcl")
	if err := os.WriteFile(planFile, []byte(`drive "scratch" {
  size     = "64MiB"
  writable = true
}

profile "boot" {
  iodepth = 16
  expect  = [result.replay.lag_max_us < 60000000, result.read.ios > 0, result.replay.lag_p99_us > 1000000000]
  replay {
    file = "boot.iolog"
  }
}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "results")
	if code, stdout, stderr := runCLI(t, "run", "-out", out, planFile); code != exitCheckFailed {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	var report struct {
		Results []struct {
			Rows []struct {
				Replay *struct {
					TraceIOs    int64  `json:"trace_ios"`
					TraceBytes  int64  `json:"trace_bytes"`
					IssuedIOs   int64  `json:"issued_ios"`
					IssuedBytes int64  `json:"issued_bytes"`
					LagP99Ns    uint64 `json:"lag_p99_ns"`
					LagMaxNs    uint64 `json:"lag_max_ns"`
					Faithful    bool   `json:"faithful"`
				} `json:"replay"`
			} `json:"rows"`
		} `json:"results"`
		Checks []struct {
			Check, Status, Message string
		} `json:"checks"`
	}
	raw, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &report); err != nil {
		t.Fatal(err)
	}
	if len(report.Results) != 1 || len(report.Results[0].Rows) != 1 || report.Results[0].Rows[0].Replay == nil {
		t.Fatalf("report.json has no replay row: %s", raw)
	}
	rp := report.Results[0].Rows[0].Replay
	if rp.TraceIOs != 2000 || rp.IssuedIOs != 2000 || rp.TraceBytes != bytes || rp.IssuedBytes != bytes || !rp.Faithful {
		t.Errorf("replay %+v; want 2,000 I/Os and %d bytes in the trace and issued", *rp, bytes)
	}
	if rp.LagP99Ns == 0 || rp.LagP99Ns > rp.LagMaxNs {
		t.Errorf("lag p99 %d ns, max %d ns: not measured", rp.LagP99Ns, rp.LagMaxNs)
	}
	want := fmt.Sprintf("the replay issued the trace's 2,000 I/Os and %s bytes, exactly", format.Count(float64(bytes)))
	statuses := map[string]string{}
	for _, c := range report.Checks {
		statuses[c.Check] = c.Status
		if c.Check == "replay fidelity" && c.Message != want {
			t.Errorf("replay fidelity says %q, want %q", c.Message, want)
		}
	}
	// The run exits 1 for the expectation no replay meets (a p99 lag of
	// more than 1,000 s), judged on result.replay as the others.
	if len(report.Checks) != 4 || statuses["replay fidelity"] != "pass" {
		t.Errorf("checks %+v; want a passed replay fidelity verdict and three expectations", report.Checks)
	}
	for _, c := range report.Checks {
		if wantFail := strings.Contains(c.Message, "lag_p99_us > 1000000000") || strings.Contains(c.Check, "lag_p99_us > 1000000000"); c.Check != "replay fidelity" && (c.Status == "fail") != wantFail {
			t.Errorf("expectation %+v: want it to %s", c, map[bool]string{true: "fail", false: "pass"}[wantFail])
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"Replay of `boot.iolog` (fio-iolog-v3) at speed 1x, iodepth cap 16, writes replay:", "| I/Os | 2,000 | 2,000 |", "| lag p50 / p99 / max |"} {
		if !strings.Contains(string(md), line) {
			t.Errorf("report.md lacks %q", line)
		}
	}
}
