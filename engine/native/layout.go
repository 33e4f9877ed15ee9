package native

import (
	"github.com/drivebench/drivebench/engine/driver"
	"math"

	"github.com/drivebench/drivebench/plan"
)

// layout is how a workload maps onto the target: the region, the pattern
// and the I/O budget of each job.
type layout struct {
	region  region
	pattern pattern
	readPct int
	bs      int64
	// slices are the jobs' parts of the region: contiguous slices for a
	// sequential pattern, the whole region for each job of a random one.
	slices []region
	// limits are the jobs' I/O budgets.
	limits []int64
}

// planLayout resolves the region of t that w covers and divides the work
// among w.NumJobs jobs. w must have passed validate.
func planLayout(t driver.Target, w plan.Workload) (layout, error) {
	reg, err := resolveRegion(t, w)
	if err != nil {
		return layout{}, err
	}
	p := patterns[w.RW]
	l := layout{region: reg, pattern: p, readPct: p.readShare(w.ReadPct), bs: w.BS}
	if l.slices, err = jobSlices(reg, w, p); err != nil {
		return layout{}, err
	}
	if l.limits, err = jobLimits(w, l); err != nil {
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
func jobSlices(reg region, w plan.Workload, p pattern) ([]region, error) {
	if p.random {
		slices := make([]region, w.NumJobs)
		for i := range slices {
			slices[i] = reg
		}
		return slices, nil
	}
	if blocks := reg.blocks(w.BS); int64(w.NumJobs) > blocks {
		return nil, workloadErrorf("numjobs", "numjobs = %d exceeds the %d blocks of bs = %d bytes in the region; a sequential pattern gives every job its own slice of the region, so lower numjobs or enlarge the region",
			w.NumJobs, blocks, w.BS)
	}
	return reg.split(w.NumJobs, w.BS), nil
}

// jobLimits is the number of I/Os each job issues: unbounded in a
// time-based run; w.Bytes in total when set; otherwise loops passes over
// the region, each sequential job covering its own slice loops times.
func jobLimits(w plan.Workload, l layout) ([]int64, error) {
	n := w.NumJobs
	switch {
	case w.Runtime > 0:
		limits := make([]int64, n)
		for i := range limits {
			limits[i] = math.MaxInt64
		}
		return limits, nil
	case w.Bytes > 0:
		return evenShares(w.Bytes/w.BS, n), nil
	}
	loops := int64(max(1, w.Loops))
	if l.region.blocks(w.BS) > math.MaxInt64/loops {
		return nil, workloadErrorf("loops", "loops = %d passes over %d blocks is more I/Os than can be counted; lower loops", loops, l.region.blocks(w.BS))
	}
	if l.pattern.random {
		return evenShares(loops*l.region.blocks(w.BS), n), nil
	}
	limits := make([]int64, n)
	for i, s := range l.slices {
		limits[i] = loops * s.blocks(w.BS)
	}
	return limits, nil
}

// evenShares splits total into n parts differing by at most one.
func evenShares(total int64, n int) []int64 {
	shares := make([]int64, n)
	for i := range shares {
		shares[i] = total / int64(n)
		if int64(i) < total%int64(n) {
			shares[i]++
		}
	}
	return shares
}
