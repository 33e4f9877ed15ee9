package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestValidateEveryExampleWithoutVars: validate needs no -var; the folder
// of examples checks every plan in it and none of the files they use.
func TestValidateEveryExampleWithoutVars(t *testing.T) {
	code, out, errOut := runCLI(t, "validate", "../../examples")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	valid := strings.Count(out, " is valid: ")
	if valid != 12 || strings.Contains(out, "drives/") || strings.Contains(out, "modules/") || strings.Contains(out, "vars.hcl") {
		t.Errorf("%d plans valid, want the 12 example plans:\n%s", valid, out)
	}
	if !regexp.MustCompile(`thg-cd6v\.hcl is valid: 1 drives, \d+ steps\. Not checked until set: what depends on var\.target\.\n`).MatchString(out) {
		t.Errorf("output does not say what was left unchecked:\n%s", out)
	}
	// run still needs the values.
	if code, _, errOut := runCLI(t, "run", "-out", t.TempDir(), "../../examples/thg-cd6v/thg-cd6v.hcl"); code != exitUsage || !strings.Contains(errOut, "Missing Variable Value") {
		t.Errorf("run without -var target: exit %d\n%s", code, errOut)
	}
}

type validateJSON struct {
	FormatVersion string `json:"format_version"`
	Valid         bool   `json:"valid"`
	ErrorCount    int    `json:"error_count"`
	Diagnostics   []struct {
		Severity, Summary, Detail string
		Range                     *struct {
			Filename   string
			Start, End struct{ Line, Column, Byte int }
		}
		Snippet *struct {
			Code                 string
			HighlightStartOffset int `json:"highlight_start_offset"`
			HighlightEndOffset   int `json:"highlight_end_offset"`
		}
	}
	Plans []struct {
		File  string
		Valid bool
		Unset []string
	}
}

func TestValidateJSON(t *testing.T) {
	code, out, errOut := runCLI(t, "validate", "-json", "testdata/three-mistakes.hcl")
	if code != exitUsage || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var v validateJSON
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if v.FormatVersion != "1.0" || v.Valid || v.ErrorCount != 3 || len(v.Diagnostics) != 3 {
		t.Fatalf("%+v", v)
	}
	want := []struct {
		line, col int
		summary   string
		marked    string
	}{{2, 14, "Invalid Size", `"1GiBB"`}, {10, 14, "Reference To Undefined Drive", `"scratc"`}, {14, 14, "Check Script Not Found", `"missing.star"`}}
	for i, d := range v.Diagnostics {
		w := want[i]
		if d.Severity != "error" || d.Summary != w.summary || d.Range == nil || d.Range.Start.Line != w.line || d.Range.Start.Column != w.col ||
			!strings.HasSuffix(d.Range.Filename, "three-mistakes.hcl") || d.Detail == "" {
			t.Errorf("diagnostic %d: %+v; want line %d column %d", i, d, w.line, w.col)
			continue
		}
		if d.Snippet == nil || d.Snippet.Code[d.Snippet.HighlightStartOffset:d.Snippet.HighlightEndOffset] != w.marked {
			t.Errorf("diagnostic %d (%s) snippet %+v, want %s highlighted", i, d.Summary, d.Snippet, w.marked)
		}
	}

	code, out, _ = runCLI(t, "validate", "-json", "../../examples/acceptance/acceptance.hcl")
	v = validateJSON{}
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != exitOK || !v.Valid || len(v.Diagnostics) != 0 ||
		len(v.Plans) != 1 || len(v.Plans[0].Unset) != 1 || v.Plans[0].Unset[0] != "target" {
		t.Errorf("valid plan: exit %d, %+v (%v)", code, v, err)
	}
}

// TestValidateFolder: a folder's plans are each checked; a file one of
// them includes is checked as part of it, not alone.
func TestValidateFolder(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "good.hcl"), []byte("include = [\"part.hcl\"]\n\ndrive \"d\" {\n  size     = \"8MiB\"\n  writable = true\n  spec_sheet = \"s\"\n}\n\nprofile \"p\" {\n  rw      = \"read\"\n  bs      = \"1MiB\"\n  runtime = \"1s\"\n}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "part.hcl"), []byte("spec_sheet \"s\" {\n  vendor = \"V\"\n  model  = \"M\"\n}\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "bad.hcl"), []byte("drive \"d\" {\n  size = \"8MB\"\n  writable = \"yes please\"\n}\n"), 0o644)
	code, out, errOut := runCLI(t, "validate", dir)
	if code != exitUsage || !strings.Contains(out, "good.hcl is valid") || strings.Contains(out+errOut, "part.hcl") ||
		!strings.Contains(errOut, "bad.hcl:3:") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

func TestPlanWithoutValues(t *testing.T) {
	code, out, errOut := runCLI(t, "plan", "../../examples/acceptance/acceptance.hcl")
	if code != exitOK || !strings.Contains(out, "11 steps") || !strings.Contains(out, "Not known until set with -var: target") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "plan", "-json", "testdata/three-mistakes.hcl")
	var v validateJSON
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != exitUsage || len(v.Diagnostics) != 3 {
		t.Errorf("plan -json of a broken plan: exit %d, %+v (%v)", code, v, err)
	}
}
