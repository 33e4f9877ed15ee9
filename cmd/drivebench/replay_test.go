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
  replay {
    file = "boot.iolog"
  }
}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "results")
	if code, stdout, stderr := runCLI(t, "run", "-out", out, planFile); code != exitOK {
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
	if len(report.Checks) != 1 || report.Checks[0].Check != "replay fidelity" || report.Checks[0].Status != "pass" || report.Checks[0].Message != want {
		t.Errorf("checks %+v; want one passed replay fidelity verdict saying %q", report.Checks, want)
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
