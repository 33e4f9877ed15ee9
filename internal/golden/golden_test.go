package golden

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestGoldenSplit checks how report.json is held in files: a file per
// section, per profile and per comparable run's section, empty parts
// whole, and nothing of the document left out.
func TestGoldenSplit(t *testing.T) {
	doc := `{"schema": "drivebench.report/v1",
		"results": [{"drive": "nvme0", "profile": "4K Random Read", "rows": [1, 2]}, {"drive": "nvme0", "profile": "seq"}],
		"comparables": [{"name": "Other Rig", "plan": "p", "results": [{"drive": "cd6", "profile": "seq"}]}, {"name": "bare", "results": []}],
		"notes": [], "sections": [{"profile": "seq"}]}`
	files, err := SplitJSON("report", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	want := []string{
		"report.json.d/schema.json",
		"report.json.d/results.json.d/000-nvme0-4k-random-read.json",
		"report.json.d/results.json.d/001-nvme0-seq.json",
		"report.json.d/comparables.json.d/000-other-rig.json.d/name.json",
		"report.json.d/comparables.json.d/000-other-rig.json.d/plan.json",
		"report.json.d/comparables.json.d/000-other-rig.json.d/results.json.d/000-cd6-seq.json",
		"report.json.d/comparables.json.d/001-bare.json.d/name.json",
		"report.json.d/comparables.json.d/001-bare.json.d/results.json",
		"report.json.d/notes.json",
		"report.json.d/sections.json",
	}
	if !slices.Equal(names, want) {
		t.Errorf("files:\n%s\nwant:\n%s", strings.Join(names, "\n"), strings.Join(want, "\n"))
	}
	checkJoin(t, doc, files)
	if got := string(files[1].Data); got != "{\n  \"drive\": \"nvme0\",\n  \"profile\": \"4K Random Read\",\n  \"rows\": [\n    1,\n    2\n  ]\n}\n" {
		t.Errorf("a profile's file holds %q", got)
	}
}

// TestGoldenDirFailures checks that a golden file that differs, one
// missing and one no longer written are each reported, naming the file
// and, in JSON, the field.
func TestGoldenDirFailures(t *testing.T) {
	dir := t.TempDir()
	golden := map[string]string{
		"report.md": "# Run\nline two\n",
		"report.json.d/results.json.d/000-a.json":   "{\n  \"rows\": [\n    {\"iops\": 1},\n    {\"iops\": 1}\n  ]\n}\n",
		"report.json.d/results.json.d/001-b.json":   "{\"notes\": [\"x\"]}\n",
		"report.json.d/results.json.d/002-old.json": "{}\n",
	}
	for name, data := range golden {
		if err := Write(filepath.Join(dir, filepath.FromSlash(name)), []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name, got, want string
	}{
		{"report.md", "# Run\nline two\n", ""},
		{"report.md", "# Run\nline 2\n", "report.md differs at line 2 (run go test -update if the change is intended):\ngot:  \"line 2\"\nwant: \"line two\""},
		{"report.json.d/results.json.d/000-a.json", "{\n  \"rows\": [\n    {\"iops\": 1},\n    {\"iops\": 2}\n  ]\n}\n", "000-a.json differs at line 4, field rows[1].iops is 2, the golden has 1 "},
		{"report.json.d/results.json.d/000-a.json", "{\n  \"rows\": [\n    {\"iops\": 1}\n  ]\n}\n", "field rows has 1 elements, the golden 2 "},
		{"report.json.d/results.json.d/001-b.json", "{\"notes\": [\"x\"], \"more\": 1}\n", "field more is new"},
		{"report.json.d/results.json.d/001-b.json", "{\"note\": [\"x\"]}\n", "field note where the golden has notes"},
		{"report.json.d/results.json.d/003-new.json", "{}\n", "003-new.json is missing (run go test -update to create it)"},
	}
	for _, c := range cases {
		msg := Diff(filepath.Join(dir, filepath.FromSlash(c.name)), []byte(c.got))
		if c.want == "" && msg != "" || !strings.Contains(msg, c.want) {
			t.Errorf("%s holding %q: got message\n%s\nwant one with\n%s", c.name, c.got, msg, c.want)
		}
	}
	stale, err := Stale(dir, []string{"report.md", "report.json.d/results.json.d/000-a.json", "report.json.d/results.json.d/001-b.json"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, "report.json.d", "results.json.d", "002-old.json")}; !slices.Equal(stale, want) {
		t.Errorf("stale goldens %q, want %q", stale, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.md")); err != nil {
		t.Fatal(err)
	}
}

// checkJoin checks that JoinJSON reads back from files the values of doc.
func checkJoin(t *testing.T, doc string, files []File) {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		if err := Write(filepath.Join(dir, filepath.FromSlash(f.Name)), f.Data); err != nil {
			t.Fatal(err)
		}
	}
	joined, err := JoinJSON(dir, "report")
	if err != nil {
		t.Fatal(err)
	}
	var got, want any
	if err := json.Unmarshal(joined, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(doc), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("joined back:\n%s\nwant the values of:\n%s", joined, doc)
	}
}
