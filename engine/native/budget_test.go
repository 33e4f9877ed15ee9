package native

import (
	"context"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/workload"
)

// TestRuntimeAndBudgetStopAtWhicheverComesFirst runs with both a runtime
// and a byte budget, one of them far out of reach.
func TestRuntimeAndBudgetStopAtWhicheverComesFirst(t *testing.T) {
	const capacity = 1 << 20
	tests := []struct {
		name       string
		w          workload.Workload
		wantBytes  uint64 // 0: stopped by time, fewer than the budget
		maxRuntime time.Duration
	}{
		{name: "bytes first", w: workload.Workload{Runtime: time.Minute, Bytes: 1000 * 4096}, wantBytes: 1000 * 4096, maxRuntime: 30 * time.Second},
		{name: "loops first", w: workload.Workload{Runtime: time.Minute, Loops: 3}, wantBytes: 3 * capacity, maxRuntime: 30 * time.Second},
		{name: "bytes_pct first", w: workload.Workload{Runtime: time.Minute, BytesPct: 400}, wantBytes: 4 * capacity, maxRuntime: 30 * time.Second},
		{name: "runtime first", w: workload.Workload{Runtime: 300 * time.Millisecond, Loops: 1 << 20}, maxRuntime: 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, _ := patternFile(t, t.TempDir(), capacity)
			w := tt.w
			w.RW, w.BS, w.IODepth, w.NumJobs, w.IOEngine = "write", 4096, 2, 2, "psync"
			res, err := Engine{}.Run(context.Background(), driver.Target{Path: path, Capacity: capacity}, w, nil)
			if err != nil {
				t.Fatal(err)
			}
			runtime := time.Duration(res.RuntimeNs)
			if runtime > tt.maxRuntime {
				t.Errorf("ran for %v, want at most %v", runtime, tt.maxRuntime)
			}
			switch {
			case tt.wantBytes != 0 && res.Write.Bytes != tt.wantBytes:
				t.Errorf("wrote %d bytes, want the budget, %d", res.Write.Bytes, tt.wantBytes)
			case tt.wantBytes == 0 && (runtime < w.Runtime || res.Write.Bytes >= uint64(w.Loops)*capacity):
				t.Errorf("wrote %d bytes in %v; want the runtime, %v, to end it", res.Write.Bytes, runtime, w.Runtime)
			}
			if last := res.Series[len(res.Series)-1]; last.BytesWritten != res.Write.Bytes {
				t.Errorf("the series ends at %d bytes written, the result has %d", last.BytesWritten, res.Write.Bytes)
			}
		})
	}
}
