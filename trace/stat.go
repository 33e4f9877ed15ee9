package trace

import (
	"cmp"
	"container/heap"
	"errors"
	"io"
	"math/bits"
	"slices"
	"time"

	"github.com/drivebench/drivebench/metrics"
)

// StatsVersion is the format_version of the Stats JSON document; its
// minor number grows with added fields, its major with changed ones.
const StatsVersion = "1.0"

// Stats characterizes a trace: what trace stat prints and trace mix
// approximates. Counts are exact; shares are percentages.
type Stats struct {
	FormatVersion string `json:"format_version"`
	File          string `json:"file"`
	Format        Format `json:"format"`
	// Device is the one device counted (-device), "" for all of them.
	Device string `json:"device,omitempty"`
	// Devices are the distinct devices of the trace (counted or not), up
	// to maxDevices; DeviceNames the first few, for -device.
	Devices     int      `json:"devices"`
	DeviceNames []string `json:"device_names,omitempty"`

	IOs          int64 `json:"ios"`
	Reads        int64 `json:"reads"`
	Writes       int64 `json:"writes"`
	Flushes      int64 `json:"flushes"`
	Discards     int64 `json:"discards"`
	Bytes        int64 `json:"bytes"` // read and written
	ReadBytes    int64 `json:"read_bytes"`
	WriteBytes   int64 `json:"write_bytes"`
	DiscardBytes int64 `json:"discard_bytes"`
	// Duration is from the first I/O counted to the last one's issue
	// (its completion, where the trace has completions).
	DurationNS int64 `json:"duration_ns"`
	// Timed is false for a trace without times (fio iolog v2): then
	// duration and inter-arrival mean nothing and are left out.
	Timed bool `json:"timed"`

	// ReadPct is reads among reads and writes; SequentialPct the reads and
	// writes that start where the one before them on the device ended.
	ReadPct       float64 `json:"read_pct"`
	SequentialPct float64 `json:"sequential_pct"`

	// Sizes is the transfer-size distribution of reads and writes, by
	// size; Rounded says sizes were rounded up to powers of two, as the
	// trace had more than maxSizes distinct ones.
	Sizes        []SizeCount `json:"sizes"`
	SizesRounded bool        `json:"sizes_rounded,omitempty"`

	// InterArrival is the time between consecutive I/Os, in nanoseconds.
	InterArrival *Distribution `json:"inter_arrival_ns,omitempty"`
	// QueueDepth is the number of I/Os in flight as each one is issued,
	// itself included, where the trace has completions; QueueDepthNote
	// says why it is absent.
	QueueDepth     *Distribution `json:"queue_depth,omitempty"`
	QueueDepthNote string        `json:"queue_depth_note,omitempty"`

	// Regions is where the I/Os fall, for a trace of one device.
	Regions     *Regions `json:"regions,omitempty"`
	RegionsNote string   `json:"regions_note,omitempty"`
}

// SizeCount is one transfer size and how many reads and writes had it.
type SizeCount struct {
	Size  int64   `json:"size"`
	Count int64   `json:"count"`
	Pct   float64 `json:"pct"`
}

// Distribution summarizes a histogram of values.
type Distribution struct {
	Mean float64 `json:"mean"`
	P50  uint64  `json:"p50"`
	P90  uint64  `json:"p90"`
	P99  uint64  `json:"p99"`
	Max  uint64  `json:"max"`
}

func distribution(h *metrics.Histogram) *Distribution {
	p := h.Percentiles([]float64{50, 90, 99})
	return &Distribution{Mean: h.Mean(), P50: min(p[0], h.Max()), P90: min(p[1], h.Max()), P99: min(p[2], h.Max()), Max: h.Max()}
}

// Limits that keep Stats' memory bounded whatever the trace.
const (
	maxSizes    = 1024    // distinct transfer sizes before rounding
	maxDevices  = 1 << 16 // devices followed for sequential detection
	maxInFlight = 1 << 20 // I/Os in flight followed for queue depth
	maxBuckets  = 1 << 14 // address buckets of the region map
	deviceNames = 10
)

// Characterize reads the rest of the trace and characterizes its I/Os,
// of one device when device is not "".
func Characterize(f *File, device string) (*Stats, error) {
	a := newAccumulator(f, device)
	for {
		x, err := f.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		a.add(x)
	}
	return a.stats()
}

// accumulator gathers Stats one I/O at a time in bounded memory.
type accumulator struct {
	s          Stats
	devices    map[string]int64 // device -> end of its last read or write
	sizes      map[int64]int64
	sequential int64
	first      time.Duration
	last       time.Duration // latest issue or completion
	prevAt     time.Duration
	gaps       metrics.Histogram
	depth      metrics.Histogram
	inFlight   completions
	depthLost  bool
	regions    regionMap
}

func newAccumulator(f *File, device string) *accumulator {
	return &accumulator{
		s:       Stats{FormatVersion: StatsVersion, File: f.Name(), Format: f.Format(), Device: device, Timed: f.Format().Timed()},
		devices: map[string]int64{}, sizes: map[int64]int64{}, regions: newRegionMap(),
	}
}

func (a *accumulator) add(x IO) {
	a.seeDevice(x.Device)
	if a.s.Device != "" && x.Device != a.s.Device {
		return
	}
	s := &a.s
	if s.IOs == 0 {
		a.first, a.prevAt = x.At, x.At
	} else {
		a.gaps.Record(uint64(x.At - a.prevAt))
		a.prevAt = x.At
	}
	s.IOs++
	a.last = max(a.last, x.At+x.Latency)
	a.queue(x)
	switch x.Op {
	case Flush:
		s.Flushes++
		return
	case Discard:
		s.Discards++
		s.DiscardBytes += x.Size
		return
	case Read:
		s.Reads++
		s.ReadBytes += x.Size
	case Write:
		s.Writes++
		s.WriteBytes += x.Size
	}
	a.transfer(x)
}

// transfer counts a read or write's size, sequence and region.
func (a *accumulator) transfer(x IO) {
	a.countSize(x.Size)
	if end, ok := a.devices[x.Device]; ok && end == x.Offset {
		a.sequential++
	}
	if _, ok := a.devices[x.Device]; ok || len(a.devices) < maxDevices {
		a.devices[x.Device] = x.End()
	}
	a.regions.add(x.Offset, x.Size)
}

// seeDevice counts the trace's devices; the region map covers one.
func (a *accumulator) seeDevice(dev string) {
	if _, ok := a.devices[dev]; ok || a.s.Devices >= maxDevices {
		return
	}
	a.s.Devices++
	if len(a.s.DeviceNames) < deviceNames {
		a.s.DeviceNames = append(a.s.DeviceNames, dev)
	}
	a.devices[dev] = -1
}

func (a *accumulator) countSize(size int64) {
	if _, ok := a.sizes[size]; !ok && len(a.sizes) >= maxSizes && !a.s.SizesRounded {
		a.s.SizesRounded = true
		rounded := map[int64]int64{}
		for sz, n := range a.sizes {
			rounded[roundUpPow2(sz)] += n
		}
		a.sizes = rounded
	}
	if a.s.SizesRounded {
		size = roundUpPow2(size)
	}
	a.sizes[size]++
}

func roundUpPow2(n int64) int64 {
	if n <= 1 {
		return n
	}
	return 1 << (64 - bits.LeadingZeros64(uint64(n-1)))
}

// queue records the queue depth as x is issued: the I/Os issued before
// it that had not completed, and itself.
func (a *accumulator) queue(x IO) {
	if !a.s.Format.HasLatency() || a.depthLost {
		return
	}
	for a.inFlight.Len() > 0 && a.inFlight[0] <= x.At {
		heap.Pop(&a.inFlight)
	}
	a.depth.Record(uint64(a.inFlight.Len() + 1))
	if a.inFlight.Len() >= maxInFlight {
		a.depthLost = true
		return
	}
	heap.Push(&a.inFlight, x.At+x.Latency)
}

func (a *accumulator) stats() (*Stats, error) {
	s := &a.s
	if s.IOs > 0 && s.Timed {
		s.DurationNS = int64(a.last - a.first)
		if s.IOs > 1 {
			s.InterArrival = distribution(&a.gaps)
		}
	}
	s.Bytes = s.ReadBytes + s.WriteBytes
	rw := s.Reads + s.Writes
	if rw > 0 {
		s.ReadPct = pct(s.Reads, rw)
		s.SequentialPct = pct(a.sequential, rw)
	}
	for size, n := range a.sizes {
		s.Sizes = append(s.Sizes, SizeCount{Size: size, Count: n, Pct: pct(n, rw)})
	}
	slices.SortFunc(s.Sizes, func(x, y SizeCount) int { return cmp.Compare(x.Size, y.Size) })
	a.queueStats()
	a.regionStats()
	return s, nil
}

func (a *accumulator) queueStats() {
	s := &a.s
	switch {
	case !s.Format.HasLatency():
		s.QueueDepthNote = "the trace records no completions (" + string(s.Format) + ")"
	case a.depthLost:
		s.QueueDepthNote = "more than 1,048,576 I/Os were in flight at once; queue depth is not followed that far"
	case a.depth.Count() > 0:
		s.QueueDepth = distribution(&a.depth)
	}
}

func (a *accumulator) regionStats() {
	s := &a.s
	switch {
	case s.Device == "" && s.Devices > 1:
		s.RegionsNote = "the trace has several devices; pick one with -device for its hot regions"
	case a.regions.total > 0:
		s.Regions = a.regions.summary()
	}
}

func pct(n, of int64) float64 { return 100 * float64(n) / float64(of) }

// completions is a min-heap of the completion times of the I/Os in flight.
type completions []time.Duration

func (c completions) Len() int           { return len(c) }
func (c completions) Less(i, j int) bool { return c[i] < c[j] }
func (c completions) Swap(i, j int)      { c[i], c[j] = c[j], c[i] }
func (c *completions) Push(x any)        { *c = append(*c, x.(time.Duration)) }
func (c *completions) Pop() any {
	old := *c
	x := old[len(old)-1]
	*c = old[:len(old)-1]
	return x
}
