package plan

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// languageDoc is the plan language reference.
const languageDoc = "../docs/plan-language.md"

// blockSchemas maps each block type to the schema of its body; spec
// entries have no schema and are checked by their keys.
var blockSchemas = map[string]*hcl.BodySchema{
	"variable":     variableBlockSchema,
	"testbed":      testbedBlockSchema,
	"drive":        driveBlockSchema,
	"precondition": preconditionBlockSchema,
	"profile":      profileBlockSchema,
	"sweep":        sweepBlockSchema,
	"check":        checkBlockSchema,
	"report":       reportBlockSchema,
}

// TestLanguageDocCoversSchemas fails when a block or an attribute the
// schemas accept has no row in docs/plan-language.md.
func TestLanguageDocCoversSchemas(t *testing.T) {
	raw, err := os.ReadFile(languageDoc)
	if err != nil {
		t.Fatal(err)
	}
	sections := docSections(string(raw))
	blocks := []string{"spec"}
	for _, b := range planFileSchema.Blocks {
		blocks = append(blocks, b.Type)
	}
	for _, schema := range blockSchemas {
		for _, b := range schema.Blocks {
			blocks = append(blocks, b.Type)
		}
	}
	for _, block := range blocks {
		rows, documented := sections[block]
		if !documented {
			t.Errorf("%s has no section ## block %q", languageDoc, block)
			continue
		}
		for _, attr := range blockAttributes(t, block) {
			if !rows[attr] {
				t.Errorf("%s: section ## block %q has no row for attribute %q", languageDoc, block, attr)
			}
		}
	}
}

// blockAttributes lists the attributes a block accepts.
func blockAttributes(t *testing.T, block string) []string {
	if block == "spec" {
		return append(append([]string(nil), specMetricKeys...), specConditionKeys...)
	}
	schema, ok := blockSchemas[block]
	if !ok {
		t.Errorf("block %q has no entry in blockSchemas", block)
		return nil
	}
	var names []string
	for _, a := range schema.Attributes {
		names = append(names, a.Name)
	}
	return names
}

var (
	sectionHeading = regexp.MustCompile(`^## block "([a-z_]+)"$`)
	attributeRow   = regexp.MustCompile("^\\| `([a-z_]+)` \\|")
)

// docSections maps each "## block" section to the attributes of its
// table rows.
func docSections(doc string) map[string]map[string]bool {
	sections := map[string]map[string]bool{}
	var current map[string]bool
	for _, line := range strings.Split(doc, "\n") {
		if m := sectionHeading.FindStringSubmatch(line); m != nil {
			current = map[string]bool{}
			sections[m[1]] = current
			continue
		}
		if strings.HasPrefix(line, "## ") {
			current = nil
		}
		if m := attributeRow.FindStringSubmatch(line); m != nil && current != nil {
			current[m[1]] = true
		}
	}
	return sections
}

// TestLanguageDocListsFunctions fails when a function plans can call is
// not mentioned in the reference.
func TestLanguageDocListsFunctions(t *testing.T) {
	raw, err := os.ReadFile(languageDoc)
	if err != nil {
		t.Fatal(err)
	}
	for name := range planFunctions() {
		if !strings.Contains(string(raw), "`"+name+"`") {
			t.Errorf("%s does not list the function %s", languageDoc, name)
		}
	}
}
