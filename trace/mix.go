package trace

import (
	"cmp"
	"errors"
	"math"
	"slices"

	"github.com/drivebench/drivebench/workload"
)

// Mix is the synthetic workload that approximates a trace, in the terms
// of the plan language's mix block: a read share, a random share, a
// transfer-size distribution and the zones of its skew.
type Mix struct {
	ReadPct, RandomPct int
	// BSSplit holds the transfer sizes, rounded up to 512-byte sectors,
	// with whole-percent weights that add up to 100; at most maxMixSizes.
	BSSplit []workload.SizeWeight
	// Zones is the skew over the trace's span, nil for uniform access.
	Zones []workload.Zone
	// Span is the part of the device the zones cover: Regions' Start to End.
	SpanStart, SpanEnd int64
}

// Limits of a mix, to keep it readable: its sizes and its zones.
const (
	maxMixSizes = 8
	maxMixZones = 10
)

// ErrNoTransfers is the mix of a trace without reads or writes.
var ErrNoTransfers = errors.New("the trace has no reads or writes to make a mix of")

// MixOf approximates the trace Stats describe.
func MixOf(s *Stats) (*Mix, error) {
	if s.Reads+s.Writes == 0 {
		return nil, ErrNoTransfers
	}
	m := &Mix{ReadPct: int(math.Round(s.ReadPct)), RandomPct: 100 - int(math.Round(s.SequentialPct)), BSSplit: mixSizes(s.Sizes)}
	if s.Regions != nil {
		m.Zones = mixZones(coarsen(s.Regions.AccessPct, s.Reads+s.Writes))
		m.SpanStart, m.SpanEnd = s.Regions.Start, s.Regions.End
	}
	return m, nil
}

// mixSizes keeps the most frequent sizes, each other size counted with
// the kept size nearest to it (by ratio), and weighs them in whole
// percentages.
func mixSizes(sizes []SizeCount) []workload.SizeWeight {
	counts := map[int64]int64{}
	for _, sc := range sizes {
		if sc.Size > 0 {
			counts[(sc.Size+511)/512*512] += sc.Count
		}
	}
	kept := make([]int64, 0, len(counts))
	for size := range counts {
		kept = append(kept, size)
	}
	slices.SortFunc(kept, func(a, b int64) int { return cmp.Or(cmp.Compare(counts[b], counts[a]), cmp.Compare(a, b)) })
	kept = kept[:min(len(kept), maxMixSizes)]
	slices.Sort(kept)
	weights := make([]int64, len(kept))
	for size, n := range counts {
		weights[nearest(kept, size)] += n
	}
	pcts := wholePercents(weights)
	var split []workload.SizeWeight
	for i, size := range kept {
		if pcts[i] > 0 {
			split = append(split, workload.SizeWeight{Size: size, Weight: float64(pcts[i])})
		}
	}
	return split
}

// nearest is the index of the size in sorted that is nearest to size by ratio.
func nearest(sorted []int64, size int64) int {
	best, bestD := 0, math.Inf(1)
	for i, s := range sorted {
		if d := math.Abs(math.Log(float64(s) / float64(size))); d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

// wholePercents shares 100 among counts in whole numbers, by largest
// remainder, so that they add up to exactly 100.
func wholePercents(counts []int64) []int {
	var total int64
	for _, n := range counts {
		total += n
	}
	out := make([]int, len(counts))
	if total == 0 {
		return out
	}
	rem := make([]float64, len(counts))
	left := 100
	for i, n := range counts {
		exact := 100 * float64(n) / float64(total)
		out[i] = int(exact)
		rem[i] = exact - float64(out[i])
		left -= out[i]
	}
	order := make([]int, len(counts))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rem[b], rem[a]) })
	for _, i := range order[:left] {
		out[i]++
	}
	return out
}

// minPerSlice is the I/Os a slice must expect, were the trace uniform,
// to be told hot or cold: with fewer, chance alone makes some slices
// twice as busy as others.
const minPerSlice = 32

// coarsen merges the slices of access into fewer, wider ones (a divisor
// of their number), so that each expects minPerSlice of the ios I/Os.
func coarsen(access []float64, ios int64) []float64 {
	n := len(access)
	for n > 1 && (int64(n)*minPerSlice > ios || len(access)%n != 0) {
		n--
	}
	out := make([]float64, n)
	for i, a := range access {
		out[i*n/len(access)] += a
	}
	return out
}

// mixZones turns the access shares of the span's slices into zones:
// runs of hot slices (twice the uniform share or more) and of cold ones,
// each with its share of the I/Os in whole percentages. Zones that get
// no whole percent join their neighbour; nil when one zone is left.
func mixZones(access []float64) []workload.Zone {
	hot := 2 * 100 / float64(len(access))
	type run struct {
		access float64
		width  int
	}
	var runs []run
	for i, a := range access {
		if i > 0 && (a >= hot) == (access[i-1] >= hot) {
			runs[len(runs)-1].access += a
			runs[len(runs)-1].width++
			continue
		}
		runs = append(runs, run{a, 1})
	}
	for {
		for len(runs) > maxMixZones {
			i := smallestPair(len(runs), func(i int) float64 { return runs[i].access + runs[i+1].access })
			runs[i] = run{runs[i].access + runs[i+1].access, runs[i].width + runs[i+1].width}
			runs = slices.Delete(runs, i+1, i+2)
		}
		weights := make([]int64, len(runs))
		for i, r := range runs {
			weights[i] = int64(math.Round(r.access * 1e6))
		}
		pcts := wholePercents(weights)
		zero := slices.Index(pcts, 0)
		if zero < 0 {
			if len(runs) == 1 {
				return nil
			}
			zones := make([]workload.Zone, len(runs))
			for i, r := range runs {
				zones[i] = workload.Zone{AccessPct: float64(pcts[i]), RegionPct: float64(r.width * 100 / len(access))}
			}
			return zones
		}
		j := zero - 1
		if j < 0 {
			j = 0
		}
		runs[j] = run{runs[j].access + runs[j+1].access, runs[j].width + runs[j+1].width}
		runs = slices.Delete(runs, j+1, j+2)
	}
}

// smallestPair is the i of n-1 adjacent pairs (i, i+1) with the smallest sum.
func smallestPair(n int, sum func(i int) float64) int {
	best := 0
	for i := 1; i < n-1; i++ {
		if sum(i) < sum(best) {
			best = i
		}
	}
	return best
}
