package workload

import (
	"testing"
	"time"
)

// TestOptionsSetGet checks that every row a point or the plan sets reads
// back what it set, and that the table is well formed.
func TestOptionsSetGet(t *testing.T) {
	values := map[Kind]any{Count: int64(7), Percent: int64(30), Size: int64(8192), Bool: true, Duration: 3 * time.Second, Rate: 2500.0, Scale: 0.5, Text: "libaio"}
	seen := map[string]bool{}
	for _, o := range Options {
		if seen[o.Name] {
			t.Errorf("%s is in the table twice", o.Name)
		}
		seen[o.Name] = true
		if o.Text == nil || o.Doc == "" || o.Default == "" {
			t.Errorf("%s lacks its text, doc line or default", o.Name)
		}
		if (o.Sweep || o.Adaptive) && (o.Set == nil || o.Get == nil) {
			t.Errorf("%s can be swept but has no Set or Get", o.Name)
		}
		if (o.Set == nil) != (o.Get == nil) {
			t.Errorf("%s has one of Set and Get", o.Name)
		}
		if o.Set == nil {
			continue
		}
		v, ok := values[o.Kind]
		if o.Kind == Choice && o.Values != nil {
			v, ok = o.Values[len(o.Values)-1], true
		}
		if !ok {
			continue
		}
		var w Workload
		o.Set(&w, v)
		if got := o.Get(&w); got != v {
			t.Errorf("%s: set %v (%T), got %v (%T)", o.Name, v, v, got, got)
		}
	}
}
