package native

import (
	"math"
	"math/rand/v2"

	"github.com/drivebench/drivebench/workload"
)

// sizeMix is the transfer-size distribution: one size, or bs_split's
// sizes with their weights.
type sizeMix struct {
	sizes []int64
	// thresholds are the cumulative weights scaled to 1<<32, so a draw is
	// one 32-bit random number and a short scan.
	thresholds []uint64
}

// weightScale is the total of the scaled weights.
const weightScale = 1 << 32

// newSizeMix builds the distribution of w: bs_split when set, else bs.
// The weights must have passed validate.
func newSizeMix(w workload.Workload) sizeMix {
	if len(w.BSSplit) == 0 {
		return sizeMix{sizes: []int64{w.BS}}
	}
	var total float64
	for _, sw := range w.BSSplit {
		total += sw.Weight
	}
	var m sizeMix
	var cum float64
	for _, sw := range w.BSSplit {
		if sw.Weight <= 0 {
			continue
		}
		cum += sw.Weight
		m.sizes = append(m.sizes, sw.Size)
		m.thresholds = append(m.thresholds, uint64(math.Round(cum/total*weightScale)))
	}
	m.thresholds[len(m.thresholds)-1] = weightScale
	return m
}

// pick draws one transfer size.
func (m *sizeMix) pick(rng *rand.Rand) int64 {
	if len(m.sizes) == 1 {
		return m.sizes[0]
	}
	x := uint64(rng.Uint32())
	for i, t := range m.thresholds {
		if x < t {
			return m.sizes[i]
		}
	}
	return m.sizes[len(m.sizes)-1]
}

// largest is the largest transfer size.
func (m *sizeMix) largest() int64 {
	var big int64
	for _, s := range m.sizes {
		big = max(big, s)
	}
	return big
}

// granule is the unit every size is a multiple of (their greatest common
// divisor): offsets are aligned to it and the region is a whole number of
// it.
func (m *sizeMix) granule() int64 {
	g := m.sizes[0]
	for _, s := range m.sizes[1:] {
		g = gcd(g, s)
	}
	return g
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// zoneSet is a skewed access distribution over the region (fio's zoned
// random_distribution): each zone is a contiguous part of the region that
// receives its share of the I/Os.
type zoneSet struct {
	zones []zoneRange
}

// zoneRange is one zone: a granule-aligned part of the region and the
// cumulative access share, scaled to weightScale, up to and including it.
type zoneRange struct {
	region
	threshold uint64
}

// newZoneSet lays w.Zones out over reg in order, each RegionPct percent of
// it, boundaries rounded down to the granule; the last zone ends at the
// region's end. A zone without a whole granule is an error.
func newZoneSet(zones []workload.Zone, reg region, granule int64) (zoneSet, error) {
	if len(zones) == 0 {
		return zoneSet{}, nil
	}
	granules := reg.length / granule
	var set zoneSet
	var cumRegion, cumAccess float64
	start := reg.start
	for i, z := range zones {
		cumRegion += z.RegionPct
		cumAccess += z.AccessPct
		end := reg.start + int64(math.Floor(cumRegion/100*float64(granules)))*granule
		if i == len(zones)-1 {
			end = reg.end()
		}
		if end <= start {
			return zoneSet{}, workloadErrorf("zones", "zone %d (region_pct = %g) holds no whole block of %d bytes in the %d-byte region; enlarge it or the region",
				i+1, z.RegionPct, granule, reg.length)
		}
		threshold := uint64(math.Round(min(cumAccess, 100) / 100 * weightScale))
		set.zones = append(set.zones, zoneRange{region: region{start: start, length: end - start}, threshold: threshold})
		start = end
	}
	set.zones[len(set.zones)-1].threshold = weightScale
	return set, nil
}

// pick draws a zone by its access share.
func (s zoneSet) pick(rng *rand.Rand) region {
	x := uint64(rng.Uint32())
	for _, z := range s.zones {
		if x < z.threshold {
			return z.region
		}
	}
	return s.zones[len(s.zones)-1].region
}
