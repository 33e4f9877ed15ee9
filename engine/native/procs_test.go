package native

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
)

func TestReserveProcsAddsPsAndGivesThemBack(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	n1, release1 := reserveProcs(3)
	n2, release2 := reserveProcs(maxRawWaiters)
	if n1 != 3 || n2 != maxRawWaiters-3 {
		t.Errorf("granted %d and %d; want 3 and the rest of %d", n1, n2, maxRawWaiters)
	}
	if got := runtime.GOMAXPROCS(0); got != before+maxRawWaiters {
		t.Errorf("GOMAXPROCS %d with every P reserved; want %d", got, before+maxRawWaiters)
	}
	if n, release := reserveProcs(1); n != 0 {
		release()
		t.Errorf("granted %d past the bound; want 0", n)
	}
	release2()
	release2() // a second call gives nothing back twice
	if got := runtime.GOMAXPROCS(0); got != before+3 {
		t.Errorf("GOMAXPROCS %d after one release; want %d", got, before+3)
	}
	release1()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Errorf("GOMAXPROCS %d after both releases; want %d again", got, before)
	}
}

// TestEveryBlockingWaiterHasItsP checks, for both methods, that a run
// adds one P per goroutine that may block in the kernel while it runs,
// and none after.
func TestEveryBlockingWaiterHasItsP(t *testing.T) {
	tests := []struct {
		engine           string
		numjobs, iodepth int
		want             int
	}{
		{"psync", 3, 2, 6},
		{"io_uring", 3, 4, 3},
	}
	for _, tt := range tests {
		t.Run(tt.engine, func(t *testing.T) {
			if tt.engine == "io_uring" {
				requireUring(t)
			}
			before := runtime.GOMAXPROCS(0)
			path, _ := patternFile(t, t.TempDir(), 1<<20)
			w := workload.Workload{RW: "randread", BS: 4096, IOEngine: tt.engine, NumJobs: tt.numjobs, IODepth: tt.iodepth,
				Runtime: 50 * time.Millisecond, Seed: 1}
			var during []int
			live := func(metrics.Sample) { during = append(during, runtime.GOMAXPROCS(0)) }
			if _, err := (Engine{Interval: 10 * time.Millisecond}).Run(context.Background(), driver.Target{Path: path, Capacity: 1 << 20}, w, live); err != nil {
				t.Fatal(err)
			}
			if len(during) == 0 || during[0] != before+tt.want {
				t.Errorf("GOMAXPROCS during the run %v; want %d", during, before+tt.want)
			}
			if got := runtime.GOMAXPROCS(0); got != before {
				t.Errorf("GOMAXPROCS %d after the run; want %d again", got, before)
			}
		})
	}
}
