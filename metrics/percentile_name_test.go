package metrics

import "testing"

func TestLatencyPercentile(t *testing.T) {
	for name, want := range map[string]float64{"p50_us": 50, "p99_us": 99, "p999_us": 99.9, "p9999_us": 99.99, "p99999_us": 99.999} {
		if got, ok := LatencyPercentile(name); !ok || got != want {
			t.Errorf("%s = %g, %v; want %g", name, got, ok, want)
		}
	}
	for _, name := range []string{"mean_us", "p9_us", "p99", "p00_us", "lat_us"} {
		if _, ok := LatencyPercentile(name); ok {
			t.Errorf("%s is read as a percentile", name)
		}
	}
}
