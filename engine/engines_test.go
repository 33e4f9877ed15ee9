package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/plan"
)

// TestEnginesRegistered checks that the engines a plan may name are the
// ones the engine packages registered, and that Validate checks a plan's
// engine attributes against them.
func TestEnginesRegistered(t *testing.T) {
	if got := Engines(); !slices.Equal(got, []string{"fio", "native"}) {
		t.Errorf("Engines() = %q, want fio and native", got)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.hcl")
	src := `drive "d" {
  size   = "64MiB"
  engine = "fiio"
}
profile "p" {
  rw      = "randread"
  runtime = "1s"
}
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	v := Validate(path, plan.LoadOptions{})
	if !v.Diags.HasErrors() {
		t.Fatal("a drive naming engine fiio validated")
	}
	d := v.Diags[0]
	want := `engine = "fiio" is not allowed; use one of "fio" or "native". Did you mean "fio"?`
	if d.Summary != "Unknown Engine" || d.Detail != want || d.Subject == nil || d.Subject.Start.Line != 3 {
		t.Errorf("diagnostic %q: %q at %v; want Unknown Engine: %q at line 3", d.Summary, d.Detail, d.Subject, want)
	}
}

// TestEnginesDocumented fails when the plan language reference's profile
// table does not name an engine a plan may use.
func TestEnginesDocumented(t *testing.T) {
	raw, err := os.ReadFile("../docs/plan-language.md")
	if err != nil {
		t.Fatal(err)
	}
	_, profile, _ := strings.Cut(string(raw), "\n## block \"profile\"\n")
	_, row, _ := strings.Cut(profile, "\n| `engine` |")
	row, _, _ = strings.Cut(row, "\n")
	for _, name := range Engines() {
		if !strings.Contains(row, "`\""+name+"\"`") {
			t.Errorf("docs/plan-language.md: the profile's engine row does not name engine %q: %s", name, row)
		}
	}
}
