package native

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"golang.org/x/sys/unix"
)

// ioMethod is how a job's I/Os reach the kernel (the workload's
// ioengine). It keeps the job's slots busy, asking each slot for its next
// I/O and handing back the completion, until every slot says to stop.
type ioMethod interface {
	runJob(r *run, j *job)
}

// ioMethods are the supported ioengine values; "" selects the default.
var ioMethods = map[string]ioMethod{
	"":      psync{},
	"psync": psync{},
}

// ioMethodNames lists the ioengine values for error messages.
func ioMethodNames() string {
	var names []string
	for name := range ioMethods {
		if name != "" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// psync runs every slot as a goroutine that issues one pread or pwrite at
// a time and waits for it, so a job has iodepth system calls in flight.
type psync struct{}

func (psync) runJob(r *run, j *job) {
	var wg sync.WaitGroup
	for _, s := range j.slots {
		wg.Go(func() {
			for {
				req, ok := s.next(r)
				if !ok {
					return
				}
				start := time.Now()
				n, err := r.transfer(req)
				if !s.complete(r, req, n, time.Since(start), err) {
					return
				}
			}
		})
	}
	wg.Wait()
}

// transfer issues req synchronously.
func (r *run) transfer(req ioRequest) (int, error) {
	if req.op == opRead {
		return r.sys.pread(r.fd, req.buf, req.offset)
	}
	return r.sys.pwrite(r.fd, req.buf, req.offset)
}

// job is one of the workload's numjobs workers: iodepth slots that share
// an I/O budget and, for sequential patterns, one cursor over the job's
// slice of the region.
type job struct {
	// issued counts the I/Os the job's slots have claimed; it is the
	// sequential cursor.
	issued atomic.Int64
	// limit is how many I/Os the job issues in a byte-count run;
	// math.MaxInt64 in a time-based one.
	limit int64
	slots []*slot
}

// claim takes the sequence number of the job's next I/O; false once the
// job's budget is spent.
func (j *job) claim() (int64, bool) {
	n := j.issued.Add(1) - 1
	return n, n < j.limit
}

// slot is one outstanding I/O of a job: its buffers, its random streams
// and its recorders, owned by whoever runs the slot, so the hot path takes
// no locks.
type slot struct {
	job     *job
	offsets offsetSource
	ops     opMix
	readBuf []byte
	writes  writeSource
	// rec holds the completions by direction (opRead, opWrite); nil for
	// a direction the workload never issues.
	rec [2]*metrics.Recorder
}

// ioRequest is one I/O ready to issue.
type ioRequest struct {
	op     op
	offset int64
	buf    []byte
}

// next prepares the slot's next I/O; false when the run is stopping or
// the job's budget is spent.
func (s *slot) next(r *run) (ioRequest, bool) {
	if r.stop.Load() {
		return ioRequest{}, false
	}
	n, ok := s.job.claim()
	if !ok {
		return ioRequest{}, false
	}
	req := ioRequest{op: s.ops.next(), offset: s.offsets.offset(n), buf: s.readBuf}
	if req.op == opWrite {
		req.buf = s.writes.buffer(req.offset)
	}
	return req, true
}

// complete accounts for a finished I/O that moved n bytes in lat. A
// failed or short transfer stops the run; complete then returns false.
func (s *slot) complete(r *run, req ioRequest, n int, lat time.Duration, err error) bool {
	if err == nil && n != len(req.buf) {
		err = &shortTransfer{got: n, want: len(req.buf)}
	}
	if err != nil {
		r.fail(r.ioError(req, err))
		return false
	}
	if r.measuring.Load() {
		s.rec[req.op].Record(uint64(lat), uint64(n))
	}
	return true
}

// ioError describes a failed transfer; EINVAL under O_DIRECT on an
// aligned request means the filesystem or device refuses O_DIRECT.
func (r *run) ioError(req ioRequest, err error) error {
	ioErr := &IOError{Path: r.path, Op: req.op.syscall(), Offset: req.offset, Err: err}
	if r.direct && errors.Is(err, unix.EINVAL) {
		return &directRefusedError{path: r.path, cause: ioErr}
	}
	return ioErr
}

// writeSource supplies the bytes a write carries.
type writeSource interface {
	buffer(offset int64) []byte
}

// randomData is one buffer of seeded random bytes that every write of a
// slot carries unchanged.
type randomData []byte

func (d randomData) buffer(int64) []byte { return d }

// newRandomData fills buf from rng.
func newRandomData(buf []byte, rng *rand.Rand) randomData {
	i := 0
	for ; i+8 <= len(buf); i += 8 {
		binary.LittleEndian.PutUint64(buf[i:], rng.Uint64())
	}
	if i < len(buf) {
		var tail [8]byte
		binary.LittleEndian.PutUint64(tail[:], rng.Uint64())
		copy(buf[i:], tail[:])
	}
	return randomData(buf)
}
