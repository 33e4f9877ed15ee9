package plan

import (
	"fmt"
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

// FuzzPlanShapes loads plans whose expressions are built deep and large:
// nested brackets, objects, parentheses, templates and for expressions,
// long lists, and functions over them. None may crash or hang the loader;
// each either loads or fails with diagnostics that all have a place.
func FuzzPlanShapes(f *testing.F) {
	f.Add(uint8(0), uint16(10), uint16(10))
	f.Add(uint8(1), uint16(300), uint16(1))
	f.Add(uint8(4), uint16(3), uint16(1000))
	f.Add(uint8(6), uint16(2), uint16(60000))
	path := filepath.Join(f.TempDir(), "plan.hcl")
	f.Fuzz(func(t *testing.T, kind uint8, depth, width uint16) {
		d, w := int(depth)%1000, int(width)%20000
		expr := shapedExpression(kind, d, w)
		src := "locals {\n  x = " + expr + "\n}\n\ndrive \"d\" {\n  size     = \"16MiB\"\n  writable = true\n}\n\n" +
			"profile \"p\" {\n  rw      = \"randread\"\n  bs      = \"4KiB\"\n  runtime = \"1s\"\n  iodepth = min(length(flatten([local.x])), 64) + 1\n}\n"
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		p, _, diags := Load(path, LoadOptions{})
		if (p == nil) != diags.HasErrors() {
			t.Fatalf("plan %v returned with diagnostics %v", p != nil, diags)
		}
		for _, diag := range diags {
			if diag.Subject == nil {
				t.Errorf("kind %d depth %d width %d: %q has no place", kind, d, w, diag.Summary)
			}
		}
	})
}

// shapedExpression writes an expression of one of several shapes, depth
// levels deep over lists of width items.
func shapedExpression(kind uint8, depth, width int) string {
	list := "[" + strings.TrimSuffix(strings.Repeat("1, ", width), ", ") + "]"
	switch kind % 7 {
	case 0:
		return strings.Repeat("[", depth) + list + strings.Repeat("]", depth)
	case 1:
		return strings.Repeat("{ a = ", depth) + "1" + strings.Repeat(" }", depth)
	case 2:
		return strings.Repeat("(", depth) + "1" + strings.Repeat(")", depth)
	case 3:
		return strings.Repeat(`"${`, depth) + `"x"` + strings.Repeat(`}"`, depth)
	case 4:
		e := list
		for i := range min(depth, 8) {
			e = fmt.Sprintf("[for v%d in %s : %s]", i, list, e)
		}
		return e
	case 5:
		return fmt.Sprintf("setproduct(%s, %s, %s)", list, list, list)
	}
	return fmt.Sprintf("flatten([for i in range(%d) : %s])", min(width, 1024), list)
}
