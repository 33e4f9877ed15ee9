package native

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
)

// TestRotationLosesNoRecord records from several goroutines while the
// collector closes intervals as fast as it can: every record must land in
// exactly one interval.
func TestRotationLosesNoRecord(t *testing.T) {
	const (
		writers = 4
		each    = 100000
	)
	l := layout{readPct: 50}
	var c collector
	for range writers {
		c.recorders = append(c.recorders, newRecorder(l, false))
	}
	var wg sync.WaitGroup
	for i, rec := range c.recorders {
		wg.Go(func() {
			for k := range each {
				rec.record(&c.epoch, op((i+k)%2), int64(k%5000), int64(k%5000), 512)
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	var samples uint64
	for tick := 1; ; tick++ {
		select {
		case <-done:
			s := c.sample(float64(tick), 1)
			samples += uint64(s.ReadIOPS + s.WriteIOPS)
			if got := c.total[opRead].hist.Count() + c.total[opWrite].hist.Count(); got != writers*each || samples != writers*each {
				t.Errorf("totals hold %d records and the samples %d, want %d", got, samples, writers*each)
			}
			if got := c.total[opWrite].bytes + c.total[opRead].bytes; got != writers*each*512 {
				t.Errorf("totals hold %d bytes, want %d", got, writers*each*512)
			}
			return
		default:
			s := c.sample(float64(tick), 1)
			samples += uint64(s.ReadIOPS + s.WriteIOPS)
		}
	}
}

func TestEachIntervalHasItsOwnPercentiles(t *testing.T) {
	var c collector
	rec := newRecorder(layout{readPct: 50}, false)
	c.recorders = []*recorder{rec}
	for range 990 {
		rec.record(&c.epoch, opRead, 1000, 1000, 4096)
	}
	for range 10 {
		rec.record(&c.epoch, opWrite, 1_000_000, 1_000_000, 8192)
	}
	first := c.sample(1, 1)
	for range 100 {
		rec.record(&c.epoch, opWrite, 5000, 5000, 8192)
	}
	second := c.sample(2.5, 1.5)
	bucket := func(ns uint64) uint64 { return metrics.BucketValue(metrics.BucketIndex(ns)) }
	// a percentile is its bucket's value within the interval's own
	// smallest and largest latency
	want := []metrics.Sample{
		{T: 1, ReadIOPS: 990, WriteIOPS: 10, BW: 990*4096 + 10*8192, MeanLatNs: (990*1000 + 10*1e6) / 1000.0,
			P50Ns: bucket(1000), P99Ns: bucket(1000), P9999Ns: 1_000_000, BytesWritten: 10 * 8192},
		{T: 2.5, WriteIOPS: 100 / 1.5, BW: 100 * 8192 / 1.5, MeanLatNs: 5000,
			P50Ns: 5000, P99Ns: 5000, P9999Ns: 5000, BytesWritten: 110 * 8192},
	}
	for i, got := range []metrics.Sample{first, second} {
		if got != want[i] {
			t.Errorf("sample %d:\n got %+v\nwant %+v", i+1, got, want[i])
		}
	}
}

// TestDrainFoldsIntoTheLastInterval: the few milliseconds of a run's end
// join the interval before them, read from the merged histograms, so the
// series does not end with a stub at a fraction of the rate.
func TestDrainFoldsIntoTheLastInterval(t *testing.T) {
	var c collector
	rec := newRecorder(layout{readPct: 100}, false)
	c.recorders = []*recorder{rec}
	for range 1000 {
		rec.record(&c.epoch, opRead, 1000, 1000, 4096)
	}
	c.sample(1, 1)
	for range 990 {
		rec.record(&c.epoch, opRead, 1000, 1000, 4096)
	}
	c.sample(2, 1)
	for range 10 {
		rec.record(&c.epoch, opRead, 3_000_000, 3_000_000, 4096)
	}
	got := c.extend(2.004)
	bucket := func(ns uint64) uint64 { return metrics.BucketValue(metrics.BucketIndex(ns)) }
	want := metrics.Sample{T: 2.004, ReadIOPS: 1000 / 1.004, BW: 1000 * 4096 / 1.004, MeanLatNs: (990*1000 + 10*3e6) / 1000.0,
		P50Ns: bucket(1000), P99Ns: bucket(1000), P9999Ns: bucket(3_000_000)}
	if len(c.series) != 2 || c.series[1] != got || got != want {
		t.Errorf("series %+v, extended to\n got %+v\nwant %+v", c.series, got, want)
	}
	if n := c.total[opRead].hist.Count(); n != 2000 {
		t.Errorf("totals hold %d I/Os, want 2000", n)
	}
}

func TestLiveSeriesOfAWriteRun(t *testing.T) {
	path, _ := patternFile(t, t.TempDir(), 1<<20)
	w := workload.Workload{RW: "randwrite", BS: 4096, IODepth: 2, NumJobs: 2, Runtime: 500 * time.Millisecond, IOEngine: "psync"}
	var live []metrics.Sample
	res, err := Engine{Interval: 100 * time.Millisecond}.Run(context.Background(), driver.Target{Path: path, Capacity: 1 << 20}, w,
		func(s metrics.Sample) { live = append(live, s) })
	if err != nil {
		t.Fatal(err)
	}
	// the run's drain, folded into the last interval, shows that interval
	// again, ending later
	n := len(res.Series)
	if n < 3 || len(live) != n && len(live) != n+1 || live[len(live)-1] != res.Series[n-1] {
		t.Fatalf("%d samples live, %d in the series; want at least 3, as many or one more, the same last", len(live), n)
	}
	if last := metrics.Span(res.Series, n-1); metrics.Short(last, res.Series) {
		t.Errorf("the series ends with a stub of %.4f s: %+v", last, res.Series)
	}
	var prev uint64
	for i, s := range res.Series {
		if s.WriteIOPS == 0 {
			// on a loaded machine every slot's write can wait in the
			// kernel longer than an interval; such an interval is
			// empty, and so is the final partial one
			if s.BytesWritten != prev || s.P50Ns != 0 {
				t.Errorf("empty sample %d: p50 %d, written %d after %d; want no percentiles and the same bytes", i, s.P50Ns, s.BytesWritten, prev)
			}
			continue
		}
		if s.P50Ns == 0 || s.P50Ns > s.P99Ns || s.P99Ns > s.P9999Ns || s.BytesWritten <= prev {
			t.Errorf("sample %d: p50 %d, p99 %d, p99.99 %d, written %d after %d: want ordered percentiles and growing bytes",
				i, s.P50Ns, s.P99Ns, s.P9999Ns, s.BytesWritten, prev)
		}
		prev = s.BytesWritten
	}
	if prev = res.Series[len(res.Series)-1].BytesWritten; prev != res.Write.Bytes {
		t.Errorf("the series ends at %d bytes written, the result has %d", prev, res.Write.Bytes)
	}
}

// TestMemoryPerSlotAndPerInterval states the memory a run keeps: a
// recorder per psync slot (per io_uring job) of two histograms per
// direction, four under a rate limit (service times too), and one
// sample per interval; nothing else grows.
func TestMemoryPerSlotAndPerInterval(t *testing.T) {
	histogram := unsafe.Sizeof(metrics.Histogram{})
	for _, tt := range []struct {
		readPct int
		paced   bool
		hists   uintptr
	}{{readPct: 100, hists: 2}, {readPct: 50, hists: 4}, {readPct: 100, paced: true, hists: 4}} {
		got := heapGrowth(func() any {
			recs := make([]*recorder, 100)
			for i := range recs {
				recs[i] = newRecorder(layout{readPct: tt.readPct}, tt.paced)
			}
			return recs
		}) / 100
		// Each histogram is allocated in the 16 KiB size class.
		if low, high := tt.hists*histogram, tt.hists*16384+512; got < int64(low) || got > int64(high) {
			t.Errorf("read_pct %d, paced %v: a recorder takes %d bytes, want %d to %d (%d %d-byte histograms, rounded up)",
				tt.readPct, tt.paced, got, low, high, tt.hists, histogram)
		}
	}
	if size := unsafe.Sizeof(metrics.Sample{}); size != 72 {
		t.Errorf("a sample takes %d bytes; the documented figure is 72 (259 KB per hour of 1 s intervals)", size)
	}
}

// TestLongRunKeepsMemoryBounded runs a second of 1 ms intervals: the heap
// may grow by the samples and a fixed amount, not with the I/Os done.
func TestLongRunKeepsMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for a second")
	}
	path, _ := patternFile(t, t.TempDir(), 1<<20)
	w := workload.Workload{RW: "randrw", ReadPct: 50, BS: 4096, IODepth: 4, NumJobs: 2, Runtime: time.Second, IOEngine: "psync"}
	var res *metrics.Result
	grown := heapGrowth(func() any {
		var err error
		res, err = Engine{Interval: time.Millisecond}.Run(context.Background(), driver.Target{Path: path, Capacity: 1 << 20}, w, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	})
	samples := int64(len(res.Series))
	if samples < 10 {
		t.Fatalf("%d samples in a second of 1 ms intervals", samples)
	}
	if limit := 2*72*samples + 64<<10; grown > limit {
		t.Errorf("after %d intervals and %d I/Os the heap kept %d bytes, want at most %d", samples, res.Read.IOs+res.Write.IOs, grown, limit)
	}
}

// heapGrowth is how much more heap is live after make ran, with what it
// returned kept alive.
func heapGrowth(make func() any) int64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := make()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc)
}
