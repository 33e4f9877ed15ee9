package native

import (
	"errors"
	"sort"
	"strings"
	"sync"

	"github.com/drivebench/drivebench/workload"
)

// ioMethod is how a job's I/Os reach the kernel (the workload's
// ioengine). It keeps the job's slots busy, asking each slot for its next
// I/O and handing back the completion, until every slot says to stop.
type ioMethod interface {
	runJob(r *run, j *job)
	// sharedRecorder reports whether a job's slots record into one
	// recorder (they run on one goroutine) rather than one each.
	sharedRecorder() bool
	// waiters is how many goroutines of r may block in the kernel at
	// once; grant lets the first n of them do it holding a P.
	waiters(r *run) int
	grant(r *run, n int)
}

// ioMethods are the supported ioengine values.
var ioMethods = map[string]ioMethod{
	"psync":    psync{},
	"io_uring": uring{},
}

// ioMethodNames lists the ioengine values for error messages.
func ioMethodNames() string {
	names := make([]string, 0, len(ioMethods))
	for name := range ioMethods {
		names = append(names, name)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// chooseMethod picks the I/O method for w: the one it names, or by
// default io_uring when the kernel offers it and the job keeps more than
// one I/O in flight or uses O_DIRECT, psync otherwise. In our
// measurements one pread per I/O is the cheapest way to keep a single
// buffered read in flight (page-cache hits return at once); a blocking
// O_DIRECT pread costs the Go scheduler a thread hand-off per I/O, which
// a ring's wait avoids; and beyond one I/O in flight a thread per I/O
// costs more than a ring.
func chooseMethod(w workload.Workload) (ioMethod, error) {
	if w.IOEngine != "" {
		return ioMethods[w.IOEngine], nil
	}
	if w.IsFileSet() {
		return psync{}, nil
	}
	if (w.IODepth > 1 || w.Direct) && uringAvailable() {
		return uring{}, nil
	}
	if w.IODepth > maxPsyncOutstanding/w.NumJobs {
		return nil, workloadErrorf("iodepth", "numjobs x iodepth = %d x %d needs io_uring, which this kernel refuses, and is more than the %d threads psync may block in system calls; lower one of them",
			w.NumJobs, w.IODepth, maxPsyncOutstanding)
	}
	return psync{}, nil
}

var uringProbe struct {
	once sync.Once
	ok   bool
}

// uringAvailable reports whether the kernel sets up an io_uring; it asks
// once per process.
func uringAvailable() bool {
	uringProbe.once.Do(func() {
		rg, err := newRing(1)
		if err == nil {
			rg.close()
		}
		uringProbe.ok = !errors.Is(err, ErrIOUringUnavailable)
	})
	return uringProbe.ok
}
