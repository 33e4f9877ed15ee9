package native

import (
	"testing"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/workload"
)

func TestResolveRegion(t *testing.T) {
	const capacity = 1 << 20
	tests := []struct {
		name                  string
		offset, size, bs      int64
		sizePct               float64
		wantStart, wantLength int64
	}{
		{name: "whole target", bs: 4096, wantLength: capacity},
		{name: "rest after offset", offset: 8192, bs: 4096, wantStart: 8192, wantLength: capacity - 8192},
		{name: "rest rounded down", offset: 1000, bs: 4096, wantStart: 1000, wantLength: capacity - 4096},
		{name: "size", offset: 4096, size: 65536, bs: 4096, wantStart: 4096, wantLength: 65536},
		{name: "size rounded down", size: 65536 + 4095, bs: 4096, wantLength: 65536},
		{name: "size_pct", sizePct: 50, bs: 4096, wantLength: capacity / 2},
		{name: "size_pct rounded down", sizePct: 10, bs: 4096, wantLength: 104857 / 4096 * 4096},
		{name: "size wins over size_pct", size: 8192, sizePct: 50, bs: 4096, wantLength: 8192},
		{name: "odd block size", bs: 3000, wantLength: capacity / 3000 * 3000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := workload.Workload{BS: tt.bs, Offset: tt.offset, Size: tt.size, SizePct: tt.sizePct}
			got, err := resolveRegion(driver.Target{Path: "x", Capacity: capacity}, w, tt.bs)
			if err != nil {
				t.Fatal(err)
			}
			if want := (region{start: tt.wantStart, length: tt.wantLength}); got != want {
				t.Errorf("region %+v, want %+v", got, want)
			}
		})
	}
}

func TestResolveRegionWithoutCapacity(t *testing.T) {
	if _, err := resolveRegion(driver.Target{Path: "x"}, workload.Workload{BS: 4096}, 4096); err == nil {
		t.Error("a target without capacity gave a region")
	}
}

func TestSplitCoversTheRegionContiguously(t *testing.T) {
	const bs = 4096
	for _, tt := range []struct{ blocks, n int64 }{{160, 3}, {7, 7}, {10, 1}, {100, 8}} {
		reg := region{start: 12288, length: tt.blocks * bs}
		slices := reg.split(int(tt.n), bs)
		next := reg.start
		for i, s := range slices {
			if s.start != next || s.length%bs != 0 || s.blocks(bs) < tt.blocks/tt.n || s.blocks(bs) > tt.blocks/tt.n+1 {
				t.Errorf("%d blocks in %d: slice %d is %+v, want start %d and %d or %d blocks", tt.blocks, tt.n, i, s, next, tt.blocks/tt.n, tt.blocks/tt.n+1)
			}
			next = s.end()
		}
		if next != reg.end() {
			t.Errorf("%d blocks in %d: slices end at %d, the region at %d", tt.blocks, tt.n, next, reg.end())
		}
	}
}
