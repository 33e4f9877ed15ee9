package native

import (
	"errors"
	"runtime"

	"golang.org/x/sys/unix"
)

// uring runs each job on its own io_uring: one goroutine, locked to its
// thread, keeps the job's iodepth slots in flight, submitting every ready
// I/O and reaping every completion in one system call.
type uring struct{}

func (uring) sharedRecorder() bool { return true }

// waiters is one per job: the ring's goroutine.
func (uring) waiters(r *run) int { return len(r.jobs) }

func (uring) grant(r *run, n int) {
	for i, j := range r.jobs {
		j.holdP = i < n
	}
}

// runJob runs j on a ring of its own. The goroutine stays locked to its
// thread, which the ring requires, until the ring is closed.
func (uring) runJob(r *run, j *job) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if r.paced {
		defer pace()()
	}
	rg, err := newRing(uint32(len(j.slots)))
	if err != nil {
		r.fail(err)
		return
	}
	defer rg.close()
	rg.raw, rg.unplugged = j.holdP, j.sequential
	rj := newRingJob(r, j, rg)
	rj.register()
	rj.loop()
}

// slotState is where a slot of a ring job is in its I/O's life.
type slotState uint8

const (
	slotIdle     slotState = iota // no request
	slotWaiting                   // a request not yet due, or its blocks busy
	slotInFlight                  // submitted
	slotDone                      // the job's work is over for it
)

// ringJob is the state of one job on its ring, owned by its goroutine;
// its slots hold their own requests.
type ringJob struct {
	r  *run
	j  *job
	rg *ring
	// bufIndex is each slot's registered read and write buffer; shared
	// the deduplicated data's.
	bufIndex [][2]int
	shared   int
	inFlight int
	active   int
	// pending lists the slots neither in flight nor done, so that a pass
	// over the ring costs what it issues, not iodepth.
	pending []int
	// submitted lists the slots queued for the current pass's batch.
	submitted []int
	// canceled counts, per slot, how often in a row the kernel canceled
	// the slot's I/O (see reissue).
	canceled []uint8
	_        [64]byte
}

// spare is the unused capacity given to the slices a ring job writes, so
// that the next allocation is not on their last cache line.
const spare = 8

func newRingJob(r *run, j *job, rg *ring) *ringJob {
	n := len(j.slots)
	rj := &ringJob{r: r, j: j, rg: rg, bufIndex: make([][2]int, n), active: n,
		pending: make([]int, n, n+spare), submitted: make([]int, 0, n+spare), canceled: make([]uint8, n)}
	for i := range rj.pending {
		rj.pending[i] = i
	}
	return rj
}

// registeredBuffers says whether a job whose largest transfer is largest
// bytes registers its buffers: only when every transfer fits in a page.
// A registered buffer reaches the block layer a page per segment; a
// larger transfer then takes more of the device's queue than the same
// transfer from an unregistered buffer. O_DIRECT 128 KiB sequential
// writes at iodepth 8 on a virtio disk: 6,150 of 42,550 requests sent
// back for want of room in the queue and issued again, against none
// unregistered, and 14,160 against 16,219 IOPS; fio with fixedbufs=1 the
// same (5,255 requeued, 12,335 against 16,452 IOPS). A transfer of a
// page is one segment either way.
func registeredBuffers(largest, page int64) bool {
	return largest <= page
}

// maxFixedBuffers is the kernel's limit on registered buffers.
const maxFixedBuffers = 1 << 14

// register registers the target with the ring, and the slots' buffers
// where the kernel allows it and registeredBuffers says they help.
func (rj *ringJob) register() {
	rj.rg.registerFile(rj.j.fd)
	if !registeredBuffers(rj.j.slots[0].sizes.largest(), int64(unix.Getpagesize())) {
		return
	}
	var bufs [][]byte
	for i, s := range rj.j.slots {
		if s.readBuf != nil {
			rj.bufIndex[i][opRead] = len(bufs)
			bufs = append(bufs, s.readBuf)
		}
		if s.writes != nil {
			rj.bufIndex[i][opWrite] = len(bufs)
			bufs = append(bufs, s.writes.buf)
		}
	}
	if shared := rj.r.data.shared; shared != nil {
		rj.shared = len(bufs)
		bufs = append(bufs, shared)
	}
	if len(bufs) <= maxFixedBuffers {
		rj.rg.registerBuffers(bufs)
	}
}

// loop keeps the slots busy until every one is done and nothing is in
// flight.
func (rj *ringJob) loop() {
	for rj.active > 0 || rj.inFlight > 0 {
		wake, blocked := rj.fill()
		if !rj.wait(wake, blocked) {
			return
		}
		rj.reap()
	}
}

// fill prepares and queues every pending slot that can go, and returns
// the earliest due time of a paced slot still waiting (-1 when none) and
// whether a slot waits for blocks another write holds.
func (rj *ringJob) fill() (wake int64, blocked bool) {
	wake = -1
	now := rj.r.clock()
	rj.submitted = rj.submitted[:0]
	still := rj.pending[:0]
	for _, i := range rj.pending {
		switch batched, due, busy := rj.try(i, now); {
		case batched:
			rj.submitted = append(rj.submitted, i)
		case rj.j.slots[i].state == slotWaiting:
			still = append(still, i)
			if due >= 0 && (wake < 0 || due < wake) {
				wake = due
			}
			blocked = blocked || busy
		}
	}
	rj.pending = still
	return wake, blocked
}

// try readies slot i and queues its I/O when it can go; batched reports
// that the I/O waits for the pass's submission. Otherwise try returns when
// the slot's paced I/O is due (-1 when it is not paced or already due)
// and whether its blocks are busy.
func (rj *ringJob) try(i int, now int64) (batched bool, due int64, blocked bool) {
	s := rj.j.slots[i]
	if s.state == slotIdle && !rj.prepare(s) {
		return false, -1, false
	}
	if rj.r.stop.Load() {
		rj.retire(s)
		return false, -1, false
	}
	req := &s.req
	if rj.r.paced && req.due > now {
		return false, req.due, false
	}
	if !s.arm(rj.r, req) {
		return false, -1, true
	}
	rj.rg.queue(req.op, rj.j.fd, req.buf, req.offset, rj.bufferIndex(i, req), uint64(i))
	s.state = slotInFlight
	rj.inFlight++
	return true, -1, false
}

// prepare gives s its next request; false when the slot is done.
func (rj *ringJob) prepare(s *slot) bool {
	req, ok := s.next(rj.r)
	if !ok {
		rj.retire(s)
		return false
	}
	s.req, s.state = req, slotWaiting
	return true
}

func (rj *ringJob) retire(s *slot) {
	s.state = slotDone
	rj.active--
}

// bufferIndex is the registered buffer holding req's data.
func (rj *ringJob) bufferIndex(i int, req *ioRequest) int {
	if req.op == opWrite && rj.r.data.shared != nil && &req.buf[0] == &rj.r.data.shared[0] {
		return rj.shared
	}
	return rj.bufIndex[i][req.op]
}

// wait submits what fill queued and waits for a completion, or, with
// nothing in flight, for the earliest due time or for busy blocks to
// free. false when the ring failed.
func (rj *ringJob) wait(wake int64, blocked bool) bool {
	now := rj.r.clock()
	for _, i := range rj.submitted {
		rj.j.slots[i].issued = now
	}
	if rj.inFlight == 0 {
		switch {
		case wake >= 0:
			rj.r.sleepUntil(wake)
		case blocked:
			ts := unix.NsecToTimespec(blockedNap)
			_ = unix.Nanosleep(&ts, nil)
		}
		return true
	}
	var timeout int64
	if wake >= 0 {
		timeout = min(max(1, wake-now), int64(longestNap))
	}
	if err := rj.rg.submit(true, timeout); err != nil {
		rj.r.fail(err)
		return false
	}
	return true
}

// blockedNap is how long a ring job with nothing in flight waits for
// blocks another job's write holds.
const blockedNap = 20_000 // ns

// reap accounts for every completion the ring holds.
func (rj *ringJob) reap() {
	head, tail, at := rj.rg.ready()
	if head == tail {
		return
	}
	now := rj.r.clockAt(at)
	for p := head; p != tail; p++ {
		c := rj.rg.cqe(p)
		i := int(c.userData)
		n, err := int(c.res), error(nil)
		if c.res < 0 {
			n, err = 0, unix.Errno(-c.res)
		}
		s := rj.j.slots[i]
		rj.inFlight--
		rj.pending = append(rj.pending, i)
		if errors.Is(err, unix.ECANCELED) && rj.reissue(s, i) {
			continue
		}
		rj.canceled[i] = 0
		s.state = slotIdle
		s.complete(rj.r, &s.req, n, now-s.issued, err)
	}
	rj.rg.consumed(tail)
}

// maxReissues is how often in a row an I/O the kernel canceled is issued
// again before it fails the run.
const maxReissues = 3

// reissue puts back slot i's I/O, which the kernel completed with
// ECANCELED without running it, to be issued again (or dropped, when the
// run is stopping); false when it has been canceled maxReissues times in
// a row. The engine never cancels an I/O. The kernel does: on Linux 6.1
// an O_DIRECT transfer the block layer has to split (1 MiB on an NVMe
// drive) goes to an io-wq worker, and in about one step in fifty of
// 1 MiB transfers on an emulated NVMe drive the kernel canceled every
// such I/O in flight at once, none with the Go runtime's preemption
// signals off (GODEBUG=asyncpreemptoff=1). Issued again, each completed.
func (rj *ringJob) reissue(s *slot, i int) bool {
	if rj.canceled[i] >= maxReissues {
		return false
	}
	rj.canceled[i]++
	if rj.r.blocks != nil && s.req.op == opWrite {
		rj.r.blocks.release(s.req.offset, s.req.size)
	}
	s.state = slotWaiting
	return true
}
