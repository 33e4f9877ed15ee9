package engine

import (
	"sync"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/nvme"
)

// thermalInterval is how often a step on an NVMe drive reads the drive's
// SMART / health log: often enough to see a drive heat up and throttle
// during a long write, rarely enough (one small admin command) not to
// disturb the I/O.
const thermalInterval = 5 * time.Second

// thermalReading is one SMART read and when it was taken.
type thermalReading struct {
	at  time.Time
	log *nvme.SmartLog
}

// thermalSampler reads a drive's SMART log at the start of a step, every
// interval while it runs and at its end.
type thermalSampler struct {
	mu       sync.Mutex
	readings []thermalReading
	err      error
	stop     chan struct{}
	done     chan struct{}
}

// startThermal starts sampling a drive: read is its SMART read, every
// the interval.
func startThermal(every time.Duration, read func() (*nvme.SmartLog, error)) *thermalSampler {
	s := &thermalSampler{stop: make(chan struct{}), done: make(chan struct{})}
	s.take(read)
	go func() {
		defer close(s.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				s.take(read)
			case <-s.stop:
				s.take(read)
				return
			}
		}
	}()
	return s
}

// take reads the log once; the first failure is kept and ends sampling.
func (s *thermalSampler) take(read func() (*nvme.SmartLog, error)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return
	}
	log, err := read()
	if err != nil {
		s.err = err
		return
	}
	s.readings = append(s.readings, thermalReading{at: time.Now(), log: log})
}

// finish stops sampling and returns the readings as samples timed from
// the measured phase's start.
func (s *thermalSampler) finish(start time.Time) ([]metrics.ThermalSample, error) {
	close(s.stop)
	<-s.done
	out := make([]metrics.ThermalSample, len(s.readings))
	for i, r := range s.readings {
		l := r.log
		out[i] = metrics.ThermalSample{
			T: r.at.Sub(start).Seconds(), TempC: l.Temperature.Celsius(),
			Throttle1: l.ThermalMgmtTemp1TransCount, Throttle2: l.ThermalMgmtTemp2TransCount,
			Throttle1Sec: l.ThermalMgmtTemp1TotalTime, Throttle2Sec: l.ThermalMgmtTemp2TotalTime,
			WarningMin: l.WarningTempTime, CriticalMin: l.CriticalCompTime,
		}
	}
	return out, s.err
}

// thermalWatcher samples an NVMe drive's temperature and throttling over
// a step; other drives it leaves alone.
type thermalWatcher struct{}

func (thermalWatcher) start(s *watchedStep) watching {
	path := s.target.Path
	if !nvme.IsNVMe(path) {
		return nil
	}
	d, err := nvme.Open(path)
	if err != nil {
		return thermalUnread{err}
	}
	return &thermalWatch{drive: d, sampler: startThermal(thermalInterval, d.SmartLog)}
}

// thermalUnread says in the step's log why its drive's temperature was not
// read.
type thermalUnread struct{ err error }

func (u thermalUnread) finish(s *watchedStep) {
	s.rec.Log = append(s.rec.Log, "no drive temperature readings: "+u.err.Error())
}

// thermalWatch is a drive's temperature sampled over a step.
type thermalWatch struct {
	drive   *nvme.Device
	sampler *thermalSampler
}

// finish adds the samples to the result and their summary to the record,
// and says in its log why readings failed.
func (t *thermalWatch) finish(s *watchedStep) {
	defer t.drive.Close()
	start := time.Now()
	if s.res != nil {
		start = s.res.Start
	}
	samples, err := t.sampler.finish(start)
	if err != nil {
		s.rec.Log = append(s.rec.Log, "drive temperature readings stopped: "+err.Error())
	}
	if s.res == nil {
		return
	}
	s.res.Thermal = samples
	s.rec.Thermal = metrics.SummarizeThermal(samples)
}
