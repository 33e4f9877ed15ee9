package reports

import "testing"

// TestHookModel: a summary hook gets the report's model under
// report.json's names, whole numbers as ints, without its own sections.
func TestHookModel(t *testing.T) {
	s := mustLoad(t, "vendor-acceptance")
	if s.SummaryHook == nil {
		t.Fatal("the fixture has no summary hook sections")
	}
	m, err := s.HookModel()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m["summary_hook"]; ok {
		t.Error("the model holds the hook's own earlier sections")
	}
	if m["schema"] != SchemaVersion {
		t.Errorf("schema = %v", m["schema"])
	}
	results, _ := m["results"].([]any)
	if len(results) != len(s.Results) {
		t.Fatalf("%d result tables, want %d", len(results), len(s.Results))
	}
	row := results[0].(map[string]any)["rows"].([]any)[0].(map[string]any)
	if got, ok := row["total"].(map[string]any)["mean_lat_ns"].(float64); !ok || got != *s.Results[0].Rows[0].Total.MeanLatNs {
		t.Errorf("mean_lat_ns = %#v, want the float %v", row["total"].(map[string]any)["mean_lat_ns"], *s.Results[0].Rows[0].Total.MeanLatNs)
	}
	drive := m["drives"].([]any)[0].(map[string]any)
	if got, ok := drive["size_bytes"].(int64); !ok || got != s.Drives[0].SizeBytes {
		t.Errorf("size_bytes = %#v, want the int %d", drive["size_bytes"], s.Drives[0].SizeBytes)
	}
	if s.SummaryHook == nil {
		t.Error("HookModel changed the Summary")
	}
}
