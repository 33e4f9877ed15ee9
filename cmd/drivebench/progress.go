package main

import (
	"os"
	"time"

	"github.com/drivebench/drivebench/cmd/drivebench/internal/termview"
	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/plan"
	"golang.org/x/term"
)

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// terminalSize asks the terminal on f its width and height
// (TIOCGWINSZ), 0 when f is none.
func terminalSize(f *os.File) func() (width, height int) {
	return func() (int, int) {
		w, h, err := term.GetSize(int(f.Fd()))
		if err != nil {
			return 0, 0
		}
		return w, h
	}
}

// heartbeatEvery is how often a running step prints a line when the
// output is not a terminal, so a long step is not hours of silence in a
// CI log.
const heartbeatEvery = 10 * time.Second

// liveEvery is how often the terminal view is redrawn between events, so
// its clocks and bars move.
const liveEvery = 250 * time.Millisecond

// progress shows a run through its terminal view (termview), moved on
// with the clock by a ticker.
type progress struct {
	view    *termview.View
	stop    chan struct{}
	stopped chan struct{}
}

// newProgress starts showing a run, bandwidths in units ("MB/s" or
// "MiB/s", as the plan's reports); every is the heartbeat interval
// without a terminal.
func newProgress(io stdio, g *plan.Graph, units string, every time.Duration) *progress {
	opt := termview.Options{Graph: g, Live: termview.LiveAllowed(io.tty, io.getenv), Color: termview.ColorAllowed(io.tty, io.getenv),
		Size: io.size, Units: units, Heartbeat: every}
	p := &progress{view: termview.New(io.out, opt), stop: make(chan struct{}), stopped: make(chan struct{})}
	tick := liveEvery
	if !opt.Live {
		tick = min(max(every/10, 10*time.Millisecond), time.Second)
	}
	go p.run(tick)
	return p
}

func (p *progress) run(every time.Duration) {
	defer close(p.stopped)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.view.Tick()
		}
	}
}

func (p *progress) observe(e engine.Event) { p.view.Observe(e) }

// finish ends the view and, when the run has records, writes the
// closing table of every step's headline.
func (p *progress) finish(o *engine.Outcome) {
	close(p.stop)
	<-p.stopped
	p.view.Finish()
	if o != nil {
		p.view.Table(o.Records)
	}
}
