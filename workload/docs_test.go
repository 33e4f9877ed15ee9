package workload

import (
	"cmp"
	"os"
	"strings"
	"testing"
)

// languageDoc is the plan language reference, whose profile and sweep
// tables document the parameters of Options.
const languageDoc = "../docs/plan-language.md"

// docRow is one attribute row of a reference table.
type docRow struct{ typ, def, desc string }

// splitCells splits a table row at the pipes that are not escaped.
func splitCells(line string) []string {
	var cells []string
	var cell strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cell.WriteString(`\|`)
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(cell.String()))
}

// docTable reads the attribute rows of the section of a block from the
// reference: "| `name` | type | default | description |".
func docTable(t *testing.T, block string) map[string]docRow {
	t.Helper()
	raw, err := os.ReadFile(languageDoc)
	if err != nil {
		t.Fatal(err)
	}
	_, section, found := strings.Cut(string(raw), "\n## block \""+block+"\"\n")
	if !found {
		t.Fatalf("%s has no section ## block %q", languageDoc, block)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	rows := map[string]docRow{}
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := splitCells(strings.TrimSpace(line))
		if len(cells) != 6 { // "", name, type, default, description, ""
			t.Errorf("%s, block %q: row %q has %d cells, want 4", languageDoc, block, line, len(cells)-2)
			continue
		}
		rows[strings.Trim(cells[1], "`")] = docRow{cells[2], cells[3], cells[4]}
	}
	return rows
}

// TestDocsProfileTable fails when the reference's profile and replay
// tables and the parameter table disagree: every parameter has a row in
// its block's table with its type, its default and a description that
// starts with its doc line.
func TestDocsProfileTable(t *testing.T) {
	tables := map[string]map[string]docRow{}
	for _, o := range Options {
		block := cmp.Or(o.Block, "profile")
		if tables[block] == nil {
			tables[block] = docTable(t, block)
		}
		row, ok := tables[block][o.Name]
		switch {
		case !ok:
			t.Errorf("%s: block %q has no row for %s (%s)", languageDoc, block, o.Name, o.Doc)
		case row.typ != o.TypeText():
			t.Errorf("%s: %s has type %q, the table says %q", languageDoc, o.Name, row.typ, o.TypeText())
		case row.def != o.Default:
			t.Errorf("%s: %s has default %q, the table says %q", languageDoc, o.Name, row.def, o.Default)
		case !strings.HasPrefix(row.desc, o.Doc):
			t.Errorf("%s: %s is described as %q, which does not start with the table's doc line %q", languageDoc, o.Name, row.desc, o.Doc)
		}
	}
}

// TestDocsSweepTable fails when the reference's sweep table lists other
// parameters than those a sweep can vary.
func TestDocsSweepTable(t *testing.T) {
	rows := docTable(t, "sweep")
	delete(rows, "points")
	for _, name := range Names(Swept) {
		if _, ok := rows[name]; !ok {
			t.Errorf("%s: block \"sweep\" has no row for %s, which a sweep can vary", languageDoc, name)
		}
		delete(rows, name)
	}
	for name := range rows {
		t.Errorf("%s: block \"sweep\" has a row for %s, which the table does not let a sweep vary", languageDoc, name)
	}
}
