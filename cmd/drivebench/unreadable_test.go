package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/results"
)

// twoStepRun runs a plan of two steps (a fill and a read) into D in the
// current folder and returns the read's record file.
func twoStepRun(t *testing.T) string {
	t.Helper()
	plan := "drive \"d\" {\n  size     = \"8MiB\"\n  writable = true\n}\n\nprecondition \"fill\" {\n  pattern = \"sequential_write\"\n}\n\nprofile \"read\" {\n  rw      = \"randread\"\n  bs      = \"4KiB\"\n  runtime = \"200ms\"\n}\n"
	os.WriteFile("a.hcl", []byte(plan), 0o644)
	if code, out, errOut := runCLI(t, "run", "-out", "D", "a.hcl"); code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", code, out, errOut)
	}
	folder, err := results.Open("D")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range folder.Manifest.Steps {
		if s.Kind == "profile" {
			return folder.RecordPath(s.ID)
		}
	}
	t.Fatal("no profile step")
	return ""
}

// TestUnreadableRecords: a damaged record, or one a newer drivebench
// wrote, does not stop report D, which reports the rest and names the
// file with what to do; -resume refuses to run over a newer version's
// record (exit 2, naming it, the file untouched) and moves a damaged one
// to damaged/ before running its step again, saying so.
func TestUnreadableRecords(t *testing.T) {
	tests := []struct {
		name     string
		content  string
		newer    bool
		reported string // in report.md's problems
	}{
		{"damaged", `{"schema": "drivebench/record/v1", "step_id": `, false, "is damaged (unexpected end of JSON input): left out and left as it is; drivebench run -resume sets it aside in damaged/ and runs its step again"},
		{"newer version", `{"schema": "drivebench/record/v3", "step_id": "x", "result": {"new": true}}`, true, `was written by a newer drivebench (schema drivebench/record/v3): report this folder with that version; the file is left as it is`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			rec := twoStepRun(t)
			file := filepath.Join("steps", filepath.Base(rec))
			os.WriteFile(rec, []byte(tt.content), 0o644)

			code, _, errOut := runCLI(t, "report", "D")
			if code != exitOK || !strings.Contains(errOut, "drivebench report: left out "+file+": "+file+" ") {
				t.Fatalf("report: exit %d, stderr %q; want the rest reported and the file named", code, errOut)
			}
			md := readFile(t, filepath.Join("D", "report.md"))
			for _, want := range []string{"- Left out: 1 record that cannot be read, listed under Problems", "| d / read | unreadable | " + file + " " + tt.reported, "| fill | d | 1 | ok |"} {
				if !strings.Contains(md, want) {
					t.Errorf("report.md lacks %q:\n%s", want, md)
				}
			}
			if got := readFile(t, rec); got != tt.content {
				t.Fatalf("report changed the record to %q", got)
			}

			code, out, errOut := runCLI(t, "run", "-resume", "D")
			if tt.newer {
				if code != exitUsage || !strings.Contains(errOut, rec+` was written by a newer drivebench (schema "drivebench/record/v3"; this version reads "drivebench/record/v2"); this version could overwrite it, so it runs nothing in D`) {
					t.Errorf("resume: exit %d, stderr %q; want a refusal naming the record", code, errOut)
				}
				if got := readFile(t, rec); got != tt.content {
					t.Errorf("resume changed the newer record to %q", got)
				}
				return
			}
			if code != exitOK || !strings.Contains(out, "d / read: warning: the earlier record of this step, "+file+", was damaged (unexpected end of JSON input); it is kept as damaged/"+filepath.Base(rec)+"; the step runs again") {
				t.Fatalf("resume: exit %d; want the step run again and a warning\n%s%s", code, out, errOut)
			}
			if got := readFile(t, filepath.Join("D", "damaged", filepath.Base(rec))); got != tt.content {
				t.Errorf("the damaged record was not kept as it was: %q", got)
			}
			folder, _ := results.Open("D")
			r, err := folder.ReadRecord(strings.TrimSuffix(filepath.Base(rec), ".json"))
			if err != nil || r.Status != results.StatusOK {
				t.Fatalf("the step run again: %v %+v", err, r)
			}
			if md := readFile(t, filepath.Join("D", "report.md")); !strings.Contains(md, "- Note: 1 damaged record(s) were set aside in damaged/ by a resumed run, which ran their steps again: "+filepath.Base(rec)) {
				t.Errorf("the resumed run's report does not name the record set aside:\n%s", md)
			}
			if !strings.Contains(readFile(t, filepath.Join("D", "journal.jsonl")), `"set_aside":[{"record":"`+file+`","kept_as":"damaged/`+filepath.Base(rec)+`"`) {
				t.Errorf("the journal does not say the record was set aside:\n%s", readFile(t, filepath.Join("D", "journal.jsonl")))
			}
		})
	}
}
