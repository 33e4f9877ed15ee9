package native

import (
	"runtime"
	"sync/atomic"
	"time"

	"github.com/drivebench/drivebench/metrics"
)

// recorder collects the completions of one goroutine: a psync slot, or an
// io_uring job with all its slots. It keeps two interval buffers; the
// run's epoch says which one is current. The owner records into the
// current buffer without locks; the collector, once an interval, moves
// the epoch on, waits for any record still under way in the old buffer to
// finish, and takes the old buffer's contents.
//
// A recorder holds two histograms for each direction the workload issues,
// about 15 KB each: 30 KB for a read-only or write-only workload, 60 KB
// for a mix. Nothing grows with the run's length.
type recorder struct {
	bufs [2][2]*dirInterval
	_    [32]byte
	// state is epoch<<1 while idle and epoch<<1|1 while recording into
	// the epoch's buffer. The padding keeps it on a cache line of its
	// own.
	state atomic.Uint64
	_     [56]byte
}

// dirInterval is what one direction completed in one interval: the
// latencies, and under a rate limit the service times too (service is nil
// without one, when they are the latencies).
type dirInterval struct {
	hist    metrics.Histogram
	service *metrics.Histogram
	bytes   uint64
}

// newRecorder allocates buffers for the directions the layout issues,
// with service-time histograms when the run is paced.
func newRecorder(l layout, paced bool) *recorder {
	rec := &recorder{}
	for i := range rec.bufs {
		for o, issued := range []bool{opRead: l.reads(), opWrite: l.writes()} {
			if !issued {
				continue
			}
			rec.bufs[i][o] = new(dirInterval)
			if paced {
				rec.bufs[i][o].service = new(metrics.Histogram)
			}
		}
	}
	return rec
}

// record adds one completed I/O of n bytes that took lat ns from when it
// was due, and service ns from its submission.
func (rec *recorder) record(epoch *atomic.Uint64, o op, lat, service int64, n int) {
	e := rec.enter(epoch)
	d := rec.bufs[e&1][o]
	d.hist.Record(uint64(max(lat, 0)))
	if d.service != nil {
		d.service.Record(uint64(max(service, 0)))
	}
	d.bytes += uint64(n)
	rec.state.Store(e << 1)
}

// enter announces a record into the current epoch's buffer and returns
// the epoch. Checking the epoch again after the announcement closes the
// race with a collector that moves it on in between: either the collector
// sees the announcement and waits, or this sees the new epoch and
// retries.
func (rec *recorder) enter(epoch *atomic.Uint64) uint64 {
	for {
		e := epoch.Load()
		rec.state.Store(e<<1 | 1)
		if epoch.Load() == e {
			return e
		}
	}
}

// collector turns the recorders' interval buffers into the time series
// and the run's totals. Only the supervisor goroutine uses it.
type collector struct {
	epoch     atomic.Uint64
	recorders []*recorder
	// interval is the closed interval being summarised, prev the one
	// before it (kept to fold the run's drain into) and total everything
	// since the measured phase began.
	interval, prev, total [2]dirInterval
	// service and serviceTotal are the service times of a paced run, of
	// the interval being closed and of the measured phase.
	service, serviceTotal [2]metrics.Histogram
	combined              metrics.Histogram
	written               uint64
	series                []metrics.Sample
}

// seriesPercentiles are the percentiles each sample carries.
var seriesPercentiles = []float64{50, 99, 99.99}

// rotate closes the current interval: it moves the epoch on, waits for
// records under way in the closed buffers and moves their contents into
// c.interval.
func (c *collector) rotate() {
	closed := c.epoch.Add(1) - 1
	for _, rec := range c.recorders {
		for rec.state.Load() == closed<<1|1 {
			runtime.Gosched()
		}
		for o, d := range rec.bufs[closed&1] {
			if d != nil && d.hist.Count() > 0 {
				c.interval[o].hist.Merge(&d.hist)
				c.interval[o].bytes += d.bytes
				d.hist.Reset()
				d.bytes = 0
			}
			if d != nil && d.service != nil && d.service.Count() > 0 {
				c.service[o].Merge(d.service)
				d.service.Reset()
			}
		}
	}
}

// discard drops everything recorded so far: the ramp.
func (c *collector) discard() {
	c.rotate()
	c.interval = [2]dirInterval{}
	c.service = [2]metrics.Histogram{}
}

// sample closes the interval ending t seconds into the measured phase, dt
// seconds long, adds it to the totals and the series, and returns its
// sample.
func (c *collector) sample(t, dt float64) metrics.Sample {
	c.close()
	s := c.describe(t, dt)
	c.series = append(c.series, s)
	c.prev, c.interval = c.interval, [2]dirInterval{}
	return s
}

// extend closes the interval ending t seconds into the measured phase
// into the series' last interval, which then ends at t, and returns that
// interval's sample. The last interval of a run is its drain, a few
// milliseconds (metrics.FoldStub); folded here, its percentiles are read
// from the two intervals' merged histograms.
func (c *collector) extend(t float64) metrics.Sample {
	c.close()
	for o := range c.interval {
		c.interval[o].hist.Merge(&c.prev[o].hist)
		c.interval[o].bytes += c.prev[o].bytes
	}
	n := len(c.series)
	start := 0.0
	if n > 1 {
		start = c.series[n-2].T
	}
	s := c.describe(t, t-start)
	c.series[n-1] = s
	c.prev, c.interval = c.interval, [2]dirInterval{}
	return s
}

// close moves what the recorders hold into c.interval and adds it to the
// totals.
func (c *collector) close() {
	c.rotate()
	c.written += c.interval[opWrite].bytes
	for o := range c.interval {
		c.total[o].hist.Merge(&c.interval[o].hist)
		c.total[o].bytes += c.interval[o].bytes
		c.serviceTotal[o].Merge(&c.service[o])
		c.service[o].Reset()
	}
}

// describe is the sample of c.interval, ending t seconds into the
// measured phase and dt seconds long.
func (c *collector) describe(t, dt float64) metrics.Sample {
	rd, wr := &c.interval[opRead], &c.interval[opWrite]
	s := metrics.Sample{T: t, BytesWritten: c.written}
	if dt > 0 {
		s.ReadIOPS = float64(rd.hist.Count()) / dt
		s.WriteIOPS = float64(wr.hist.Count()) / dt
		s.BW = float64(rd.bytes+wr.bytes) / dt
	}
	c.combined.Reset()
	c.combined.Merge(&rd.hist)
	c.combined.Merge(&wr.hist)
	if c.combined.Count() > 0 {
		s.MeanLatNs = c.combined.Mean()
		p := c.combined.Percentiles(seriesPercentiles)
		s.P50Ns, s.P99Ns, s.P9999Ns = p[0], p[1], p[2]
	}
	return s
}

// summary digests what direction o completed in the measured phase, with
// its service times when the run was paced; nil when it completed
// nothing.
func (c *collector) summary(o op, runtime time.Duration) *metrics.DirStats {
	hist := c.total[o].hist
	d := metrics.Summarize(&hist, c.total[o].bytes, runtime)
	if s := &c.serviceTotal[o]; d != nil && s.Count() > 0 {
		sum := s.Summary(metrics.DefaultPercentiles)
		d.Service = &sum
	}
	return d
}
