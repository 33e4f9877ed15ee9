package main

import (
	"encoding/json"
	"io/fs"
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
	valid, plans := strings.Count(out, " is valid: "), examplePlans(t)
	if valid != plans || strings.Contains(out, "drives/") || strings.Contains(out, "modules/") || strings.Contains(out, "vars.hcl") {
		t.Errorf("%d plans valid, want the %d example plans:\n%s", valid, plans, out)
	}
	if !regexp.MustCompile(`thg-cd6v\.hcl is valid: 1 drives, \d+ steps\. Not checked until set: what depends on var\.target\.\n`).MatchString(out) {
		t.Errorf("output does not say what was left unchecked:\n%s", out)
	}
	// run still needs the values.
	if code, _, errOut := runCLI(t, "run", "-out", t.TempDir(), "../../examples/thg-cd6v/thg-cd6v.hcl"); code != exitUsage || !strings.Contains(errOut, "Missing Variable Value") {
		t.Errorf("run without -var target: exit %d\n%s", code, errOut)
	}
}

// examplePlans counts the plans under examples/: every .hcl file but the
// drive files, modules and variable files they use.
func examplePlans(t *testing.T) int {
	n := 0
	err := filepath.WalkDir("../../examples", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		slashed := filepath.ToSlash(path)
		if strings.HasSuffix(path, ".hcl") && !strings.HasSuffix(path, ".vars.hcl") &&
			!strings.Contains(slashed, "/drives/") && !strings.Contains(slashed, "/modules/") {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestValidateJSONOfExample: an example that needs a variable is valid and
// says which; testdata/cli has the JSON of a plan with mistakes.
func TestValidateJSONOfExample(t *testing.T) {
	code, out, _ := runCLI(t, "validate", "-json", "../../examples/acceptance/acceptance.hcl")
	var v struct {
		Valid       bool
		Diagnostics []any
		Plans       []struct{ Unset []string }
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != exitOK || !v.Valid || len(v.Diagnostics) != 0 ||
		len(v.Plans) != 1 || len(v.Plans[0].Unset) != 1 || v.Plans[0].Unset[0] != "target" {
		t.Errorf("exit %d, %+v (%v)", code, v, err)
	}
}

func TestPlanWithoutValues(t *testing.T) {
	code, out, errOut := runCLI(t, "plan", "../../examples/acceptance/acceptance.hcl")
	if code != exitOK || !strings.Contains(out, "11 steps") || !strings.Contains(out, "Not known until set with -var: target") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}
