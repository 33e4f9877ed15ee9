package figure

import (
	"slices"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
)

// Unit is what a figure's value counts, as Read returns it.
type Unit string

// The units of figures.
const (
	PerSecond   Unit = "IOPS" // I/Os per second
	BytesPerSec Unit = "B/s"  // bytes per second
	Nanoseconds Unit = "ns"   // a latency
	// Share is a fraction of a whole, 0 to 1 (a dataloader's
	// accelerator utilisation); SamplesPerSec a dataloader's rate.
	Share         Unit = "share"
	SamplesPerSec Unit = "samples/s"
	// Seconds is a span of time in seconds (a file-set step's slowest
	// job).
	Seconds Unit = "s"
)

// Better says which way a figure improves.
type Better string

// The directions of figures.
const (
	Higher Better = "higher"
	Lower  Better = "lower"
)

// Latency names the latency a latency figure reads.
type Latency string

// The latencies a figure can read.
const (
	// Completion is a result's latency (metrics.DirStats.Lat): from an
	// I/O's submission, or its due time under a rate limit, to its
	// completion; fio's lat or clat for an import, as
	// metrics.Result.Latency says.
	Completion Latency = "completion"
	// Service is the latency from submission to completion under a rate
	// limit (metrics.DirStats.Service), without the time an I/O waited
	// behind earlier ones; the completion latency without a limit.
	Service Latency = "service"
	// BatchWait is how long a dataloader's batch kept its accelerator
	// waiting for its samples (metrics.Dataloader.BatchWait).
	BatchWait Latency = "batch wait"
	// Lag is a trace replay's: from the time the trace scheduled an I/O
	// to its issue (metrics.ReplayStats.Lag).
	Lag Latency = "lag"
	// FileOp is a file operation's, from its system call's issue to its
	// return (metrics.MetaOp.Lat).
	FileOp Latency = "file operation"
)

// Merge says how the figure of several jobs, hosts, directions or rounds
// is made from theirs.
type Merge string

// The ways figures merge.
const (
	// Add: the rates of jobs, hosts and directions add up; the rates of
	// rounds average.
	Add Merge = "add"
	// Histogram: read again from the merged histograms of every I/O;
	// percentiles never average.
	Histogram Merge = "histogram"
	// Totals: read again from the merged totals it is the ratio of (a
	// dataloader's compute time over its run time).
	Totals Merge = "totals"
)

// Figure is one figure drivebench measures: every place that names,
// reads, judges, compares or writes a figure reads its row of Figures.
type Figure struct {
	// Name is the canonical name, the one steady_state, compare
	// -threshold and catalog -figure take: "p99", "p99_9".
	Name string
	// Title names it for people, "p99 latency"; Titled puts a direction
	// in it.
	Title  string
	Unit   Unit
	Better Better
	// Latency is the latency it reads ("" for a rate), and Percentile
	// its percentile (0 for a figure that is not one).
	Latency    Latency
	Percentile float64
	Merge      Merge
	// Whole says that its value is a whole number of its unit (a latency
	// read from a histogram's bucket, or the fastest or slowest I/O), which
	// a hook receives as an int.
	Whole bool
	// In are the places that know the figure.
	In Place
	// Keys are its spellings in the places where a published format
	// fixed one other than Key's rule (report.json's mean_lat_ns, a spec
	// sheet's lat_us); Old the names users wrote before the registry,
	// which Resolve accepts as deprecated.
	Keys map[Place]string
	Old  map[Place][]string
	// Doc is its description in docs/figures.md.
	Doc string
	// Read reads it, in Unit, from one direction's statistics, or both
	// directions' merged (judging.TotalStats); ReadDataloader instead, for
	// a figure of a dataloader step (place Dataloader), from what its
	// accelerator saw; ReadReplay, for a figure of a trace replay (place
	// Replay), from what the replay measured besides its I/O. A row has
	// one of the three, or ReadFiles.
	Read           func(*metrics.DirStats) float64
	ReadDataloader func(*metrics.Dataloader) float64
	ReadReplay     func(*metrics.ReplayStats) float64
	// ReadInterval reads it, in Unit, from one interval of a step's
	// series, for a figure of places Interval and SeriesColumn.
	ReadInterval func(*metrics.Sample) float64
	// ReadFiles reads a figure of a step on a file set (place Files)
	// from its file operations and jobs.
	ReadFiles func(*metrics.FileSetStats) float64
}

// Figures is the figure registry, in the order reports list figures.
var Figures = []Figure{
	{
		Name: "iops", Title: "IOPS", Unit: PerSecond, Better: Higher, Merge: Add,
		In:   Expect | Spec | Hook | Report | Column | Steady | Option | Event,
		Doc:  "I/Os completed per second over the measured phase.",
		Read: func(d *metrics.DirStats) float64 { return d.IOPS },
	},
	{
		Name: "bw", Title: "bandwidth", Unit: BytesPerSec, Better: Higher, Merge: Add,
		In:           Expect | Spec | Hook | Report | Column | Steady | Option | Interval | Event,
		Doc:          "Bytes transferred per second over the measured phase.",
		Read:         func(d *metrics.DirStats) float64 { return d.BW },
		ReadInterval: func(s *metrics.Sample) float64 { return s.BW },
	},
	{
		Name: "mean", Title: "mean latency", Unit: Nanoseconds, Better: Lower, Latency: Completion, Merge: Histogram,
		In:           Expect | Spec | Hook | Report | Column | Steady | Option | Interval | SeriesColumn | Stop | Event,
		Keys:         map[Place]string{Spec: "lat_us", Report: "mean_lat_ns", Column: "lat_mean_ns", Interval: "mean_lat_ns"},
		Old:          map[Place][]string{Expect: {"lat.mean_us"}, Hook: {"lat_ns.mean", "mean_lat_ns"}, Steady: {"lat_mean"}},
		Doc:          "Mean latency of the I/Os.",
		Read:         func(d *metrics.DirStats) float64 { return d.Lat.Mean },
		ReadInterval: func(s *metrics.Sample) float64 { return s.MeanLatNs },
	},
	{
		Name: "min", Title: "minimum latency", Unit: Nanoseconds, Better: Lower, Latency: Completion, Merge: Histogram, Whole: true,
		In:   Expect | Hook | Column,
		Keys: map[Place]string{Column: "lat_min_ns"},
		Old:  map[Place][]string{Expect: {"lat.min_us"}, Hook: {"lat_ns.min"}},
		Doc:  "Latency of the fastest I/O.",
		Read: func(d *metrics.DirStats) float64 { return float64(d.Lat.Min) },
	},
	{
		Name: "max", Title: "maximum latency", Unit: Nanoseconds, Better: Lower, Latency: Completion, Merge: Histogram, Whole: true,
		In:   Expect | Hook | Column,
		Keys: map[Place]string{Column: "lat_max_ns"},
		Old:  map[Place][]string{Expect: {"lat.max_us"}, Hook: {"lat_ns.max"}},
		Doc:  "Latency of the slowest I/O.",
		Read: func(d *metrics.DirStats) float64 { return float64(d.Lat.Max) },
	},
	{
		Name: "stddev", Title: "latency standard deviation", Unit: Nanoseconds, Better: Lower, Latency: Completion, Merge: Histogram,
		In:   Expect | Hook | Column,
		Keys: map[Place]string{Column: "lat_stddev_ns"},
		Old:  map[Place][]string{Expect: {"lat.stddev_us"}, Hook: {"lat_ns.stddev"}},
		Doc:  "Sample standard deviation of the latency, as fio reports it.",
		Read: func(d *metrics.DirStats) float64 { return d.Lat.Stddev },
	},
	interval(percentile(50, "p50", Expect|Spec|Hook|Report|Column|Option, nil, "Median latency: half the I/Os completed faster."),
		func(s *metrics.Sample) uint64 { return s.P50Ns }),
	percentile(90, "p90", Expect|Spec|Hook|Column|Option, nil, "Latency that 90 % of the I/Os beat."),
	percentile(95, "p95", Expect|Spec|Hook, nil, "Latency that 95 % of the I/Os beat."),
	interval(percentile(99, "p99", Expect|Spec|Hook|Report|Column|Steady|Option|Event, map[Place][]string{Steady: {"lat_p99"}},
		"Latency that 99 % of the I/Os beat, the tail a spec sheet quotes."), func(s *metrics.Sample) uint64 { return s.P99Ns }),
	percentile(99.9, "p99_9", Expect|Spec|Hook|Report|Column|Steady|Option, map[Place][]string{Option: {"p99.9"}},
		"Latency that 99.9 % of the I/Os beat."),
	interval(percentile(99.99, "p99_99", Expect|Spec|Hook|Column|Option, map[Place][]string{Option: {"p99.99"}},
		"Latency that 99.99 % of the I/Os beat."), func(s *metrics.Sample) uint64 { return s.P9999Ns }),
	percentile(99.999, "p99_999", Expect|Hook, nil,
		"Latency that 99.999 % of the I/Os beat; it rests on 10 I/Os only once a point has 1,000,000."),
	{
		Name: "service_mean", Title: "mean service latency", Unit: Nanoseconds, Better: Lower, Latency: Service, Merge: Histogram,
		In:   Report,
		Keys: map[Place]string{Report: "service_mean_lat_ns"},
		Doc:  "Mean latency from submission to completion of a paced step, without the wait behind earlier I/Os.",
		Read: func(d *metrics.DirStats) float64 { return service(d).Mean },
	},
	{
		Name: "service_p99", Title: "p99 service latency", Unit: Nanoseconds, Better: Lower, Latency: Service, Percentile: 99, Merge: Histogram, Whole: true,
		In:   Report,
		Doc:  "p99 of the service latency of a paced step.",
		Read: func(d *metrics.DirStats) float64 { return float64(serviceQuantile(d, 99)) },
	},
	{
		Name: "au", Title: "accelerator utilisation", Unit: Share, Better: Higher, Merge: Totals, In: Dataloader | KindColumn,
		Doc:            "A dataloader's accelerator utilisation: its compute time over the run's length, 0 to 1.",
		ReadDataloader: func(d *metrics.Dataloader) float64 { return d.AU },
	},
	{
		Name: "samples_per_s", Title: "samples per second", Unit: SamplesPerSec, Better: Higher, Merge: Add, In: Dataloader | KindColumn,
		Doc:            "Samples a dataloader's accelerator consumed per second of the run.",
		ReadDataloader: func(d *metrics.Dataloader) float64 { return d.SamplesPerSec },
	},
	batchWait("batch_wait_mean", "mean batch wait", 0, "Mean time a batch kept the accelerator waiting for its samples.",
		func(d *metrics.Dataloader) float64 { return d.BatchWait.Mean }),
	batchWait("batch_wait_p50", "p50 batch wait", 50, "Batch wait that half the batches beat.",
		func(d *metrics.Dataloader) float64 { return float64(d.BatchWait.Quantile(50)) }),
	batchWait("batch_wait_p99", "p99 batch wait", 99, "Batch wait that 99 % of the batches beat.",
		func(d *metrics.Dataloader) float64 { return float64(d.BatchWait.Quantile(99)) }),
	batchWait("batch_wait_max", "maximum batch wait", 0, "The longest a batch kept the accelerator waiting.",
		func(d *metrics.Dataloader) float64 { return float64(d.BatchWait.Max) }),
	lag("lag_mean", "mean lag", 0, "Mean time from the moment a trace replay scheduled an I/O to its issue.",
		func(r *metrics.ReplayStats) float64 { return r.Lag.Mean }),
	lag("lag_p50", "p50 lag", 50, "Issue lag that half a replay's I/Os beat.",
		func(r *metrics.ReplayStats) float64 { return float64(r.Lag.Quantile(50)) }),
	lag("lag_p99", "p99 lag", 99, "Issue lag that 99 % of a replay's I/Os beat: how late the drive, at the replay's cap on I/Os in flight, let the trace run.",
		func(r *metrics.ReplayStats) float64 { return float64(r.Lag.Quantile(99)) }),
	lag("lag_max", "maximum lag", 0, "The latest a replay issued an I/O behind its scheduled time.",
		func(r *metrics.ReplayStats) float64 { return float64(r.Lag.Max) }),
	{
		Name: "slowest_job_s", Title: "slowest job's seconds", Unit: Seconds, Better: Lower, Merge: Totals, In: Files | Checkpoint | KindColumn,
		Doc:       "A file-set step's slowest job: seconds from the start of the measured phase to its last transfer, flush and close (a checkpoint pass's time, its slowest rank's).",
		ReadFiles: func(f *metrics.FileSetStats) float64 { return f.Slowest() },
	},
	{
		Name: "lowest_job_bw", Title: "slowest job's bandwidth", Unit: BytesPerSec, Better: Higher, Merge: Totals, In: Files | Checkpoint | KindColumn,
		Doc:       "The lowest bandwidth of a file-set step's jobs, each job's bytes over its seconds (a checkpoint's slowest rank).",
		ReadFiles: func(f *metrics.FileSetStats) float64 { return f.LowestBW() },
	},
	{
		Name: "aggregate_bw", Title: "aggregate bandwidth", Unit: BytesPerSec, Better: Higher, Merge: Totals, In: Files | Checkpoint | KindColumn,
		Doc:       "A file-set step's bytes, every job's, over its slowest job's seconds.",
		ReadFiles: func(f *metrics.FileSetStats) float64 { return f.AggregateBW() },
	},
	fileOp(metrics.OpCreate), fileOp(metrics.OpStat), fileOp(metrics.OpOpen), fileOp(metrics.OpClose), fileOp(metrics.OpFsync), fileOp(metrics.OpUnlink),
}

// lag is the row of a trace replay's issue-lag statistic.
func lag(name, title string, p float64, doc string, read func(*metrics.ReplayStats) float64) Figure {
	return Figure{Name: name, Title: title, Unit: Nanoseconds, Better: Lower, Latency: Lag, Percentile: p,
		Merge: Histogram, In: Replay | KindColumn, Doc: doc, ReadReplay: read}
}

// fileOp is the row of the p99 latency of a file operation of a step
// on a file set; 0 when the step did none.
func fileOp(op string) Figure {
	return Figure{Name: op + "_p99", Title: "p99 " + op + " latency", Unit: Nanoseconds, Better: Lower, Latency: FileOp, Percentile: 99,
		Merge: Histogram, Whole: true, In: Files, Doc: "Latency that 99 % of a file-set step's " + op + " calls beat.",
		ReadFiles: func(f *metrics.FileSetStats) float64 {
			if m := f.Op(op); m != nil {
				return float64(m.Lat.Quantile(99))
			}
			return 0
		}}
}

// batchWait is the row of a dataloader's batch-wait statistic.
func batchWait(name, title string, p float64, doc string, read func(*metrics.Dataloader) float64) Figure {
	return Figure{Name: name, Title: title, Unit: Nanoseconds, Better: Lower, Latency: BatchWait, Percentile: p,
		Merge: Histogram, In: Dataloader | KindColumn, Doc: doc, ReadDataloader: read}
}

// interval puts a percentile row in a step's series (places Interval and
// SeriesColumn), read from the interval's field.
func interval(f Figure, read func(*metrics.Sample) uint64) Figure {
	f.In |= Interval | SeriesColumn
	f.ReadInterval = func(s *metrics.Sample) float64 { return float64(read(s)) }
	return f
}

// legacyPercentiles are the percentiles that expectations
// (result.read.lat.p99_us) and hooks (lat_ns.p["99"]) named before the
// registry; their rows keep those names as old ones.
var legacyPercentiles = []float64{50, 90, 95, 99, 99.9, 99.99}

// percentile is the row of a completion-latency percentile, which a rate
// curve's stop condition takes (place Stop) as every one does. Its spec
// sheet key and catalog column are as metrics.LatencyPercentile reads
// them where the canonical name has an underscore (p999_us); old adds the
// old names other places had to those of a legacy percentile.
func percentile(p float64, name string, in Place, old map[Place][]string, doc string) Figure {
	if old == nil {
		old = map[Place][]string{}
	}
	pct := strings.ReplaceAll(strings.TrimPrefix(name, "p"), "_", ".")
	digits := strings.ReplaceAll(name, "_", "")
	if slices.Contains(legacyPercentiles, p) {
		old[Expect] = append(old[Expect], "lat."+digits+"_us")
		old[Hook] = append(old[Hook], `lat_ns.p["`+pct+`"]`)
	}
	f := Figure{
		Name: name, Title: strings.ReplaceAll(name, "_", ".") + " latency", Unit: Nanoseconds, Better: Lower,
		Latency: Completion, Percentile: p, Merge: Histogram, Whole: true, In: in | Stop, Old: old, Doc: doc,
		Read: func(d *metrics.DirStats) float64 { return float64(d.Quantile(p)) },
	}
	if digits != name {
		f.Keys = map[Place]string{Spec: digits + "_us", Column: digits + "_ns", Interval: digits + "_ns"}
	}
	return f
}

// service is the service latency of d: its own under a rate limit, else
// the completion latency, which is then the same.
func service(d *metrics.DirStats) *metrics.LatencySummary {
	if d.Service != nil {
		return d.Service
	}
	return &d.Lat
}

// serviceQuantile reads a percentile of the service latency: from the
// stored percentiles under a rate limit, from d's histogram otherwise.
func serviceQuantile(d *metrics.DirStats, p float64) uint64 {
	if d.Service == nil {
		return d.Quantile(p)
	}
	return (&metrics.DirStats{Lat: *d.Service}).Quantile(p)
}

// Titled is the title with a direction before its last word: "p99 read
// latency", "write IOPS"; the title when dir is "".
func (f *Figure) Titled(dir string) string {
	if dir == "" {
		return f.Title
	}
	head, last, found := cutLast(f.Title)
	if !found {
		return dir + " " + f.Title
	}
	return head + " " + dir + " " + last
}

// cutLast cuts s before its last word.
func cutLast(s string) (head, last string, found bool) {
	i := strings.LastIndexByte(s, ' ')
	if i < 0 {
		return "", s, false
	}
	return s[:i], s[i+1:], true
}

// Text writes a value of the figure in its unit, as the reports write
// it: "10,540 IOPS", "2,724.0 MB/s", "1.52 ms".
func (f *Figure) Text(v float64) string {
	switch f.Unit {
	case PerSecond:
		return format.Count(v) + " IOPS"
	case BytesPerSec:
		return format.Bandwidth(v)
	}
	return format.Latency(v)
}
