package reports

import (
	"bufio"
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
)

// schemaDoc is the document that describes report.json field by field.
const schemaDoc = "../docs/report-json.md"

// TestSchemaDocumented fails when a field of report.json is missing from
// docs/report-json.md, or the document describes a field that no longer
// exists. Each struct of the Summary is an object section "### `name`",
// its name the struct's in snake_case, holding a table row per field.
func TestSchemaDocumented(t *testing.T) {
	documented := readSchemaDoc(t)
	objects := map[string][]string{}
	collectObjects(reflect.TypeFor[Summary](), objects)
	for _, name := range slices.Sorted(maps.Keys(objects)) {
		doc, ok := documented[name]
		if !ok {
			t.Errorf("%s has no section ### `%s`", schemaDoc, name)
			continue
		}
		for _, field := range objects[name] {
			if !slices.Contains(doc, field) {
				t.Errorf("%s: object %s does not document field %q", schemaDoc, name, field)
			}
		}
		for _, field := range doc {
			if !slices.Contains(objects[name], field) {
				t.Errorf("%s: object %s documents field %q, which the Summary does not have", schemaDoc, name, field)
			}
		}
	}
	for name := range documented {
		if _, ok := objects[name]; !ok {
			t.Errorf("%s has a section for %s, which is not an object of the Summary", schemaDoc, name)
		}
	}
}

// collectObjects records the JSON field names of struct type t and of the
// structs it holds, by object name.
func collectObjects(t reflect.Type, objects map[string][]string) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t == reflect.TypeFor[time.Time]() {
		return
	}
	name := snakeCase(t.Name())
	if _, seen := objects[name]; seen {
		return
	}
	objects[name] = []string{}
	for _, f := range jsonFields(t) {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "" {
			tag = f.Name
		}
		objects[name] = append(objects[name], tag)
		collectObjects(f.Type, objects)
	}
}

var (
	sectionLine = regexp.MustCompile("^### `([a-z_]+)`")
	fieldLine   = regexp.MustCompile("^\\| `([a-z0-9_]+)` \\|")
)

// readSchemaDoc lists the fields of each object section of the document.
func readSchemaDoc(t *testing.T) map[string][]string {
	t.Helper()
	f, err := os.Open(schemaDoc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	documented := map[string][]string{}
	section := ""
	scan := bufio.NewScanner(f)
	for scan.Scan() {
		line := scan.Text()
		if m := sectionLine.FindStringSubmatch(line); m != nil {
			section = m[1]
			documented[section] = []string{}
		} else if strings.HasPrefix(line, "#") {
			section = ""
		} else if m := fieldLine.FindStringSubmatch(line); m != nil && section != "" {
			documented[section] = append(documented[section], m[1])
		}
	}
	if err := scan.Err(); err != nil {
		t.Fatal(err)
	}
	return documented
}

// jsonFields lists the fields report.json writes of a struct type, as
// encoding/json does: its own, and those of an embedded struct without a
// tag in its place, less the ones an outer field of the same name hides.
func jsonFields(t reflect.Type) []reflect.StructField {
	var fields []reflect.StructField
	for _, f := range reflect.VisibleFields(t) {
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" || !f.IsExported() || tag == "-" {
			continue
		}
		fields = append(fields, f)
	}
	return fields
}

// snakeCase turns a Go type name into an object name: ProfileResult ->
// profile_result, KV -> kv, NVMeIdentity -> nvme_identity.
func snakeCase(name string) string {
	var b strings.Builder
	runes := []rune(strings.ReplaceAll(name, "NVMe", "Nvme"))
	for i, r := range runes {
		startsWord := i > 0 && unicode.IsUpper(r) &&
			(unicode.IsLower(runes[i-1]) || i+1 < len(runes) && unicode.IsLower(runes[i+1]))
		if startsWord {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
