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
// diagnostics with the expectations written in the file: a comment
// "# ERROR: <summary substring>" on the line where a diagnostic's subject
// starts (several on one line for several diagnostics), and
// "# VAR: name=value" lines for -var values.
func TestInvalidPlans(t *testing.T) {
	files, err := filepath.Glob("testdata/invalid/*.hcl")
	if err != nil || len(files) < 12 {
		t.Fatalf("want at least 12 invalid fixtures, found %d (%v)", len(files), err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want, vars := fixtureExpectations(src)
			p, sources, diags := Load(file, vars)
			if p != nil {
				t.Error("Load returned a plan despite errors")
			}
			checkDiagnostics(t, want, diags)
			if t.Failed() {
				var buf bytes.Buffer
				_ = sources.WriteDiagnostics(&buf, diags, 100, false)
				t.Logf("diagnostics:\n%s", buf.String())
			}
		})
	}
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
// expectations.
func checkDiagnostics(t *testing.T, want map[int][]string, diags hcl.Diagnostics) {
	t.Helper()
	met := map[int][]bool{}
	for line, w := range want {
		met[line] = make([]bool, len(w))
	}
	for _, d := range diags {
		line := 0
		if d.Subject != nil {
			line = d.Subject.Start.Line
		}
		if !matchExpectation(want[line], met[line], d.Summary) {
			t.Errorf("line %d: unexpected diagnostic %q: %s", line, d.Summary, d.Detail)
		}
	}
	for line, w := range want {
		for i, summary := range w {
			if !met[line][i] {
				t.Errorf("line %d: expected a diagnostic %q, got none", line, summary)
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
