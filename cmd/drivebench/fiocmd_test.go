package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/results"
)

// fioFixtures are real fio outputs kept by the fio engine's tests.
var fioFixtures = []string{
	"../../engine/fio/testdata/lab-jsonplus-iouring-qd32.json",
	"../../engine/fio/testdata/lab-json-psync-2jobs.json",
	"../../engine/fio/testdata/clients-3hosts.json",
}

// TestImportFio: flags may follow the files, the folder holds one step
// per job name, and the reports are written at once.
func TestImportFio(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "imported")
	args := append(append([]string{"import", "fio"}, fioFixtures...), "-out", dir)
	code, out, errOut := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if !strings.Contains(out, "Results: "+dir) {
		t.Errorf("output %q", out)
	}
	folder, err := results.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(folder.Manifest.Steps) != 3 {
		t.Errorf("%d steps, want one per job name", len(folder.Manifest.Steps))
	}
	for _, f := range reportFiles(nil) {
		if b, err := os.ReadFile(filepath.Join(dir, f)); err != nil || len(b) == 0 {
			t.Errorf("report %s: %v", f, err)
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if !strings.Contains(string(md), "dio-iouring-qd32") {
		t.Errorf("the markdown report does not show the imported job")
	}
}

func TestImportExportUsage(t *testing.T) {
	notFio := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(notFio, []byte("hello\n"), 0o644)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"import", "-h"}, exitOK, "-out"},
		{[]string{"import"}, exitUsage, "fio is the one supported"},
		{[]string{"import", "vdbench", "x"}, exitUsage, "fio is the one supported"},
		{[]string{"import", "fio"}, exitUsage, "expected a fio output file after fio"},
		{[]string{"import", "fio", notFio, "-out", t.TempDir()}, exitUsage, notFio + ": fio's output holds no JSON report"},
		{[]string{"export", "fio"}, exitUsage, "expected a plan file after fio"},
		{[]string{"export", "fio", "a.hcl", "b.hcl"}, exitUsage, "expected one plan file, got 2"},
	}
	for _, tc := range cases {
		code, out, errOut := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("drivebench %v: exit %d, output %q; want %d containing %q", tc.args, code, out+errOut, tc.code, tc.want)
		}
	}
}

const exportPlan = `
drive "scratch" {
  size     = "64MiB"
  writable = true
}

precondition "fill" {
  pattern = "sequential_write"
  bs      = "1MiB"
}

profile "randread" {
  rw      = "randread"
  runtime = "2s"
  sweep {
    iodepth = [1, 8]
  }
}
`

// TestExportFio writes a plan's job files in run order and has fio check
// each one.
func TestExportFio(t *testing.T) {
	planFile := filepath.Join(t.TempDir(), "export.hcl")
	if err := os.WriteFile(planFile, []byte(exportPlan), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "jobs")
	code, out, errOut := runCLI(t, "export", "fio", planFile, "-out", dir)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.fio"))
	if len(files) != 3 || strings.Count(out, ".fio") != 3 {
		t.Fatalf("job files %v, output %q", files, out)
	}
	first, _ := os.ReadFile(files[0])
	if !strings.Contains(string(first), "rw=write") || !strings.Contains(string(first), "scratch-scratch.img") {
		t.Errorf("the first file should be the fill of the scratch drive:\n%s", first)
	}
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio is not installed; the job files were not checked by fio")
	}
	for _, f := range files {
		if msg, err := exec.Command("fio", "--parse-only", f).CombinedOutput(); err != nil {
			t.Errorf("fio --parse-only %s: %v\n%s", f, err, msg)
		}
	}
}
