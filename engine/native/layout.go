package native

import (
	"math"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/workload"
)

// layout is how a workload maps onto the target: the region, the pattern,
// the transfer sizes and the byte budget of each job.
type layout struct {
	region  region
	pattern pattern
	readPct int
	sizes   sizeMix
	// granule divides every transfer size; offsets are multiples of it
	// from the region's start.
	granule int64
	zones   zoneSet
	seqPct  int
	// slices are the jobs' parts of the region: contiguous slices for a
	// sequential pattern, the whole region for each job of a random one.
	slices []region
	// budgets are the bytes each job transfers; unbounded when the run
	// is only time-based.
	budgets []int64
}

// unbounded is the budget of a job that runs until its deadline.
const unbounded = math.MaxInt64

// planLayout resolves the region of t that w covers and divides the work
// among w.NumJobs jobs. w must have passed validate.
func planLayout(t driver.Target, w workload.Workload) (layout, error) {
	sizes := newSizeMix(w)
	granule := sizes.granule()
	reg, err := resolveRegion(t, w, granule)
	if err != nil {
		return layout{}, err
	}
	if big := sizes.largest(); big > reg.length {
		return layout{}, workloadErrorf("bs_split", "the largest transfer, %d bytes, is bigger than the %d-byte region; enlarge the region or drop the size",
			big, reg.length)
	}
	p := patterns[w.RW]
	l := layout{region: reg, pattern: p, readPct: p.readShare(w.ReadPct), sizes: sizes, granule: granule, seqPct: w.SeqPct}
	if l.zones, err = newZoneSet(w.Zones, reg, granule); err != nil {
		return layout{}, err
	}
	if l.slices, err = jobSlices(reg, w, p, granule); err != nil {
		return layout{}, err
	}
	if l.budgets, err = jobBudgets(w, l); err != nil {
		return layout{}, err
	}
	return l, nil
}

// writes reports whether the layout issues any write.
func (l layout) writes() bool { return l.readPct < 100 }

// reads reports whether the layout issues any read.
func (l layout) reads() bool { return l.readPct > 0 }

// buffersPerSlot is one buffer for each direction the layout issues.
func (l layout) buffersPerSlot() int {
	if l.reads() && l.writes() {
		return 2
	}
	return 1
}

// jobSlices gives each job of a sequential pattern its own contiguous
// slice, so a sequential fill writes every block of the region once per
// pass (fio's offset_increment = region/numjobs); each job of a random
// pattern roams the whole region.
func jobSlices(reg region, w workload.Workload, p pattern, granule int64) ([]region, error) {
	if p.random {
		slices := make([]region, w.NumJobs)
		for i := range slices {
			slices[i] = reg
		}
		return slices, nil
	}
	if blocks := reg.blocks(granule); int64(w.NumJobs) > blocks {
		return nil, workloadErrorf("numjobs", "numjobs = %d exceeds the %d blocks of %s in the region; a sequential pattern gives every job its own slice of the region, so lower numjobs or enlarge the region",
			w.NumJobs, blocks, unitName(w, granule))
	}
	return reg.split(w.NumJobs, granule), nil
}

// jobBudgets is the number of bytes each job transfers: w.Bytes in total,
// or w.BytesPct percent of the region, when set; otherwise loops passes
// over the region, each sequential job covering its own slice loops
// times; unbounded in a time-based run that sets none of them. A run with
// both a runtime and a budget stops at whichever comes first.
func jobBudgets(w workload.Workload, l layout) ([]int64, error) {
	n := w.NumJobs
	switch {
	case w.Bytes > 0:
		return evenShares(w.Bytes/l.granule, n, l.granule), nil
	case w.BytesPct > 0:
		units := w.BytesPct / 100 * float64(l.region.blocks(l.granule))
		if units >= math.MaxInt64/float64(l.granule) {
			return nil, workloadErrorf("bytes_pct", "bytes_pct = %g of a %d-byte region is more bytes than can be counted; lower it", w.BytesPct, l.region.length)
		}
		return evenShares(max(1, int64(units)), n, l.granule), nil
	case w.Runtime > 0 && w.Loops == 0:
		budgets := make([]int64, n)
		for i := range budgets {
			budgets[i] = unbounded
		}
		return budgets, nil
	}
	loops := int64(max(1, w.Loops))
	if l.region.length > math.MaxInt64/loops {
		return nil, workloadErrorf("loops", "loops = %d passes over %d bytes is more than can be counted; lower loops", loops, l.region.length)
	}
	if l.pattern.random {
		return evenShares(loops*l.region.blocks(l.granule), n, l.granule), nil
	}
	budgets := make([]int64, n)
	for i, s := range l.slices {
		budgets[i] = loops * s.length
	}
	return budgets, nil
}

// evenShares splits total units into n parts differing by at most one
// unit and returns them in bytes.
func evenShares(total int64, n int, unit int64) []int64 {
	shares := make([]int64, n)
	for i := range shares {
		shares[i] = total / int64(n)
		if int64(i) < total%int64(n) {
			shares[i]++
		}
		shares[i] *= unit
	}
	return shares
}
