package plan

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// languageDoc is the plan language reference; hooksDoc documents the
// blocks and attributes that judge results and run applications.
const (
	languageDoc = "../docs/plan-language.md"
	hooksDoc    = "../docs/hooks.md"
)

// blockSchemas maps each block type to the schema of its body. Spec
// entries, local values and module inputs are named freely and are
// checked by the keys the language gives them meaning.
var blockSchemas = map[string]*hcl.BodySchema{
	"variable":     variableBlockSchema,
	"validation":   validationBlockSchema,
	"testbed":      testbedBlockSchema,
	"drive":        driveBlockSchema,
	"spec_sheet":   specSheetBlockSchema,
	"mix":          mixBlockSchema,
	"precondition": preconditionBlockSchema,
	"profile":      profileBlockSchema,
	"sweep":        sweepBlockSchema,
	"rate_curve":   rateCurveBlockSchema,
	"repeat":       repeatBlockSchema,
	"steady_state": steadyStateBlockSchema,
	"adaptive":     adaptiveBlockSchema,
	"replay":       replayBlockSchema,
	"check":        checkBlockSchema,
	"exec":         execBlockSchema,
	"dataloader":   dataloaderBlockSchema,
	"checkpoint":   checkpointBlockSchema,
	"accept":       acceptBlockSchema,
	"report":       reportBlockSchema,
}

// freeBlocks are the blocks without a schema, with the attributes the
// reference must document.
var freeBlocks = map[string][]string{
	"spec":   append(append([]string(nil), specMetricKeys...), specConditionKeys...),
	"locals": nil,
	"module": moduleMetaAttributes,
}

// TestLanguageDocCoversSchemas fails when a block or an attribute the
// schemas accept has no row in docs/plan-language.md or docs/hooks.md.
func TestLanguageDocCoversSchemas(t *testing.T) {
	sections := map[string]map[string]bool{}
	for _, doc := range []string{languageDoc, hooksDoc} {
		raw, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for block, rows := range docSections(string(raw)) {
			if sections[block] == nil {
				sections[block] = map[string]bool{}
			}
			for row := range rows {
				sections[block][row] = true
			}
		}
	}
	for _, attr := range planFileSchema.Attributes {
		if !sections[topLevel][attr.Name] {
			t.Errorf("section ## Top-level attributes has no row for %q", attr.Name)
		}
	}
	var blocks []string
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
			t.Errorf("neither %s nor %s has a section ## block %q", languageDoc, hooksDoc, block)
			continue
		}
		for _, attr := range blockAttributes(t, block) {
			if !rows[attr] {
				t.Errorf("section ## block %q has no row for attribute %q", block, attr)
			}
		}
	}
}

// blockAttributes lists the attributes a block accepts.
func blockAttributes(t *testing.T, block string) []string {
	if attrs, free := freeBlocks[block]; free {
		return attrs
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

// topLevel names the section of the top-level attributes.
const topLevel = "## Top-level attributes"

// docSections maps each "## block" section to the attributes of its
// table rows.
func docSections(doc string) map[string]map[string]bool {
	sections := map[string]map[string]bool{}
	var current map[string]bool
	for _, line := range strings.Split(doc, "\n") {
		if m := sectionHeading.FindStringSubmatch(line); m != nil || line == topLevel {
			current = map[string]bool{}
			name := line
			if m != nil {
				name = m[1]
			}
			sections[name] = current
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

// TestLanguageDocListsPresets fails when a shipped mix is not in the
// reference's table of them.
func TestLanguageDocListsPresets(t *testing.T) {
	raw, err := os.ReadFile(languageDoc)
	if err != nil {
		t.Fatal(err)
	}
	l := newLoader("plan.hcl", LoadOptions{})
	l.decodePresets()
	if len(l.diags) > 0 || len(l.mixes) != 12 {
		t.Fatalf("shipped mixes: %d, diagnostics %v", len(l.mixes), l.diags)
	}
	for name := range l.mixes {
		if !strings.Contains(string(raw), "| `"+name+"` |") {
			t.Errorf("%s has no row for the shipped mix %s", languageDoc, name)
		}
	}
}

// TestLanguageDocExamplesParse fails when an HCL example in the reference
// or the hooks documentation has a syntax error or is not formatted as
// drivebench fmt would write it.
func TestLanguageDocExamplesParse(t *testing.T) {
	for _, doc := range []struct {
		file string
		min  int
	}{{languageDoc, 15}, {hooksDoc, 8}} {
		raw, err := os.ReadFile(doc.file)
		if err != nil {
			t.Fatal(err)
		}
		blocks := hclCodeBlocks(string(raw))
		if len(blocks) < doc.min {
			t.Fatalf("%s: found %d hcl examples", doc.file, len(blocks))
		}
		for _, b := range blocks {
			_, diags := hclsyntax.ParseConfig([]byte(b.code), fmt.Sprintf("%s:%d", doc.file, b.line), hcl.Pos{Line: b.line, Column: 1})
			if diags.HasErrors() {
				t.Errorf("%s: example at line %d: %v", doc.file, b.line, diags)
			}
			if got := string(hclwrite.Format([]byte(b.code))); got != b.code {
				t.Errorf("%s: example at line %d is not formatted:\n%s", doc.file, b.line, got)
			}
		}
	}
}

// codeBlock is a fenced code block and the line its code starts on.
type codeBlock struct {
	line int
	code string
}

// hclCodeBlocks returns the ```hcl blocks of a Markdown document.
func hclCodeBlocks(doc string) []codeBlock {
	var blocks []codeBlock
	var current *codeBlock
	for i, line := range strings.Split(doc, "\n") {
		switch {
		case current == nil && line == "```hcl":
			current = &codeBlock{line: i + 2}
		case current != nil && line == "```":
			blocks = append(blocks, *current)
			current = nil
		case current != nil:
			current.code += line + "\n"
		}
	}
	return blocks
}
