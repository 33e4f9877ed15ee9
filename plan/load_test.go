package plan

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// TestInvalidPlans loads each plan under testdata/invalid and compares its
// diagnostics with the expectations written in the files: a comment
// "# ERROR: <summary substring>" on the line where a diagnostic's subject
// starts (several on one line for several diagnostics), in the plan or in
// a file it includes or uses as a module, and "# VAR: name=value" lines in
// the plan for -var values.
// fixtureEngines are the engines the fixtures are checked against, as
// engine.Engines gives them to a real load (plan cannot import engine).
var fixtureEngines = []string{"fio", "native"}

func TestInvalidPlans(t *testing.T) {
	files, err := filepath.Glob("testdata/invalid/*.hcl")
	if err != nil || len(files) < 40 {
		t.Fatalf("want at least 40 invalid fixtures, found %d (%v)", len(files), err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			_, vars := fixtureExpectations(src)
			p, sources, diags := Load(file, LoadOptions{Vars: vars, Engines: fixtureEngines})
			if p != nil {
				t.Error("Load returned a plan despite errors")
			}
			checkDiagnostics(t, sourceExpectations(sources), diags)
			if t.Failed() {
				var buf bytes.Buffer
				_ = sources.WriteDiagnostics(&buf, diags, 100, false)
				t.Logf("diagnostics:\n%s", buf.String())
			}
		})
	}
}

// sourceExpectations reads the "# ERROR:" expectations of every file a
// plan was read from, by file name and line.
func sourceExpectations(sources *Sources) map[string]map[int][]string {
	want := map[string]map[int][]string{}
	for name, f := range sources.Files {
		want[name], _ = fixtureExpectations(f.Bytes)
	}
	return want
}

// fixtureExpectations reads the "# ERROR:" expectations by line and the
// "# VAR:" values of a fixture.
func fixtureExpectations(src []byte) (map[int][]string, map[string]string) {
	want := map[int][]string{}
	vars := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(src))
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if v, ok := strings.CutPrefix(text, "# VAR: "); ok {
			name, value, _ := strings.Cut(v, "=")
			vars[name] = value
			continue
		}
		parts := strings.Split(text, "# ERROR:")
		for _, p := range parts[1:] {
			want[line] = append(want[line], strings.TrimSpace(p))
		}
	}
	return want, vars
}

// checkDiagnostics matches each diagnostic with an expectation on its
// subject's line, and reports unexpected diagnostics and unmet
// expectations. Diagnostics without a subject match expectations on line
// 0 of file "".
func checkDiagnostics(t *testing.T, want map[string]map[int][]string, diags hcl.Diagnostics) {
	t.Helper()
	met := map[string]map[int][]bool{}
	for file, lines := range want {
		met[file] = map[int][]bool{}
		for line, w := range lines {
			met[file][line] = make([]bool, len(w))
		}
	}
	for _, d := range diags {
		file, line := "", 0
		if d.Subject != nil {
			file, line = d.Subject.Filename, d.Subject.Start.Line
		}
		if !matchExpectation(want[file][line], met[file][line], d.Summary) {
			t.Errorf("%s:%d: unexpected diagnostic %q: %s", file, line, d.Summary, d.Detail)
		}
	}
	for file, lines := range want {
		for line, w := range lines {
			for i, summary := range w {
				if !met[file][line][i] {
					t.Errorf("%s:%d: expected a diagnostic %q, got none", file, line, summary)
				}
			}
		}
	}
}

// matchExpectation marks the first unmet expectation that the summary
// contains, or failing that any expectation it contains.
func matchExpectation(want []string, met []bool, summary string) bool {
	for _, pass := range []bool{false, true} {
		for i, w := range want {
			if (pass || !met[i]) && strings.Contains(summary, w) {
				met[i] = true
				return true
			}
		}
	}
	return false
}
