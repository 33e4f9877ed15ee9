package termview

import (
	"fmt"
	"time"

	"github.com/drivebench/drivebench/engine"
)

// How far a run has come. A step's share is its own progress (a purge
// reports one) or its time against its estimate; the plan's is the
// estimated time of the steps done and of the running steps' elapsed
// part against the estimate of them all. Each is labelled where it is
// shown, "step 3/12 45%" and "plan 22% ETA 04:10": a bare "45% done"
// beside an ETA of the whole plan reads as one of them.

// stepShare is the share of l's step done, -1 when unknown.
func (v *View) stepShare(l *lane) float64 {
	switch {
	case l.fraction > 0:
		return l.fraction
	case l.start.Node.Estimate > 0:
		return min(float64(v.opt.Now().Sub(l.from))/float64(l.start.Node.Estimate), 0.99)
	}
	return -1
}

// stepLabel is "step 3/12 45%", or "step 3/12" when its share is
// unknown.
func (v *View) stepLabel(l *lane) string {
	s := fmt.Sprintf("step %d/%d", l.start.Index+1, l.start.Total)
	if f := v.stepShare(l); f >= 0 {
		s += fmt.Sprintf(" %.0f%%", 100*f)
	}
	return s
}

// planLabel is "plan 22% ETA 04:10", or "plan 2/7 steps done" when no
// step has an estimate.
func (v *View) planLabel() string {
	total, done := time.Duration(0), time.Duration(0)
	for i, n := range v.opt.Graph.Nodes {
		total += n.Estimate
		if v.done[i] {
			done += n.Estimate
		}
	}
	if total <= 0 {
		return fmt.Sprintf("plan %d/%d steps done", len(v.done), len(v.opt.Graph.Nodes))
	}
	for _, l := range v.running {
		done += min(v.opt.Now().Sub(l.from), l.start.Node.Estimate)
	}
	return fmt.Sprintf("plan %.0f%% ETA %s", 100*min(float64(done)/float64(total), 1), clock(v.eta()))
}

// eta is the estimated time left: per lane, what remains of its running
// step and the estimates of its steps not done; lanes of drives that run
// in parallel overlap, so the longest counts, and the steps of no drive
// (reports) come after them.
func (v *View) eta() time.Duration {
	left := map[string]time.Duration{}
	for i, n := range v.opt.Graph.Nodes {
		if v.done[i] {
			continue
		}
		rest := n.Estimate
		if l := v.lane(i); l != nil {
			rest = max(rest-v.opt.Now().Sub(l.from), 0)
		}
		key := ""
		if v.opt.Graph.Parallel {
			key = n.Drive
		}
		left[key] += rest
	}
	longest := time.Duration(0)
	for drive, d := range left {
		if drive != "" {
			longest = max(longest, d)
		}
	}
	return longest + left[""]
}

// stepTag is how a line names its step: "[3/12] scratch / fill".
func stepTag(e engine.Event) string {
	return fmt.Sprintf("[%d/%d] %s", e.Index+1, e.Total, e.Node.Name)
}

// clock writes a duration as minutes and seconds, "04:10", or with hours
// when it has them, "1:02:03".
func clock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%02d:%02d", s/60, s%60)
}
