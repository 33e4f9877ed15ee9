package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/internal/nvmecli"
	"github.com/drivebench/drivebench/nvme"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata and what the cases in testdata/cli expect")

// nvmeFixtures holds pages of QEMU's emulated controller saved with
// nvme-cli's -b, and nvme-cli's JSON for the same pages.
const nvmeFixtures = "../../nvme/testdata"

func fixture(name string) string { return filepath.Join(nvmeFixtures, name) }

// runNVMe runs drivebench nvme in-process.
func runNVMe(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = cmdNVMe(context.Background(), args, stdio{out: &out, err: &errb, getenv: func(string) string { return "" }})
	return code, out.String(), errb.String()
}

// jsonObject parses a JSON object keeping numbers as written.
func jsonObject(t *testing.T, data []byte) map[string]any {
	t.Helper()
	m, err := nvmecli.Decode(data)
	if err != nil {
		t.Fatalf("%v in %s", err, data)
	}
	return m
}

// TestNVMeDecodeMatchesNvmeCli decodes the lab's raw pages with
// drivebench nvme decode --json and compares them field by field with
// nvme-cli's JSON for the same pages.
func TestNVMeDecodeMatchesNvmeCli(t *testing.T) {
	for _, kind := range []string{"id-ctrl", "id-ns", "smart-log"} {
		t.Run(kind, func(t *testing.T) {
			code, out, errOut := runNVMe(t, "decode", kind, fixture("qemu-nvme-"+kind+".bin"), "--json")
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			cliJSON, err := os.ReadFile(fixture("qemu-nvme-" + kind + ".json"))
			if err != nil {
				t.Fatal(err)
			}
			diffs, n := nvmecli.Diff(kind, jsonObject(t, cliJSON), jsonObject(t, []byte(out)))
			for _, d := range diffs {
				t.Error(d)
			}
			t.Logf("%s: %d values compared with nvme-cli", kind, n)
		})
	}
}

// checkGoldenText compares got with testdata/name, rewriting it with
// -update.
func checkGoldenText(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run go test -update if the change is intended):\n%s", path, got)
	}
}

func TestNVMeDecodeTables(t *testing.T) {
	for _, kind := range []string{"id-ctrl", "id-ns", "smart-log"} {
		t.Run(kind, func(t *testing.T) {
			// Flags may come first too.
			code, out, errOut := runNVMe(t, "decode", "-json=false", kind, fixture("qemu-nvme-"+kind+".bin"))
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			checkGoldenText(t, "nvme-"+kind+".golden.txt", out)
		})
	}
}

// TestNVMeInfoTable renders a snapshot made of the lab's pages, as
// drivebench nvme info shows a live device.
func TestNVMeInfoTable(t *testing.T) {
	snap := &nvme.HealthSnapshot{Path: "/dev/nvme0n1", NSID: 1, Time: time.Date(2025, 11, 30, 8, 31, 0, 0, time.UTC)}
	var err error
	if snap.IDCtrl, err = nvme.DecodeIDCtrl(readBytes(t, fixture("qemu-nvme-id-ctrl.bin"))); err != nil {
		t.Fatal(err)
	}
	if snap.IDNs, err = nvme.DecodeIDNs(readBytes(t, fixture("qemu-nvme-id-ns.bin"))); err != nil {
		t.Fatal(err)
	}
	if snap.SmartLog, err = nvme.DecodeSmartLog(readBytes(t, fixture("qemu-nvme-smart-log.bin"))); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := writeTable(&out, func(tb *table) { snapshotRows(tb, snap) }); err != nil {
		t.Fatal(err)
	}
	checkGoldenText(t, "nvme-info.golden.txt", out.String())
}

func readBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeTemp writes b to a file in a temporary folder.
func writeTemp(t *testing.T, name string, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestNVMeDecodeBadInput(t *testing.T) {
	idCtrl := readBytes(t, fixture("qemu-nvme-id-ctrl.bin"))
	truncated := writeTemp(t, "short.bin", idCtrl[:100])
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"truncated page", []string{"decode", "id-ctrl", truncated}, "identify controller data is truncated: got 100 bytes, want 4096"},
		{"truncated SMART log", []string{"decode", "smart-log", truncated, "--json"}, "got 100 bytes, want 512"},
		{"another kind of page", []string{"decode", "smart-log", fixture("qemu-nvme-id-ctrl.bin")}, "the file is 4096 bytes, but a smart-log page is 512 bytes"},
		{"error log of partial entries", []string{"decode", "error-log", truncated}, "not a whole number of 64-byte entries"},
		{"unknown kind", []string{"decode", "id-foo", truncated}, `unknown page kind "id-foo"; use one of id-ctrl, id-ns, smart-log, error-log, fw-log`},
		{"missing file", []string{"decode", "id-ns", filepath.Join(t.TempDir(), "none.bin")}, "no such file"},
		{"no file", []string{"decode", "id-ns"}, "expected a page kind and a file, got 1 arguments"},
		{"unknown flag", []string{"decode", "id-ns", truncated, "--yaml"}, "flag provided but not defined: -yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runNVMe(t, tt.args...)
			if code != exitUsage || out != "" || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, out, errOut, exitUsage, tt.want)
			}
		})
	}
}

// TestNVMeDecodeLogs decodes crafted error and firmware slot logs.
func TestNVMeDecodeLogs(t *testing.T) {
	errorLog := make([]byte, 2*nvme.ErrorLogEntrySize) // one entry, one empty
	errorLog[0] = 9                                    // error count
	errorLog[8] = 1                                    // submission queue
	errorLog[12], errorLog[13] = 0x05, 0x80            // status 0x4002 (DNR, invalid field) and phase 1
	errorLog[16] = 0x40                                // LBA 64
	errorLog[24] = 1                                   // namespace
	fwLog := make([]byte, nvme.FwSlotLogSize)
	fwLog[0] = 0x21 // active slot 1, slot 2 at next reset
	copy(fwLog[8:], "1.0     ")
	copy(fwLog[16:], "1.1     ")
	tests := []struct {
		kind string
		page []byte
		json string
		text []string
	}{
		{"error-log", errorLog, `"errors": [
    {
      "error_count": 9,
      "sqid": 1,
      "cmdid": 0,
      "status_field": 16386,
      "phase_tag": 1,`, []string{"Error count", "0x4002 (invalid field in command)"}},
		{"error-log", make([]byte, nvme.ErrorLogEntrySize), `"errors": []`, []string{"no errors logged"}},
		{"fw-log", fwLog, `"active_slot": 1,
  "next_reset_slot": 2,`, []string{"Active slot", "1 (1.0)", "Next reset", "Slot 2", "1.1"}},
	}
	for _, tt := range tests {
		path := writeTemp(t, tt.kind+".bin", tt.page)
		code, out, errOut := runNVMe(t, "decode", tt.kind, path, "--json")
		if code != exitOK || !strings.Contains(out, tt.json) {
			t.Errorf("%s --json: exit %d, %s%s; want %s", tt.kind, code, out, errOut, tt.json)
		}
		code, out, errOut = runNVMe(t, "decode", tt.kind, path)
		for _, want := range tt.text {
			if code != exitOK || !strings.Contains(out, want) {
				t.Errorf("%s: exit %d, %s%s; want %q", tt.kind, code, out, errOut, want)
			}
		}
	}
}

func TestNVMeUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{nil, exitUsage, "Subcommands:"},
		{[]string{"help"}, exitOK, "nvme-cli's field names"},
		{[]string{"smart"}, exitUsage, `unknown subcommand "smart"`},
		{[]string{"decode", "-h"}, exitOK, "-json"},
		{[]string{"info"}, exitUsage, "expected one device, got 0 arguments"},
		{[]string{"info", "/dev/null", "--json"}, exitUsage, "not an NVMe controller or namespace"},
		{[]string{"purge", "/dev/nvme0n1", "--method", "erase", "--yes"}, exitUsage,
			`--method "erase" unknown; use one of sanitize-block, sanitize-crypto, sanitize-overwrite, format, format-crypto`},
		{[]string{"purge", "/dev/nvme0n1", "--method", "format"}, exitUsage, "destroys all data on /dev/nvme0n1; add --yes"},
		{[]string{"purge", "--yes", "--method=format", "/dev/null"}, exitUsage, "not an NVMe controller or namespace"},
	}
	for _, tt := range tests {
		code, out, errOut := runNVMe(t, tt.args...)
		if code != tt.code || !strings.Contains(out+errOut, tt.want) {
			t.Errorf("drivebench nvme %v: exit %d, output %q; want exit %d containing %q", tt.args, code, out+errOut, tt.code, tt.want)
		}
	}
}

func TestPercentPrinter(t *testing.T) {
	var out bytes.Buffer
	progress := percentPrinter(&out)
	for _, f := range []float64{0, 0.004, 0.5, 0.501, 1} {
		progress(f)
	}
	if want := "purge: 0%\npurge: 50%\npurge: 100%\n"; out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
}

// TestNVMeDecodeRefusesOtherPages: a page of one kind is not decoded as
// another of the same size.
func TestNVMeDecodeRefusesOtherPages(t *testing.T) {
	code, out, errOut := runNVMe(t, "decode", "id-ctrl", fixture("qemu-nvme-id-ns.bin"))
	if code != exitUsage || out != "" || !strings.Contains(errOut, "not an Identify Controller page") || !strings.Contains(errOut, "decode it as id-ns") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
