package native

import (
	"errors"
	"github.com/drivebench/drivebench/engine/driver"
	"math"

	"github.com/drivebench/drivebench/plan"
)

// maxOutstanding bounds numjobs x iodepth: every outstanding I/O has its
// own buffers, recorders and, with psync, goroutine.
const maxOutstanding = 1 << 16

// validate checks the parts of w that do not depend on the target and
// returns every problem found, joined, each a *WorkloadError.
func validate(w plan.Workload) error {
	var errs []error
	check := func(ok bool, field, format string, args ...any) {
		if !ok {
			errs = append(errs, workloadErrorf(field, format, args...))
		}
	}
	_, known := patterns[w.RW]
	check(known, "rw", "rw = %q is not a pattern; use one of %s", w.RW, patternNames())
	check(w.BS > 0, "bs", "bs = %d: the block size must be a positive number of bytes", w.BS)
	check(w.IODepth >= 1, "iodepth", "iodepth = %d: must be at least 1", w.IODepth)
	check(w.NumJobs >= 1, "numjobs", "numjobs = %d: must be at least 1", w.NumJobs)
	check(w.NumJobs < 1 || w.IODepth < 1 || w.IODepth <= maxOutstanding/w.NumJobs, "iodepth",
		"numjobs x iodepth = %d x %d is more than %d outstanding I/Os; lower one of them", w.NumJobs, w.IODepth, maxOutstanding)
	check(w.ReadPct >= 0 && w.ReadPct <= 100, "read_pct", "read_pct = %d: must be between 0 and 100", w.ReadPct)
	check(w.Runtime >= 0, "runtime", "runtime = %v: must not be negative", w.Runtime)
	check(w.Ramp >= 0, "ramp", "ramp = %v: must not be negative", w.Ramp)
	check(w.Bytes >= 0, "bytes", "bytes = %d: must not be negative", w.Bytes)
	check(w.BS <= 0 || w.Bytes%w.BS == 0, "bytes", "bytes = %d is not a multiple of bs = %d; a run transfers whole blocks", w.Bytes, w.BS)
	check(w.Loops >= 0, "loops", "loops = %d: must not be negative", w.Loops)
	check(w.Offset >= 0, "offset", "offset = %d: must not be negative", w.Offset)
	check(w.Size >= 0, "size", "size = %d: must not be negative", w.Size)
	check(w.SizePct >= 0 && w.SizePct <= 100 && !math.IsNaN(w.SizePct), "size_pct",
		"size_pct = %g: must be between 0 and 100", w.SizePct)
	_, supported := ioMethods[w.IOEngine]
	check(supported, "ioengine", "ioengine = %q is not supported by the native engine; use %s", w.IOEngine, ioMethodNames())
	return errors.Join(errs...)
}

// checkDirect checks what O_DIRECT requires of the region and block size:
// both aligned to the target's logical block size.
func checkDirect(t driver.Target, w plan.Workload, r region) error {
	lbs := int64(t.LogicalBlockSize())
	if w.BS%lbs != 0 {
		return workloadErrorf("bs", "bs = %d is not a multiple of the logical block size %d of %s, which O_DIRECT requires; choose a multiple or set direct = false",
			w.BS, lbs, t.Path)
	}
	if r.start%lbs != 0 {
		return workloadErrorf("offset", "offset = %d is not a multiple of the logical block size %d of %s, which O_DIRECT requires; align it or set direct = false",
			r.start, lbs, t.Path)
	}
	return nil
}
