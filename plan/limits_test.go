package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNestingLimit: text nested far past MaxNesting, which would overflow
// the parser's stack, is refused at its place in plan files, variable
// files (HCL and JSON) and -var values.
func TestNestingLimit(t *testing.T) {
	const n = 100_000
	brackets := strings.Repeat("[", n) + strings.Repeat("]", n)
	templates := strings.Repeat(`"${`, n) + "1" + strings.Repeat(`}"`, n)
	const plan = "variable \"x\" {\n  default = 1\n}\ndrive \"d\" {\n  size     = \"16MiB\"\n  writable = true\n}\n"
	for _, tc := range []struct {
		name, plan, varFile, varFileName, flag string
		wantFile                               string
	}{
		{name: "brackets", plan: "locals {\n  a = " + brackets + "\n}\n" + plan, wantFile: "plan.hcl"},
		{name: "templates", plan: "locals {\n  a = " + templates + "\n}\n" + plan, wantFile: "plan.hcl"},
		{name: "blocks", plan: strings.Repeat("locals {\n", n) + strings.Repeat("}\n", n) + plan, wantFile: "plan.hcl"},
		{name: "hcl var file", plan: plan, varFileName: "v.hcl", varFile: "x = " + brackets + "\n", wantFile: "v.hcl"},
		{name: "json var file", plan: plan, varFileName: "v.json", varFile: `{"x": ` + brackets + "}", wantFile: "v.json"},
		{name: "var flag", plan: strings.Replace(plan, "default = 1", "type    = list(any)\n  default = []", 1), flag: brackets, wantFile: "plan.hcl"}, // at the variable, saying why
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "plan.hcl")
			if err := os.WriteFile(path, []byte(tc.plan), 0o644); err != nil {
				t.Fatal(err)
			}
			opts := LoadOptions{}
			if tc.varFile != "" {
				vf := filepath.Join(dir, tc.varFileName)
				if err := os.WriteFile(vf, []byte(tc.varFile), 0o644); err != nil {
					t.Fatal(err)
				}
				opts.VarFiles = []string{vf}
			}
			if tc.flag != "" {
				opts.Vars = map[string]string{"x": tc.flag}
			}
			_, _, diags := Load(path, opts)
			for _, d := range diags {
				if strings.Contains(d.Summary+d.Detail, "Nesting Too Deep") || strings.Contains(d.Detail, "more than 256 levels") {
					if d.Subject != nil && !strings.HasSuffix(d.Subject.Filename, tc.wantFile) {
						t.Errorf("nesting reported in %s, want %s", d.Subject.Filename, tc.wantFile)
					}
					return
				}
			}
			t.Errorf("no nesting diagnostic: %v", diags)
		})
	}
}
