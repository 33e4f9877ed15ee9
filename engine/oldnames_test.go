package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/plan"
	"github.com/hashicorp/hcl/v2"
)

// TestValidateOldHookFigureNames: validating a plan warns, once per file,
// of each figure a hook reads by its old name, at its place in the hook,
// and the plan stays valid.
func TestValidateOldHookFigureNames(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "checks"), 0o755); err != nil {
		t.Fatal(err)
	}
	star := `def under(run):
    return [verdict("pass" if p.read.lat_ns.p["99.9"] < 1000 else "fail", p.name) for p in run.points]
`
	src := `drive "scratch" {
  size     = "64MiB"
  writable = true
}

profile "read" {
  rw      = "randread"
  runtime = "1s"
}

check "a" {
  script   = "checks/old.star"
  function = "under"
  profile  = "read"
}

check "b" {
  script   = "checks/old.star"
  function = "under"
  profile  = "read"
}
`
	for name, text := range map[string]string{"plan.hcl": src, "checks/old.star": star} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v := Validate(filepath.Join(dir, "plan.hcl"), plan.LoadOptions{})
	var got []*hcl.Diagnostic
	for _, d := range v.Diags {
		if d.Severity == hcl.DiagError {
			t.Errorf("error %s: %s", d.Summary, d.Detail)
		}
		if d.Summary == "Deprecated Figure Name" {
			got = append(got, d)
		}
	}
	want := `checks/old.star:2:38: lat_ns.p["99.9"] is the old name of the p99.9 latency: write .p99_9_ns`
	if len(got) != 1 || !strings.HasPrefix(got[0].Detail, want) || got[0].Severity != hcl.DiagWarning || got[0].Subject == nil || got[0].Subject.Start.Line != 11 {
		for _, d := range got {
			t.Logf("%s at %v: %s", d.Summary, d.Subject, d.Detail)
		}
		t.Errorf("want one warning at plan line 11 starting %q", want)
	}
}
