package engine

import (
	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// A hostWatcher watches the host or the drive over a step's I/O, whatever
// its engine, and over an exec step's command: it starts before the
// driver runs and, once the driver has
// returned, adds what it saw to the step's record (warnings, log lines,
// typed summaries). A new watcher is its own file plus one entry in
// hostWatchers.
type hostWatcher interface {
	// start begins watching the step; it returns nil when there is
	// nothing to watch (an O_DIRECT step has no page cache to watch).
	start(s *watchedStep) watching
}

// watching is one watcher's watch of one step.
type watching interface {
	// finish ends the watch and adds what it saw to s.rec; s.res is the
	// driver's result (nil when it returned none).
	finish(s *watchedStep)
}

// hostWatchers watch every I/O step. They start in this order and finish
// in the reverse one, each watch nested inside those started before it:
// the host's load is measured closest around the driver, and hands the
// stall probe's wake-ups on to the held watch, which finishes after it.
var hostWatchers = []hostWatcher{thermalWatcher{}, pageCacheWatcher{}, heldWatcher{}, hostLoadWatcher{}}

// watchedStep is what the watchers of one step share.
type watchedStep struct {
	node   *plan.Node
	target driver.Target
	// w is the workload the driver runs (nil for an exec step's
	// command), res its result once it has.
	w   *workload.Workload
	res *metrics.Result
	rec *results.Record
	// wakes are the stall probe's wake-ups, which the host load watch
	// leaves for the held watch.
	wakes []wake
	// failure, set by a watch, fails a step that ran: its figures do not
	// describe the drive.
	failure string
}

// startWatches starts every watcher on s and returns the function that
// finishes them, given the driver's result.
func startWatches(s *watchedStep) func(res *metrics.Result) {
	var watches []watching
	for _, w := range hostWatchers {
		if on := w.start(s); on != nil {
			watches = append(watches, on)
		}
	}
	return func(res *metrics.Result) {
		s.res = res
		for i := len(watches) - 1; i >= 0; i-- {
			watches[i].finish(s)
		}
	}
}
