package workload

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/drivebench/drivebench/format"
)

// Kind is the type of a parameter's value, which says how a plan writes
// it, how it is checked and how it is written back.
type Kind string

// The kinds of parameter values. A point holds counts, sizes and
// percentages as int64, choices and text as string, rates as float64.
const (
	Count     Kind = "count"      // a whole number from Min to Max
	Size      Kind = "size"       // a number of bytes ("4KiB")
	Region    Kind = "region"     // a number of bytes or a percentage ("25%")
	Percent   Kind = "percentage" // a whole percentage from Min to Max
	Choice    Kind = "choice"     // one of Values
	Text      Kind = "text"       // free text
	Bool      Kind = "bool"       // true or false
	Duration  Kind = "duration"   // a duration ("60s")
	Rate      Kind = "rate"       // a number of I/Os per second, more than 0
	Scale     Kind = "scale"      // a number of 0 or more (a replay's speed)
	Bandwidth Kind = "bandwidth"  // bytes per second ("6200MB/s")
	Split     Kind = "split"      // sizes to weights: { "4KiB" = 10, ... }
	Zones     Kind = "zones"      // a list of { access_pct, region_pct }
)

// Option is one workload parameter, as fio's options.c describes one of
// fio's: every stage that reads, checks, writes or compares a parameter
// reads this row of Options.
type Option struct {
	// Name is the attribute a plan sets it with.
	Name string
	Kind Kind
	// Block is the block the attribute is written in: "" for the
	// profile itself, "replay" for its replay block, "dataloader" for a
	// dataloader block.
	Block string
	// Min and Max bound a Count or a Percent. PercentOf is what a Region
	// given as a percentage is a share of ("the drive").
	Min, Max  int64
	PercentOf string
	// Values are the values a Choice takes, and Invalid the summary of
	// the diagnostic for another value ("Invalid I/O Pattern"). The
	// engine's values are the engines a build has, which the plan is
	// given (see the package doc).
	Values  []string
	Invalid string
	// Sweep says whether a sweep block and a sweep point can vary it;
	// Adaptive whether an adaptive sweep's hook can set it.
	Sweep, Adaptive bool
	// Measured says whether it changes what a step measures: two runs of
	// a point that differ in it measure different things. A run's length
	// and its seed do not.
	Measured bool
	// Fio is the fio option it becomes ("" for none). FioValue, when set,
	// writes the option's value for w ("" leaves the option out); nil when
	// the fio engine computes it from the target (a region, a per-job
	// rate). FromFio sets the parameter in w from the option's value in
	// a job fio ran, as fio means it for that job (a size per job, not
	// per step): the importer builds an imported step's workload from
	// every row that has one, in the table's order (a rate reads the
	// pattern, the first row).
	Fio      string
	FioValue func(w *Workload) string
	FromFio  func(w *Workload, value string) error
	// Unset is how a workload that does not set it reads, where Text
	// gives "" and a comparison shows both: "100" (every offset random),
	// "uniform", "no limit"; "" for "—".
	Unset string
	// Default is the value a profile has when it does not set it, as the
	// plan language reference writes it.
	Default string
	// Doc is the first sentence of its description in the reference.
	Doc string
	// Set sets the parameter in w from a value as a point holds it: a
	// point's, or one the plan decoded by the parameter's kind; Get
	// returns that value. The plan decodes a parameter without Set, and
	// a few whose checks involve others (bs and bs_split, the data
	// pattern and its share), with code of its own.
	Get func(w *Workload) any
	Set func(w *Workload, v any)
	// Text writes its value in w for people, in the plan's units: "4KiB",
	// "60s", "400% of the region"; "" when w does not set it, or sets it
	// off (verify = false, every offset random), or it does not apply (a
	// read share of a pattern that does not mix). The manifest lists a
	// profile's parameters by it and compare tells workloads apart by it.
	Text func(w *Workload) string
}

// TypeText is the option's type as the plan language reference writes
// it: "count, 1 to 65536", "string: `"uniform"` or `"poisson"`".
func (o *Option) TypeText() string {
	switch o.Kind {
	case Count:
		if o.Max == math.MaxInt64 {
			return fmt.Sprintf("count, %d or more", o.Min)
		}
		return fmt.Sprintf("count, %d to %d", o.Min, o.Max)
	case Percent:
		return fmt.Sprintf("percentage, whole number %d to %d", o.Min, o.Max)
	case Region:
		return "size, or percentage of " + o.PercentOf
	case Choice:
		if o.Values == nil {
			return "string: an engine's name"
		}
		return "string: " + orList(o.Values)
	case Text:
		return "string"
	case Rate:
		return "number, more than 0"
	case Scale:
		return "number, 0 or more"
	case Bandwidth:
		return "bandwidth, more than 0"
	case Split:
		return "object: size to weight in percent"
	case Zones:
		return "list of `{ access_pct, region_pct }`"
	}
	return string(o.Kind) // size, bool, duration
}

// orList writes values as code, the last after "or": `"a"`, `"b"` or `"c"`.
func orList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = "`\"" + v + "\"`"
	}
	if len(quoted) == 1 {
		return quoted[0]
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
}

// Lookup returns the option named name, nil when there is none.
func Lookup(name string) *Option {
	for i := range Options {
		if Options[i].Name == name {
			return &Options[i]
		}
	}
	return nil
}

// Names lists the options that pass keep, in table order.
func Names(keep func(*Option) bool) []string {
	var names []string
	for i := range Options {
		if keep(&Options[i]) {
			names = append(names, Options[i].Name)
		}
	}
	return names
}

// Swept reports whether a sweep can vary an option.
func Swept(o *Option) bool { return o.Sweep }

// Limits of the counts a plan sets. They keep a mistyped number from
// expanding into millions of threads.
const (
	MaxIODepth  = 65536
	MaxNumJobs  = 4096
	MaxFiles    = 1 << 24
	MaxFileDirs = 1 << 16
	// MaxBatchSize bounds a dataloader's batch: MLPerf's largest is 400.
	MaxBatchSize = 1 << 20
)

// DataloaderBlock is the Block of the parameters only a dataloader step
// takes.
const DataloaderBlock = "dataloader"

// Defaults of a profile's workload.
const (
	DefaultBS      = 4 << 10
	DefaultIODepth = 1
	DefaultNumJobs = 1
	DefaultReadPct = 50
	DefaultEngine  = "native"
)

// Values some options take.
var (
	RWModes      = []string{"read", "write", "randread", "randwrite", "rw", "randrw"}
	Arrivals     = []string{"uniform", "poisson"}
	DataPatterns = []string{"random", "zero", "compressible", "dedupe"}
)

// Options is the workload parameter table, in the order the plan
// language reference lists them: the profile's, then its replay block's.
var Options = append(profileOptions, replayOptions...)

// profileOptions are the rows of the profile block's own parameters.
var profileOptions = []Option{
	{
		Name: "rw", Kind: Choice, Values: RWModes, Invalid: "Invalid I/O Pattern", Sweep: true, Adaptive: true, Measured: true,
		Fio: "rw", FioValue: func(w *Workload) string { return w.RW }, FromFio: rwFromFio,
		Default: "required, unless swept or given by a mix",
		Doc:     "The I/O pattern; `rw` and `randrw` mix reads and writes.",
		Get:     func(w *Workload) any { return w.RW },
		Set:     func(w *Workload, v any) { w.RW, _ = v.(string) },
		Text:    func(w *Workload) string { return w.RW },
	},
	{
		Name: "read_pct", Kind: Percent, Min: 0, Max: 100, Sweep: true, Adaptive: true, Measured: true,
		Fio: "rwmixread", FioValue: mixOnly(func(w *Workload) int { return w.ReadPct }),
		FromFio: intFromFio(func(w *Workload, n int) { w.ReadPct = n }),
		Default: "`50` for mixes",
		Doc:     "Share of reads in percent, for `rw` and `randrw` only.",
		Get:     func(w *Workload) any { return int64(w.ReadPct) },
		Set:     func(w *Workload, v any) { w.ReadPct = int(asInt(v)) },
		Text: func(w *Workload) string {
			if !IsMix(w.RW) {
				return ""
			}
			return strconv.Itoa(w.ReadPct)
		},
	},
	{
		Name: "bs", Kind: Size, Sweep: true, Adaptive: true, Measured: true,
		Fio: "bs", FioValue: func(w *Workload) string {
			if len(w.BSSplit) > 0 {
				return ""
			}
			return strconv.FormatInt(w.BS, 10)
		},
		FromFio: sizeFromFio(func(w *Workload, n int64) { w.BS, w.BSSplit = n, nil }),
		Default: "`\"4KiB\"`",
		Doc:     "Block size.",
		Get:     func(w *Workload) any { return w.BS },
		Set:     func(w *Workload, v any) { w.BS, w.BSSplit = asInt(v), nil },
		Text: func(w *Workload) string {
			if len(w.BSSplit) > 0 {
				return ""
			}
			return format.BlockSize(w.BS)
		},
	},
	{
		Name: "bs_split", Kind: Split, Measured: true, Fio: "bssplit", FromFio: splitFromFio,
		Default: "none",
		Doc:     "A transfer-size distribution, as in a mix; replaces `bs`.",
		Text:    func(w *Workload) string { return SplitText(w.BSSplit) },
	},
	{
		Name: "random_pct", Kind: Percent, Min: 1, Max: 100, Measured: true, Unset: "100",
		Fio: "percentage_random", FioValue: randomPctText, FromFio: randomPctFromFio,
		Default: "`100`",
		Doc:     "For the random patterns: the share of I/Os at a random offset; the rest continue sequentially from the previous one.",
		Text:    randomPctText,
	},
	{
		Name: "zones", Kind: Zones, Measured: true, Fio: "random_distribution", Unset: "uniform", FromFio: zonesFromFio,
		Default: "none: uniform",
		Doc:     "Skewed random offsets, as in a mix.",
		Text:    func(w *Workload) string { return ZonesText(w.Zones) },
	},
	{
		Name: "iodepth", Kind: Count, Min: 1, Max: MaxIODepth, Sweep: true, Adaptive: true, Measured: true,
		Fio: "iodepth", FioValue: func(w *Workload) string { return strconv.Itoa(w.IODepth) },
		FromFio: intFromFio(func(w *Workload, n int) { w.IODepth = n }),
		Default: "`1`",
		Doc:     "Queue depth per job.",
		Get:     func(w *Workload) any { return int64(w.IODepth) },
		Set:     func(w *Workload, v any) { w.IODepth = int(asInt(v)) },
		Text:    func(w *Workload) string { return strconv.Itoa(w.IODepth) },
	},
	{
		Name: "numjobs", Kind: Count, Min: 1, Max: MaxNumJobs, Sweep: true, Adaptive: true, Measured: true,
		Fio:     "numjobs",
		FromFio: intFromFio(func(w *Workload, n int) { w.NumJobs = n }),
		Default: "`1`",
		Doc:     "Number of jobs.",
		Get:     func(w *Workload) any { return int64(w.NumJobs) },
		Set:     func(w *Workload, v any) { w.NumJobs = int(asInt(v)) },
		Text:    func(w *Workload) string { return strconv.Itoa(w.NumJobs) },
	},
	{
		Name: "runtime", Kind: Duration, Fio: "runtime",
		FromFio: durationFromFio(func(w *Workload, d time.Duration) { w.Runtime = d }),
		Default: "none: one of `runtime` and `io_size` is required",
		Doc:     "How long to measure, after the ramp.",
		Text:    func(w *Workload) string { return durationText(w.Runtime) },
	},
	{
		Name: "ramp", Kind: Duration, Fio: "ramp_time",
		FromFio: durationFromFio(func(w *Workload, d time.Duration) { w.Ramp = d }),
		Default: "`0`",
		Doc:     "How long to run before measuring.",
		Get:     func(w *Workload) any { return w.Ramp },
		Set:     func(w *Workload, v any) { w.Ramp, _ = v.(time.Duration) },
		Text: func(w *Workload) string {
			if w.Runtime <= 0 {
				return ""
			}
			return FormatDuration(w.Ramp)
		},
	},
	{
		Name: "io_size", Kind: Region, PercentOf: "the region", Fio: "io_size",
		FromFio: sizeFromFio(func(w *Workload, n int64) { w.Bytes = n }),
		Default: "none: one of `runtime` and `io_size` is required",
		Doc:     "Bytes to transfer: a size, or a share of the region such as `\"400%\"` (four times the region).",
		Text:    ioSizeText,
	},
	{
		Name: "direct", Kind: Bool, Measured: true,
		Fio: "direct", FioValue: func(w *Workload) string { return fioBool(w.Direct) },
		FromFio: boolFromFio(func(w *Workload) *bool { return &w.Direct }),
		Default: "`false`",
		Doc:     "Bypass the page cache (`O_DIRECT`).",
		Get:     func(w *Workload) any { return w.Direct },
		Set:     func(w *Workload, v any) { w.Direct, _ = v.(bool) },
		Text:    func(w *Workload) string { return strconv.FormatBool(w.Direct) },
	},
	{
		Name: "offset", Kind: Size, Measured: true, Fio: "offset", Unset: "0", FromFio: offsetFromFio,
		Default: "`0`",
		Doc:     "Start of the region.",
		Text: func(w *Workload) string {
			if w.Offset == 0 {
				return ""
			}
			return FormatSize(w.Offset)
		},
	},
	{
		Name: "size", Kind: Region, PercentOf: "the drive", Measured: true, Fio: "size", Unset: "to the end of the drive",
		FromFio: regionFromFio,
		Default: "to the end of the drive",
		Doc:     "Length of the region, in bytes or as a share of the drive such as `\"25%\"`.",
		Text:    regionSizeText,
	},
	{
		Name: "rate_iops", Kind: Rate, Adaptive: true, Measured: true, Fio: "rate_iops", Unset: "no limit",
		FromFio: rateFromFio(func(w *Workload, r float64) { w.RateIOPS = r }),
		Default: "no limit",
		Doc:     "Cap the run at this many I/Os per second, open loop: each I/O is scheduled at its intended time and its latency counted from then, so queueing is not hidden.",
		Get:     func(w *Workload) any { return w.RateIOPS },
		Set:     func(w *Workload, v any) { w.RateIOPS, _ = v.(float64) },
		Text:    rateIOPSText,
	},
	{
		Name: "rate_bw", Kind: Bandwidth, Measured: true, Fio: "rate", Unset: "no limit",
		FromFio: rateFromFio(func(w *Workload, r float64) { w.RateBW = r }),
		Default: "no limit",
		Doc:     "Cap the run at this bandwidth, open loop.",
		Text: func(w *Workload) string {
			if w.RateBW <= 0 || w.RatePct > 0 {
				return ""
			}
			return FormatSize(int64(w.RateBW)) + "/s"
		},
	},
	{
		Name: "arrival", Kind: Choice, Values: Arrivals, Invalid: "Unknown Arrival", Measured: true, Unset: "uniform",
		Fio: "rate_process", FromFio: arrivalFromFio, FioValue: func(w *Workload) string {
			if w.Arrival == "poisson" && w.RateLimited() {
				return w.Arrival
			}
			return ""
		},
		Default: "`\"uniform\"`",
		Doc:     "How rate-limited I/Os are spaced: evenly, or as a Poisson process.",
		Get:     func(w *Workload) any { return w.Arrival },
		Set:     func(w *Workload, v any) { w.Arrival, _ = v.(string) },
		Text: func(w *Workload) string {
			if !w.RateLimited() {
				return ""
			}
			return cmp.Or(w.Arrival, "uniform")
		},
	},
	{
		Name: "data", Kind: Choice, Values: DataPatterns, Invalid: "Unknown Data Pattern", Measured: true,
		Fio: "zero_buffers", FromFio: zeroBuffersFromFio,
		Default: "`\"random\"`",
		Doc:     "What writes carry: incompressible bytes, zeros, buffers of which `compress_pct` percent compresses away, or buffers of which `dedupe_pct` percent repeat earlier ones.",
		Text: func(w *Workload) string {
			if !w.Writes() && !w.Verify {
				return ""
			}
			return cmp.Or(w.Data, "random")
		},
	},
	{
		Name: "compress_pct", Kind: Percent, Min: 1, Max: 99, Measured: true,
		Fio: "buffer_compress_percentage", FioValue: nonZero(func(w *Workload) int { return w.CompressPct }),
		FromFio: intFromFio(func(w *Workload, n int) { w.Data, w.CompressPct = "compressible", n }),
		Default: "required with `data = \"compressible\"`",
		Doc:     "The compressible share of each buffer.",
		Text:    nonZero(func(w *Workload) int { return w.CompressPct }),
	},
	{
		Name: "dedupe_pct", Kind: Percent, Min: 1, Max: 99, Measured: true,
		Fio: "dedupe_percentage", FioValue: nonZero(func(w *Workload) int { return w.DedupePct }),
		FromFio: intFromFio(func(w *Workload, n int) { w.Data, w.DedupePct = "dedupe", n }),
		Default: "required with `data = \"dedupe\"`",
		Doc:     "The share of buffers that repeat earlier ones.",
		Text:    nonZero(func(w *Workload) int { return w.DedupePct }),
	},
	{
		Name: "verify", Kind: Bool, Measured: true, Fio: "verify", Unset: "false", FromFio: verifyFromFio,
		Default: "`false`",
		Doc:     "Write a header (offset, generation, checksum) into every block and read the region back after the run, reporting every block that is corrupt, misplaced or stale.",
		Get:     func(w *Workload) any { return w.Verify },
		Set:     func(w *Workload, v any) { w.Verify, _ = v.(bool) },
		Text: func(w *Workload) string {
			if !w.Verify {
				return ""
			}
			return "true"
		},
	},
	{
		Name: "fsync", Kind: Count, Min: 0, Max: 1 << 20, Measured: true,
		Fio: "fsync", FioValue: nonZero(func(w *Workload) int { return w.Fsync }),
		FromFio: intFromFio(func(w *Workload, n int) { w.Fsync = n }),
		Default: "`0`: never",
		Doc:     "Flush each job's written data to the drive (`fsync`) after every this many of its writes, as fio's `fsync` does: a database's commit, or a log's.",
		Get:     func(w *Workload) any { return int64(w.Fsync) },
		Set:     func(w *Workload, v any) { w.Fsync = int(asInt(v)) },
		Text:    nonZero(func(w *Workload) int { return w.Fsync }),
	},
	{
		Name: "batch_size", Kind: Count, Min: 1, Max: MaxBatchSize, Measured: true, Block: DataloaderBlock,
		Default: "the preset's",
		Doc:     "Samples per batch: what the accelerator consumes at once.",
		Get:     func(w *Workload) any { return int64(w.BatchSize) },
		Set:     func(w *Workload, v any) { w.BatchSize = int(asInt(v)) },
		Text:    nonZero(func(w *Workload) int { return w.BatchSize }),
	},
	{
		Name: "reader_threads", Kind: Count, Min: 1, Max: MaxNumJobs, Measured: true, Block: DataloaderBlock,
		Default: "the preset's",
		Doc:     "Threads reading samples into batches (DLIO's `read_threads`).",
		Get:     func(w *Workload) any { return int64(w.ReaderThreads) },
		Set:     func(w *Workload, v any) { w.ReaderThreads = int(asInt(v)) },
		Text:    nonZero(func(w *Workload) int { return w.ReaderThreads }),
	},
	{
		Name: "files", Kind: Count, Min: 1, Max: math.MaxInt32, Measured: true, Block: DataloaderBlock,
		Default: "the preset's, times `scale`",
		Doc:     "Files in the data set.",
		Get:     func(w *Workload) any { return int64(w.Files) },
		Set:     func(w *Workload, v any) { w.Files = int(asInt(v)) },
		Text:    nonZero(func(w *Workload) int { return w.Files }),
	},
	{
		Name: "samples_per_file", Kind: Count, Min: 1, Max: math.MaxInt32, Measured: true, Block: DataloaderBlock,
		Default: "the preset's",
		Doc:     "Samples (records) in each file.",
		Get:     func(w *Workload) any { return int64(w.SamplesPerFile) },
		Set:     func(w *Workload, v any) { w.SamplesPerFile = int(asInt(v)) },
		Text:    nonZero(func(w *Workload) int { return w.SamplesPerFile }),
	},
	{
		Name: "record_size", Kind: Size, Measured: true, Block: DataloaderBlock,
		Default: "the preset's",
		Doc:     "Bytes of one sample.",
		Get:     func(w *Workload) any { return w.RecordSize },
		Set:     func(w *Workload, v any) { w.RecordSize = asInt(v) },
		Text: func(w *Workload) string {
			if w.RecordSize == 0 {
				return ""
			}
			return FormatSize(w.RecordSize)
		},
	},
	{
		Name: "compute_time", Kind: Duration, Measured: true, Block: DataloaderBlock,
		Default: "the preset's",
		Doc:     "The accelerator's time per batch, spent waiting (the training step's compute, as DLIO's `computation_time`).",
		Get:     func(w *Workload) any { return w.ComputeTime },
		Set:     func(w *Workload, v any) { w.ComputeTime, _ = v.(time.Duration) },
		Text: func(w *Workload) string {
			if !w.Dataloader() {
				return ""
			}
			return FormatDuration(w.ComputeTime)
		},
	},
	{
		Name: "epochs", Kind: Count, Min: 1, Max: 1 << 20, Measured: true, Block: DataloaderBlock,
		Default: "the preset's",
		Doc:     "Passes over the data set, each in a new shuffled order.",
		Get:     func(w *Workload) any { return int64(w.Epochs) },
		Set:     func(w *Workload, v any) { w.Epochs = int(asInt(v)) },
		Text:    nonZero(func(w *Workload) int { return w.Epochs }),
	},
	{
		Name: "file_size", Kind: Size, Measured: true, Fio: "filesize",
		FromFio: sizeFromFio(func(w *Workload, n int64) { w.FileSize = n }),
		Default: "required with `files`",
		Doc:     "Size of each file of a file set, or a distribution of sizes by share of the files, in bs_split's syntax: `{ \"1MiB\" = 50, \"4MiB\" = 50 }`.",
		Text:    FileSizeText,
	},
	{
		Name: "dirs", Kind: Count, Min: 1, Max: MaxFileDirs, Measured: true,
		Default: "`1`",
		Doc:     "How many subfolders a file set's files are spread over, file after file.",
		Get:     func(w *Workload) any { return int64(w.Dirs) },
		Set:     func(w *Workload, v any) { w.Dirs = int(asInt(v)) },
		Text: func(w *Workload) string {
			if w.Dirs <= 1 {
				return ""
			}
			return strconv.Itoa(w.Dirs)
		},
	},
	{
		Name: "open_files", Kind: Count, Min: 1, Max: MaxFiles, Measured: true, Fio: "openfiles", Unset: "every file",
		FromFio: intFromFio(func(w *Workload, n int) { w.OpenFiles = n }),
		Default: "every file of the job, at most 256",
		Doc:     "How many of its files a job keeps open at once; opening another closes the one used longest ago.",
		Get:     func(w *Workload) any { return int64(w.OpenFiles) },
		Set:     func(w *Workload, v any) { w.OpenFiles = int(asInt(v)) },
		Text:    nonZero(func(w *Workload) int { return w.OpenFiles }),
	},
	{
		Name: "file_service", Kind: Text, Measured: true, Fio: "file_service_type", Unset: "sequential", FromFio: fileServiceFromFio,
		FioValue: func(w *Workload) string {
			if !w.IsFileSet() {
				return ""
			}
			return cmp.Or(w.FileService, "sequential")
		},
		Default: "`\"sequential\"`",
		Doc:     "Which of its files a job's next I/O goes to: `\"sequential\"` (one file after another), `\"roundrobin\"` (the next file every I/O), `\"random\"` or `\"zipf:THETA\"` (a few files most often).",
		Get:     func(w *Workload) any { return w.FileService },
		Set:     func(w *Workload, v any) { w.FileService, _ = v.(string) },
		Text: func(w *Workload) string {
			if !w.IsFileSet() {
				return ""
			}
			return cmp.Or(w.FileService, "sequential")
		},
	},
	fileSetFlag("create_on_open", "create_on_open", "Create (or empty) each file when its job first opens it, timed as a create, instead of before the run.",
		func(w *Workload) *bool { return &w.CreateOnOpen }),
	fileSetFlag("fsync_on_close", "fsync_on_close", "Flush each file to the drive before closing it.",
		func(w *Workload) *bool { return &w.FsyncOnClose }),
	fileSetFlag("unlink", "unlink", "Remove the set's files at the end of the step, each removal timed.",
		func(w *Workload) *bool { return &w.Unlink }),
	fileSetFlag("measure_setup", "", "Count the creation of the set before the run in the step's metadata figures; otherwise it is setup, reported apart.",
		func(w *Workload) *bool { return &w.MeasureSetup }),
	{
		Name: "drop_cache", Kind: Bool, Measured: true, Unset: "false",
		Default: "`false`",
		Doc:     "Empty the page cache before the measured phase (sync, then `/proc/sys/vm/drop_caches`, which needs root; otherwise the target's own pages are evicted and the record says so), so reads come from the drive.",
		Get:     func(w *Workload) any { return w.DropCache },
		Set:     func(w *Workload, v any) { w.DropCache, _ = v.(bool) },
		Text: func(w *Workload) string {
			if !w.DropCache {
				return ""
			}
			return "true"
		},
	},
	{
		Name: "engine", Kind: Choice, Invalid: "Unknown Engine", Measured: true,
		Default: "the drive's engine",
		Doc:     "The driver for this profile's steps.",
		Text:    func(w *Workload) string { return cmp.Or(w.Engine, DefaultEngine) },
	},
	{
		Name: "ioengine", Kind: Text, Measured: true,
		Fio:     "ioengine",
		FromFio: func(w *Workload, v string) error { w.IOEngine = strings.TrimSpace(v); return nil },
		Default: "`\"\"`: the engine's choice",
		Doc:     "The I/O method within the engine, such as `\"io_uring\"` or `\"libaio\"`.",
		Get:     func(w *Workload) any { return w.IOEngine },
		Set:     func(w *Workload, v any) { w.IOEngine, _ = v.(string) },
		Text:    func(w *Workload) string { return w.IOEngine },
	},
	{
		Name: "seed", Kind: Count, Min: 0, Max: math.MaxInt64, Fio: "randseed", FromFio: seedFromFio,
		Default: "`0`: derived from the step's ID",
		Doc:     "Seed of the random offsets.",
		Get:     func(w *Workload) any { return int64(w.Seed) },
		Set:     func(w *Workload, v any) { w.Seed = uint64(asInt(v)) },
		Text: func(w *Workload) string {
			if w.Seed == 0 {
				return ""
			}
			return strconv.FormatUint(w.Seed, 10)
		},
	},
}

// fileSetFlag is a true-or-false parameter of a file set, written as fio
// option fio ("" for none).
func fileSetFlag(name, fio, doc string, field func(*Workload) *bool) Option {
	o := Option{
		Name: name, Kind: Bool, Measured: true, Fio: fio, Unset: "false",
		Default: "`false`",
		Doc:     doc,
		Get:     func(w *Workload) any { return *field(w) },
		Set:     func(w *Workload, v any) { *field(w), _ = v.(bool) },
		Text: func(w *Workload) string {
			if !*field(w) {
				return ""
			}
			return "true"
		},
	}
	if fio != "" {
		o.FromFio = boolFromFio(field)
		o.FioValue = func(w *Workload) string {
			if !w.IsFileSet() {
				return ""
			}
			return fioBool(*field(w))
		}
	}
	return o
}

// FileSizeText is the size of a file set's files: "4MiB", or their
// distribution "1MiB 50%, 4MiB 50%".
func FileSizeText(w *Workload) string {
	switch {
	case len(w.FileSizes) > 0:
		return SplitText(w.FileSizes)
	case w.FileSize > 0:
		return FormatSize(w.FileSize)
	}
	return ""
}

// asInt reads a point's whole-number value.
func asInt(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case int:
		return int64(x)
	case float64:
		return int64(x)
	}
	return 0
}

// randomPctText is the share of random offsets of a random pattern; ""
// for a sequential one, and for one whose every offset is random (the
// default, and fio's).
func randomPctText(w *Workload) string {
	if !IsRandom(w.RW) || w.SeqPct == 0 {
		return ""
	}
	return strconv.Itoa(100 - w.SeqPct)
}

// mixOnly writes a share that applies to a mix only.
func mixOnly(get func(*Workload) int) func(*Workload) string {
	return func(w *Workload) string {
		if !IsMix(w.RW) {
			return ""
		}
		return strconv.Itoa(get(w))
	}
}

// nonZero writes a count or a share that is set, "" when it is zero.
func nonZero(get func(*Workload) int) func(*Workload) string {
	return func(w *Workload) string {
		if get(w) == 0 {
			return ""
		}
		return strconv.Itoa(get(w))
	}
}

// durationText writes a duration that is set.
func durationText(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return FormatDuration(d)
}

// ioSizeText is the bytes a run transfers: "10GiB", "400% of the region".
func ioSizeText(w *Workload) string {
	switch {
	case w.Bytes > 0:
		return FormatSize(w.Bytes)
	case w.BytesPct > 0:
		return strconv.FormatFloat(w.BytesPct, 'f', -1, 64) + "% of the region"
	}
	return ""
}

// regionSizeText is the region's length: "16GiB", "25% of the drive"; ""
// to the end of the drive.
func regionSizeText(w *Workload) string {
	switch {
	case w.Size > 0:
		return FormatSize(w.Size)
	case w.SizePct > 0:
		return strconv.FormatFloat(w.SizePct, 'f', -1, 64) + "% of the drive"
	}
	return ""
}

// rateIOPSText is an IOPS cap, or a rate curve point's share of its
// maximum: the cap that follows from it is measured at run time, so it is
// no part of what the plan asked for.
func rateIOPSText(w *Workload) string {
	switch {
	case w.RatePct > 0:
		return strconv.FormatFloat(w.RatePct, 'f', -1, 64) + "% of the maximum"
	case w.RateIOPS > 0:
		return strconv.FormatFloat(w.RateIOPS, 'f', -1, 64)
	}
	return ""
}

// SplitText writes a transfer-size distribution: "4KiB 10%, 8KiB 90%".
func SplitText(split []SizeWeight) string {
	parts := make([]string, len(split))
	for i, s := range split {
		parts[i] = format.BlockSize(s.Size) + " " + strconv.FormatFloat(s.Weight, 'f', -1, 64) + "%"
	}
	return strings.Join(parts, ", ")
}

// ZonesText writes a skew as its zones: "80% of I/Os in 20% of the
// region, 20% of I/Os in 80% of the region".
func ZonesText(zones []Zone) string {
	parts := make([]string, len(zones))
	for i, z := range zones {
		parts[i] = strconv.FormatFloat(z.AccessPct, 'f', -1, 64) + "% of I/Os in " + strconv.FormatFloat(z.RegionPct, 'f', -1, 64) + "% of the region"
	}
	return strings.Join(parts, ", ")
}

// fioBool writes a flag as fio takes it.
func fioBool(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
