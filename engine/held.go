package engine

import (
	"fmt"
	"time"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// A figure is the drive's only while the process that measures it runs.
// A process stopped in the middle of a step (SIGSTOP, Ctrl-Z, a debugger,
// its virtual machine paused) finds on waking that its clocks ran on: the
// I/Os in flight complete seconds late, and the measured phase counts the
// time it was stopped. A 10 s step stopped for 20 s reported 5,966 IOPS
// against 50,870 and a maximum latency of 20.01 s, while the stall
// probe's share of late wake-ups (hoststall.go) saw one late wake-up in
// 62: a sample of the time, where the step had been held for 87 % of it.
//
// So the time held is measured as time, by two witnesses over the
// measured phase: the stall probe, whose wake-ups, due every 25 to 75 ms,
// each come as late as the probe was held (heldProbeGap or more counts),
// and the step's interval series, whose intervals each last as long as
// the engine's sampling was kept waiting (heldSeriesGap beyond the
// shortest whole interval counts). The time held is the larger of the
// two; either alone suffices, as the probe runs only with CAP_SYS_NICE.
// A measured phase that ran more than overrunPct beyond its planned
// runtime is a sign too, but no proof: the I/Os in flight when the
// runtime ended may have taken that long.
//
// A profile's step held for heldMin and heldFailPct of its measured phase
// or more fails: its figures would be worse than none, being the drive's
// mixed with a stop of the process, and a failed step runs again on
// -resume. A held precondition (it prepared the drive all the same), a
// hold of heldMin or heldFailPct alone, or an overrun of both that the
// witnesses do not explain, warns. Shorter holds are only recorded: the
// host of a virtual machine holds it for tens of milliseconds now and
// then (host_stall's domain), which would otherwise fail every short step.
const (
	heldProbeGap  = 100 * time.Millisecond
	heldSeriesGap = time.Second
	heldMin       = time.Second
	heldFailPct   = 10
	overrunPct    = 10
)

// heldWatcher measures how long the process was held over a step's
// measured phase, from the stall probe's wake-ups the host load watch
// leaves (hoststall.go) and the step's interval series.
type heldWatcher struct{}

func (heldWatcher) start(*watchedStep) watching { return heldWatch{} }

// heldWatch is the held watcher's watch of a step; it has nothing to
// start.
type heldWatch struct{}

// finish puts the time held on the record's host load, warns of it, and
// fails a profile's step held long enough. A held precondition prepared
// the drive all the same; an exec step's command runs in a process group
// of its own, which a stop of drivebench's (Ctrl-Z) does not stop, and
// has no planned runtime: both only warn.
func (heldWatch) finish(s *watchedStep) {
	w := s.w
	if w == nil {
		w = &workload.Workload{}
	}
	h := measureHeld(s.res, w, s.wakes)
	s.rec.Host = h.record(s.rec.Host)
	if warn := h.warning(); warn != nil {
		s.rec.Warnings = append(s.rec.Warnings, *warn)
	}
	if h.fails() && s.w != nil && s.node.Kind != plan.KindPrecondition {
		s.failure = h.failure()
	}
}

// wake is one wake-up of the stall probe: when it came and how late.
type wake struct {
	at   time.Time
	late time.Duration
}

// heldTime is how long a step's process was held during its measured
// phase, and what saw it.
type heldTime struct {
	// held is the time the witnesses saw, by is the one that saw most.
	held time.Duration
	by   string
	// phase is the measured phase's wall time; planned its runtime, 0
	// for a run bounded by bytes; overrun how far the phase ran beyond it,
	// when more than overrunPct.
	phase, planned, overrun time.Duration
}

// measureHeld works out how long the process was held during the measured
// phase of res, from the probe's wake-ups (none without a probe) and the
// result's interval series.
func measureHeld(res *metrics.Result, w *workload.Workload, wakes []wake) heldTime {
	if res == nil || res.RuntimeNs <= 0 {
		return heldTime{}
	}
	h := heldTime{phase: time.Duration(res.RuntimeNs), planned: w.Runtime}
	if probe := heldByProbe(res, wakes); probe > 0 {
		h.held, h.by = probe, "the stall probe, a thread woken every 25 to 75 ms, saw it"
	}
	if series := heldBySeries(res.Series); series > h.held {
		h.held, h.by = series, "the step's interval series shows it"
	}
	if over := h.phase - h.planned; h.planned > 0 && over > h.planned*overrunPct/100 && over >= heldMin {
		h.overrun = over
	}
	return h
}

// heldByProbe adds up the time the probe was held during the measured
// phase: each wake-up heldProbeGap or more late was held from when it
// was due to when it came.
func heldByProbe(res *metrics.Result, wakes []wake) time.Duration {
	from, to := res.Start, res.Start.Add(time.Duration(res.RuntimeNs))
	var held time.Duration
	for _, wk := range wakes {
		if wk.late < heldProbeGap {
			continue
		}
		start, end := wk.at.Add(-wk.late), wk.at
		if start.Before(from) {
			start = from
		}
		if end.After(to) {
			end = to
		}
		held += max(end.Sub(start), 0)
	}
	return held
}

// heldBySeries adds up how much longer than the shortest whole interval
// each interval lasted, where it was heldSeriesGap or more longer: the
// engine's sampling waited that long. The last interval may be short
// (the phase's end) and is no measure of the others.
func heldBySeries(series []metrics.Sample) time.Duration {
	if len(series) < 2 {
		return 0
	}
	lengths := make([]time.Duration, len(series))
	prev := 0.0
	for i, s := range series {
		lengths[i] = time.Duration((s.T - prev) * float64(time.Second))
		prev = s.T
	}
	nominal := lengths[0]
	for _, d := range lengths[:len(lengths)-1] {
		nominal = min(nominal, d)
	}
	var held time.Duration
	for _, d := range lengths {
		if d-nominal >= heldSeriesGap {
			held += d - nominal
		}
	}
	return held
}

// pct is the share of the measured phase the process was held, 0 to 100.
func (h heldTime) pct() float64 {
	if h.phase <= 0 {
		return 0
	}
	return min(100*h.held.Seconds()/h.phase.Seconds(), 100)
}

// fails reports whether the step was held long enough to fail.
func (h heldTime) fails() bool { return h.held >= heldMin && h.pct() >= heldFailPct }

// notable reports whether the hold was long enough to warn of.
func (h heldTime) notable() bool { return h.held >= heldMin || h.held > 0 && h.pct() >= heldFailPct }

// record puts the time held on the step's host load, making one when the
// host could not be read.
func (h heldTime) record(l *results.HostLoad) *results.HostLoad {
	if h.held <= 0 {
		return l
	}
	if l == nil {
		l = &results.HostLoad{}
	}
	l.HeldS, l.HeldPct = h.held.Seconds(), h.pct()
	return l
}

// warning says how long the process was held, or that the measured phase
// overran its runtime without a witness to say why; nil when neither.
func (h heldTime) warning() *results.Warning {
	switch {
	case h.notable():
		return &results.Warning{Kind: results.WarnHeld, Message: fmt.Sprintf(
			"The process was held for %s of this %s step (%s of its wall time): stopped (SIGSTOP, Ctrl-Z, a debugger) or its machine paused, none of its threads running, and %s. Its clocks ran on while it was held, so the I/Os in flight completed late and the time held counts in its figures: they do not describe the drive; run it again.",
			format.Duration(int64(h.held)), h.stepLength(), format.Share(h.pct()), h.by)}
	case h.overrun > 0:
		return &results.Warning{Kind: results.WarnHeld, Message: fmt.Sprintf(
			"The measured phase lasted %s, %s longer than the step's %s runtime: the process may have been held (stopped, or its machine paused) without a witness to see it, or its last I/Os took that long to complete. Its figures are over the longer time; run it again to tell.",
			format.Duration(int64(h.phase)), format.Duration(int64(h.overrun)), format.Duration(int64(h.planned)))}
	}
	return nil
}

// failure is the error of a step held too long to keep its figures.
func (h heldTime) failure() string {
	return fmt.Sprintf("the process was held for %s of the step's %s measured phase (%s), so its figures do not describe the drive; run it again (drivebench run -resume runs it again)",
		format.Duration(int64(h.held)), format.Duration(int64(h.phase)), format.Share(h.pct()))
}

// stepLength is the step's planned runtime, or its measured phase when it
// was bounded by bytes: "10.0 s".
func (h heldTime) stepLength() string {
	if h.planned > 0 {
		return format.Duration(int64(h.planned))
	}
	return format.Duration(int64(h.phase))
}
