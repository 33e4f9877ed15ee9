package native

import (
	"fmt"
	"math"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/workload"
)

// region is the byte range of the target a workload works on: start and
// length, the length a whole number of blocks.
type region struct {
	start, length int64
}

// end is the first byte after the region.
func (r region) end() int64 { return r.start + r.length }

// blocks is the number of unit-sized blocks in the region.
func (r region) blocks(unit int64) int64 { return r.length / unit }

// resolveRegion works out the region of t that w covers: w.Offset bytes
// in, w.Size bytes long (or w.SizePct percent of the capacity, or up to
// the end), rounded down to a multiple of unit (the granule of the
// transfer sizes). It fails when the region is empty or reaches past the
// capacity.
func resolveRegion(t driver.Target, w workload.Workload, unit int64) (region, error) {
	if t.Capacity <= 0 {
		return region{}, fmt.Errorf("target %s has no usable capacity (%d bytes)", t.Path, t.Capacity)
	}
	if w.Offset >= t.Capacity {
		return region{}, workloadErrorf("offset", "offset %d is at or past the end of %s (capacity %d bytes)",
			w.Offset, t.Path, t.Capacity)
	}
	length, field := requestedLength(t.Capacity, w)
	if w.Offset+length > t.Capacity || w.Offset+length < 0 {
		return region{}, workloadErrorf(field, "offset %d + size %d = %d bytes reaches past the end of %s (capacity %d bytes); lower size or offset",
			w.Offset, length, w.Offset+length, t.Path, t.Capacity)
	}
	rounded := length - length%unit
	if rounded == 0 {
		return region{}, workloadErrorf(field, "the region of %d bytes at offset %d holds no whole block of %s",
			length, w.Offset, unitName(w, unit))
	}
	return region{start: w.Offset, length: rounded}, nil
}

// requestedLength is the region length before rounding and the attribute
// it came from.
func requestedLength(capacity int64, w workload.Workload) (int64, string) {
	switch {
	case w.Size > 0:
		return w.Size, "size"
	case w.SizePct > 0:
		return int64(math.Floor(float64(capacity) * w.SizePct / 100)), "size_pct"
	default:
		return capacity - w.Offset, "offset"
	}
}

// unitName names the unit a region is rounded to, for messages.
func unitName(w workload.Workload, unit int64) string {
	if len(w.BSSplit) == 0 {
		return fmt.Sprintf("bs = %d bytes", unit)
	}
	return fmt.Sprintf("%d bytes (the largest size dividing every bs_split size)", unit)
}

// split cuts the region into n contiguous slices of whole blocks, in
// order, their lengths differing by at most one block. The caller checks
// that the region has at least n blocks.
func (r region) split(n int, unit int64) []region {
	per, extra := r.blocks(unit)/int64(n), r.blocks(unit)%int64(n)
	slices := make([]region, n)
	start := r.start
	for i := range slices {
		blocks := per
		if int64(i) < extra {
			blocks++
		}
		slices[i] = region{start: start, length: blocks * unit}
		start += blocks * unit
	}
	return slices
}
