package fio

import (
	"math"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/workload"
)

// The layout mirrors the native engine's, so the two engines touch the
// same bytes: the region is offset bytes in, size bytes (or size_pct
// percent of the capacity, or the rest of the target) long, rounded down
// to whole granules (bs, or the largest size dividing every bs_split
// size). A sequential pattern splits it into numjobs contiguous slices
// differing by at most one granule; each job of a random pattern roams the
// whole region. A budget (bytes, or loops passes over the region) is
// divided among the jobs the same way.

// jobPart is one fio job's share of the work.
type jobPart struct {
	offset, size int64
	// ioSize is the bytes the job transfers; 0 when only time bounds it.
	ioSize int64
}

// granule divides every transfer size of w.
func granule(w workload.Workload) int64 {
	if len(w.BSSplit) == 0 {
		return w.BS
	}
	g := w.BSSplit[0].Size
	for _, s := range w.BSSplit[1:] {
		g = gcd(g, s.Size)
	}
	return g
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// largestSize is the biggest transfer of w.
func largestSize(w workload.Workload) int64 {
	big := w.BS
	if len(w.BSSplit) > 0 {
		big = 0
		for _, s := range w.BSSplit {
			big = max(big, s.Size)
		}
	}
	return big
}

// resolveRegion returns the start and length of the region of t that w
// covers, the length a whole number of granules.
func resolveRegion(t driver.Target, w workload.Workload, unit int64) (start, length int64, err error) {
	if t.Capacity <= 0 {
		return 0, 0, untranslatable("size", "the capacity of %s is unknown, so the region cannot be placed; give the drive a size", t.Path)
	}
	if w.Offset >= t.Capacity {
		return 0, 0, untranslatable("offset", "offset %d is at or past the end of %s (capacity %d bytes)", w.Offset, t.Path, t.Capacity)
	}
	field, length := "offset", t.Capacity-w.Offset
	switch {
	case w.Size > 0:
		field, length = "size", w.Size
	case w.SizePct > 0:
		field, length = "size_pct", int64(math.Floor(float64(t.Capacity)*w.SizePct/100))
	}
	if w.Offset+length > t.Capacity || w.Offset+length < 0 {
		return 0, 0, untranslatable(field, "offset %d + size %d reaches past the end of %s (capacity %d bytes); lower size or offset",
			w.Offset, length, t.Path, t.Capacity)
	}
	length -= length % unit
	if length == 0 || largestSize(w) > length {
		return 0, 0, untranslatable(field, "the region of %d bytes at offset %d cannot hold a transfer of %d bytes", length, w.Offset, largestSize(w))
	}
	return w.Offset, length, nil
}

// jobParts divides the region among the jobs of w.
func jobParts(w workload.Workload, start, length, unit int64) ([]jobPart, error) {
	n := int64(w.NumJobs)
	parts := make([]jobPart, n)
	random := workload.IsRandom(w.RW)
	if !random && length/unit < n {
		return nil, untranslatable("numjobs", "numjobs = %d exceeds the %d blocks of %d bytes in the region; a sequential pattern gives every job its own slice of the region, so lower numjobs or enlarge the region",
			n, length/unit, unit)
	}
	slices := evenShares(length/unit, n, unit)
	at := start
	for i := range parts {
		parts[i] = jobPart{offset: start, size: length}
		if !random {
			parts[i] = jobPart{offset: at, size: slices[i]}
			at += slices[i]
		}
	}
	return parts, assignBudgets(w, parts, length, unit)
}

// assignBudgets sets each job's byte budget: w.Bytes (or bytes_pct
// percent of the region) in total when set; otherwise loops passes over
// the region, unless only time bounds the run.
func assignBudgets(w workload.Workload, parts []jobPart, length, unit int64) error {
	n := int64(len(parts))
	var budgets []int64
	switch {
	case w.Bytes > 0:
		budgets = evenShares(w.Bytes/unit, n, unit)
	case w.BytesPct > 0:
		total := math.Floor(w.BytesPct / 100 * float64(length/unit))
		if total >= math.MaxInt64/float64(unit) {
			return untranslatable("bytes_pct", "bytes_pct = %g of %d bytes is more than can be counted; lower it", w.BytesPct, length)
		}
		budgets = evenShares(int64(total), n, unit)
	case timeBoundOnly(w):
		return nil
	default:
		loops := int64(max(1, w.Loops))
		if length > math.MaxInt64/loops {
			return untranslatable("loops", "loops = %d passes over %d bytes is more than can be counted; lower loops", loops, length)
		}
		if workload.IsRandom(w.RW) {
			budgets = evenShares(loops*(length/unit), n, unit)
		} else {
			budgets = make([]int64, n)
			for i, p := range parts {
				budgets[i] = loops * p.size
			}
		}
	}
	for i := range parts {
		parts[i].ioSize = budgets[i]
	}
	return nil
}

// evenShares splits total units into n parts differing by at most one
// unit, the larger ones first, and returns them in bytes.
func evenShares(total, n, unit int64) []int64 {
	shares := make([]int64, n)
	for i := range shares {
		shares[i] = total / n * unit
		if int64(i) < total%n {
			shares[i] += unit
		}
	}
	return shares
}

// timeBoundOnly reports whether only the runtime bounds w.
func timeBoundOnly(w workload.Workload) bool {
	return w.Runtime > 0 && w.Bytes == 0 && w.BytesPct == 0 && w.Loops == 0
}

// jobRun is a run of consecutive jobs that one fio job section with
// numjobs and offset_increment describes.
type jobRun struct {
	first     jobPart
	count     int
	increment int64
}

// groupParts packs the jobs into as few sections as fio needs: jobs of
// equal size and budget whose offsets step evenly.
func groupParts(parts []jobPart) []jobRun {
	var runs []jobRun
	for _, p := range parts {
		if len(runs) > 0 && runs[len(runs)-1].extends(p) {
			runs[len(runs)-1].count++
			continue
		}
		runs = append(runs, jobRun{first: p, count: 1})
	}
	return runs
}

// extends reports whether p can join the run as its next job, and if it
// can sets the run's offset increment from its second job.
func (r *jobRun) extends(p jobPart) bool {
	if p.size != r.first.size || p.ioSize != r.first.ioSize {
		return false
	}
	step := p.offset - r.first.offset
	if r.count == 1 {
		r.increment = step
		return true
	}
	return step == r.increment*int64(r.count)
}
