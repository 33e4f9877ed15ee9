package native

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// job is one of the workload's numjobs workers: iodepth slots that share
// a byte budget, a rate schedule and, for sequential patterns, one cursor
// over the job's slice of the region.
type job struct {
	// index is the job's number in the run, from 0.
	index int
	// cursor counts the bytes the job's slots have claimed; it is the
	// sequential position and the budget's meter. Written for every I/O,
	// it has a cache line to itself wherever the allocator puts the job:
	// the padding on both sides keeps it off the fields the slots only
	// read, this job's and the neighbouring job's.
	_      [56]byte
	cursor atomic.Int64
	_      [56]byte
	// budget is how many bytes the job transfers; unbounded in a
	// time-based run without one.
	budget     int64
	sequential bool
	slice      region
	// pace is the job's arrival schedule; nil when the run is not rate
	// limited.
	pace  *schedule
	slots []*slot
	// fd is the job's own open file of the target; -1 until it is opened.
	fd int
	// holdP says that the job's ring waits in raw system calls, on a P
	// reserved for it.
	holdP bool
	// writes counts the job's completed writes, for fsync.
	writes atomic.Int64
}

// claim takes the job's next size bytes (fewer at the end of its budget
// or, for a sequential job, of its slice) and returns their position in
// the job's stream; false once the budget is spent.
func (j *job) claim(size int64) (pos, n int64, ok bool) {
	for {
		pos = j.cursor.Load()
		if pos >= j.budget {
			return 0, 0, false
		}
		n = min(size, j.budget-pos)
		if j.sequential {
			n = min(n, j.slice.length-pos%j.slice.length)
		}
		if j.cursor.CompareAndSwap(pos, pos+n) {
			return pos, n, true
		}
	}
}

// slot is one outstanding I/O of a job: its buffers, random streams and
// recorder, owned by whoever runs the slot, so the hot path takes no
// locks. Everything a slot changes per I/O lives in the slot itself,
// which padding keeps off the cache lines of every other slot.
type slot struct {
	job     *job
	rec     *recorder
	ops     opMix
	sizes   *sizeMix
	sizeRNG *rand.Rand
	// random places the I/Os of a random pattern; nil for a sequential
	// one. It points at randomState.
	random *randomOffsets
	// fileRNG chooses the file of each I/O of a file-set run; nil
	// otherwise.
	fileRNG *rand.Rand
	readBuf []byte
	// writes supplies the write buffers; nil when the run only reads.
	// It points at writeState.
	writes *writeData
	// holdP says that the slot's psync transfers wait in raw system
	// calls, on a P reserved for the slot.
	holdP bool
	// free is when, on the run's clock, the slot's last paced I/O would
	// have completed had every one been issued at its intended time.
	free int64

	// req, state and issued are the slot's I/O under the io_uring
	// method: the request, where it is in its life, and when it was
	// submitted; a replay's slot keeps issued too.
	req    ioRequest
	state  slotState
	issued int64

	randomState randomOffsets
	writeState  writeData
	streams     [numStreams]rand.PCG
	_           [64]byte
}

// rng seeds and returns the slot's random stream of one purpose; index is
// the slot's number in the run. The same seed gives every slot the same
// offsets, op choices, sizes and data again.
func (s *slot) rng(seed uint64, index int, purpose stream) *rand.Rand {
	s.streams[purpose] = *rand.NewPCG(seed, streamKey(index, purpose))
	return rand.New(&s.streams[purpose])
}

// ioRequest is one I/O ready to issue.
type ioRequest struct {
	op     op
	offset int64
	size   int64
	buf    []byte
	// due is the intended start on the run's clock of a paced I/O.
	due int64
	// flush asks a replay's slot for an fsync instead of a transfer; bin
	// is the trace-time bin of a replay's read or write (traceBins).
	flush bool
	bin   int64
	// file is the file of a file-set run the I/O goes to, and offset is
	// within it; fd is its open file while the I/O is issued.
	file int
	fd   int
}

// next claims the slot's next I/O and draws its direction, size, offset
// and intended time; false when the run is stopping or the job's budget
// is spent.
func (s *slot) next(r *run) (ioRequest, bool) {
	if r.stop.Load() {
		return ioRequest{}, false
	}
	pos, size, ok := s.job.claim(s.sizes.pick(s.sizeRNG))
	if !ok {
		return ioRequest{}, false
	}
	req := ioRequest{op: s.ops.next(), size: size}
	if s.random != nil {
		req.offset = s.random.offset(size)
	} else {
		req.offset = s.job.slice.start + pos%s.job.slice.length
	}
	if r.files != nil {
		r.files.place(s, &req, s.job.slice.start+pos%s.job.slice.length)
	}
	if s.job.pace != nil {
		req.due = s.job.pace.take(size)
	}
	return req, true
}

// arm readies req's buffer just before it is issued. For a write of a
// verify run it first claims the blocks written; when another write to
// one of them is in flight, a random I/O moves elsewhere and a sequential
// one reports false, to be armed again later.
func (s *slot) arm(r *run, req *ioRequest) bool {
	if req.op == opRead {
		req.buf = s.readBuf[:req.size]
		return true
	}
	if r.blocks != nil && !s.claimBlocks(r, req) {
		return false
	}
	req.buf = s.writes.buffer(req.size)
	if r.blocks != nil {
		r.blocks.stamp(req.buf, req.offset)
	}
	return true
}

// claimAttempts is how many offsets a random write of a verify run tries
// before waiting for its blocks.
const claimAttempts = 8

func (s *slot) claimBlocks(r *run, req *ioRequest) bool {
	for range claimAttempts {
		if r.blocks.claim(req.offset, req.size) {
			return true
		}
		if s.random == nil {
			return false
		}
		req.offset = s.random.offset(req.size)
	}
	return false
}

// complete accounts for a finished I/O that moved n bytes and spent
// service ns in the kernel. A failed or short transfer stops the run;
// complete then returns false.
func (s *slot) complete(r *run, req *ioRequest, n int, service int64, err error) bool {
	if r.blocks != nil && req.op == opWrite {
		r.blocks.release(req.offset, req.size)
	}
	if err == nil && n != len(req.buf) {
		err = &shortTransfer{got: n, want: len(req.buf)}
	}
	if err != nil {
		r.fail(r.ioError(req, err))
		return false
	}
	s.rec.record(&r.coll.epoch, req.op, s.latency(r, req, service), service, n)
	if r.files != nil {
		r.files.moved(s.job, n)
	}
	return s.job.sync(r, req)
}

// sync flushes the job's writes to the drive after every r.fsync of them,
// as fio's fsync does: the slot that completed the write waits for it. A
// failed flush stops the run; sync then returns false.
func (j *job) sync(r *run, req *ioRequest) bool {
	if req.op != opWrite || r.fsync == 0 || j.writes.Add(1)%r.fsync != 0 {
		return true
	}
	if r.files != nil {
		if err := r.files.fsync(r, req.file, req.fd); err != nil {
			r.fail(err)
			return false
		}
		return true
	}
	if err := r.sys.fsync(j.fd); err != nil {
		r.fail(&IOError{Path: r.path, Op: "fsync", Err: err})
		return false
	}
	return true
}

// latency is the latency of a completed I/O. Without a rate target it is
// the service time: issue to completion. Under one it counts from the
// I/O's intended time: it adds the time the I/O would have queued behind
// the slot's earlier I/Os had each been issued on time and taken the
// service time it took. So a slow or stalled target shows as latency in
// every I/O scheduled behind it (no coordinated omission), while the
// engine's own lateness (a timer that wakes late, a busy CPU) does not:
// that is the host's, not the target's.
func (s *slot) latency(r *run, req *ioRequest, service int64) int64 {
	if !r.paced {
		return service
	}
	if r.replay != nil {
		return s.issued - req.due + service // the replay's lag is the wait
	}
	start := max(req.due, s.free)
	s.free = start + service
	return start - req.due + service
}

// ioError describes a failed transfer; EINVAL under O_DIRECT on an
// aligned request means the filesystem or device refuses O_DIRECT.
func (r *run) ioError(req *ioRequest, err error) error {
	path := r.path
	if r.files != nil {
		path = r.files.path(req.file)
	}
	ioErr := &IOError{Path: path, Op: req.op.syscall(), Offset: req.offset, Err: err}
	if r.direct && errors.Is(err, unix.EINVAL) {
		return &directRefusedError{path: path, cause: ioErr}
	}
	return ioErr
}

// psync runs every slot as a goroutine that issues one pread or pwrite at
// a time and waits for it, so a job has iodepth system calls in flight.
// Each slot waits on a P of its own (procs.go), so a slot whose I/O
// completes runs at once, not after whichever slots hold the CPUs' Ps.
type psync struct{}

func (psync) sharedRecorder() bool { return false }

// waiters is one per slot: each may block in the kernel.
func (psync) waiters(r *run) int { return len(r.jobs) * len(r.jobs[0].slots) }

// grant lets the first n slots wait holding their P, unless a process
// serves the target's file system (FUSE): that may be this one, which a
// garbage collection would stop while it waits for every P, including
// those of slots waiting for the server's answer. A raw wait is not
// interruptible, so elsewhere a collection waits for the I/Os in flight.
func (psync) grant(r *run, n int) {
	if r.userSpaceFS {
		n = 0
	}
	for _, j := range r.jobs {
		for _, s := range j.slots {
			s.holdP, n = n > 0, n-1
		}
	}
}

// runJob runs each slot of j on a goroutine of its own; the one slot of a
// job at iodepth 1 runs on the job's, which leaves the start gate
// holding its P (gate.go), where a new goroutine could be taken by
// another P's thread and wait for it to run.
func (psync) runJob(r *run, j *job) {
	if len(j.slots) == 1 {
		r.runSlot(j.slots[0])
		return
	}
	var wg sync.WaitGroup
	for _, s := range j.slots {
		wg.Go(func() { r.runSlot(s) })
	}
	wg.Wait()
}

// runSlot issues the slot's I/Os one after another until the run stops.
func (r *run) runSlot(s *slot) {
	if r.paced {
		defer pace()()
	}
	for {
		req, ok := s.next(r)
		if !ok || (r.paced && !r.sleepUntil(req.due)) {
			return
		}
		for !s.arm(r, &req) {
			if r.stop.Load() {
				return
			}
			runtime.Gosched()
		}
		if !r.issue(s, &req) {
			return
		}
	}
}

// issue transfers req and accounts for it; false when the run stops. A
// file-set run's I/O holds its file open meanwhile.
func (r *run) issue(s *slot, req *ioRequest) bool {
	req.fd = s.job.fd
	if r.files != nil {
		fd, err := r.acquire(s.job, req)
		if err != nil {
			r.fail(err)
			return false
		}
		req.fd = fd
		defer r.release(s.job, req)
	}
	issued := r.clock()
	n, err := r.transfer(req.fd, req, s.holdP)
	return s.complete(r, req, n, r.clock()-issued, err)
}

// transfer issues req synchronously, holding the P with holdP. Without
// it, a buffered transfer is first tried without waiting, which the page
// cache usually allows, so that the goroutine keeps its P for it; what
// that does not move is then moved by pread or pwrite. A slot that holds
// its P anyway issues pread or pwrite at once: the try's preadv2 would
// cost a page-cache read an iovec, and a miss a second system call.
func (r *run) transfer(fd int, req *ioRequest, holdP bool) (int, error) {
	var done int
	if !r.direct && !holdP {
		n, err, ok := r.try(fd, req)
		if ok && (err != nil || n == len(req.buf)) {
			return n, err
		}
		if ok {
			done = n
		}
	}
	var n int
	var err error
	if req.op == opRead {
		n, err = r.sys.pread(fd, req.buf[done:], req.offset+int64(done), holdP)
	} else {
		n, err = r.sys.pwrite(fd, req.buf[done:], req.offset+int64(done), holdP)
	}
	return done + max(n, 0), err
}

func (r *run) try(fd int, req *ioRequest) (int, error, bool) {
	if req.op == opRead {
		return r.sys.tryPread(fd, req.buf, req.offset)
	}
	return r.sys.tryPwrite(fd, req.buf, req.offset)
}
