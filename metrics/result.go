package metrics

import (
	"encoding/json"
	"time"
)

// Result is what one engine run measured: one step of a plan on one drive.
type Result struct {
	// Start is the wall-clock time the measured phase began (after ramp).
	Start time.Time `json:"start"`
	// RuntimeNs is the length of the measured phase in nanoseconds.
	RuntimeNs int64 `json:"runtime_ns"`
	// Read and Write are nil when the run did no I/O in that direction.
	Read  *DirStats `json:"read,omitempty"`
	Write *DirStats `json:"write,omitempty"`
	// Latency names what every latency figure of the result measures:
	// LatencyEngine, LatencyFioLat or LatencyFioClat; empty in records
	// written before it was kept, which are LatencyEngine.
	Latency string `json:"latency,omitempty"`
	// CPU is the processor time the engine (or fio) spent on the run.
	CPU CPU `json:"cpu"`
	// Series holds one sample per interval of the measured phase.
	Series []Sample `json:"series,omitempty"`
	// Thermal holds the drive's temperature and thermal-throttle counters,
	// read every few seconds while the step ran, on an NVMe drive.
	Thermal []ThermalSample `json:"thermal,omitempty"`
	// Hosts is the per-host breakdown of a distributed run; the fields
	// above are then the merged cluster-wide figures.
	Hosts []HostResult `json:"hosts,omitempty"`
	// Metrics holds named figures that are not I/O statistics, such as the
	// transactions per second parsed from an external benchmark.
	Metrics map[string]float64 `json:"metrics,omitempty"`
	// Replay is set for a trace replay: its fidelity to the trace and
	// its lag.
	Replay *ReplayStats `json:"replay,omitempty"`
	// Dataloader is set on a dataloader step: what its accelerator saw of
	// the reads in Read.
	Dataloader *Dataloader `json:"dataloader,omitempty"`
	// Files is set on a step that ran on a file set: its metadata
	// operations and each job's share.
	Files *FileSetStats `json:"files,omitempty"`
	// CacheDrop is set on a step that emptied the page cache before it
	// measured (drop_cache): how.
	CacheDrop *CacheDrop `json:"cache_drop,omitempty"`
}

// Dataloader is what a dataloader step measured beside its reads: how
// much of the run its accelerator spent computing rather than waiting
// for samples. The run's length is the Result's RuntimeNs.
type Dataloader struct {
	Samples uint64 `json:"samples"`
	Batches uint64 `json:"batches"`
	Epochs  int    `json:"epochs"`
	// SamplesPerSec is the samples the accelerator consumed per second of
	// the run.
	SamplesPerSec float64 `json:"samples_per_s"`
	// ComputeNs is the accelerator's compute time over the run: the
	// batches times the compute time per batch. Time a sleeper was woken
	// late (a loaded host, a stopped process) is not compute; it stays in
	// the run's length.
	ComputeNs int64 `json:"compute_ns"`
	// AU is the accelerator utilisation: ComputeNs over the run's length.
	AU float64 `json:"au"`
	// BatchWait is how long each batch kept the accelerator waiting for
	// its samples once it was ready for it (the previous batch computed,
	// or the epoch begun); BatchWaitHist the histogram it is read from.
	BatchWait     LatencySummary `json:"batch_wait_ns"`
	BatchWaitHist *Histogram     `json:"batch_wait_histogram,omitempty"`
}

// The latency definitions a result can hold.
const (
	// LatencyEngine is drivebench's own: from submission to completion,
	// and under a rate limit from the I/O's intended time to completion.
	LatencyEngine = "drivebench"
	// LatencyFioLat is fio's total latency (lat): from submission to
	// completion, the same span as LatencyEngine without a rate limit.
	LatencyFioLat = "fio lat"
	// LatencyFioClat is fio's completion latency (clat): from the moment
	// the kernel accepted the I/O to its completion, without the
	// submission time (slat).
	LatencyFioClat = "fio clat"
)

// LatencyOf is the latency definition of r: its Latency, or the engine's
// own for results that do not say.
func (r *Result) LatencyOf() string {
	if r == nil || r.Latency == "" {
		return LatencyEngine
	}
	return r.Latency
}

// HostResult is one host's share of a distributed run.
type HostResult struct {
	Host  string    `json:"host"`
	Read  *DirStats `json:"read,omitempty"`
	Write *DirStats `json:"write,omitempty"`
	Error string    `json:"error,omitempty"`
}

// DirStats summarises the I/Os of one direction (read or write).
type DirStats struct {
	IOs   uint64  `json:"ios"`
	Bytes uint64  `json:"bytes"`
	IOPS  float64 `json:"iops"`
	// BW is bandwidth in bytes per second.
	BW float64 `json:"bw_bytes"`
	// Lat is completion latency: from the moment the I/O was due (its
	// submission, or its scheduled time under rate control) to completion.
	Lat LatencySummary `json:"lat_ns"`
	// Hist is the full latency histogram the summary was read from.
	Hist *Histogram `json:"histogram,omitempty"`
	// Service is set under a rate limit, when Lat counts from each I/O's
	// due time: the service latency, from submission to completion,
	// without the time an I/O waited behind earlier ones past its due
	// time. Without a rate limit Lat is the service latency.
	Service *LatencySummary `json:"service_lat_ns,omitempty"`
}

// LatencySummary is the usual digest of a latency distribution, in ns.
type LatencySummary struct {
	Min         uint64       `json:"min"`
	Max         uint64       `json:"max"`
	Mean        float64      `json:"mean"`
	Stddev      float64      `json:"stddev"`
	Percentiles []Percentile `json:"percentiles"`
}

// Clamp brings every percentile within [Min, Max], where a percentile
// read as a bucket's middle (Histogram.Percentile), by fio or by a
// drivebench that did not clamp it, may lie beyond them; nothing without
// a Max, which some imports lack.
func (s *LatencySummary) Clamp() {
	if s.Max == 0 || s.Max < s.Min {
		return
	}
	for i, p := range s.Percentiles {
		s.Percentiles[i].Ns = min(max(p.Ns, s.Min), s.Max)
	}
}

// UnmarshalJSON reads a stored summary with its percentiles clamped
// (Clamp): a record written before drivebench clamped them may hold a
// p99.99 above its max.
func (s *LatencySummary) UnmarshalJSON(b []byte) error {
	type stored LatencySummary
	if err := json.Unmarshal(b, (*stored)(s)); err != nil {
		return err
	}
	s.Clamp()
	return nil
}

// Percentile is the latency (ns) below which P percent of I/Os completed.
type Percentile struct {
	P  float64 `json:"p"`
	Ns uint64  `json:"ns"`
}

// DefaultPercentiles are the percentiles fio prints by default.
var DefaultPercentiles = []float64{1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99}

// Sample is one interval of a time series. T is the end of the interval in
// seconds since the start of the measured phase.
type Sample struct {
	T         float64 `json:"t"`
	ReadIOPS  float64 `json:"read_iops"`
	WriteIOPS float64 `json:"write_iops"`
	// BW is the combined bandwidth of both directions in bytes per second.
	BW float64 `json:"bw_bytes"`
	// MeanLatNs is the mean latency of I/Os completed in the interval.
	MeanLatNs float64 `json:"mean_lat_ns"`
	// P50Ns, P99Ns and P9999Ns are read from the interval's own histogram
	// when the engine keeps one; zero otherwise.
	P50Ns   uint64 `json:"p50_ns,omitempty"`
	P99Ns   uint64 `json:"p99_ns,omitempty"`
	P9999Ns uint64 `json:"p9999_ns,omitempty"`
	// BytesWritten is the running total written since the phase began, so
	// write saturation can be plotted against data written.
	BytesWritten uint64 `json:"bytes_written"`
}

// ThermalSample is one reading of an NVMe drive's SMART / health log
// during a step. T is seconds since the measured phase began (negative
// during the ramp); the counters are the drive's own, cumulative over its
// life, so throttling during the step is their growth.
type ThermalSample struct {
	T float64 `json:"t"`
	// TempC is the composite temperature in degrees Celsius.
	TempC int `json:"temp_c"`
	// Throttle1 and Throttle2 count the transitions into light and heavy
	// thermal throttling (thermal management temperatures 1 and 2), and
	// Throttle1Sec and Throttle2Sec the seconds spent there.
	Throttle1    uint32 `json:"tmt1_transitions"`
	Throttle2    uint32 `json:"tmt2_transitions"`
	Throttle1Sec uint32 `json:"tmt1_seconds"`
	Throttle2Sec uint32 `json:"tmt2_seconds"`
	// WarningMin and CriticalMin are the minutes spent above the warning
	// and critical composite temperatures.
	WarningMin  uint32 `json:"warning_temp_minutes"`
	CriticalMin uint32 `json:"critical_temp_minutes"`
}

// CPU is processor time in seconds.
type CPU struct {
	UserSec float64 `json:"user_sec"`
	SysSec  float64 `json:"sys_sec"`
}

// ThermalSummary is how hot an NVMe drive ran over a step, from its
// readings: the lowest and highest temperature, and how much each of the
// drive's throttle and over-temperature counters grew from the first
// reading to the last.
type ThermalSummary struct {
	Readings int `json:"readings"`
	MinC     int `json:"min_c"`
	MaxC     int `json:"max_c"`
	// Throttle1 and Throttle2 are the transitions into light and heavy
	// thermal throttling over the step, Throttle1Sec and Throttle2Sec the
	// seconds spent there; WarningMin and CriticalMin the minutes above
	// the warning and critical temperatures.
	Throttle1    uint32 `json:"tmt1_transitions,omitempty"`
	Throttle2    uint32 `json:"tmt2_transitions,omitempty"`
	Throttle1Sec uint32 `json:"tmt1_seconds,omitempty"`
	Throttle2Sec uint32 `json:"tmt2_seconds,omitempty"`
	WarningMin   uint32 `json:"warning_temp_minutes,omitempty"`
	CriticalMin  uint32 `json:"critical_temp_minutes,omitempty"`
}

// SummarizeThermal sums up a step's readings; nil when there are none.
func SummarizeThermal(samples []ThermalSample) *ThermalSummary {
	if len(samples) == 0 {
		return nil
	}
	first, last := samples[0], samples[len(samples)-1]
	s := &ThermalSummary{Readings: len(samples), MinC: first.TempC, MaxC: first.TempC,
		Throttle1: growth(first.Throttle1, last.Throttle1), Throttle2: growth(first.Throttle2, last.Throttle2),
		Throttle1Sec: growth(first.Throttle1Sec, last.Throttle1Sec), Throttle2Sec: growth(first.Throttle2Sec, last.Throttle2Sec),
		WarningMin: growth(first.WarningMin, last.WarningMin), CriticalMin: growth(first.CriticalMin, last.CriticalMin)}
	for _, r := range samples {
		s.MinC, s.MaxC = min(s.MinC, r.TempC), max(s.MaxC, r.TempC)
	}
	return s
}

// growth is how much a cumulative counter grew; 0 when it went back (a
// drive that reset it).
func growth(from, to uint32) uint32 {
	if to < from {
		return 0
	}
	return to - from
}

// Throttled reports whether the drive throttled or ran above its warning
// or critical temperature during the step.
func (s ThermalSummary) Throttled() bool {
	return s.Throttle1 > 0 || s.Throttle2 > 0 || s.WarningMin > 0 || s.CriticalMin > 0
}

// ReplayStats is what a trace replay measured beside its I/O statistics:
// what it issued against what the trace holds, and how late each I/O was
// issued behind the time the trace scheduled it for.
type ReplayStats struct {
	// TraceIOs and TraceBytes are the reads and writes of the trace's
	// window the replay was to issue, times its loops; IssuedIOs and
	// IssuedBytes those it issued. A replay that ran to its end issued
	// exactly the trace's.
	TraceIOs    int64 `json:"trace_ios"`
	TraceBytes  int64 `json:"trace_bytes"`
	IssuedIOs   int64 `json:"issued_ios"`
	IssuedBytes int64 `json:"issued_bytes"`
	// TraceReads and TraceWrites split TraceIOs by the direction the
	// replay issues them in (a write read instead is a read);
	// WritesSkipped and WritesRead are the trace's writes a read-only
	// replay left out or read instead.
	TraceReads    int64 `json:"trace_reads"`
	TraceWrites   int64 `json:"trace_writes"`
	WritesSkipped int64 `json:"writes_skipped,omitempty"`
	WritesRead    int64 `json:"writes_read,omitempty"`
	// Flushes are the trace's flushes, issued as fsync; Discards its
	// trims, which the replay leaves out.
	Flushes  int64 `json:"flushes,omitempty"`
	Discards int64 `json:"discards,omitempty"`
	// TraceNs is the trace time the replay covered, all loops; ScheduleNs
	// the same scaled by the speed: how long the replay would take issuing
	// every I/O on time. Speed is the time scale (0: as fast as allowed).
	TraceNs    int64   `json:"trace_ns"`
	ScheduleNs int64   `json:"schedule_ns"`
	Speed      float64 `json:"speed"`
	// Lag is the time from each I/O's scheduled time to its issue,
	// LagHist the histogram it is read from (so that lags merge across
	// runs, as latencies do), and LagSeries the lag over the schedule, an
	// interval a sample.
	Lag       LatencySummary `json:"lag"`
	LagHist   *Histogram     `json:"lag_histogram,omitempty"`
	LagSeries []LagSample    `json:"lag_series,omitempty"`
	// TraceSeries is the replay over the trace's own time: its reads and
	// writes binned by the time the trace gives each, TraceBinNs of trace
	// time a bin, whatever the speed and however late they were issued.
	TraceSeries []TraceBin `json:"trace_series,omitempty"`
	TraceBinNs  int64      `json:"trace_bin_ns,omitempty"`
	// SlotWaits counts the I/Os that were due while every one of the
	// IODepth slots had an I/O in flight, and so waited: where the drive
	// (at that cap) did not keep up with the trace.
	SlotWaits int64 `json:"slot_waits"`
	IODepth   int   `json:"iodepth"`
	// Trace is the trace's own statistics, of the replayed disk over the
	// whole file (what drivebench trace stat prints), to set beside what
	// the replay measured; nil when they could not be read.
	Trace *TraceStat `json:"trace_stat,omitempty"`
}

// TraceStat is the part of a trace's statistics (trace.Stats) a replay
// keeps: its reads and writes, their bytes, its duration, its read and
// sequential shares, and its queue depth where the trace has completions.
type TraceStat struct {
	IOs           int64   `json:"ios"`
	Bytes         int64   `json:"bytes"`
	DurationNs    int64   `json:"duration_ns"`
	ReadPct       float64 `json:"read_pct"`
	SequentialPct float64 `json:"sequential_pct"`
	// QueueDepthP99 is 0 when the trace has no completions.
	QueueDepthP99 uint64 `json:"queue_depth_p99,omitempty"`
}

// KeptUp reports whether every I/O found a free slot at its scheduled
// time: the drive kept up with the trace at the replay's iodepth cap.
func (r *ReplayStats) KeptUp() bool { return r.SlotWaits == 0 }

// TraceBin is what a replay did with the reads and writes the trace
// times within one bin of its own clock. T is the bin's start in seconds
// of trace time: the trace's timestamps as they are (a replay that skips
// into the trace starts at the skip), running on across loops (the k-th loop's
// I/Os at their time plus k-1 windows); Loop is the loop the bin begins in,
// from 1. Due are the I/Os of the bin the replay came to (all of them
// when it ran to its end); Reads, Writes and Bytes those it completed,
// with the mean and p99 of their latency (from their scheduled time) and
// of their issue lag; no latency for a bin without completions, no lag at
// speed 0.
type TraceBin struct {
	T         float64 `json:"t"`
	Loop      int     `json:"loop"`
	Due       int64   `json:"due"`
	Reads     int64   `json:"reads"`
	Writes    int64   `json:"writes"`
	Bytes     int64   `json:"bytes"`
	MeanLatNs float64 `json:"mean_lat_ns,omitempty"`
	P99Ns     uint64  `json:"p99_ns,omitempty"`
	LagP99Ns  uint64  `json:"lag_p99_ns,omitempty"`
}

// LagSample is the lag of the I/Os scheduled in one interval of a
// replay, T seconds into the schedule at the interval's end.
type LagSample struct {
	T     float64 `json:"t"`
	IOs   int64   `json:"ios"`
	P50Ns uint64  `json:"p50_ns"`
	P99Ns uint64  `json:"p99_ns"`
	MaxNs uint64  `json:"max_ns"`
}
