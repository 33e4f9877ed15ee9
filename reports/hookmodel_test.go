package reports

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/drivebench/drivebench/script"
)

// modelHook holds summary hooks that show how they see the model: its
// repr, and the types of a few values.
const modelHook = `
def seen(report):
    return {"title": "model", "text": repr(report["model"])}

def types(report):
    m = report["model"]
    drive = m["drives"][0]
    total = m["results"][0]["rows"][0]["total"]
    return {"title": "types", "text": "%s %s %s" % ("summary_hook" in m, type(drive["size_bytes"]), type(total["mean_lat_ns"]))}
`

// hookView runs the hook function of modelHook on model and returns what
// it saw.
func hookView(t *testing.T, function string, model any) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.star"), []byte(modelHook), 0o644); err != nil {
		t.Fatal(err)
	}
	rt := script.New(dir, script.Limits{})
	defer rt.Close()
	sections, _, err := rt.Summary(context.Background(), "m.star", function, map[string]any{"model": model}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sections[0].Text
}

// jsonModel is the Summary as report.json holds it, read back with whole
// numbers as ints: what a summary hook is documented to get.
func jsonModel(t *testing.T, s *Summary) any {
	t.Helper()
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return plainNumbers(v)
}

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

// TestHookModel: a summary hook gets the report's model built from the Go
// Summary exactly as report.json lays it out (names, ints and floats,
// null, times), without its own sections: for every fixture, it sees
// the same as it would reading report.json.
func TestHookModel(t *testing.T) {
	for _, run := range []string{"vendor-acceptance", "quickstart", "latency-qos", "sysbench-fileio", "review-cd6"} {
		m := mustLoad(t, run).HookModel()
		if got, want := hookView(t, "seen", script.Model(m)), hookView(t, "seen", jsonModel(t, m)); got != want {
			t.Errorf("%s: the hook sees the model built from the Summary otherwise than report.json:\n%.300s\nwant\n%.300s", run, got, want)
		}
	}
	s := mustLoad(t, "vendor-acceptance")
	if got := hookView(t, "types", script.Model(s.HookModel())); got != "False int float" {
		t.Errorf("summary_hook in the model, size_bytes, mean_lat_ns: %s, want False int float", got)
	}
	if s.SummaryHook == nil || s.HookModel().SummaryHook != nil {
		t.Error("HookModel keeps the hook's own sections, or the fixture has none")
	}
}
