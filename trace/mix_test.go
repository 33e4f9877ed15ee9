package trace

import (
	"reflect"
	"testing"

	"github.com/drivebench/drivebench/workload"
)

func TestMixSizes(t *testing.T) {
	tests := []struct {
		name  string
		sizes []SizeCount
		want  []workload.SizeWeight
	}{
		{"sectors", []SizeCount{{Size: 1000, Count: 1}, {Size: 4096, Count: 3}}, []workload.SizeWeight{{Size: 1024, Weight: 25}, {Size: 4096, Weight: 75}}},
		{"thirds", []SizeCount{{Size: 4096, Count: 1}, {Size: 8192, Count: 1}, {Size: 16384, Count: 1}}, []workload.SizeWeight{{Size: 4096, Weight: 34}, {Size: 8192, Weight: 33}, {Size: 16384, Weight: 33}}},
		{"nine sizes, the rarest joins its nearest", []SizeCount{
			{Size: 512, Count: 10}, {Size: 1024, Count: 10}, {Size: 2048, Count: 10}, {Size: 4096, Count: 10}, {Size: 8192, Count: 10},
			{Size: 16384, Count: 10}, {Size: 32768, Count: 10}, {Size: 65536, Count: 20}, {Size: 69632, Count: 10},
		}, []workload.SizeWeight{
			{Size: 512, Weight: 10}, {Size: 1024, Weight: 10}, {Size: 2048, Weight: 10}, {Size: 4096, Weight: 10}, {Size: 8192, Weight: 10},
			{Size: 16384, Weight: 10}, {Size: 32768, Weight: 10}, {Size: 65536, Weight: 30},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mixSizes(tt.sizes); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%v, want %v", got, tt.want)
			}
		})
	}
}

func TestMixZones(t *testing.T) {
	uniform := make([]float64, Slices)
	middle := make([]float64, Slices)
	for i := range uniform {
		uniform[i] = 1
		middle[i] = 0.5
		if i >= 40 && i < 50 {
			middle[i] = 5.5
		}
	}
	tests := []struct {
		name   string
		access []float64
		ios    int64
		want   []workload.Zone
	}{
		{"uniform", uniform, 100000, nil},
		{"a hot tenth in the middle", middle, 100000, []workload.Zone{{AccessPct: 20, RegionPct: 40}, {AccessPct: 55, RegionPct: 10}, {AccessPct: 25, RegionPct: 50}}},
		{"too few I/Os to tell", middle, 40, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mixZones(coarsen(tt.access, tt.ios)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%v, want %v", got, tt.want)
			}
		})
	}
}
