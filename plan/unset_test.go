package plan

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExamplesValidateWithoutValues: every example plan loads with no
// -var at all when unset variables are unknown, and expands to as many
// steps as with its values.
func TestExamplesValidateWithoutValues(t *testing.T) {
	for _, ex := range examplePlans {
		if len(ex.vars) > 0 && ex.vars["target"] == "" && ex.vars["directory"] == "" {
			continue // a preset choice, not a missing value
		}
		t.Run(ex.file, func(t *testing.T) {
			p, _, diags := Load(filepath.Join(exampleDir, ex.file), LoadOptions{Unset: true})
			if diags.HasErrors() {
				t.Fatalf("%v", diags)
			}
			for name := range ex.vars {
				if !slices.Contains(p.Unset, name) {
					t.Errorf("Unset %v lacks %s", p.Unset, name)
				}
			}
			if n := len(Expand(p).Nodes); n != ex.steps {
				t.Errorf("%d steps without values, want %d", n, ex.steps)
			}
		})
	}
}

// TestUnsetVariablesAreTypeChecked: an unknown value is still checked by
// its type; a missing value is still an error without Unset.
func TestUnsetVariablesAreTypeChecked(t *testing.T) {
	cases := []struct {
		name, body string
		errors     []string // summaries, in order; none when valid
	}{
		{"string path", `variable "target" { type = string }
drive "d" {
  path = var.target
}
profile "p" {
  rw = "randread"
  bs = "4KiB"
  runtime = "1s"
}`, nil},
		{"list as iodepth", `variable "depths" { type = list(number) }
drive "d" {
  size = "8MiB"
  writable = true
}
profile "p" {
  rw = "randread"
  bs = "4KiB"
  runtime = "1s"
  iodepth = var.depths
}`, []string{"Incorrect Value Type"}},
		{"bool as size and object as runtime", `variable "big" { type = bool }
variable "t" { type = object({ s = number }) }
drive "d" {
  size = var.big
  writable = true
}
profile "p" {
  rw = "randread"
  bs = "4KiB"
  runtime = var.t
}`, []string{"Incorrect Value Type", "Incorrect Value Type"}},
		{"known mistakes still found", `variable "target" { type = string }
drive "d" {
  path = var.target
}
profile "p" {
  rw = "randred"
  bs = "4KiB"
  runtime = "1s"
}`, []string{"Invalid I/O Pattern"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "p.hcl")
			os.WriteFile(path, []byte(tc.body), 0o644)
			_, _, diags := Load(path, LoadOptions{Unset: true})
			var got []string
			for _, d := range diags.Errs() {
				got = append(got, d.Error())
			}
			if len(got) != len(tc.errors) {
				t.Fatalf("errors %q, want %q", got, tc.errors)
			}
			for i, want := range tc.errors {
				if !strings.Contains(got[i], want) {
					t.Errorf("error %d: %q, want %q", i, got[i], want)
				}
			}
			if _, _, diags := Load(path, LoadOptions{}); !strings.Contains(diags.Error(), "Missing Variable Value") {
				t.Errorf("without Unset: %v", diags)
			}
		})
	}
}
