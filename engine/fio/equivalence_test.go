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
	"github.com/drivebench/drivebench/workload"
)

// TestEquivalenceWithNative runs the same workload on the same file with
// the built-in engine and with fio at the same time, twice, and expects
// them to measure the same thing: fio's total latency (lat, submission to
// completion, the span the native engine measures), and distributions
// that overlap, each engine's median within the other's p1 to p99. Both
// share whatever loads the machine, so that holds however loaded it is;
// how close the engines' IOPS are is a performance figure, which bench/
// measures and no test asserts.
func TestEquivalenceWithNative(t *testing.T) {
	needFio(t)
	target := dataFile(t, 64<<20)
	w := randRead(time.Second)
	w.Direct = true
	c := compareEngines(t, target, w)
	t.Logf("%s", c)
	if c.latency != metrics.LatencyFioLat {
		t.Errorf("fio's figures are %q, want %q, the native engine's span", c.latency, metrics.LatencyFioLat)
	}
	for _, p := range c.problems() {
		t.Error(p)
	}
}

// comparison is what each engine measured over its runs.
type comparison struct {
	iops map[string]float64
	hist map[string]*metrics.Histogram
	// latency is the definition of the fio engine's figures.
	latency string
}

func compareEngines(t *testing.T, target driver.Target, w workload.Workload) comparison {
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
			if name == "fio" {
				c.latency = res.Latency
			}
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
func runTogether(t *testing.T, engines map[string]driver.Driver, target driver.Target, w workload.Workload) map[string]*metrics.Result {
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
	for _, pair := range [][2]string{{"fio", "native"}, {"native", "fio"}} {
		a, b := c.hist[pair[0]], c.hist[pair[1]]
		if m := a.Percentile(50); m < b.Percentile(1) || m > b.Percentile(99) {
			out = append(out, fmt.Sprintf("the %s engine's median %.1f us lies outside the %s engine's p1 to p99, %.1f to %.1f us",
				pair[0], us(m), pair[1], us(b.Percentile(1)), us(b.Percentile(99))))
		}
	}
	return out
}

func us(ns uint64) float64 { return float64(ns) / 1000 }
