package metrics

// FileSetStats is what a step on a file set measured besides its data
// I/O: the set, how it was made ready, each metadata operation with its
// own latency, and what each job did (a checkpoint's ranks).
type FileSetStats struct {
	Files int `json:"files"`
	Dirs  int `json:"dirs"`
	// Bytes is the size of the whole set.
	Bytes int64 `json:"bytes"`
	// Setup is the creation of the set before the measured phase.
	Setup FileSetup `json:"setup"`
	// Ops holds each kind of metadata operation the step did, in the
	// order of MetaOps.
	Ops []MetaOp `json:"ops,omitempty"`
	// Jobs holds each job's share, in job order.
	Jobs []JobSpan `json:"jobs,omitempty"`
}

// FileSetup is how the set was made ready before the run: files it
// created (and filled, for a step that reads) and files it found at
// their size and used as they were; Seconds is how long that took.
// Measured says that its operations are in the step's metadata figures
// (measure_setup); otherwise they are not.
type FileSetup struct {
	Created  int     `json:"created"`
	Reused   int     `json:"reused"`
	Seconds  float64 `json:"seconds"`
	Measured bool    `json:"measured,omitempty"`
}

// The metadata operations of a file set, in the order a record lists
// them.
const (
	OpCreate = "create"
	OpStat   = "stat"
	OpOpen   = "open"
	OpClose  = "close"
	OpFsync  = "fsync"
	OpUnlink = "unlink"
)

// MetaOps lists the metadata operations in record order.
var MetaOps = []string{OpCreate, OpStat, OpOpen, OpClose, OpFsync, OpUnlink}

// MetaOp is one kind of metadata operation: how many the step did and
// their latency (ns), from the system call's issue to its return.
type MetaOp struct {
	Op    string         `json:"op"`
	Count uint64         `json:"count"`
	Lat   LatencySummary `json:"lat_ns"`
	Hist  *Histogram     `json:"histogram,omitempty"`
}

// JobSpan is one job's share of a file-set step: the bytes it moved,
// the seconds from the start of the measured phase until its last I/O,
// flush and close completed, and until it issued its first operation
// (StartS: how long after the common start the job began).
type JobSpan struct {
	Bytes   uint64  `json:"bytes"`
	Seconds float64 `json:"seconds"`
	StartS  float64 `json:"start_s"`
}

// Op returns the step's figures of one metadata operation, nil when it
// did none.
func (f *FileSetStats) Op(name string) *MetaOp {
	if f == nil {
		return nil
	}
	for i := range f.Ops {
		if f.Ops[i].Op == name {
			return &f.Ops[i]
		}
	}
	return nil
}

// Slowest is the longest job's seconds: a checkpoint's time per pass.
func (f *FileSetStats) Slowest() float64 {
	var s float64
	for _, j := range f.Jobs {
		s = max(s, j.Seconds)
	}
	return s
}

// LowestBW is the lowest bandwidth of a job, in bytes per second: a
// checkpoint's slowest rank.
func (f *FileSetStats) LowestBW() float64 {
	lowest := -1.0
	for _, j := range f.Jobs {
		if j.Seconds <= 0 {
			continue
		}
		if bw := float64(j.Bytes) / j.Seconds; lowest < 0 || bw < lowest {
			lowest = bw
		}
	}
	return max(lowest, 0)
}

// AggregateBW is every job's bytes over the slowest job's seconds.
func (f *FileSetStats) AggregateBW() float64 {
	slowest := f.Slowest()
	if slowest <= 0 {
		return 0
	}
	var total uint64
	for _, j := range f.Jobs {
		total += j.Bytes
	}
	return float64(total) / slowest
}

// The ways a step emptied the page cache (CacheDrop.Method).
const (
	// CacheDropped: sync, then /proc/sys/vm/drop_caches: the whole page
	// cache was emptied.
	CacheDropped = "drop_caches"
	// CacheEvicted: drop_caches was refused, so only the target's own
	// clean pages were evicted, with posix_fadvise(POSIX_FADV_DONTNEED)
	// after a sync; other cached data (the file system's metadata) stayed.
	CacheEvicted = "fadvise"
)

// CacheDrop says how a step emptied the page cache before it measured:
// Method is CacheDropped or CacheEvicted, and Refused why drop_caches
// could not be used ("" when it was).
type CacheDrop struct {
	Method  string `json:"method"`
	Refused string `json:"refused,omitempty"`
}
