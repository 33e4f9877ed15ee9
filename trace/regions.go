package trace

import (
	"cmp"
	"slices"
)

// regionMap counts I/Os by address bucket. Buckets start at 4 KiB and
// double whenever more than maxBuckets are touched, so a map of a sparse
// trace stays fine and one of a dense trace stays small.
type regionMap struct {
	shift  uint
	counts map[int64]int64
	total  int64
	lo, hi int64
}

func newRegionMap() regionMap { return regionMap{shift: 12, counts: map[int64]int64{}, lo: -1} }

func (r *regionMap) add(off, size int64) {
	if r.lo < 0 || off < r.lo {
		r.lo = off
	}
	r.hi = max(r.hi, off+size)
	r.total++
	r.counts[off>>r.shift]++
	for len(r.counts) > maxBuckets {
		r.shift++
		merged := make(map[int64]int64, len(r.counts)/2)
		for i, n := range r.counts {
			merged[i>>1] += n
		}
		r.counts = merged
	}
}

// Slices is how many equal slices of the address span Regions divides.
const Slices = 100

// Regions is where a trace's reads and writes fall: the span from the
// lowest offset to the highest end, cut in Slices equal slices.
type Regions struct {
	Start     int64 `json:"start"`
	End       int64 `json:"end"`
	SliceSize int64 `json:"slice_size"`
	// AccessPct is each slice's share of the I/Os, in address order.
	AccessPct []float64 `json:"access_pct"`
	// Hottest are the five busiest slices.
	Hottest []HotRegion `json:"hottest"`
	// Hottest10Pct and Hottest20Pct are the shares of the I/Os on the
	// busiest 10 % and 20 % of the span: 10 and 20 for a uniform trace.
	Hottest10Pct float64 `json:"hottest_10pct_access_pct"`
	Hottest20Pct float64 `json:"hottest_20pct_access_pct"`
}

// HotRegion is one slice of the span and its share of the I/Os.
type HotRegion struct {
	Offset    int64   `json:"offset"`
	Size      int64   `json:"size"`
	AccessPct float64 `json:"access_pct"`
}

func (r *regionMap) summary() *Regions {
	span := max(r.hi-r.lo, 1)
	width := (span + Slices - 1) / Slices
	counts := make([]int64, Slices)
	half := int64(1) << r.shift / 2
	for i, n := range r.counts {
		mid := max(i<<r.shift, r.lo) + half
		counts[min(max((mid-r.lo)/width, 0), Slices-1)] += n
	}
	g := &Regions{Start: r.lo, End: r.hi, SliceSize: width, AccessPct: make([]float64, Slices)}
	for i, n := range counts {
		g.AccessPct[i] = pct(n, r.total)
	}
	order := make([]int, Slices)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(counts[b], counts[a]) })
	for _, i := range order[:5] {
		if counts[i] > 0 {
			g.Hottest = append(g.Hottest, HotRegion{Offset: r.lo + int64(i)*width, Size: width, AccessPct: g.AccessPct[i]})
		}
	}
	g.Hottest10Pct = sumPct(g.AccessPct, order[:Slices/10])
	g.Hottest20Pct = sumPct(g.AccessPct, order[:Slices/5])
	return g
}

func sumPct(p []float64, idx []int) float64 {
	s := 0.0
	for _, i := range idx {
		s += p[i]
	}
	return s
}
