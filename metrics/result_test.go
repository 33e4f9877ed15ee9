package metrics

import (
	"reflect"
	"testing"
)

// TestWholeIntervals leaves out the intervals less than half as long as
// the longest: the stub at a run's end, not a whole last interval.
func TestWholeIntervals(t *testing.T) {
	ends := func(series []Sample) []float64 {
		var out []float64
		for _, s := range series {
			out = append(out, s.T)
		}
		return out
	}
	tests := []struct {
		name string
		ends []float64
		want []float64
	}{
		{"stub at the end", []float64{1, 2, 3, 3.004}, []float64{1, 2, 3}},
		{"whole last interval", []float64{1, 2, 3}, []float64{1, 2, 3}},
		{"half an interval counts", []float64{1, 2, 2.5}, []float64{1, 2, 2.5}},
		{"one stub alone", []float64{0.004}, []float64{0.004}},
		{"none", nil, nil},
	}
	for _, tt := range tests {
		var series []Sample
		for _, e := range tt.ends {
			series = append(series, Sample{T: e})
		}
		if got := ends(WholeIntervals(series)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: intervals ending %v, want %v", tt.name, got, tt.want)
		}
	}
}
