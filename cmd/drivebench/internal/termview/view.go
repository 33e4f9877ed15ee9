package termview

import (
	"io"
	"slices"
	"sync"
	"time"

	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
)

// Options say how a run is shown.
type Options struct {
	// Graph is the plan's steps: their estimates give the plan's progress
	// and ETA.
	Graph *plan.Graph
	// Live redraws a block in place with ANSI cursor movement (a
	// terminal that takes it); otherwise the view writes log lines.
	Live bool
	// Color marks pass, fail and warnings with ANSI colours.
	Color bool
	// Size is the terminal's width in columns and height in lines, asked
	// at every redraw (a resized window); nil, or a width under minWidth,
	// means 80 columns; a height of 0, lines without end.
	Size func() (width, height int)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Units is the bandwidth unit: "MiB/s", or MB/s for anything else, as
	// the plan's reports.
	Units string
	// Heartbeat is how often a running step prints a line without Live,
	// timed from the step's start and then from its last line; 0: never.
	Heartbeat time.Duration
}

// minWidth is the narrowest terminal the view lays out for.
const minWidth = 40

// View shows one run. Its methods may be called from several goroutines.
type View struct {
	w   io.Writer
	opt Options
	// bandwidth writes a bandwidth with its unit.
	bandwidth func(bytesPerSec float64) string

	mu sync.Mutex
	// running are the steps under way, in the order they started: one
	// per lane.
	running []*lane
	// done marks the steps finished or reused, by graph index.
	done map[int]bool
	// warnings are folded per kind, in the order the kinds came.
	warnings []*fold
	// drawn is the number of lines of the live block on screen.
	drawn int
	// lanes ranks the drives by their first step, so each keeps its
	// place in the block while its steps come and go.
	lanes map[string]int
}

// lane is a running step.
type lane struct {
	start engine.Event
	from  time.Time
	// beat is when the step's last log line was written (log form).
	beat time.Time
	last *metrics.Sample
	// fraction is the step's own progress (a purge), 0 when it has none.
	fraction float64
}

// New starts showing a run on w.
func New(w io.Writer, opt Options) *View {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Graph == nil {
		opt.Graph = &plan.Graph{}
	}
	v := &View{w: w, opt: opt, bandwidth: format.Bandwidth, done: map[int]bool{}, lanes: map[string]int{}}
	for i, n := range opt.Graph.Nodes {
		if _, ok := v.lanes[n.Drive]; !ok {
			v.lanes[n.Drive] = i
		}
	}
	if opt.Units == "MiB/s" {
		v.bandwidth = format.BandwidthMiB
	}
	return v
}

// Observe takes an event of the run.
func (v *View) Observe(e engine.Event) {
	v.mu.Lock()
	defer v.mu.Unlock()
	var lines []string
	switch e.Kind {
	case engine.StepStarted:
		now := v.opt.Now()
		v.running = append(v.running, &lane{start: e, from: now, beat: now})
		slices.SortStableFunc(v.running, func(a, b *lane) int { return v.lanes[a.start.Node.Drive] - v.lanes[b.start.Node.Drive] })
		if !v.opt.Live {
			lines = append(lines, stepTag(e)+": started")
		}
	case engine.StepLive:
		if l := v.lane(e.Index); l != nil {
			s := e.Sample
			l.last = &s
		}
	case engine.StepProgress:
		if l := v.lane(e.Index); l != nil {
			l.fraction = e.Progress
		}
	case engine.StepWarning:
		if first := v.warn(e); first && !v.opt.Live {
			lines = append(lines, stepTag(e)+": "+v.paint(yellow, "warning")+": "+e.Message+" (Further warnings of this kind are counted at the end.)")
		}
	case engine.StepReused:
		v.end(e.Index)
		lines = append(lines, stepTag(e)+": already done in this folder, kept")
	case engine.StepFinished:
		v.end(e.Index)
		lines = append(lines, stepTag(e)+": "+v.outcome(e))
	default:
		return
	}
	v.show(lines)
}

// Tick moves the view on with the clock: on a terminal it redraws the
// block; otherwise each running step due a heartbeat prints it.
func (v *View) Tick() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.opt.Live {
		v.redraw(nil)
		return
	}
	if v.opt.Heartbeat <= 0 {
		return
	}
	now := v.opt.Now()
	var lines []string
	for _, l := range v.running {
		if now.Sub(l.beat) >= v.opt.Heartbeat {
			l.beat = now
			lines = append(lines, v.heartbeat(l))
		}
	}
	v.show(lines)
}

// Finish ends the view: the live block is cleared and each kind of
// warning is counted, once.
func (v *View) Finish() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.running = nil
	v.show(v.foldSummary())
}

func (v *View) lane(index int) *lane {
	for _, l := range v.running {
		if l.start.Index == index {
			return l
		}
	}
	return nil
}

// end marks a step done and takes it off the running lanes.
func (v *View) end(index int) {
	v.done[index] = true
	v.running = slices.DeleteFunc(v.running, func(l *lane) bool { return l.start.Index == index })
}

// show writes permanent lines: above the live block, redrawn under
// them, on a terminal; as they are otherwise.
func (v *View) show(lines []string) {
	if v.opt.Live {
		v.redraw(lines)
		return
	}
	for _, s := range lines {
		io.WriteString(v.w, s+"\n")
	}
}

func (v *View) width() int {
	w, _ := v.size()
	return w
}

// size is the terminal's width and height (0: unknown).
func (v *View) size() (width, height int) {
	if v.opt.Size == nil {
		return 80, 0
	}
	w, h := v.opt.Size()
	if w < minWidth {
		w = 80
	}
	return w, max(h, 0)
}
