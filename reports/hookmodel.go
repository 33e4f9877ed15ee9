package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// HookModel is the report's model as a summary hook receives it: the
// Summary as report.json lays it out (docs/report-json.md), in plain
// values (dicts, lists, strings, booleans, whole numbers as ints, other
// numbers as floats), without the summary hook's own earlier sections.
// So a hook sees exactly what the report shows, under the same names.
func (s *Summary) HookModel() (map[string]any, error) {
	c := *s
	c.SummaryHook = nil
	raw, err := json.Marshal(&c)
	if err != nil {
		return nil, fmt.Errorf("the report's model for the summary hook: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("the report's model for the summary hook: %w", err)
	}
	return plainNumbers(v).(map[string]any), nil
}

// plainNumbers replaces the JSON numbers in v by int64 where they are
// whole and fit, float64 otherwise.
func plainNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = plainNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = plainNumbers(e)
		}
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	}
	return v
}
