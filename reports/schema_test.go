package reports

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// schemaFile is the published JSON Schema of report.json.
const schemaFile = "../docs/report.schema.json"

// jsonSchema is what TestSchemaMatchesSummary compares with the Summary:
// each object's properties and which are required. Validation itself is
// reportSchema's.
type jsonSchema struct {
	Properties map[string]*jsonSchema `json:"properties"`
	Required   []string               `json:"required"`
	Defs       map[string]*jsonSchema `json:"$defs"`
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

// reportSchema is docs/report.schema.json compiled by a validator that
// implements the draft (2020-12), formats included, so every keyword the
// schema uses is enforced.
var reportSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	f, err := os.Open(schemaFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", schemaFile, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("report.schema.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("report.schema.json")
})

// schemaErrors lists every way value (decoded JSON) breaks the schema,
// each as "instance location: error".
func schemaErrors(t testing.TB, value any) []string {
	t.Helper()
	sch, err := reportSchema()
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(value)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	err = sch.Validate(inst)
	var ve *jsonschema.ValidationError
	switch {
	case err == nil:
		return nil
	case !errors.As(err, &ve):
		return []string{err.Error()}
	}
	return leafErrors(ve)
}

// leafErrors lists the errors at the leaves of a validation error's
// causes: the keywords that failed, not the schemas that contain them.
func leafErrors(ve *jsonschema.ValidationError) []string {
	if len(ve.Causes) == 0 {
		return []string{"/" + strings.Join(ve.InstanceLocation, "/") + ": " + ve.ErrorKind.LocalizedString(message.NewPrinter(language.English))}
	}
	var errs []string
	for _, c := range ve.Causes {
		errs = append(errs, leafErrors(c)...)
	}
	return errs
}

func validateReport(t testing.TB, data []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("report.json does not parse: %v", err)
	}
	if errs := schemaErrors(t, v); len(errs) > 0 {
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
		for _, f := range jsonFields(ty) {
			tag, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
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
	var good map[string]any
	var buf bytes.Buffer
	if err := WriteJSON(&buf, mustLoad(t, "quickstart")); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if err := json.Unmarshal(data, &good); err != nil {
		t.Fatal(err)
	}
	if errs := schemaErrors(t, good); len(errs) > 0 {
		t.Fatalf("the golden report is invalid: %v", errs)
	}
	tests := []struct {
		name  string
		spoil func(m map[string]any)
		want  string
	}{
		{"missing field", func(m map[string]any) { delete(m, "counts") }, `/: missing property 'counts'`},
		{"wrong type", func(m map[string]any) { m["drives"] = "nvme0" }, "/drives: got string, want array"},
		{"null list", func(m map[string]any) { m["checks"] = nil }, "/checks: got null, want array"},
		{"bad enum", func(m map[string]any) { firstTable(m)["headline"] = "latency" }, "/results/0/headline: value must be one of 'iops', 'bw', 'lat'"},
		{"wrong version", func(m map[string]any) { m["schema"] = "drivebench/report/v0" }, "/schema: value must be 'drivebench/report/v1'"},
		{"fraction for an integer", func(m map[string]any) { m["counts"].(map[string]any)["steps"].(map[string]any)["ok"] = 1.5 }, "/counts/steps/ok: got number, want integer"},
		{"bad time", func(m map[string]any) { m["generated_at"] = "yesterday" }, "/generated_at: 'yesterday' is not valid date-time"},
		{"bad nested item", func(m map[string]any) { firstTable(m)["rows"].([]any)[0].(map[string]any)["peak"] = "no" }, "/results/0/rows/0/peak: got string, want boolean"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m map[string]any
			_ = json.Unmarshal(data, &m)
			tt.spoil(m)
			errs := schemaErrors(t, m)
			if !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, tt.want) }) {
				t.Errorf("errors %q lack %q", errs, tt.want)
			}
		})
	}
}

func firstTable(m map[string]any) map[string]any {
	return m["results"].([]any)[0].(map[string]any)
}
