package native

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// uring runs each job on its own io_uring: one goroutine, locked to its
// thread, keeps the job's iodepth slots in flight, submitting every ready
// I/O and reaping every completion in one system call.
type uring struct{}

func (uring) sharedRecorder() bool { return true }

func (uring) runJob(r *run, j *job) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if r.paced {
		pace()
	}
	rg, err := newRing(uint32(len(j.slots)))
	if err != nil {
		r.fail(err)
		return
	}
	defer rg.close()
	if rg.raw = acquireRawPermit(); rg.raw {
		defer releaseRawPermit()
	}
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

// ringJob is the state of one job on its ring, owned by its goroutine.
type ringJob struct {
	r     *run
	j     *job
	rg    *ring
	reqs  []ioRequest
	state []slotState
	// issued is when each in-flight I/O was submitted.
	issued []int64
	// bufIndex is each slot's registered read and write buffer; shared
	// the deduplicated data's.
	bufIndex [][2]int
	shared   int
	inFlight int
	active   int
	// submitted lists the slots queued in the current pass.
	submitted []int
}

func newRingJob(r *run, j *job, rg *ring) *ringJob {
	n := len(j.slots)
	return &ringJob{r: r, j: j, rg: rg, reqs: make([]ioRequest, n), state: make([]slotState, n),
		issued: make([]int64, n), bufIndex: make([][2]int, n), active: n, submitted: make([]int, 0, n)}
}

// maxFixedBuffers is the kernel's limit on registered buffers.
const maxFixedBuffers = 1 << 14

// register registers the target and the slots' buffers with the ring
// where the kernel allows it.
func (rj *ringJob) register() {
	rj.rg.registerFile(rj.r.fd)
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

// fill prepares and queues every slot that can go, and returns the
// earliest due time of a paced slot still waiting (-1 when none) and
// whether a slot waits for blocks another write holds.
func (rj *ringJob) fill() (wake int64, blocked bool) {
	wake = -1
	now := rj.r.clock()
	rj.submitted = rj.submitted[:0]
	for i, s := range rj.j.slots {
		switch rj.state[i] {
		case slotIdle:
			if !rj.prepare(i) {
				continue
			}
		case slotWaiting:
			if rj.r.stop.Load() {
				rj.retire(i)
				continue
			}
		default:
			continue
		}
		req := &rj.reqs[i]
		if rj.r.paced && req.due > now {
			if wake < 0 || req.due < wake {
				wake = req.due
			}
			continue
		}
		if !s.arm(rj.r, req) {
			blocked = true
			continue
		}
		rj.rg.queue(req.op, rj.r.fd, req.buf, req.offset, rj.bufferIndex(i, req), uint64(i))
		rj.state[i] = slotInFlight
		rj.inFlight++
		rj.submitted = append(rj.submitted, i)
	}
	return wake, blocked
}

// prepare gives slot i its next request; false when the slot is done.
func (rj *ringJob) prepare(i int) bool {
	req, ok := rj.j.slots[i].next(rj.r)
	if !ok {
		rj.retire(i)
		return false
	}
	rj.reqs[i] = req
	rj.state[i] = slotWaiting
	return true
}

func (rj *ringJob) retire(i int) {
	rj.state[i] = slotDone
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
		rj.issued[i] = now
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
		timeout = max(1, wake-now)
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
	head, tail := rj.rg.ready()
	if head == tail {
		return
	}
	now := rj.r.clock()
	for p := head; p != tail; p++ {
		c := rj.rg.cqe(p)
		i := int(c.userData)
		n, err := int(c.res), error(nil)
		if c.res < 0 {
			n, err = 0, unix.Errno(-c.res)
		}
		rj.state[i] = slotIdle
		rj.inFlight--
		rj.j.slots[i].complete(rj.r, &rj.reqs[i], n, now-rj.issued[i], err)
	}
	rj.rg.consumed(tail)
}
