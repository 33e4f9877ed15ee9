package native

import (
	"context"
	"runtime"
	"runtime/debug"
	rtmetrics "runtime/metrics"
	"testing"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/workload"
)

// gcCycles counts the garbage collections the program has finished.
func gcCycles() uint64 {
	s := []rtmetrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	rtmetrics.Read(s)
	return s[0].Value.Uint64()
}

// TestRunHoldsGC: while a run lasts the collector does not run, however
// much the rest of the program allocates (here 2 MiB every 50 reads, 40
// MiB in all: far past the 4 MiB a collection would otherwise start at),
// and the settings come back after.
func TestRunHoldsGC(t *testing.T) {
	path, _ := patternFile(t, t.TempDir(), 1<<20)
	w := workload.Workload{RW: "randread", BS: 4096, IODepth: 1, NumJobs: 1, Bytes: 1000 * 4096, IOEngine: "psync"}
	runtime.GC()
	percent, limit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
	debug.SetGCPercent(percent)
	var kept [][]byte
	before := gcCycles()
	var during uint64
	sys := &recordingSys{after: func(n int) {
		if n%50 == 0 {
			kept = append(kept, make([]byte, 2<<20))
			during = gcCycles() - before
		}
	}}
	if _, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: 1 << 20}, w, nil, sys); err != nil {
		t.Fatal(err)
	}
	if len(kept) != 20 {
		t.Fatalf("%d allocations, want one every 50 of the 1000 reads", len(kept))
	}
	if during > 0 {
		t.Errorf("%d collections during a run that allocated %d MiB", during, 2*len(kept))
	}
	if got := debug.SetGCPercent(percent); got != percent {
		t.Errorf("GOGC after the run is %d, want %d back", got, percent)
	}
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("memory limit after the run is %d, want %d back", got, limit)
	}
}

// TestHoldGCNests: overlapping runs restore the settings once, after the
// last.
func TestHoldGCNests(t *testing.T) {
	percent := debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	a, b := holdGC(), holdGC()
	a()
	a()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GOGC %d after the first run ended, want -1 while the second lasts", got)
	}
	b()
	if got := debug.SetGCPercent(percent); got != percent {
		t.Errorf("GOGC %d after both ended, want %d", got, percent)
	}
}
