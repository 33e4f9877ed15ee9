package native

import (
	"errors"
	"math"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/workload"
)

// Limits on outstanding I/Os: every one has its own buffers and, with
// psync, its own goroutine and recorder.
const (
	maxOutstanding      = 1 << 16
	maxPsyncOutstanding = 4096
)

// percentSlack is how far a list of percentages may sum from 100.
const percentSlack = 0.01

// checker collects the problems of a workload, each a *WorkloadError.
type checker struct{ errs []error }

func (c *checker) check(ok bool, field, format string, args ...any) {
	if !ok {
		c.errs = append(c.errs, workloadErrorf(field, format, args...))
	}
}

// validate checks the parts of w that do not depend on the target and
// returns every problem found, joined.
func validate(w workload.Workload) error {
	var c checker
	validateShape(&c, w)
	validateRegion(&c, w)
	validateRate(&c, w)
	validateMix(&c, w)
	validateData(&c, w)
	if w.IsFileSet() {
		validateFileSet(&c, w)
	}
	return errors.Join(c.errs...)
}

// validateFileSet checks what a file set needs and what it cannot be
// combined with.
func validateFileSet(c *checker, w workload.Workload) {
	c.check(w.Files <= workload.MaxFiles, "files", "files = %d: at most %d", w.Files, workload.MaxFiles)
	c.check(w.FileSize > 0 || len(w.FileSizes) > 0, "file_size", "a file set needs file_size, the size of each file, such as \"64MiB\"")
	c.check(w.Offset == 0 && w.Size == 0 && w.SizePct == 0, "size", "offset and size place a region on a drive; a file set's size is files x file_size, so remove them")
	c.check(w.IOEngine != "io_uring", "ioengine", "a file set runs on psync (a file per I/O, opened and closed as the run goes); remove ioengine = \"io_uring\"")
	c.check(w.IODepth <= maxPsyncOutstanding/max(1, w.NumJobs), "iodepth",
		"numjobs x iodepth = %d x %d is more than the %d threads psync may block in system calls, on which a file set runs; lower one of them", w.NumJobs, w.IODepth, maxPsyncOutstanding)
	c.check(!w.Verify, "verify", "verify checks the blocks of one region and does not run on a file set; remove verify")
	c.check(len(w.Zones) == 0, "zones", "zones skew the offsets of one region; on a file set use file_service = \"zipf:THETA\" to skew the choice of files")
	c.check(!w.CreateOnOpen || w.RW == "write" || w.RW == "randwrite", "create_on_open", "create_on_open starts every file empty, which a run that reads cannot read; use it with rw = \"write\" or \"randwrite\"")
	_, err := workload.ParseFileService(w.FileService)
	c.check(err == nil, "file_service", "file_service = %v", err)
}

func validateShape(c *checker, w workload.Workload) {
	_, known := patterns[w.RW]
	c.check(known, "rw", "rw = %q is not a pattern; use one of %s", w.RW, patternNames())
	c.check(w.BS > 0 || len(w.BSSplit) > 0, "bs", "bs = %d: the block size must be a positive number of bytes", w.BS)
	c.check(w.IODepth >= 1, "iodepth", "iodepth = %d: must be at least 1", w.IODepth)
	c.check(w.NumJobs >= 1, "numjobs", "numjobs = %d: must be at least 1", w.NumJobs)
	c.check(w.NumJobs < 1 || w.IODepth < 1 || w.IODepth <= maxOutstanding/w.NumJobs, "iodepth",
		"numjobs x iodepth = %d x %d is more than %d outstanding I/Os; lower one of them", w.NumJobs, w.IODepth, maxOutstanding)
	c.check(w.IOEngine != "psync" || w.NumJobs < 1 || w.IODepth < 1 || w.IODepth <= maxPsyncOutstanding/w.NumJobs, "iodepth",
		"numjobs x iodepth = %d x %d is more than the %d threads psync may block in system calls; lower one of them or set ioengine = \"io_uring\"",
		w.NumJobs, w.IODepth, maxPsyncOutstanding)
	c.check(w.IOEngine != "io_uring" || w.IODepth <= uringMaxEntries, "iodepth",
		"iodepth = %d is more than an io_uring holds (%d); lower it", w.IODepth, uringMaxEntries)
	_, supported := ioMethods[w.IOEngine]
	c.check(supported || w.IOEngine == "", "ioengine", "ioengine = %q is not supported by the native engine; use %s", w.IOEngine, ioMethodNames())
	c.check(w.ReadPct >= 0 && w.ReadPct <= 100, "read_pct", "read_pct = %d: must be between 0 and 100", w.ReadPct)
	c.check(w.Fsync >= 0, "fsync", "fsync = %d: must be 0 (never) or more", w.Fsync)
}

func validateRegion(c *checker, w workload.Workload) {
	c.check(w.Runtime >= 0, "runtime", "runtime = %v: must not be negative", w.Runtime)
	c.check(w.Ramp >= 0, "ramp", "ramp = %v: must not be negative", w.Ramp)
	c.check(w.Bytes >= 0, "bytes", "bytes = %d: must not be negative", w.Bytes)
	if unit := transferUnit(w); unit > 0 && w.Bytes%unit != 0 {
		c.check(false, "bytes", "bytes = %d is not a multiple of %s; a run transfers whole blocks", w.Bytes, unitName(w, unit))
	}
	c.check(finite(w.BytesPct) && w.BytesPct >= 0, "bytes_pct", "bytes_pct = %g: must be a percentage of the region of at least 0", w.BytesPct)
	c.check(w.Bytes == 0 || w.BytesPct == 0, "bytes_pct", "bytes and bytes_pct are both set; give the byte budget one way")
	c.check(w.Loops >= 0, "loops", "loops = %d: must not be negative", w.Loops)
	c.check(w.Offset >= 0, "offset", "offset = %d: must not be negative", w.Offset)
	c.check(w.Size >= 0, "size", "size = %d: must not be negative", w.Size)
	c.check(w.SizePct >= 0 && w.SizePct <= 100 && !math.IsNaN(w.SizePct), "size_pct",
		"size_pct = %g: must be between 0 and 100", w.SizePct)
}

// transferUnit is the granule of w's transfer sizes; 0 when they are
// invalid.
func transferUnit(w workload.Workload) int64 {
	if len(w.BSSplit) == 0 {
		return max(w.BS, 0)
	}
	var g int64
	for _, sw := range w.BSSplit {
		if sw.Size <= 0 {
			return 0
		}
		g = gcd(sw.Size, g)
	}
	return g
}

func validateRate(c *checker, w workload.Workload) {
	c.check(finite(w.RateIOPS) && w.RateIOPS >= 0, "rate_iops", "rate_iops = %g: must be a positive number of I/Os a second, or 0 for no limit", w.RateIOPS)
	c.check(finite(w.RateBW) && w.RateBW >= 0, "rate_bw", "rate_bw = %g: must be a positive number of bytes a second, or 0 for no limit", w.RateBW)
	c.check(w.RateIOPS <= 0 || w.RateBW <= 0, "rate_bw", "rate_iops and rate_bw are both set; a run follows one rate target, so drop one")
	c.check(w.Arrival == "" || w.Arrival == "uniform" || w.Arrival == "poisson", "arrival",
		"arrival = %q: use \"uniform\" or \"poisson\"", w.Arrival)
	c.check(w.Arrival != "poisson" || w.RateIOPS > 0 || w.RateBW > 0, "arrival",
		"arrival = \"poisson\" needs a rate target; set rate_iops or rate_bw")
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func validateMix(c *checker, w workload.Workload) {
	var sum float64
	for i, sw := range w.BSSplit {
		c.check(sw.Size > 0, "bs_split", "entry %d: size = %d must be a positive number of bytes", i+1, sw.Size)
		c.check(finite(sw.Weight) && sw.Weight >= 0, "bs_split", "entry %d: weight = %g must be a percentage of at least 0", i+1, sw.Weight)
		sum += sw.Weight
	}
	c.check(len(w.BSSplit) == 0 || math.Abs(sum-100) <= percentSlack, "bs_split", "the weights add up to %g%%, not 100%%", sum)
	random := patterns[w.RW].random
	c.check(w.SeqPct >= 0 && w.SeqPct <= 100, "seq_pct", "seq_pct = %d: must be between 0 and 100", w.SeqPct)
	c.check(w.SeqPct == 0 || random, "seq_pct", "seq_pct applies to random patterns; rw = %q is sequential already", w.RW)
	c.check(len(w.Zones) == 0 || random, "zones", "zones skew random offsets; rw = %q is sequential", w.RW)
	validateZones(c, w.Zones)
}

func validateZones(c *checker, zones []workload.Zone) {
	if len(zones) == 0 {
		return
	}
	var access, reg float64
	for i, z := range zones {
		c.check(finite(z.AccessPct) && z.AccessPct >= 0 && z.AccessPct <= 100, "zones", "zone %d: access_pct = %g must be between 0 and 100", i+1, z.AccessPct)
		c.check(finite(z.RegionPct) && z.RegionPct > 0 && z.RegionPct <= 100, "zones", "zone %d: region_pct = %g must be more than 0 and at most 100", i+1, z.RegionPct)
		access += z.AccessPct
		reg += z.RegionPct
	}
	c.check(math.Abs(access-100) <= percentSlack, "zones", "the zones' access_pct add up to %g%%, not 100%%", access)
	c.check(math.Abs(reg-100) <= percentSlack, "zones", "the zones' region_pct add up to %g%%, not 100%%", reg)
}

func validateData(c *checker, w workload.Workload) {
	kind, known := dataKinds[w.Data]
	c.check(known, "data", "data = %q: use \"random\", \"zero\", \"compressible\" or \"dedupe\"", w.Data)
	c.check(w.CompressPct >= 0 && w.CompressPct <= 100, "compress_pct", "compress_pct = %d: must be between 0 and 100", w.CompressPct)
	c.check(w.CompressPct == 0 || kind == dataCompressible, "compress_pct", "compress_pct applies with data = \"compressible\"")
	c.check(w.DedupePct >= 0 && w.DedupePct <= 100, "dedupe_pct", "dedupe_pct = %d: must be between 0 and 100", w.DedupePct)
	c.check(w.DedupePct == 0 || kind == dataDedupe, "dedupe_pct", "dedupe_pct applies with data = \"dedupe\"")
	if !w.Verify {
		return
	}
	c.check(patterns[w.RW].readShare(w.ReadPct) < 100 || !known, "verify", "verify checks what the run writes, and rw = %q does not write; use a write pattern", w.RW)
	c.check(kind != dataDedupe, "verify", "verify gives every block a unique header, which defeats data = \"dedupe\"; drop one of them")
	unit := transferUnit(w)
	c.check(unit <= 0 || unit >= minVerifyBlock, "verify", "verify puts a %d-byte header in every block of %s; use blocks of at least %d bytes",
		headerSize, unitName(w, unit), minVerifyBlock)
}

// checkTarget checks what depends on both the workload and the target:
// O_DIRECT alignment and the size of the verify table.
func checkTarget(t driver.Target, w workload.Workload, l layout) error {
	if w.Direct {
		if err := checkDirect(t, w, l); err != nil {
			return err
		}
	}
	if blocks := l.region.blocks(l.granule); w.Verify && blocks > maxVerifyBlocks {
		return workloadErrorf("verify", "verify keeps 4 bytes for each of the region's %d blocks of %d bytes, more than the %d it allows; raise bs or lower size",
			blocks, l.granule, maxVerifyBlocks)
	}
	return nil
}

// checkDirect checks what O_DIRECT requires of the region and transfer
// sizes: all aligned to the target's logical block size.
func checkDirect(t driver.Target, w workload.Workload, l layout) error {
	lbs := int64(t.LogicalBlockSize())
	for _, size := range l.sizes.sizes {
		if size%lbs != 0 {
			field := "bs"
			if len(w.BSSplit) > 0 {
				field = "bs_split"
			}
			return workloadErrorf(field, "%s", plan.DirectMisfit(field, size, lbs, t.Path))
		}
	}
	if l.region.start%lbs != 0 {
		return workloadErrorf("offset", "%s", plan.DirectMisfit("offset", l.region.start, lbs, t.Path))
	}
	return nil
}
