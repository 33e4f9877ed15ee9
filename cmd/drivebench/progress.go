package main

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"golang.org/x/term"
)

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// progress shows a run: one rewritten status line on a terminal, plain
// log lines otherwise (CI logs, pipes).
type progress struct {
	io       stdio
	graph    *plan.Graph
	stepFrom time.Time
	lineLen  int
}

func newProgress(io stdio, g *plan.Graph) *progress {
	return &progress{io: io, graph: g}
}

func (p *progress) observe(e engine.Event) {
	switch e.Kind {
	case engine.StepStarted:
		p.stepFrom = time.Now()
		if !p.io.tty {
			fmt.Fprintf(p.io.out, "[%d/%d] %s: started\n", e.Index+1, e.Total, e.Node.Name)
		} else {
			p.status(e, "")
		}
	case engine.StepLive:
		if p.io.tty {
			p.status(e, fmt.Sprintf("%s IOPS", format.Count(e.Sample.ReadIOPS+e.Sample.WriteIOPS)))
		}
	case engine.StepReused:
		p.line(fmt.Sprintf("[%d/%d] %s: already done in this folder, kept", e.Index+1, e.Total, e.Node.Name))
	case engine.StepWarning:
		p.line(fmt.Sprintf("[%d/%d] %s: warning: %s", e.Index+1, e.Total, e.Node.Name, e.Message))
	case engine.StepFinished:
		p.line(fmt.Sprintf("[%d/%d] %s: %s", e.Index+1, e.Total, e.Node.Name, stepOutcome(e)))
	}
}

// status rewrites the terminal's progress line.
func (p *progress) status(e engine.Event, live string) {
	s := fmt.Sprintf("[%d/%d] %s  %s elapsed", e.Index+1, e.Total, e.Node.Name, clock(e.Elapsed))
	if eta := p.eta(e); eta > 0 {
		s += "  ETA " + clock(eta)
	}
	if live != "" {
		s += "  " + live
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
	if p.io.tty && p.lineLen > 0 {
		fmt.Fprintf(p.io.out, "\r%*s\r", p.lineLen, "")
	}
}

// eta is the estimated time left: what remains of the current step plus
// the estimates of the steps after it.
func (p *progress) eta(e engine.Event) time.Duration {
	left := max(e.Node.Estimate-time.Since(p.stepFrom), 0)
	for _, n := range p.graph.Nodes[e.Index+1:] {
		left += n.Estimate
	}
	return left
}

func stepOutcome(e engine.Event) string {
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
		return fmt.Sprintf("%s IOPS, %.1f MB/s", format.Count(iops), bw/1e6)
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
