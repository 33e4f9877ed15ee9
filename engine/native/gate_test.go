package native

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
)

// TestRanksStartTogether holds the jobs of a checkpoint-like write (a
// file per job, created as it is opened) back before the start gate,
// job k for k x 150 ms, as a loaded machine may start the goroutines of
// a run's ranks late: no job issues its first operation before the last
// has reached the gate, the measured phase (each job's seconds) begins
// only then, and the jobs' recorded starts lie within the 450 ms that
// held the last one back (without the gate, job 0 would have begun
// 450 ms before job 3 arrived).
func TestRanksStartTogether(t *testing.T) {
	const jobs, holdBack = 4, 150 * time.Millisecond
	w := fileSetWorkload("write", jobs, jobs, 64<<10)
	w.CreateOnOpen, w.FsyncOnClose = true, true
	r, err := prepare(driver.Target{Path: t.TempDir()}, w, unixSyscalls{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var last time.Time
	r.arriving = func(j *job) {
		time.Sleep(time.Duration(j.index) * holdBack)
		mu.Lock()
		if now := time.Now(); now.After(last) {
			last = now
		}
		mu.Unlock()
	}
	res, err := r.supervise(context.Background(), w, nil, time.Second)
	if cerr := r.close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	if res.Start.Before(last) {
		t.Errorf("the measured phase began %v before the last job reached the gate", last.Sub(res.Start))
	}
	stats := r.files.stats(res.Start)
	lo, hi := stats.Jobs[0].StartS, stats.Jobs[0].StartS
	for i, jf := range r.files.jobs {
		if begin := time.Unix(0, jf.begin.Load()); jf.begin.Load() == 0 || begin.Before(last) {
			t.Errorf("job %d began at %v, %v before the last job reached the gate", i, begin, last.Sub(begin))
		}
		span := stats.Jobs[i]
		if span.Bytes != 64<<10 || span.Seconds < span.StartS {
			t.Errorf("job %d: %+v", i, span)
		}
		lo, hi = min(lo, span.StartS), max(hi, span.StartS)
	}
	if spread := time.Duration((hi - lo) * 1e9); spread >= (jobs-1)*holdBack {
		t.Errorf("the jobs' starts spread over %v, as if nothing held them at the gate", spread)
	}
}

// TestGateOpensThroughStopTheWorld: jobs waiting at the gate while the
// world is stopped again and again (another run changing GOMAXPROCS, a
// collection) let the gate open: a run whose jobs spun on a raw futex
// wait hung here, its opener unscheduled behind a stop-the-world that
// waited for the spinning jobs.
func TestGateOpensThroughStopTheWorld(t *testing.T) {
	const jobs = 8
	for range 20 {
		g := newGate(jobs)
		done := make(chan struct{}, jobs)
		for range jobs {
			go func() {
				g.wait()
				done <- struct{}{}
			}()
		}
		stop := make(chan struct{})
		stopped := make(chan struct{})
		go func() {
			defer close(stopped)
			for {
				select {
				case <-stop:
					return
				default:
					runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
				}
			}
		}()
		g.release(func() {})
		for range jobs {
			<-done
		}
		close(stop)
		<-stopped
	}
}
