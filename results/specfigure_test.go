package results

import (
	"slices"
	"testing"
)

func TestSpecFigure(t *testing.T) {
	for _, tc := range []struct {
		key    string
		unit   string
		higher bool
		ok     bool
	}{
		{"iops", "IOPS", true, true},
		{"bw", "B/s", true, true},
		{"lat_us", "µs", false, true},
		{"p9999_us", "µs", false, true},
		{"pfoo_us", "", false, false},
		{"endurance", "", false, false},
	} {
		unit, higher, ok := SpecFigure(tc.key)
		if unit != tc.unit || higher != tc.higher || ok != tc.ok {
			t.Errorf("SpecFigure(%q) = %q, %v, %v; want %q, %v, %v", tc.key, unit, higher, ok, tc.unit, tc.higher, tc.ok)
		}
	}
	got := SpecFigureOrder(map[string]float64{"dwpd": 1, "p999_us": 1, "p9995_us": 1, "p99_us": 1, "bw": 1, "lat_us": 1, "iops": 1, "p50_us": 1, "watts": 1})
	if want := []string{"iops", "bw", "lat_us", "p50_us", "p99_us", "p999_us", "p9995_us", "dwpd", "watts"}; !slices.Equal(got, want) {
		t.Errorf("SpecFigureOrder = %v, want %v", got, want)
	}
}
