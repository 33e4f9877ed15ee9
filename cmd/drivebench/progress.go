package main

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"golang.org/x/term"
)

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// heartbeatEvery is how often a running step prints a line when the
// output is not a terminal, so a long step is not hours of silence in a
// CI log.
const heartbeatEvery = 10 * time.Second

// progress shows a run: one rewritten status line on a terminal, plain
// log lines otherwise (CI logs, pipes), with a heartbeat line per step
// every heartbeatEvery.
type progress struct {
	io    stdio
	graph *plan.Graph
	now   func() time.Time
	// bandwidth writes a bandwidth with its unit, the plan's report units.
	bandwidth func(bytesPerSec float64) string

	mu       sync.Mutex
	current  *engine.Event // the running step's start, nil between steps
	last     *metrics.Sample
	fraction float64 // a purge's own progress
	stepFrom time.Time
	lineLen  int
	stop     chan struct{}
	stopped  chan struct{}
}

// newProgress starts showing a run, bandwidths in units ("MB/s" or
// "MiB/s", as the plan's reports); every is the heartbeat interval (0:
// none).
func newProgress(io stdio, g *plan.Graph, units string, every time.Duration) *progress {
	p := &progress{io: io, graph: g, now: time.Now, bandwidth: format.Bandwidth, stop: make(chan struct{}), stopped: make(chan struct{})}
	if units == "MiB/s" {
		p.bandwidth = format.BandwidthMiB
	}
	if io.tty || every <= 0 {
		close(p.stopped)
		return p
	}
	go p.beat(every)
	return p
}

func (p *progress) beat(every time.Duration) {
	defer close(p.stopped)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.heartbeat()
		}
	}
}

// heartbeat prints the running step's state: time in the step, the last
// interval's figures and the share of the step done.
func (p *progress) heartbeat() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.current == nil {
		return
	}
	e := *p.current
	fmt.Fprintf(p.io.out, "[%d/%d] %s: running %s%s\n", e.Index+1, e.Total, e.Node.Name, clock(p.now().Sub(p.stepFrom)), p.figures(e))
}

// figures describes the last interval and the step's progress, as
// ", 12,345 IOPS (read 9,000, write 3,345), 48.2 MB/s, p99 210 µs, 40% done".
func (p *progress) figures(e engine.Event) string {
	parts := p.figureParts(e)
	if len(parts) == 0 {
		return ""
	}
	return ", " + strings.Join(parts, ", ")
}

func (p *progress) figureParts(e engine.Event) []string {
	var parts []string
	if s := p.last; s != nil {
		iops := format.Count(s.ReadIOPS+s.WriteIOPS) + " IOPS"
		if s.ReadIOPS > 0 && s.WriteIOPS > 0 {
			iops += fmt.Sprintf(" (read %s, write %s)", format.Count(s.ReadIOPS), format.Count(s.WriteIOPS))
		}
		parts = append(parts, iops, p.bandwidth(s.BW))
		if s.P99Ns > 0 {
			parts = append(parts, "p99 "+format.Latency(float64(s.P99Ns)))
		} else if s.MeanLatNs > 0 {
			parts = append(parts, "mean latency "+format.Latency(s.MeanLatNs))
		}
	}
	if f := p.share(e); f >= 0 {
		parts = append(parts, fmt.Sprintf("%.0f%% done", 100*f))
	}
	return parts
}

// share is the share of the running step finished, from its own progress
// (a purge) or its time against its estimate; -1 when unknown.
func (p *progress) share(e engine.Event) float64 {
	switch {
	case p.fraction > 0:
		return p.fraction
	case e.Node.Estimate > 0:
		return min(float64(p.now().Sub(p.stepFrom))/float64(e.Node.Estimate), 0.99)
	}
	return -1
}

func (p *progress) observe(e engine.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e.Kind {
	case engine.StepStarted:
		p.stepFrom = p.now()
		p.current, p.last, p.fraction = &e, nil, 0
		if !p.io.tty {
			fmt.Fprintf(p.io.out, "[%d/%d] %s: started\n", e.Index+1, e.Total, e.Node.Name)
		} else {
			p.status(e)
		}
	case engine.StepLive:
		s := e.Sample
		p.last = &s
		if p.io.tty {
			p.status(e)
		}
	case engine.StepProgress:
		p.fraction = e.Progress
		if p.io.tty {
			p.status(e)
		}
	case engine.StepWarning:
		p.line(fmt.Sprintf("[%d/%d] %s: warning: %s", e.Index+1, e.Total, e.Node.Name, e.Message))
	case engine.StepReused:
		p.line(fmt.Sprintf("[%d/%d] %s: already done in this folder, kept", e.Index+1, e.Total, e.Node.Name))
	case engine.StepFinished:
		p.current = nil
		p.line(fmt.Sprintf("[%d/%d] %s: %s", e.Index+1, e.Total, e.Node.Name, p.stepOutcome(e)))
	}
}

// status rewrites the terminal's progress line.
func (p *progress) status(e engine.Event) {
	s := fmt.Sprintf("[%d/%d] %s  %s", e.Index+1, e.Total, e.Node.Name, clock(p.now().Sub(p.stepFrom)))
	if eta := p.eta(e); eta > 0 {
		s += "  ETA " + clock(eta)
	}
	if cur := p.current; cur != nil {
		if parts := p.figureParts(*cur); len(parts) > 0 {
			s += "  " + strings.Join(parts, "  ")
		}
	}
	if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil && w > 1 && len([]rune(s)) >= w {
		s = string([]rune(s)[:w-1])
	}
	pad := max(p.lineLen-len(s), 0)
	fmt.Fprintf(p.io.out, "\r%s%*s", s, pad, "")
	p.lineLen = len(s)
}

// line prints a permanent line, clearing the progress line first.
func (p *progress) line(s string) {
	if p.io.tty && p.lineLen > 0 {
		fmt.Fprintf(p.io.out, "\r%*s\r", p.lineLen, "")
		p.lineLen = 0
	}
	fmt.Fprintln(p.io.out, s)
}

func (p *progress) finish() {
	close(p.stop)
	<-p.stopped
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.io.tty && p.lineLen > 0 {
		fmt.Fprintf(p.io.out, "\r%*s\r", p.lineLen, "")
	}
}

// eta is the estimated time left: what remains of the current step plus
// the estimates of the steps after it.
func (p *progress) eta(e engine.Event) time.Duration {
	left := max(e.Node.Estimate-p.now().Sub(p.stepFrom), 0)
	for _, n := range p.graph.Nodes[e.Index+1:] {
		left += n.Estimate
	}
	return left
}

func (p *progress) stepOutcome(e engine.Event) string {
	r := e.Record
	switch {
	case r.Status != "ok":
		return r.Status + ": " + r.Error
	case r.Result != nil && len(r.Result.Metrics) > 0:
		return metricsLine(r.Result.Metrics)
	case r.Command != nil:
		return fmt.Sprintf("exit %d after %s", r.Command.ExitCode, time.Duration(r.Command.DurationNs).Round(time.Millisecond))
	case r.Result != nil:
		iops, bw := 0.0, 0.0
		if r.Result.Read != nil {
			iops, bw = iops+r.Result.Read.IOPS, bw+r.Result.Read.BW
		}
		if r.Result.Write != nil {
			iops, bw = iops+r.Result.Write.IOPS, bw+r.Result.Write.BW
		}
		return format.Count(iops) + " IOPS, " + p.bandwidth(bw)
	case len(r.Verdicts) > 0:
		n := map[string]int{}
		for _, v := range r.Verdicts {
			n[v.Status]++
		}
		return fmt.Sprintf("%d pass, %d fail, %d warn", n[results.VerdictPass], n[results.VerdictFail], n[results.VerdictWarn])
	}
	return "done"
}

func clock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	return fmt.Sprintf("%02d:%02d", s/60, s%60)
}

// metricsLine lists the named figures of an external command's step,
// such as "tps 843.2, latency_avg_ms 18.9".
func metricsLine(m map[string]float64) string {
	names := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %.4g", n, m[n])
	}
	return strings.Join(parts, ", ")
}
