package native

import (
	"context"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
)

// TestFsyncEveryNWrites runs 256 I/Os in 2 jobs with fsync = 16 and
// counts the flushes the engine asks the kernel for: one per 16 writes of
// each job, on that job's file, with either I/O method; reads are never
// flushed.
func TestFsyncEveryNWrites(t *testing.T) {
	const capacity, every = 1 << 20, 16 // 256 blocks of 4 KiB
	for _, method := range []string{"psync", "io_uring"} {
		for _, tt := range []struct {
			rw      string
			readPct int
		}{{"randwrite", 0}, {"randrw", 50}, {"randread", 100}} {
			t.Run(method+"/"+tt.rw, func(t *testing.T) {
				if method == "io_uring" && !uringAvailable() {
					t.Skip("this kernel refuses io_uring")
				}
				path, _ := patternFile(t, t.TempDir(), capacity)
				w := baseWorkload()
				w.RW, w.ReadPct, w.IODepth, w.NumJobs, w.IOEngine = tt.rw, tt.readPct, 2, 2, method
				w.Bytes, w.Fsync = capacity, every
				sys := &recordingSys{}
				res, err := execute(context.Background(), driver.Target{Path: path, Capacity: capacity}, w, nil, sys, time.Second)
				if err != nil {
					t.Fatal(err)
				}
				writes := 0
				if res.Write != nil { // nil: the run wrote nothing
					writes = int(res.Write.IOs)
				}
				if tt.rw == "randwrite" && writes != 256 {
					t.Fatalf("%d writes, want 256", writes)
				}
				// each job flushes after every 16 of its own writes: the
				// two jobs' remainders lose at most one flush
				perFile := map[int]int{}
				for _, fd := range sys.synced {
					perFile[fd]++
				}
				most := writes / every
				if n := len(sys.synced); n > most || n < most-1 || (n > 0) != (len(perFile) == 2) {
					t.Errorf("%d fsyncs on %d files for %d writes in 2 jobs, want %d or %d, on both jobs' files", n, len(perFile), writes, most-1, most)
				}
			})
		}
	}
}
