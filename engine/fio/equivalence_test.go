package fio

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/engine/native"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
)

// TestEquivalenceWithNative runs the same workload on the same file with
// the built-in engine and with fio and expects IOPS within 15 % and
// latency distributions of the same shape (p50 within a factor of 2, p99
// within 4). The workload is O_DIRECT random reads at depth 1, so the
// device, not the engines' overheads, sets the pace. The two engines run
// at the same time, twice, so that whatever else loads the shared
// machine's disk loads both alike; a comparison spoiled anyway is
// repeated, up to three times. It runs alone: the other tests that run
// fio run in parallel, after it.
func TestEquivalenceWithNative(t *testing.T) {
	needFio(t)
	target := dataFile(t, 64<<20)
	w := randRead(time.Second)
	w.Direct = true
	var problems []string
	for attempt := 1; attempt <= 3; attempt++ {
		c := compareEngines(t, target, w)
		t.Logf("attempt %d: %s", attempt, c)
		if problems = c.problems(); len(problems) == 0 {
			return
		}
	}
	t.Errorf("the engines differ: %v", problems)
}

// comparison is what each engine measured over its runs.
type comparison struct {
	iops map[string]float64
	hist map[string]*metrics.Histogram
}

func compareEngines(t *testing.T, target driver.Target, w plan.Workload) comparison {
	t.Helper()
	engines := map[string]driver.Driver{"native": native.Engine{}, "fio": Driver{}}
	c := comparison{iops: map[string]float64{}, hist: map[string]*metrics.Histogram{}}
	ios, secs := map[string]float64{}, map[string]float64{}
	for range 2 {
		for name, res := range runTogether(t, engines, target, w) {
			if c.hist[name] == nil {
				c.hist[name] = new(metrics.Histogram)
			}
			c.hist[name].Merge(res.Read.Hist)
			ios[name] += float64(res.Read.IOs)
			secs[name] += float64(res.RuntimeNs) / 1e9
		}
	}
	for name := range engines {
		c.iops[name] = ios[name] / secs[name]
	}
	return c
}

// runTogether runs w with every engine at the same time.
func runTogether(t *testing.T, engines map[string]driver.Driver, target driver.Target, w plan.Workload) map[string]*metrics.Result {
	t.Helper()
	results := map[string]*metrics.Result{}
	errs := map[string]error{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, d := range engines {
		wg.Go(func() {
			res, err := d.Run(context.Background(), target, w, nil)
			mu.Lock()
			defer mu.Unlock()
			results[name], errs[name] = res, err
		})
	}
	wg.Wait()
	for name, res := range results {
		if errs[name] != nil || res.Read == nil || res.Read.Hist == nil {
			t.Fatalf("%s: %v, result %+v", name, errs[name], res)
		}
	}
	return results
}

func (c comparison) String() string {
	n, f := c.hist["native"], c.hist["fio"]
	return fmt.Sprintf("native %.0f IOPS, p50 %.1f us, p99 %.1f us; fio %.0f IOPS, p50 %.1f us, p99 %.1f us",
		c.iops["native"], us(n.Percentile(50)), us(n.Percentile(99)), c.iops["fio"], us(f.Percentile(50)), us(f.Percentile(99)))
}

func (c comparison) problems() []string {
	var out []string
	if r := c.iops["fio"] / c.iops["native"]; r < 0.85 || r > 1/0.85 {
		out = append(out, fmt.Sprintf("fio runs at %.2f times the native engine's IOPS", r))
	}
	for _, l := range []struct{ p, factor float64 }{{50, 2}, {99, 4}} {
		r := float64(c.hist["fio"].Percentile(l.p)) / float64(c.hist["native"].Percentile(l.p))
		if r < 1/l.factor || r > l.factor {
			out = append(out, fmt.Sprintf("p%g of fio is %.2f times the native engine's", l.p, r))
		}
	}
	return out
}

func us(ns uint64) float64 { return float64(ns) / 1000 }
