package results

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/drivebench/drivebench/workload"
)

// TestEarlierAggregates: a manifest written before steps kept their
// aggregate rule gets the rule its aggregate steps' names state; a step
// that keeps its rule, or whose name states none, is left as it is.
func TestEarlierAggregates(t *testing.T) {
	kept := &workload.Aggregate{Use: "best", Keep: 2}
	m := Manifest{Schema: ManifestSchema, Steps: []StepInfo{
		{ID: "a", Kind: "aggregate", Name: "d / rep / iodepth=8 / mean of last 2 of 3 rounds"},
		{ID: "b", Kind: "aggregate", Name: "d / rep / mean of 4 rounds"},
		{ID: "c", Kind: "aggregate", Name: "d / rep / mean of best 1 of 5 rounds"},
		{ID: "d", Kind: "aggregate", Name: "d / rep / best of 5 rounds", Aggregate: kept},
		{ID: "e", Kind: "aggregate", Name: "d / rep / averaged"},
		{ID: "f", Kind: "profile", Name: "d / rep / mean of 4 rounds"},
	}}
	dir := t.TempDir()
	data, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*workload.Aggregate{
		"a": {Use: "last", Keep: 2}, "b": {Use: "all", Keep: 4}, "c": {Use: "best", Keep: 1}, "d": kept,
	}
	for _, s := range f.Manifest.Steps {
		got, w := s.Aggregate, want[s.ID]
		if (got == nil) != (w == nil) || got != nil && *got != *w {
			t.Errorf("step %s (%q): aggregate %+v, want %+v", s.ID, s.Name, got, w)
		}
	}
}
