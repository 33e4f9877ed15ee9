package native

import (
	"errors"
	"fmt"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The io_uring ABI (include/uapi/linux/io_uring.h), the parts the engine
// uses.
const (
	uringOffSQRing = 0
	uringOffCQRing = 0x8000000
	uringOffSQEs   = 0x10000000

	uringSetupCQSize       = 1 << 3
	uringSetupCoopTaskrun  = 1 << 8
	uringSetupSingleIssuer = 1 << 12
	uringSetupDeferTaskrun = 1 << 13

	uringFeatSingleMmap = 1 << 0
	uringFeatExtArg     = 1 << 8

	uringEnterGetEvents = 1 << 0
	uringEnterExtArg    = 1 << 3

	uringOpRead       = 22
	uringOpWrite      = 23
	uringOpReadFixed  = 4
	uringOpWriteFixed = 5

	uringSQEFixedFile = 1 << 0

	uringRegisterBuffers = 0
	uringRegisterFiles   = 2

	// uringMaxEntries is the kernel's limit on a submission queue.
	uringMaxEntries = 32768
)

// uringParams is struct io_uring_params.
type uringParams struct {
	sqEntries    uint32
	cqEntries    uint32
	flags        uint32
	sqThreadCPU  uint32
	sqThreadIdle uint32
	features     uint32
	wqFD         uint32
	resv         [3]uint32
	sqOff        uringSQOffsets
	cqOff        uringCQOffsets
}

type uringSQOffsets struct {
	head, tail, ringMask, ringEntries, flags, dropped, array, resv1 uint32
	userAddr                                                        uint64
}

type uringCQOffsets struct {
	head, tail, ringMask, ringEntries, overflow, cqes, flags, resv1 uint32
	userAddr                                                        uint64
}

// uringSQE is struct io_uring_sqe.
type uringSQE struct {
	opcode      uint8
	flags       uint8
	ioprio      uint16
	fd          int32
	off         uint64
	addr        uint64
	len         uint32
	rwFlags     uint32
	userData    uint64
	bufIndex    uint16
	personality uint16
	spliceFDIn  int32
	addr3       uint64
	pad         uint64
}

// uringCQE is struct io_uring_cqe.
type uringCQE struct {
	userData uint64
	res      int32
	flags    uint32
}

// uringGeteventsArg is struct io_uring_getevents_arg.
type uringGeteventsArg struct {
	sigmask   uint64
	sigmaskSz uint32
	minWait   uint32
	ts        uint64
}

// ring is one io_uring instance: the submission and completion queues
// mapped into memory, used by one goroutine.
type ring struct {
	fd       int
	ringMem  []byte // the SQ ring, and the CQ ring with IORING_FEAT_SINGLE_MMAP
	cqMem    []byte // the CQ ring when mapped on its own
	sqeMem   []byte
	sqes     []uringSQE
	cqes     []uringCQE
	sqTail   *uint32
	sqMask   uint32
	cqHead   *uint32
	cqTail   *uint32
	cqMask   uint32
	tail     uint32 // the local submission tail
	queued   uint32 // SQEs written but not yet submitted
	features uint32
	// fixedBuffers and fixedFile say what was registered.
	fixedBuffers bool
	fixedFile    bool
	// raw is set when the ring's goroutine has a P reserved for it
	// (procs.go): it then waits in io_uring_enter without handing its P
	// back to the scheduler.
	raw bool
	// unplugged is set when the ring carries I/Os to adjacent blocks
	// (a sequential job): it then submits them at most unpluggedBatch
	// to a system call (see unpluggedBatch).
	unplugged bool
	// arg and ts are the wait arguments, kept here so they outlive the
	// system call that points at them.
	arg uringGeteventsArg
	ts  unix.Timespec
	// seen is the completion queue's tail as the last io_uring_enter
	// returned, and seenAt the time then (nanotime): the completions
	// before seen had ended by seenAt.
	seen   uint32
	seenAt int64
}

// ErrIOUringUnavailable is matched (errors.Is) by the error Run returns
// when ioengine = "io_uring" and the kernel refuses to set up a ring.
var ErrIOUringUnavailable = errors.New("the kernel refuses io_uring")

// uringRefusedError explains a refused io_uring_setup.
type uringRefusedError struct{ cause error }

func (e *uringRefusedError) Error() string {
	why := "io_uring_setup failed"
	switch {
	case errors.Is(e.cause, unix.ENOSYS):
		why = "this kernel has no io_uring (io_uring_setup: ENOSYS)"
	case errors.Is(e.cause, unix.EPERM):
		why = "io_uring is disabled here (io_uring_setup: EPERM; see sysctl kernel.io_uring_disabled or the container's seccomp profile)"
	}
	return fmt.Sprintf("ioengine = \"io_uring\": %v: %s (%v); set ioengine = \"psync\"", ErrIOUringUnavailable, why, e.cause)
}

func (e *uringRefusedError) Unwrap() []error { return []error{ErrIOUringUnavailable, e.cause} }

// uringSetup is the io_uring_setup system call; a variable so tests can
// make the kernel refuse.
var uringSetup = func(entries uint32, p *uringParams) (int, error) {
	fd, _, errno := unix.Syscall(unix.SYS_IO_URING_SETUP, uintptr(entries), uintptr(unsafe.Pointer(p)), 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

// setupFlagSets are tried in order: completions run only when the owner
// waits for them (6.1 and later), then cooperative task work (5.19), then
// none.
var setupFlagSets = []uint32{
	uringSetupCQSize | uringSetupSingleIssuer | uringSetupDeferTaskrun,
	uringSetupCQSize | uringSetupCoopTaskrun,
	uringSetupCQSize,
}

// newRing sets up a ring for entries I/Os in flight. The calling
// goroutine must be locked to its thread, which alone may submit.
func newRing(entries uint32) (*ring, error) {
	var p uringParams
	var fd int
	var err error
	for _, flags := range setupFlagSets {
		p = uringParams{flags: flags, cqEntries: 2 * entries}
		if fd, err = uringSetup(entries, &p); !errors.Is(err, unix.EINVAL) {
			break
		}
	}
	if err != nil {
		return nil, &uringRefusedError{cause: err}
	}
	r := &ring{fd: fd, features: p.features}
	if err := r.mapQueues(&p); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// mapQueues maps the rings and the SQE array and points the ring's
// fields into them.
func (r *ring) mapQueues(p *uringParams) error {
	sqSize := int(p.sqOff.array) + int(p.sqEntries)*4
	cqSize := int(p.cqOff.cqes) + int(p.cqEntries)*int(unsafe.Sizeof(uringCQE{}))
	single := p.features&uringFeatSingleMmap != 0
	if single {
		sqSize = max(sqSize, cqSize)
	}
	var err error
	if r.ringMem, err = mapRing(r.fd, uringOffSQRing, sqSize); err != nil {
		return err
	}
	cq := r.ringMem
	if !single {
		if r.cqMem, err = mapRing(r.fd, uringOffCQRing, cqSize); err != nil {
			return err
		}
		cq = r.cqMem
	}
	sqeSize := int(p.sqEntries) * int(unsafe.Sizeof(uringSQE{}))
	if r.sqeMem, err = mapRing(r.fd, uringOffSQEs, sqeSize); err != nil {
		return err
	}
	r.sqes = unsafe.Slice((*uringSQE)(unsafe.Pointer(&r.sqeMem[0])), p.sqEntries)
	r.cqes = unsafe.Slice((*uringCQE)(unsafe.Pointer(&cq[p.cqOff.cqes])), p.cqEntries)
	r.sqTail = word(r.ringMem, p.sqOff.tail)
	r.sqMask = *word(r.ringMem, p.sqOff.ringMask)
	r.cqHead = word(cq, p.cqOff.head)
	r.cqTail = word(cq, p.cqOff.tail)
	r.cqMask = *word(cq, p.cqOff.ringMask)
	r.tail = atomic.LoadUint32(r.sqTail)
	array := unsafe.Slice(word(r.ringMem, p.sqOff.array), p.sqEntries)
	for i := range array {
		array[i] = uint32(i)
	}
	return nil
}

func mapRing(fd int, offset int64, size int) ([]byte, error) {
	mem, err := unix.Mmap(fd, offset, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE)
	if err != nil {
		return nil, fmt.Errorf("mapping an io_uring queue: %w", err)
	}
	return mem, nil
}

// word points at the 32-bit field at off in a mapped ring.
func word(mem []byte, off uint32) *uint32 {
	return (*uint32)(unsafe.Pointer(&mem[off]))
}

// registerFile registers fd as fixed file 0, which saves the kernel a
// file lookup per I/O; false when the kernel declines.
func (r *ring) registerFile(fd int) bool {
	fds := [1]int32{int32(fd)}
	_, _, errno := unix.Syscall6(unix.SYS_IO_URING_REGISTER, uintptr(r.fd), uringRegisterFiles, uintptr(unsafe.Pointer(&fds[0])), 1, 0, 0)
	r.fixedFile = errno == 0
	return r.fixedFile
}

// registerBuffers registers bufs as fixed buffers, by index, which spares
// the kernel mapping them for every I/O; false when the kernel declines
// (too many, or over the locked-memory limit).
func (r *ring) registerBuffers(bufs [][]byte) bool {
	iovs := make([]unix.Iovec, len(bufs))
	for i, b := range bufs {
		iovs[i].Base = &b[0]
		iovs[i].SetLen(len(b))
	}
	_, _, errno := unix.Syscall6(unix.SYS_IO_URING_REGISTER, uintptr(r.fd), uringRegisterBuffers, uintptr(unsafe.Pointer(&iovs[0])), uintptr(len(iovs)), 0, 0)
	r.fixedBuffers = errno == 0
	return r.fixedBuffers
}

// queue adds a read or write of buf at off to the submission queue;
// bufIndex is the fixed buffer holding buf when buffers are registered.
// The queue never overflows: a ring has as many entries as its job has
// slots.
func (r *ring) queue(o op, fd int, buf []byte, off int64, bufIndex int, userData uint64) {
	sqe := &r.sqes[r.tail&r.sqMask]
	*sqe = uringSQE{fd: int32(fd), off: uint64(off), addr: uint64(uintptr(unsafe.Pointer(&buf[0]))), len: uint32(len(buf)), userData: userData}
	switch {
	case r.fixedBuffers && o == opRead:
		sqe.opcode, sqe.bufIndex = uringOpReadFixed, uint16(bufIndex)
	case r.fixedBuffers:
		sqe.opcode, sqe.bufIndex = uringOpWriteFixed, uint16(bufIndex)
	case o == opRead:
		sqe.opcode = uringOpRead
	default:
		sqe.opcode = uringOpWrite
	}
	if r.fixedFile {
		sqe.fd, sqe.flags = 0, uringSQEFixedFile
	}
	r.tail++
	r.queued++
}

// unpluggedBatch is the most I/Os an unplugged ring submits to one
// io_uring_enter. The kernel plugs a submission of three or more, and in
// a plug the block layer merges I/Os to adjacent blocks into one request:
// a sequential job at iodepth 8 and 128 KiB, its 8 I/Os submitted
// together, sent 61,707 writes to a virtual disk as 16,031 requests of up
// to 512 KiB (block:block_bio_queue against block:block_rq_issue), each
// slower than the 128 KiB the profile asks for. fio, which submits each
// I/O as it is queued (iodepth_batch_submit=1), sent one request per
// write.
const unpluggedBatch = 2

// submit hands the queued entries to the kernel and, when wait is set,
// blocks until at least one completion is ready or, with a positive
// timeout, until timeout ns have passed.
func (r *ring) submit(wait bool, timeout int64) error {
	atomic.StoreUint32(r.sqTail, r.tail)
	for r.unplugged && r.queued > unpluggedBatch {
		n, err := r.enterRetrying(unpluggedBatch, 0, 0, 0, 0)
		if err != nil {
			return err
		}
		if n == 0 {
			break
		}
	}
	var flags, minComplete, arg, argSize uintptr
	if wait {
		flags, minComplete = uringEnterGetEvents, 1
		if timeout > 0 && r.features&uringFeatExtArg != 0 {
			r.ts = unix.NsecToTimespec(timeout)
			r.arg = uringGeteventsArg{ts: uint64(uintptr(unsafe.Pointer(&r.ts)))}
			flags |= uringEnterExtArg
			arg, argSize = uintptr(unsafe.Pointer(&r.arg)), unsafe.Sizeof(r.arg)
		}
	}
	_, err := r.enterRetrying(r.queued, minComplete, flags, arg, argSize)
	return err
}

// enterRetrying submits up to toSubmit queued entries, tried again when a
// signal interrupts it, and returns how many the kernel took. A wait that
// times out (ETIME) is no error.
func (r *ring) enterRetrying(toSubmit uint32, minComplete, flags, arg, argSize uintptr) (uint32, error) {
	for {
		n, errno := r.enter(toSubmit, minComplete, flags, arg, argSize)
		switch {
		case errno == unix.EINTR:
			continue
		case errno == unix.ETIME:
			return 0, nil
		case errno != 0:
			return 0, fmt.Errorf("io_uring_enter: %w", errno)
		}
		r.queued -= uint32(n)
		return uint32(n), nil
	}
}

// enter is the io_uring_enter system call. A raw one keeps the goroutine's
// P: the scheduler does not hand it to another thread while the kernel
// waits, which on a virtual machine saves two context switches per wait.
// The wait is interruptible, so a signal (the runtime's preemption
// request) ends it with EINTR and the goroutine can be stopped for a
// garbage collection.
func (r *ring) enter(toSubmit uint32, minComplete, flags, arg, argSize uintptr) (n uintptr, errno unix.Errno) {
	if r.raw {
		n, _, errno = unix.RawSyscall6(unix.SYS_IO_URING_ENTER, uintptr(r.fd), uintptr(toSubmit), minComplete, flags, arg, argSize)
	} else {
		n, _, errno = unix.Syscall6(unix.SYS_IO_URING_ENTER, uintptr(r.fd), uintptr(toSubmit), minComplete, flags, arg, argSize)
	}
	// Read before any preemption point (see clock): a goroutine
	// preempted before it reads them would date its completions late.
	r.seen, r.seenAt = atomic.LoadUint32(r.cqTail), nanotime()
	return n, errno
}

// ready returns the completions the kernel had posted when the last
// io_uring_enter returned, the queue positions from head up to, not
// including, tail, and the time then (nanotime), by which they had all
// ended. Pass them to cqe, then hand tail to consumed. Completions posted
// since wait for the next io_uring_enter, which returns at once for them.
func (r *ring) ready() (head, tail uint32, at int64) {
	return *r.cqHead, r.seen, r.seenAt
}

// cqe is the completion at queue position i.
func (r *ring) cqe(i uint32) *uringCQE { return &r.cqes[i&r.cqMask] }

// consumed returns the completions before tail to the kernel.
func (r *ring) consumed(tail uint32) { atomic.StoreUint32(r.cqHead, tail) }

// close unmaps the queues and closes the ring; the kernel finishes or
// cancels whatever is in flight.
func (r *ring) close() {
	for _, mem := range [][]byte{r.sqeMem, r.cqMem, r.ringMem} {
		if mem != nil {
			_ = unix.Munmap(mem)
		}
	}
	_ = unix.Close(r.fd)
}
