package main

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
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
	link, err := fileURL(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Results: "+dir) || !strings.Contains(out, "\nOpen:    "+link+"\n") {
		t.Errorf("output %q does not name the folder and link report.html", out)
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
	// The step's workload, read from the job's options (size=2g), gives
	// the methodology its region.
	if want := "`size=2g`; region: first 2GiB."; !strings.Contains(string(md), want) {
		t.Errorf("the methodology lacks %q", want)
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
	testenv.Command(t, "fio", "fio")
	for _, f := range files {
		if msg, err := exec.Command("fio", "--parse-only", f).CombinedOutput(); err != nil {
			t.Errorf("fio --parse-only %s: %v\n%s", f, err, msg)
		}
	}
}

// headings lists a Markdown report's headings.
func headings(t *testing.T, path string) []string {
	t.Helper()
	md, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// withoutSection leaves the section of heading title, and the headings
// under it, out of a report's headings.
func withoutSection(headings []string, title string) []string {
	var out []string
	skip := false
	for _, h := range headings {
		if level := h[:strings.IndexByte(h+" ", ' ')]; len(level) <= strings.IndexByte(title+" ", ' ') {
			skip = h == title
		}
		if !skip {
			out = append(out, h)
		}
	}
	return out
}

func chartFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "charts", "*.svg"))
	for i := range files {
		files[i] = filepath.Base(files[i])
	}
	return files
}

// TestExportImportRoundTrip: the quickstart exported as fio job files,
// run by fio and imported gives a report with the same sections and
// charts as the quickstart run by drivebench. (The check is listed; its
// verdicts need the plan's hook, which fio does not run.)
func TestExportImportRoundTrip(t *testing.T) {
	testenv.Command(t, "fio", "fio")
	tmp := t.TempDir()
	vars := []string{"-var", "runtime=500ms", "-var", "size=16MiB"}
	native := filepath.Join(tmp, "native")
	if code, out, errOut := runCLI(t, append(append([]string{"run"}, vars...), "-out", native, "../../examples/quickstart.hcl")...); code != exitOK && code != exitCheckFailed {
		t.Fatalf("native run: exit %d\n%s%s", code, out, errOut)
	}
	jobs := filepath.Join(tmp, "jobs")
	if code, _, errOut := runCLI(t, append(append([]string{"export", "fio"}, vars...), "-out", jobs, "../../examples/quickstart.hcl")...); code != exitOK {
		t.Fatalf("export: exit %d\n%s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(jobs, "*.fio"))
	var outputs []string
	for _, f := range files {
		text, _ := os.ReadFile(f)
		if filepath.Base(f) == "4-scratch-4k-random-read-iodepth-4.fio" {
			for _, want := range []string{"# drivebench plan quickstart (quickstart.hcl)\n", "# step: scratch / 4k-random-read / iodepth=4 (profile, step ID ",
				"# profile 4k-random-read, sweep point iodepth=4\n", "\n[scratch-4k-random-read-iodepth-4]\n"} {
				if !strings.Contains(string(text), want) {
					t.Errorf("%s lacks %q:\n%s", f, want, text)
				}
			}
		}
		out := strings.TrimSuffix(f, ".fio") + ".json"
		cmd := exec.Command("fio", "--output-format=json+", "--output="+out, f)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("fio %s: %v\n%s", f, err, msg)
		}
		outputs = append(outputs, out)
	}
	if len(files) != 6 {
		t.Fatalf("%d job files, want the 2 fill passes and 4 profile points", len(files))
	}
	imported := filepath.Join(tmp, "imported")
	if code, _, errOut := runCLI(t, append([]string{"import", "fio", "-out", imported}, outputs...)...); code != exitOK {
		t.Fatalf("import: exit %d\n%s", code, errOut)
	}
	// The drive's spec sheet is the plan's, which fio's output does not
	// carry: only the native report lists its figures in acceptance.
	want := withoutSection(headings(t, filepath.Join(native, "report.md")), "## Spec acceptance")
	if got := headings(t, filepath.Join(imported, "report.md")); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sections of the imported report:\n%s\nwant those of the native run:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got, want := chartFiles(t, imported), chartFiles(t, native); strings.Join(got, " ") != strings.Join(want, " ") || len(want) == 0 {
		t.Errorf("charts of the imported report %v, want %v", got, want)
	}
	folder, err := results.Open(imported)
	if err != nil {
		t.Fatal(err)
	}
	nat, _ := results.Open(native)
	for _, s := range folder.Manifest.Steps {
		if !slices.ContainsFunc(nat.Manifest.Steps, func(n results.StepInfo) bool { return n.ID == s.ID && n.Name == s.Name && n.Source == s.Source }) {
			t.Errorf("imported step %+v is not a step of the native run", s)
		}
	}
	sameWorkloads(t, nat, folder)
}

// sameWorkloads: each step fio ran from an exported job file holds, read
// back from fio's options, the workload the native run's step ran: its
// pattern, transfer size, depth, jobs, O_DIRECT and run length.
func sameWorkloads(t *testing.T, native, imported *results.Folder) {
	t.Helper()
	nat, _ := native.Records()
	imp, _ := imported.Records()
	byID := map[string]*results.Record{}
	for _, r := range nat {
		byID[r.StepID] = r
	}
	checked := 0
	for _, r := range imp {
		n := byID[r.StepID]
		if n == nil || n.Workload == nil || r.Workload == nil {
			t.Errorf("step %s: workload %v, the native run's %v", r.Name, r.Workload, n)
			continue
		}
		for _, name := range []string{"rw", "read_pct", "bs", "iodepth", "numjobs", "direct", "runtime", "ramp"} {
			o := workload.Lookup(name)
			if got, want := o.Value(r.Workload), o.Value(n.Workload); got != want {
				t.Errorf("step %s: imported %s = %q, the native run's %q", r.Name, name, got, want)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Error("no imported step to compare")
	}
}

// TestExportGroupsJobsAndRounds: numjobs > 1 comes with group_reporting,
// and each round's file says how the rounds are combined.
func TestExportGroupsJobsAndRounds(t *testing.T) {
	planFile := filepath.Join(t.TempDir(), "jobs.hcl")
	os.WriteFile(planFile, []byte(`drive "scratch" {
  size     = "16MiB"
  writable = true
}

profile "many" {
  rw      = "randread"
  bs      = "4KiB"
  runtime = "300ms"
  numjobs = 4
  repeat {
    rounds = 3
    keep   = 1
    use    = "best"
  }
}
`), 0o644)
	dir := filepath.Join(t.TempDir(), "jobs")
	if code, _, errOut := runCLI(t, "export", "fio", planFile, "-out", dir); code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.fio"))
	if len(files) != 3 {
		t.Fatalf("job files %v, want one per round", files)
	}
	text, _ := os.ReadFile(files[1])
	for _, want := range []string{"group_reporting=1\n", "numjobs=4\n", "# round 2 of 3: run every round's file; the report combines the rounds with use = \"best\", keep = 1\n"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("%s lacks %q:\n%s", files[1], want, text)
		}
	}
	testenv.Command(t, "fio", "fio")
	out, err := exec.Command("fio", "--output-format=json", files[0]).Output()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(out), `"jobname"`); n != 1 {
		t.Errorf("fio printed %d job results for numjobs = 4, want 1 (group_reporting)", n)
	}
}

// TestImportNamesTheDrive: an import says which drive fio measured, by
// flags or by a drive file in the plan language (the flags override it),
// so the reports name the drive; outputs of several drives are refused,
// and so is a drive file with a mistake, at its place.
func TestImportNamesTheDrive(t *testing.T) {
	work := t.TempDir()
	driveFile := filepath.Join(work, "drive.hcl")
	os.WriteFile(driveFile, []byte(`spec_sheet "cm9-3.84tb" {
  model    = "KIOXIA KCM9XRJE3T84"
  capacity = "3.84TB"
}

drive "cm9" {
  model      = "KIOXIA KCM9XRJE3T84"
  serial     = "X4E0A01ZT1A8"
  firmware   = "0101"
  spec_sheet = "cm9-3.84tb"
}
`), 0o644)
	for _, tt := range []struct {
		name     string
		flags    []string
		declared map[string]string
		sheet    string
		identity string
	}{
		{"flags", []string{"-model", "KIOXIA KCM9XRJE3T84", "-serial", "X4E0A01ZT1A8", "-firmware", "0102", "-capacity", "3.84TB"},
			map[string]string{"model": "KIOXIA KCM9XRJE3T84", "serial": "X4E0A01ZT1A8", "firmware": "0102", results.DeclaredCapacity: "3840000000000"},
			"", "Identity: KIOXIA KCM9XRJE3T84, S/N X4E0A01ZT1A8, FW 0102, 3.84 TB (declared with import fio -model, -serial, -firmware, -capacity)."},
		{"a drive file and a flag", []string{"-drive", driveFile, "-firmware", "0102"},
			map[string]string{"model": "KIOXIA KCM9XRJE3T84", "serial": "X4E0A01ZT1A8", "firmware": "0102"},
			"cm9-3.84tb", "Identity: KIOXIA KCM9XRJE3T84, S/N X4E0A01ZT1A8, FW 0102 (declared with import fio -drive drive.hcl, -firmware)."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "imported")
			args := append([]string{"import", "fio", fioFixtures[0], "-out", dir}, tt.flags...)
			if code, _, errOut := runCLI(t, args...); code != exitOK {
				t.Fatalf("exit %d\n%s", code, errOut)
			}
			folder, err := results.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			d := folder.Manifest.Drives[0]
			if !maps.Equal(d.Declared, tt.declared) || (d.SpecSheet == nil) != (tt.sheet == "") || d.SpecSheet != nil && d.SpecSheet.Name != tt.sheet {
				t.Errorf("drive %+v, sheet %+v; want %v, sheet %q", d, d.SpecSheet, tt.declared, tt.sheet)
			}
			if md := readFile(t, filepath.Join(dir, "report.md")); !strings.Contains(md, tt.identity) {
				t.Errorf("report.md lacks %q", tt.identity)
			}
		})
	}

	// In the catalog the drive is named, and one imported without an
	// identity is named by its run, not by an empty model.
	named, anonymous := filepath.Join(work, "named"), filepath.Join(work, "anonymous")
	runCLI(t, "import", "fio", fioFixtures[0], "-out", named, "-model", "KIOXIA KCM9XRJE3T84", "-serial", "X4E0A01ZT1A8", "-capacity", "3.84TB")
	runCLI(t, "import", "fio", fioFixtures[1], "-out", anonymous)
	if md := readFile(t, filepath.Join(anonymous, "report.md")); !strings.Contains(md, "Identity: none; the drive reported no model, serial or firmware, and import fio declares none.") {
		t.Errorf("the report of an import without an identity does not say none was declared with it:\n%s", md)
	}
	db := filepath.Join(work, "catalog.db")
	if code, _, errOut := runCLI(t, "catalog", "add", "-create", "-catalog", db, named, anonymous); code != exitOK {
		t.Fatalf("catalog add: exit %d: %s", code, errOut)
	}
	_, ls, _ := runCLI(t, "catalog", "ls", "-drives", "-catalog", db)
	if !regexp.MustCompile(`KIOXIA KCM9XRJE3T84 +X4E0A01ZT1A8 +3.84 TB`).MatchString(ls) || !strings.Contains(ls, "(unidentified drive, run ") {
		t.Errorf("catalog ls -drives:\n%s", ls)
	}

	code, _, errOut := runCLI(t, append(append([]string{"import", "fio"}, fioFixtures...), "-out", filepath.Join(work, "three"), "-serial", "S1")...)
	if code != exitUsage || !strings.Contains(errOut, "drives (") || !strings.Contains(errOut, "import each drive's outputs on their own") {
		t.Errorf("three drives, one serial: exit %d, %s", code, errOut)
	}
	os.WriteFile(driveFile, []byte("drive \"cm9\" {\n  modle = \"X\"\n}\n"), 0o644)
	code, _, errOut = runCLI(t, "import", "fio", fioFixtures[0], "-out", filepath.Join(work, "bad"), "-drive", driveFile)
	if code != exitUsage || !strings.Contains(errOut, driveFile+":2:") || !strings.Contains(errOut, "model") {
		t.Errorf("a mistyped attribute: exit %d, %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(work, "bad")); !os.IsNotExist(err) {
		t.Errorf("a refused import wrote its folder: %v", err)
	}
}

// TestExportFileSet: a checkpoint on a directory drive with no size is
// exported as fio's own files in the set's folder (nrfiles, filesize,
// fsync_on_close, create_on_open), what fio cannot do is a comment of
// the job file and a warning, and fio parses every file.
func TestExportFileSet(t *testing.T) {
	planFile := filepath.Join(t.TempDir(), "ckpt.hcl")
	src := "drive \"d\" {\n  directory = \"/mnt/bench\"\n  writable  = true\n}\n\ncheckpoint \"c\" {\n  ranks  = 4\n  size   = \"64MiB\"\n  passes = 1\n}\n"
	if err := os.WriteFile(planFile, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "jobs")
	code, out, errOut := runCLI(t, "export", "fio", planFile, "-out", dir)
	if code != exitOK || strings.Count(out, ".fio") != 2 {
		t.Fatalf("exit %d, output %q\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "drivebench export: step d / c / pass 1/1 read: fio cannot empty the whole page cache (drop_cache): invalidate=1 evicts each job's own files before it starts; the job file says so") {
		t.Errorf("no warning that fio cannot drop the page cache:\n%s", errOut)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.fio"))
	write, _ := os.ReadFile(files[0])
	for _, want := range []string{"directory=/mnt/bench/drivebench-files-d/set-4-", "nrfiles=1", "filesize=16777216", "numjobs=4", "fsync_on_close=1", "create_on_open=1", "# fio cannot: time file operations"} {
		if !strings.Contains(string(write), want) {
			t.Errorf("the write pass's job file lacks %q:\n%s", want, write)
		}
	}
	testenv.Command(t, "fio", "fio")
	for _, f := range files {
		if msg, err := exec.Command("fio", "--parse-only", f).CombinedOutput(); err != nil {
			t.Errorf("fio --parse-only %s: %v\n%s", f, err, msg)
		}
	}
}
