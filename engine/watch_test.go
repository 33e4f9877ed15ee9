package engine

import (
	"slices"
	"testing"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// orderWatcher notes when its watch starts and finishes; skip makes it
// watch nothing.
type orderWatcher struct {
	name string
	skip bool
	log  *[]string
}

func (o orderWatcher) start(*watchedStep) watching {
	if o.skip {
		return nil
	}
	*o.log = append(*o.log, "start "+o.name)
	return o
}

func (o orderWatcher) finish(s *watchedStep) {
	*o.log = append(*o.log, "finish "+o.name)
	if s.res == nil {
		*o.log = append(*o.log, "no result")
	}
}

// TestWatchesNest: the watchers start in the order of hostWatchers and
// finish in the reverse one, once the driver's result is there; a
// watcher with nothing to watch is left out.
func TestWatchesNest(t *testing.T) {
	var log []string
	saved := hostWatchers
	t.Cleanup(func() { hostWatchers = saved })
	hostWatchers = []hostWatcher{orderWatcher{"a", false, &log}, orderWatcher{"b", true, &log}, orderWatcher{"c", false, &log}}
	finish := startWatches(&watchedStep{rec: &results.Record{}})
	log = append(log, "driver")
	finish(&metrics.Result{})
	if want := []string{"start a", "start c", "driver", "finish c", "finish a"}; !slices.Equal(log, want) {
		t.Errorf("%q, want %q", log, want)
	}
}

// TestHeldWatchFinishesAfterTheHostLoad: the held watch reads the stall
// probe's wake-ups that the host load watch leaves as it finishes, so it
// comes before it in hostWatchers.
func TestHeldWatchFinishesAfterTheHostLoad(t *testing.T) {
	held := slices.IndexFunc(hostWatchers, func(w hostWatcher) bool { _, ok := w.(heldWatcher); return ok })
	load := slices.IndexFunc(hostWatchers, func(w hostWatcher) bool { _, ok := w.(hostLoadWatcher); return ok })
	if held < 0 || load < 0 || held > load {
		t.Errorf("held watcher at %d, host load watcher at %d in %T", held, load, hostWatchers)
	}
}

// TestHeldWatchFailsOnlyAProfile: a profile's step held for 3 s of its
// 5 s fails; a precondition and an exec step's command (no workload)
// held as long only warn.
func TestHeldWatchFailsOnlyAProfile(t *testing.T) {
	start := time.Now()
	res := &metrics.Result{Start: start, RuntimeNs: int64(5 * time.Second)}
	wakes := []wake{{at: start.Add(4 * time.Second), late: 3 * time.Second}}
	tests := []struct {
		kind  plan.NodeKind
		w     *workload.Workload
		fails bool
	}{
		{plan.KindProfile, &workload.Workload{}, true},
		{plan.KindPrecondition, &workload.Workload{}, false},
		{plan.KindExec, nil, false},
	}
	for _, tt := range tests {
		s := &watchedStep{node: &plan.Node{Kind: tt.kind}, w: tt.w, res: res, rec: &results.Record{}, wakes: wakes}
		heldWatch{}.finish(s)
		if (s.failure != "") != tt.fails || len(s.rec.Warnings) != 1 || s.rec.Warnings[0].Kind != results.WarnHeld || s.rec.Host == nil || s.rec.Host.HeldS != 3 {
			t.Errorf("%s: failure %q, warnings %+v, host %+v", tt.kind, s.failure, s.rec.Warnings, s.rec.Host)
		}
	}
}
