package catalog

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSchemaIsDocumented: docs/catalog.md names every table of the
// schema in a heading and each of its columns, so that a user writing
// catalog query SQL finds them there.
func TestSchemaIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/catalog.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	c, err := Open(context.Background(), filepath.Join(t.TempDir(), "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tables, err := c.Query(context.Background(), `SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'catalog_schema' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tables.Rows {
		table := row[0].(string)
		section := docSection(text, table)
		if section == "" {
			t.Errorf("docs/catalog.md has no heading naming table `%s`", table)
			continue
		}
		cols, err := c.Query(context.Background(), `SELECT name FROM pragma_table_info($1)`, table)
		if err != nil {
			t.Fatal(err)
		}
		for _, col := range cols.Rows {
			if name := col[0].(string); !strings.Contains(section, "`"+name+"`") {
				t.Errorf("docs/catalog.md does not name column `%s` under its table `%s`", name, table)
			}
		}
	}
}

// docSection is the text under the heading of docs/catalog.md that names
// table, up to the next heading; "" for none.
func docSection(doc, table string) string {
	for _, part := range strings.Split(doc, "\n### ")[1:] {
		heading, body, _ := strings.Cut(part, "\n")
		body, _, _ = strings.Cut(body, "\n## ")
		if strings.Contains(heading, "`"+table+"`") {
			return body
		}
	}
	return ""
}
