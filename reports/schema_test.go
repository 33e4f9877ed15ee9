package reports

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// schemaFile is the published JSON Schema of report.json.
const schemaFile = "../docs/report.schema.json"

// jsonSchema is the subset of JSON Schema the published schema uses.
type jsonSchema struct {
	Ref                  string                 `json:"$ref"`
	Type                 schemaTypes            `json:"type"`
	Format               string                 `json:"format"`
	Const                any                    `json:"const"`
	Enum                 []any                  `json:"enum"`
	Properties           map[string]*jsonSchema `json:"properties"`
	Required             []string               `json:"required"`
	Items                *jsonSchema            `json:"items"`
	AdditionalProperties *jsonSchema            `json:"additionalProperties"`
	Defs                 map[string]*jsonSchema `json:"$defs"`
}

// schemaTypes is "type": one name or a list of them.
type schemaTypes []string

func (t *schemaTypes) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*t = schemaTypes{one}
		return nil
	}
	return json.Unmarshal(b, (*[]string)(t))
}

func loadSchema(t testing.TB) *jsonSchema {
	t.Helper()
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonSchema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("%s: %v", schemaFile, err)
	}
	return &s
}

// validate lists every way value (decoded JSON) breaks schema s; root
// holds the $defs that $ref points into.
func validate(value any, s, root *jsonSchema, path string) []string {
	if s.Ref != "" {
		def, ok := root.Defs[strings.TrimPrefix(s.Ref, "#/$defs/")]
		if !ok {
			return []string{path + ": unknown $ref " + s.Ref}
		}
		return validate(value, def, root, path)
	}
	if len(s.Type) > 0 && !slices.ContainsFunc(s.Type, func(ty string) bool { return isType(value, ty) }) {
		return []string{fmt.Sprintf("%s: %s is not of type %s", path, short(value), strings.Join(s.Type, " or "))}
	}
	var errs []string
	if s.Const != nil && !reflect.DeepEqual(value, s.Const) {
		errs = append(errs, fmt.Sprintf("%s: %s is not %v", path, short(value), s.Const))
	}
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e any) bool { return reflect.DeepEqual(e, value) }) {
		errs = append(errs, fmt.Sprintf("%s: %s is not one of %v", path, short(value), s.Enum))
	}
	if text, ok := value.(string); ok && s.Format == "date-time" {
		if _, err := time.Parse(time.RFC3339Nano, text); err != nil {
			errs = append(errs, fmt.Sprintf("%s: %q is not a date-time", path, text))
		}
	}
	switch v := value.(type) {
	case []any:
		for i, item := range v {
			if s.Items != nil {
				errs = append(errs, validate(item, s.Items, root, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	case map[string]any:
		errs = append(errs, validateObject(v, s, root, path)...)
	}
	return errs
}

func validateObject(v map[string]any, s, root *jsonSchema, path string) []string {
	var errs []string
	for _, name := range s.Required {
		if _, ok := v[name]; !ok {
			errs = append(errs, fmt.Sprintf("%s: required property %q is missing", path, name))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(v)) {
		if prop, ok := s.Properties[name]; ok {
			errs = append(errs, validate(v[name], prop, root, path+"."+name)...)
		} else if s.AdditionalProperties != nil {
			errs = append(errs, validate(v[name], s.AdditionalProperties, root, path+"."+name)...)
		}
	}
	return errs
}

func isType(v any, ty string) bool {
	switch x := v.(type) {
	case nil:
		return ty == "null"
	case bool:
		return ty == "boolean"
	case string:
		return ty == "string"
	case float64:
		return ty == "number" || ty == "integer" && x == math.Trunc(x)
	case []any:
		return ty == "array"
	case map[string]any:
		return ty == "object"
	}
	return false
}

func short(v any) string {
	text := fmt.Sprintf("%#v", v)
	if len(text) > 60 {
		text = text[:60] + "..."
	}
	return text
}

// validateReport fails the test when report.json data breaks the
// published schema. Every report the tests write goes through it.
func validateReport(t testing.TB, data []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("report.json does not parse: %v", err)
	}
	root := loadSchema(t)
	if errs := validate(v, root, root, "$"); len(errs) > 0 {
		t.Errorf("report.json breaks %s:\n%s", schemaFile, strings.Join(errs[:min(len(errs), 20)], "\n"))
	}
}

// TestSchemaMatchesSummary fails when docs/report.schema.json and the
// Summary disagree: every object has a definition (the Summary is the top
// level), every field a property, and a field is required exactly when
// report.json always writes it.
func TestSchemaMatchesSummary(t *testing.T) {
	root := loadSchema(t)
	seen := map[string]bool{}
	var check func(reflect.Type)
	check = func(ty reflect.Type) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Map {
			ty = ty.Elem()
		}
		name := snakeCase(ty.Name())
		if ty.Kind() != reflect.Struct || ty == reflect.TypeFor[time.Time]() || seen[name] {
			return
		}
		seen[name] = true
		def := root
		if name != "summary" {
			if def = root.Defs[name]; def == nil {
				t.Errorf("%s has no $defs entry %q", schemaFile, name)
				return
			}
		}
		var fields []string
		for f := range ty.Fields() {
			tag, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || tag == "-" {
				continue
			}
			fields = append(fields, tag)
			if _, ok := def.Properties[tag]; !ok {
				t.Errorf("%s: %s lacks property %q", schemaFile, name, tag)
			}
			if required, omitted := slices.Contains(def.Required, tag), strings.Contains(opts, "omitempty"); required == omitted {
				t.Errorf("%s: %s.%s is required = %v, but report.json omits it when empty = %v", schemaFile, name, tag, required, omitted)
			}
			check(f.Type)
		}
		for prop := range def.Properties {
			if !slices.Contains(fields, prop) {
				t.Errorf("%s: %s has property %q, which the Summary does not", schemaFile, name, prop)
			}
		}
	}
	check(reflect.TypeFor[Summary]())
	for name := range root.Defs {
		if !seen[name] {
			t.Errorf("%s defines %q, which is not an object of the Summary", schemaFile, name)
		}
	}
}

// TestValidatorCatches makes sure the validator is not blind: each broken
// report must give the error named.
func TestValidatorCatches(t *testing.T) {
	root := loadSchema(t)
	var good map[string]any
	data, err := os.ReadFile("testdata/golden/quickstart/report.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &good); err != nil {
		t.Fatal(err)
	}
	if errs := validate(good, root, root, "$"); len(errs) > 0 {
		t.Fatalf("the golden report is invalid: %v", errs)
	}
	tests := []struct {
		name  string
		spoil func(m map[string]any)
		want  string
	}{
		{"missing field", func(m map[string]any) { delete(m, "counts") }, `required property "counts" is missing`},
		{"wrong type", func(m map[string]any) { m["drives"] = "nvme0" }, "$.drives: \"nvme0\" is not of type array"},
		{"null list", func(m map[string]any) { m["checks"] = nil }, "$.checks: <nil> is not of type array"},
		{"bad enum", func(m map[string]any) { firstTable(m)["headline"] = "latency" }, "is not one of [iops bw lat]"},
		{"wrong version", func(m map[string]any) { m["schema"] = "drivebench/report/v0" }, "is not drivebench/report/v1"},
		{"fraction for an integer", func(m map[string]any) { m["counts"].(map[string]any)["steps"].(map[string]any)["ok"] = 1.5 }, "is not of type integer"},
		{"bad time", func(m map[string]any) { m["generated_at"] = "yesterday" }, "is not a date-time"},
		{"bad nested item", func(m map[string]any) { firstTable(m)["rows"].([]any)[0].(map[string]any)["peak"] = "no" }, "$.results[0].rows[0].peak"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m map[string]any
			_ = json.Unmarshal(data, &m)
			tt.spoil(m)
			errs := validate(m, root, root, "$")
			if !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, tt.want) }) {
				t.Errorf("errors %q lack %q", errs, tt.want)
			}
		})
	}
}

func firstTable(m map[string]any) map[string]any {
	return m["results"].([]any)[0].(map[string]any)
}
