package native

import (
	"sync"
	"time"

	"github.com/drivebench/drivebench/metrics"
)

// A replay's interval series is over the run's clock: at speed 2, at
// speed 0 or after a skip its axis is not the trace's, and a burst in the
// trace cannot be found in it. So a replay also bins its reads and writes
// by their time in the trace (traceBins), whatever the speed and however
// late they ran: the dispatcher counts each as due in its bin and adds
// its lag there, the slot that completes it adds its latency and bytes.
//
// A bin's percentiles need its histograms until its last I/O completes,
// but the dispatcher goes through the trace in time order, so a bin
// behind the dispatcher's gets no I/O more: it is reduced to a
// metrics.TraceBin as soon as it has nothing in flight, and its
// histograms (about 30 KB a bin) are reused. Each I/O in flight holds at
// most one bin open, so a replay keeps at most iodepth + 1 bins open, an
// I/O that stalls for a minute only its own.
//
// The series holds as many bins as the run-time series holds intervals
// at speed 1: the same rule (replaySamples over the trace time, at least
// minReplayInterval, at most the engine's interval) sizes them, so at
// speed 1 the two series have the same intervals; but never more than
// maxTraceBins.

// traceBins bins a replay's reads and writes by trace time. Bin i covers
// the trace time [origin + i*width, origin + (i+1)*width), trace time
// running on across loops (loop k's I/O at its time plus k windows).
type traceBins struct {
	mu            sync.Mutex
	origin, width int64
	window        int64
	// front is the bin of the dispatcher's latest I/O: the bins before it
	// get no I/O more. out holds a sample for each bin up to front, those
	// still open zero until they are reduced.
	front int64
	open  map[int64]*openBin
	free  []*openBin
	out   []metrics.TraceBin
}

// openBin is a bin that may still get I/Os or completions.
type openBin struct {
	due, reads, writes, bytes int64
	inflight                  int64
	lat, lag                  metrics.Histogram
}

// maxTraceBins caps a replay's bins, so that a long trace replayed fast
// (a day of trace time in minutes at speed 0, or a short one looped a
// million times) does not keep more bins than a day's run-time series
// holds intervals: past a day of trace time a bin is longer than the
// engine's interval.
const maxTraceBins = 86400

// newTraceBins bins the trace time of a replay whose window starts at
// skip and lasts window, replayed loops times, sampled as the engine
// samples at interval.
func newTraceBins(skip, window time.Duration, loops int, interval time.Duration) *traceBins {
	span := window * time.Duration(loops)
	width := max(min(interval, max(minReplayInterval, span/replaySamples)), span/maxTraceBins+1)
	return &traceBins{origin: int64(skip), width: int64(max(width, 1)), window: int64(max(window, 1)), open: map[int64]*openBin{}}
}

// bin is the bin of the I/O at trace time at of the pass that starts
// passStart into the replay.
func (b *traceBins) bin(at, passStart time.Duration) int64 {
	return max(int64(at+passStart)-b.origin, 0) / b.width
}

// dispatched counts an I/O of bin i as due and in flight, before the
// dispatcher hands it to a slot. The dispatcher goes through the trace
// in time order, so bins before i are then complete but for what is in
// flight.
func (b *traceBins) dispatched(i int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	o := b.get(i)
	o.due++
	o.inflight++
	if i > b.front {
		b.front = i
		for j, behind := range b.open {
			b.done(j, behind)
		}
	}
}

// lagged adds the issue lag of an I/O of bin i.
func (b *traceBins) lagged(i, lag int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.get(i).lag.Record(uint64(max(lag, 0)))
}

// completed adds an I/O of bin i that moved n bytes in direction o and
// took lat ns from its scheduled time.
func (b *traceBins) completed(i int64, o op, lat int64, n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ob := b.get(i)
	ob.inflight--
	if o == opWrite {
		ob.writes++
	} else {
		ob.reads++
	}
	ob.bytes += int64(n)
	ob.lat.Record(uint64(max(lat, 0)))
	b.done(i, ob)
}

// abandoned takes an I/O of bin i out of flight that never completed: a
// slot dropped it after the run failed, or its transfer failed.
func (b *traceBins) abandoned(i int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	o := b.get(i)
	o.inflight--
	b.done(i, o)
}

// series reduces every bin still open, once the replay is over, and
// returns the series: a bin for each width of trace time from the
// window's start to the last I/O the replay came to, empty ones too.
func (b *traceBins) series() []metrics.TraceBin {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, o := range b.open {
		b.reduce(i, o)
	}
	return b.out
}

// done reduces bin i once it is behind the dispatcher with nothing in
// flight.
func (b *traceBins) done(i int64, o *openBin) {
	if i < b.front && o.inflight <= 0 {
		b.reduce(i, o)
	}
}

// get is bin i, opened when it is not.
func (b *traceBins) get(i int64) *openBin {
	if o := b.open[i]; o != nil {
		return o
	}
	var o *openBin
	if n := len(b.free); n > 0 {
		o, b.free = b.free[n-1], b.free[:n-1]
	} else {
		o = new(openBin)
	}
	b.open[i] = o
	return o
}

// reduce turns open bin i into its sample and frees it.
func (b *traceBins) reduce(i int64, o *openBin) {
	b.extend(i)
	b.out[i] = b.sample(i, o)
	delete(b.open, i)
	*o = openBin{}
	b.free = append(b.free, o)
}

// extend makes out reach bin i, each new bin an empty sample at its time.
func (b *traceBins) extend(i int64) {
	for n := int64(len(b.out)); n <= i; n++ {
		b.out = append(b.out, b.sample(n, nil))
	}
}

// sample is bin i's sample; o is nil for a bin without I/Os.
func (b *traceBins) sample(i int64, o *openBin) metrics.TraceBin {
	start := i * b.width
	s := metrics.TraceBin{T: float64(b.origin+start) / 1e9, Loop: int(start/b.window) + 1}
	if o == nil {
		return s
	}
	s.Due, s.Reads, s.Writes, s.Bytes = o.due, o.reads, o.writes, o.bytes
	if o.lat.Count() > 0 {
		s.MeanLatNs, s.P99Ns = o.lat.Mean(), o.lat.Percentile(99)
	}
	if o.lag.Count() > 0 {
		s.LagP99Ns = o.lag.Percentile(99)
	}
	return s
}
