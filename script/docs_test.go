package script

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// hooksDoc documents the hooks; its Starlark examples must load.
const hooksDoc = "../docs/hooks.md"

// TestHooksDocExamplesLoad fails when a Starlark example of the hooks
// documentation has a syntax error or uses a name hooks do not have.
// Examples that load() other files are test files, shown with the files
// they load; they are left out.
func TestHooksDocExamplesLoad(t *testing.T) {
	raw, err := os.ReadFile(hooksDoc)
	if err != nil {
		t.Fatal(err)
	}
	def := regexp.MustCompile(`(?m)^def ([A-Za-z_][A-Za-z0-9_]*)\(`)
	examples := 0
	for i, block := range strings.Split(string(raw), "```python\n")[1:] {
		code, _, _ := strings.Cut(block, "```")
		if strings.Contains(code, "load(") {
			continue
		}
		examples++
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "example.star"), []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, m := range def.FindAllStringSubmatch(code, -1) {
			if err := New(dir, Limits{}).HasFunction("example.star", m[1]); err != nil {
				t.Errorf("python example %d of %s: %v", i+1, hooksDoc, err)
			}
		}
	}
	if examples < 5 {
		t.Errorf("found %d Starlark examples in %s, want one per hook", examples, hooksDoc)
	}
}
