package workload

import (
	"slices"
	"strings"
	"time"
)

// Workload is everything an engine needs to run one step, and what a
// step's record keeps of it: the plan's workload with the values fixed at
// run time (a rate curve point's rate, the seed). Reports, acceptance and
// comparisons read it from the record, never from the plan, so a results
// folder explains itself after the plan has changed. Sizes are in bytes,
// durations in nanoseconds.
//
// Its JSON form is two contracts at once: the records on disk read it by
// field name, and node IDs hash it field by field in declaration order
// (plan.Expand), so a new field goes at the end with omitempty, which
// keeps every existing ID and record as it was.
type Workload struct {
	// RW is one of read, write, randread, randwrite, rw (sequential mix)
	// and randrw (random mix).
	RW string `json:"rw"`
	// ReadPct is the share of reads in percent for rw and randrw.
	ReadPct int   `json:"read_pct"`
	BS      int64 `json:"bs"`
	IODepth int   `json:"iodepth"`
	NumJobs int   `json:"numjobs"`
	// Runtime and Ramp bound a time-based run; when Runtime is zero the run
	// transfers Bytes and stops.
	Runtime time.Duration `json:"runtime_ns"`
	Ramp    time.Duration `json:"ramp_ns"`
	Bytes   int64         `json:"bytes,omitempty"`
	// BytesPct is a byte count as a percentage of the region, such as 400
	// for four times the region; when Runtime is also set, the run stops
	// at whichever bound comes first (and likewise for Bytes).
	BytesPct float64 `json:"bytes_pct,omitempty"`
	Direct   bool    `json:"direct"`
	// The region of the target: Offset bytes from its start, Size bytes
	// long, or SizePct percent of the capacity. Zero Size and SizePct mean
	// to the end of the drive.
	Offset  int64   `json:"offset,omitempty"`
	Size    int64   `json:"size,omitempty"`
	SizePct float64 `json:"size_pct,omitempty"`
	// Loops is how many times a byte-count run covers the region (the
	// passes of a precondition).
	Loops int `json:"loops,omitempty"`
	// Engine is the driver ("native"); IOEngine the I/O method within it.
	Engine   string `json:"engine"`
	IOEngine string `json:"ioengine,omitempty"`
	// Seed makes random offsets reproducible.
	Seed uint64 `json:"seed"`

	// RateIOPS and RateBW cap the run open loop: each I/O is scheduled at
	// its intended time and its latency counted from then. Zero is
	// unlimited. Arrival is "uniform" (the default) or "poisson".
	RateIOPS float64 `json:"rate_iops,omitempty"`
	RateBW   float64 `json:"rate_bw,omitempty"`
	Arrival  string  `json:"arrival,omitempty"`
	// RatePct, with RateBase, sets RateIOPS at run time to RatePct percent
	// of the IOPS measured by the step whose ID is RateBase: the points of
	// a rate curve after its uncontrolled maximum.
	RatePct  float64 `json:"rate_pct,omitempty"`
	RateBase string  `json:"rate_base,omitempty"`
	// BSSplit is a transfer-size distribution; when set it replaces BS.
	BSSplit []SizeWeight `json:"bs_split,omitempty"`
	// SeqPct is the share of I/Os of a random workload that continue
	// sequentially from the previous one (vdbench's 100 - seekpct).
	SeqPct int `json:"seq_pct,omitempty"`
	// Zones skew random offsets: AccessPct of the I/Os land in RegionPct
	// of the region, zone after zone (fio's zoned random_distribution).
	Zones []Zone `json:"zones,omitempty"`
	// Data is the write buffer pattern: "random" (the default), "zero",
	// "compressible" (CompressPct percent of each buffer compresses away)
	// or "dedupe" (DedupePct percent of buffers repeat earlier ones).
	Data        string `json:"data,omitempty"`
	CompressPct int    `json:"compress_pct,omitempty"`
	DedupePct   int    `json:"dedupe_pct,omitempty"`
	// Verify writes a header (offset, generation, checksum) into every
	// block and reads the region back after the run, reporting every block
	// that is corrupt, misplaced or stale.
	Verify bool `json:"verify,omitempty"`
	// Fsync flushes each job's writes to the drive (fsync) after every
	// Fsync of them; zero never does.
	Fsync int `json:"fsync,omitempty"`
	// Replay, when set, replaces the generated workload with a trace
	// replayed open loop; of the fields above only IODepth (the cap on
	// I/Os in flight), Direct, the region, Engine and IOEngine apply.
	Replay *Replay `json:"replay,omitempty"`

	// A dataloader step (BatchSize set) reads a data set as a training
	// job's input pipeline does: Files files of SamplesPerFile samples of
	// RecordSize bytes each (each sample read in transfers of at most BS
	// bytes), read by ReaderThreads threads into batches of BatchSize
	// samples, which an accelerator consumes, ComputeTime per batch, over
	// Epochs passes of the data set in a shuffled order.
	BatchSize      int           `json:"batch_size,omitempty"`
	ReaderThreads  int           `json:"reader_threads,omitempty"`
	Files          int           `json:"files,omitempty"`
	SamplesPerFile int           `json:"samples_per_file,omitempty"`
	RecordSize     int64         `json:"record_size,omitempty"`
	ComputeTime    time.Duration `json:"compute_time_ns,omitempty"`
	Epochs         int           `json:"epochs,omitempty"`

	// A file set (Files set on a step that is not a dataloader's) runs
	// the step on Files files in a folder of the drive, spread
	// over Dirs subfolders, each FileSize bytes or of a size drawn from
	// FileSizes (a distribution, by weight in percent of the files). The
	// files are divided among the jobs (a job owns Files/NumJobs of them),
	// or, with one file, each job has its slice of it. FileService picks
	// the file of each I/O within a job's files ("sequential", "random",
	// "roundrobin" or "zipf:THETA"); OpenFiles caps the files a job keeps
	// open. See engine/native's doc for the whole model.
	FileSize    int64        `json:"file_size,omitempty"`
	FileSizes   []SizeWeight `json:"file_sizes,omitempty"`
	Dirs        int          `json:"dirs,omitempty"`
	OpenFiles   int          `json:"open_files,omitempty"`
	FileService string       `json:"file_service,omitempty"`
	// CreateOnOpen creates (or truncates) each file when a job first opens
	// it, timed as a create, instead of before the run.
	CreateOnOpen bool `json:"create_on_open,omitempty"`
	// FsyncOnClose flushes each file before it is closed.
	FsyncOnClose bool `json:"fsync_on_close,omitempty"`
	// Unlink removes the set's files at the end of the step, timed.
	Unlink bool `json:"unlink,omitempty"`
	// MeasureSetup counts the creation of the set before the run in its
	// metadata figures; otherwise it is setup, reported apart.
	MeasureSetup bool `json:"measure_setup,omitempty"`
	// DropCache empties the page cache before the measured phase (sync,
	// then /proc/sys/vm/drop_caches, which needs root), so reads come
	// from the drive.
	DropCache bool `json:"drop_cache,omitempty"`
}

// DataloaderParams are the profile's parameters a dataloader block
// takes beside its own: the transfer size, O_DIRECT, the seed of its
// shuffles and the engine that runs it.
var DataloaderParams = []string{"bs", "direct", "seed", "engine"}

// Dataloader reports whether the workload is a dataloader step's, which
// the engine runs as an input pipeline rather than a stream of I/Os.
func (w *Workload) Dataloader() bool { return w.BatchSize > 0 }

// IsFileSet reports whether the workload runs on a file set: it has
// files. A dataloader's data set is one, its Files of SamplesPerFile
// records each.
func (w *Workload) IsFileSet() bool { return w.Files > 0 }

// SizeWeight is one transfer size of a distribution and its weight in
// percent.
type SizeWeight struct {
	Size   int64   `json:"size"`
	Weight float64 `json:"weight"`
}

// Zone is one part of a skewed access distribution.
type Zone struct {
	AccessPct float64 `json:"access_pct"`
	RegionPct float64 `json:"region_pct"`
}

// Writes reports whether the workload issues any write.
func (w *Workload) Writes() bool {
	if w.Replay != nil {
		return w.Replay.HasWrites && !w.Replay.ReadOnly()
	}
	switch w.RW {
	case "write", "randwrite":
		return true
	case "rw", "randrw":
		return w.ReadPct < 100
	}
	return false
}

// RateLimited reports whether the workload ran under an open-loop cap, so
// its figures are what the cap allowed, not what the drive can do.
func (w *Workload) RateLimited() bool {
	return w.RatePct > 0 || w.RateIOPS > 0 || w.RateBW > 0
}

// IsMix reports whether an rw mode mixes reads and writes.
func IsMix(rw string) bool {
	return rw == "rw" || rw == "randrw"
}

// IsRandom reports whether an rw mode draws random offsets.
func IsRandom(rw string) bool {
	return strings.HasPrefix(rw, "rand")
}

// Clone returns a copy of w that shares no slice with it, to change or
// to keep while w changes.
func (w Workload) Clone() Workload {
	w.BSSplit, w.Zones, w.FileSizes = slices.Clone(w.BSSplit), slices.Clone(w.Zones), slices.Clone(w.FileSizes)
	if w.Replay != nil {
		r := *w.Replay
		w.Replay = &r
	}
	return w
}
