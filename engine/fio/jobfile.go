package fio

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/workload"
)

// UntranslatableError reports a workload attribute fio cannot express as
// the plan means it. Field is the attribute as the plan spells it.
type UntranslatableError struct {
	Field string
	// Problem says what is wrong and what to do, without the field name.
	Problem string
}

func (e *UntranslatableError) Error() string {
	return fmt.Sprintf("workload %s: %s", e.Field, e.Problem)
}

func untranslatable(field, format string, args ...any) error {
	return &UntranslatableError{Field: field, Problem: fmt.Sprintf(format, args...)}
}

// ioEngines are the fio I/O engines a workload may name, with whether
// each keeps more than one I/O in flight per job.
var ioEngines = map[string]bool{
	"sync": false, "psync": false, "vsync": false, "pvsync": false, "pvsync2": false,
	"mmap": false, "splice": false,
	"io_uring": true, "libaio": true, "posixaio": true, "sg": true, "null": true,
}

// readShare is the fraction of I/Os that are reads.
func readShare(w workload.Workload) float64 {
	switch w.RW {
	case "read", "randread":
		return 1
	case "write", "randwrite":
		return 0
	}
	return float64(w.ReadPct) / 100
}

// writes reports whether w issues writes.
func writes(w workload.Workload) bool { return readShare(w) < 1 }

// Translatable checks the parts of w that do not depend on the target and
// returns every attribute fio cannot express, joined, each an
// *UntranslatableError. A plan is checked with it before anything runs.
func Translatable(w workload.Workload) error {
	if w.Replay != nil {
		return untranslatable("replay", "the fio engine does not replay traces here (fio's read_iolog would, without drivebench's lag and fidelity figures); leave engine out, or set engine = \"native\", for the replay profile")
	}
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	add(checkShape(w))
	add(checkIOEngine(w))
	add(checkSizes(w))
	add(checkZones(w))
	add(checkData(w))
	add(checkTiming(w))
	add(checkRate(w))
	add(checkVerify(w))
	return errors.Join(errs...)
}

func checkShape(w workload.Workload) error {
	switch {
	case !slices.Contains([]string{"read", "write", "randread", "randwrite", "rw", "randrw"}, w.RW):
		return untranslatable("rw", "rw = %q is not a pattern; use read, write, randread, randwrite, rw or randrw", w.RW)
	case w.ReadPct < 0 || w.ReadPct > 100:
		return untranslatable("read_pct", "read_pct = %d: must be between 0 and 100", w.ReadPct)
	case w.IODepth < 1:
		return untranslatable("iodepth", "iodepth = %d: must be at least 1", w.IODepth)
	case w.NumJobs < 1:
		return untranslatable("numjobs", "numjobs = %d: must be at least 1", w.NumJobs)
	case w.Offset < 0 || w.Size < 0 || w.Bytes < 0 || w.Loops < 0 || w.BytesPct < 0 || w.SizePct < 0 || w.SizePct > 100:
		return untranslatable("size", "offset, size, bytes, bytes_pct and loops must not be negative, and size_pct must be between 0 and 100")
	case w.SeqPct < 0 || w.SeqPct > 100:
		return untranslatable("seq_pct", "seq_pct = %d: must be between 0 and 100", w.SeqPct)
	}
	return nil
}

// checkIOEngine refuses an engine fio lacks, and a synchronous engine
// asked for more than one I/O in flight: fio would silently run it at
// depth 1 and measure something other than the plan asks.
func checkIOEngine(w workload.Workload) error {
	if w.IOEngine == "" {
		return nil
	}
	async, known := ioEngines[w.IOEngine]
	switch {
	case !known:
		return untranslatable("ioengine", "ioengine = %q is not an I/O engine drivebench runs with fio; use one of %s", w.IOEngine, engineNames())
	case !async && w.IODepth > 1:
		return untranslatable("ioengine", "ioengine = %q keeps one I/O in flight per job, so fio would ignore iodepth = %d; use io_uring or libaio, or raise numjobs instead",
			w.IOEngine, w.IODepth)
	}
	return nil
}

func engineNames() string {
	names := make([]string, 0, len(ioEngines))
	for n := range ioEngines {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// ioEngine is the fio engine for w: the named one, or psync at depth 1
// and io_uring, which keeps iodepth I/Os in flight with or without
// O_DIRECT, at greater depths.
func ioEngine(w workload.Workload) string {
	switch {
	case w.IOEngine != "":
		return w.IOEngine
	case w.IODepth > 1:
		return "io_uring"
	}
	return "psync"
}

func checkSizes(w workload.Workload) error {
	if len(w.BSSplit) == 0 {
		if w.BS <= 0 {
			return untranslatable("bs", "bs = %d: the block size must be a positive number of bytes", w.BS)
		}
		return nil
	}
	for _, s := range w.BSSplit {
		if s.Size <= 0 || s.Weight < 0 || math.IsNaN(s.Weight) || math.IsInf(s.Weight, 0) {
			return untranslatable("bs_split", "every size must be positive and every weight a non-negative number")
		}
	}
	if _, err := wholePercents(splitWeights(w.BSSplit)); err != nil {
		return untranslatable("bs_split", "fio takes whole percentages in bssplit, and %v; adjust the weights", err)
	}
	return nil
}

func splitWeights(split []workload.SizeWeight) []float64 {
	ws := make([]float64, len(split))
	for i, s := range split {
		ws[i] = s.Weight
	}
	return ws
}

// wholePercents scales weights to percentages totalling 100 and returns
// them when each is a whole number.
func wholePercents(weights []float64) ([]int, error) {
	var total float64
	for _, w := range weights {
		total += w
	}
	if total <= 0 {
		return nil, errors.New("the weights total zero")
	}
	pcts := make([]int, len(weights))
	for i, w := range weights {
		p := w / total * 100
		if math.Abs(p-math.Round(p)) > 1e-9 {
			return nil, fmt.Errorf("weight %g of %g is %.4g%%", w, total, p)
		}
		pcts[i] = int(math.Round(p))
	}
	return pcts, nil
}

func checkZones(w workload.Workload) error {
	if len(w.Zones) == 0 {
		return nil
	}
	if !workload.IsRandom(w.RW) {
		return untranslatable("zones", "zones skew random offsets, but rw = %q is sequential", w.RW)
	}
	var access float64
	for i, z := range w.Zones {
		if z.AccessPct != math.Trunc(z.AccessPct) || z.RegionPct != math.Trunc(z.RegionPct) || z.AccessPct < 0 || z.RegionPct <= 0 {
			return untranslatable("zones", "zone %d (access_pct = %g, region_pct = %g): fio's zoned distribution takes whole, positive percentages",
				i+1, z.AccessPct, z.RegionPct)
		}
		access += z.AccessPct
	}
	if access != 100 {
		return untranslatable("zones", "the access_pct of the zones add up to %g; fio requires 100", access)
	}
	return nil
}

func checkData(w workload.Workload) error {
	switch {
	case !slices.Contains([]string{"", "random", "zero", "compressible", "dedupe"}, w.Data):
		return untranslatable("data", "data = %q is not a pattern; use random, zero, compressible or dedupe", w.Data)
	case w.CompressPct < 0 || w.CompressPct > 100:
		return untranslatable("compress_pct", "compress_pct = %d: must be between 0 and 100", w.CompressPct)
	case w.DedupePct < 0 || w.DedupePct > 100:
		return untranslatable("dedupe_pct", "dedupe_pct = %d: must be between 0 and 100", w.DedupePct)
	}
	return nil
}

func checkTiming(w workload.Workload) error {
	for _, d := range []struct {
		field string
		v     time.Duration
	}{{"runtime", w.Runtime}, {"ramp", w.Ramp}} {
		if d.v < 0 || d.v%time.Microsecond != 0 {
			return untranslatable(d.field, "%s = %v: fio takes a non-negative whole number of microseconds", d.field, d.v)
		}
	}
	return nil
}

func checkRate(w workload.Workload) error {
	switch {
	case w.RateIOPS < 0 || w.RateBW < 0 || w.RatePct < 0:
		return untranslatable("rate", "rates must not be negative")
	case !slices.Contains([]string{"", "uniform", "poisson"}, w.Arrival):
		return untranslatable("arrival", "arrival = %q is not an arrival process; use uniform or poisson", w.Arrival)
	}
	return nil
}

// checkVerify refuses what fio's verify phase cannot do: it reads back
// only after a write phase that ends by size, and never starts when the
// runtime is used up.
func checkVerify(w workload.Workload) error {
	switch {
	case !w.Verify:
		return nil
	case !writes(w):
		return untranslatable("verify", "verify checks data the step writes, but rw = %q only reads", w.RW)
	case timeBoundOnly(w):
		return untranslatable("verify", "fio reads back for verification only after a write phase that ends by size, and a run bounded by runtime alone never gets there; set bytes, bytes_pct or loops, or use engine = \"native\"")
	}
	return nil
}

// JobFile translates w against t into the text of a fio job file. name
// names the fio job (characters fio's section names do not take are
// replaced). The file needs nothing else to run: `fio --output-format=json+
// FILE` reruns the step by hand. An attribute fio cannot express gives an
// error that is, or joins, *UntranslatableError.
func JobFile(name string, t driver.Target, w workload.Workload) (string, error) {
	spec, err := buildSpec(name, t, w)
	if err != nil {
		return "", err
	}
	return spec.render(), nil
}

// option is one key=value line of a job file; an empty value writes the
// key alone.
type option struct{ key, value string }

// section is one [name] job of a job file.
type section struct {
	name    string
	options []option
}

// jobSpec is a job file before rendering. notes say, after the
// comments, what of the step fio cannot express (FileSetNotes).
type jobSpec struct {
	comments []string
	notes    []string
	global   []option
	jobs     []section
}

// render writes the job file, with extra options appended to the global
// section (the driver adds its logging this way, keeping the kept file
// free of paths that exist only during the run).
func (s jobSpec) render(extra ...option) string {
	var b strings.Builder
	for _, c := range s.comments {
		b.WriteString("# " + c + "\n")
	}
	for _, n := range s.notes {
		b.WriteString("# fio cannot: " + n + "\n")
	}
	b.WriteString("[global]\n")
	writeOptions(&b, s.global)
	writeOptions(&b, extra)
	for _, j := range s.jobs {
		b.WriteString("\n[" + j.name + "]\n")
		writeOptions(&b, j.options)
	}
	return b.String()
}

func writeOptions(b *strings.Builder, opts []option) {
	for _, o := range opts {
		b.WriteString(o.key)
		if o.value != "" {
			b.WriteString("=" + o.value)
		}
		b.WriteByte('\n')
	}
}

// buildSpec translates w against t.
func buildSpec(name string, t driver.Target, w workload.Workload) (jobSpec, error) {
	if err := Translatable(w); err != nil {
		return jobSpec{}, err
	}
	if w.Dataloader() {
		return dataloaderSpec(name, t, w), nil
	}
	if w.IsFileSet() {
		return fileSetSpec(name, t, w)
	}
	unit := granule(w)
	start, length, err := resolveRegion(t, w, unit)
	if err != nil {
		return jobSpec{}, err
	}
	if err := checkDirect(t, w, start, unit); err != nil {
		return jobSpec{}, err
	}
	parts, err := jobParts(w, start, length, unit)
	if err != nil {
		return jobSpec{}, err
	}
	global, err := globalOptions(t, w, unit)
	if err != nil {
		return jobSpec{}, err
	}
	spec := jobSpec{comments: header(name, w), global: global}
	for _, run := range groupParts(parts) {
		spec.jobs = append(spec.jobs, section{name: jobName(name), options: runOptions(run)})
	}
	return spec, nil
}

// checkDirect checks what O_DIRECT requires: transfers and the region's
// start aligned to the target's logical block size.
func checkDirect(t driver.Target, w workload.Workload, start, unit int64) error {
	lbs := int64(t.LogicalBlockSize())
	switch {
	case !w.Direct:
		return nil
	case unit%lbs != 0:
		field := "bs"
		if len(w.BSSplit) > 0 {
			field = "bs_split"
		}
		return untranslatable(field, "%s", plan.DirectMisfit(field, unit, lbs, t.Path))
	case start%lbs != 0:
		return untranslatable("offset", "%s", plan.DirectMisfit("offset", start, lbs, t.Path))
	}
	return nil
}

var unsafeNameChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// jobName makes name usable as a job section name.
func jobName(name string) string {
	n := strings.Trim(unsafeNameChars.ReplaceAllString(name, "-"), "-")
	if n == "" || n == "global" {
		return "drivebench"
	}
	return n
}

// header describes the step in comments.
func header(name string, w workload.Workload) []string {
	c := []string{"drivebench step " + name}
	if w.RatePct > 0 && w.RateBase != "" {
		c = append(c, fmt.Sprintf("rate: %g%% of the IOPS measured by step %s", w.RatePct, w.RateBase))
	}
	return append(c, "rerun: fio --output-format=json+ THIS_FILE")
}

// globalOptions are the options every job of the file shares.
func globalOptions(t driver.Target, w workload.Workload, unit int64) ([]option, error) {
	opts := []option{
		{"filename", escapeFilename(t.Path)},
		{"ioengine", ioEngine(w)},
	}
	opts = append(opts, tableOptions(w)...)
	if !w.Direct {
		// fio drops the target's cached pages before each job by
		// default; the native engine leaves the cache as it is.
		opts = append(opts, option{"invalidate", "0"})
	}
	opts = append(opts, splitOptions(w, unit)...)
	opts = append(opts, timeOptions(w)...)
	opts = append(opts, randomOptions(w)...)
	rate, err := rateOptions(w)
	if err != nil {
		return nil, err
	}
	opts = append(opts, rate...)
	opts = append(opts, dataOptions(w)...)
	opts = append(opts, verifyOptions(w)...)
	// Latency percentiles and json+ bins on fio's total latency, from
	// submission, as the native engine measures. Jobs run as threads of
	// one fio process: forked jobs start sessions of their own and would
	// outlive a fio that is killed.
	return append(opts, option{"lat_percentiles", "1"}, option{"thread", "1"}), nil
}

// escapeFilename escapes the colons fio reads as separators of several
// files.
func escapeFilename(path string) string {
	return strings.ReplaceAll(path, ":", `\:`)
}

// tableOptions are the options whose value follows from one parameter
// alone, as its row of workload.Options writes it, in the table's order;
// those the target, the jobs or several parameters shape (the region,
// numjobs, a split, rates, the seed) are written by the code below.
func tableOptions(w workload.Workload) []option {
	var opts []option
	for _, o := range workload.Options {
		if o.FioValue == nil {
			continue
		}
		if v := o.FioValue(&w); v != "" {
			opts = append(opts, option{o.Fio, v})
		}
	}
	return opts
}

// splitOptions write a transfer-size split: its sizes with their
// whole-percent weights, every offset aligned to unit.
func splitOptions(w workload.Workload, unit int64) []option {
	if len(w.BSSplit) == 0 {
		return nil
	}
	pcts, _ := wholePercents(splitWeights(w.BSSplit)) // checked by Translatable
	parts := make([]string, 0, len(pcts))
	for i, s := range w.BSSplit {
		if pcts[i] > 0 {
			parts = append(parts, fmt.Sprintf("%d/%d", s.Size, pcts[i]))
		}
	}
	return []option{{"bssplit", strings.Join(parts, ":")}, {"blockalign", strconv.FormatInt(unit, 10)}}
}

// timeOptions bound the run: by time alone (time_based), or by time and a
// budget (whichever ends first), or by the budget alone.
func timeOptions(w workload.Workload) []option {
	if w.Runtime <= 0 {
		return nil
	}
	var opts []option
	if timeBoundOnly(w) {
		opts = append(opts, option{"time_based", "1"})
	}
	opts = append(opts, option{"runtime", fioDuration(w.Runtime)})
	if w.Ramp > 0 {
		opts = append(opts, option{"ramp_time", fioDuration(w.Ramp)})
	}
	return opts
}

// fioDuration writes d in the largest unit fio takes that holds it
// exactly.
func fioDuration(d time.Duration) string {
	switch {
	case d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	case d%time.Millisecond == 0:
		return strconv.FormatInt(int64(d/time.Millisecond), 10) + "ms"
	}
	return strconv.FormatInt(int64(d/time.Microsecond), 10) + "us"
}

// randomOptions place random offsets as the native engine does: uniformly
// with replacement (norandommap), from the workload's seed, skewed by
// zones, continuing sequentially seq_pct of the time.
func randomOptions(w workload.Workload) []option {
	if !workload.IsRandom(w.RW) {
		return nil
	}
	opts := []option{{"norandommap", "1"}, {"randrepeat", "0"}}
	if w.Seed != 0 {
		// fio reads randseed as a signed 64-bit number; the top bit of
		// our seed is dropped so every seed is one fio accepts.
		opts = []option{{"norandommap", "1"}, {"randseed", strconv.FormatUint(w.Seed&math.MaxInt64, 10)}}
	}
	if len(w.Zones) > 0 {
		zones := make([]string, len(w.Zones))
		for i, z := range w.Zones {
			zones[i] = fmt.Sprintf("%g/%g", z.AccessPct, z.RegionPct)
		}
		opts = append(opts, option{"random_distribution", "zoned:" + strings.Join(zones, ":")})
	}
	return opts
}

// rateOptions cap the run. The plan's rate is for the whole step; fio's
// is per job and per direction, so it is divided among the jobs and split
// between reads and writes by the mix. fio converts an IOPS cap to bytes
// with the smallest transfer size, so with bs_split, or with both caps
// set, the cap is given in bytes at the mean transfer size.
func rateOptions(w workload.Workload) ([]option, error) {
	if w.RateIOPS == 0 && w.RateBW == 0 {
		if w.RatePct > 0 {
			return nil, untranslatable("rate_pct", "the rate is %g%% of the IOPS of step %s, known only once that step has run; resolve it into rate_iops first",
				w.RatePct, w.RateBase)
		}
		return nil, nil
	}
	key, perStep := "rate_iops", w.RateIOPS
	if len(w.BSSplit) > 0 || w.RateBW > 0 {
		key, perStep = "rate", bytesCap(w)
	}
	jobs := float64(w.NumJobs)
	shares := []float64{readShare(w), 1 - readShare(w)}
	values := make([]string, 0, 2)
	for _, share := range shares {
		v := int64(math.Round(perStep * share / jobs))
		if share > 0 && v == 0 {
			return nil, untranslatable("rate", "a cap of %g per step is less than 1 per job and direction for fio, which takes whole numbers; raise the rate or lower numjobs", perStep)
		}
		values = append(values, strconv.FormatInt(v, 10))
	}
	return []option{{key, rateValue(w, values)}}, nil
}

// bytesCap is the step's rate in bytes per second: the lower of the
// bandwidth cap and the IOPS cap at the mean transfer size.
func bytesCap(w workload.Workload) float64 {
	limit := math.Inf(1)
	if w.RateBW > 0 {
		limit = w.RateBW
	}
	if w.RateIOPS > 0 {
		limit = min(limit, w.RateIOPS*meanSize(w))
	}
	return limit
}

// meanSize is the mean transfer size of w.
func meanSize(w workload.Workload) float64 {
	if len(w.BSSplit) == 0 {
		return float64(w.BS)
	}
	var sum, total float64
	for _, s := range w.BSSplit {
		sum += float64(s.Size) * s.Weight
		total += s.Weight
	}
	return sum / total
}

// rateValue writes a rate for the directions the pattern has: one value
// for a pure read or write (fio applies it to either), read,write for a
// mix.
func rateValue(w workload.Workload, perDirection []string) string {
	switch {
	case workload.IsMix(w.RW):
		return perDirection[0] + "," + perDirection[1]
	case writes(w):
		return perDirection[1]
	}
	return perDirection[0]
}

func dataOptions(w workload.Workload) []option {
	switch w.Data {
	case "zero":
		return []option{{"zero_buffers", "1"}}
	case "compressible", "dedupe":
		// the share itself is a table option
		return []option{{"refill_buffers", "1"}}
	}
	return nil
}

func verifyOptions(w workload.Workload) []option {
	if !w.Verify {
		return nil
	}
	return []option{{"verify", "crc32c"}, {"do_verify", "1"}, {"verify_fatal", "0"}}
}

// runOptions place one run of jobs: its first job's offset and size, how
// many jobs and how far apart, and each job's budget.
func runOptions(r jobRun) []option {
	opts := []option{
		{"offset", strconv.FormatInt(r.first.offset, 10)},
		{"size", strconv.FormatInt(r.first.size, 10)},
	}
	if r.first.ioSize > 0 {
		opts = append(opts, option{"io_size", strconv.FormatInt(r.first.ioSize, 10)})
	}
	if r.count > 1 {
		opts = append(opts, option{"numjobs", strconv.Itoa(r.count)})
		if r.increment != 0 {
			opts = append(opts, option{"offset_increment", strconv.FormatInt(r.increment, 10)})
		}
	}
	return opts
}
