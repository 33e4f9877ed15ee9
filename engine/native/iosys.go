package native

import (
	"errors"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// syscalls is the system interface the engine opens the target and moves
// data through. Run uses unixSyscalls; tests wrap it to watch or fail
// individual transfers.
type syscalls interface {
	open(path string, flags int) (fd int, err error)
	// pread and pwrite transfer buf at off, waiting for the kernel.
	// With holdP the wait is a raw system call that keeps the
	// goroutine's P (see procs.go); the caller must own a P reserved for
	// it.
	pread(fd int, buf []byte, off int64, holdP bool) (int, error)
	pwrite(fd int, buf []byte, off int64, holdP bool) (int, error)
	// tryPread and tryPwrite attempt a buffered transfer that the kernel
	// completes without waiting (RWF_NOWAIT): from or into the page
	// cache. ok is false when it would have to wait, or cannot tell; the
	// caller then issues pread or pwrite. They return as soon as the
	// kernel does, so they are issued without handing the goroutine's P
	// back to the scheduler.
	tryPread(fd int, buf []byte, off int64) (n int, err error, ok bool)
	tryPwrite(fd int, buf []byte, off int64) (n int, err error, ok bool)
	// fsync flushes what was written through fd to the drive.
	fsync(fd int) error
	close(fd int) error
}

// unixSyscalls calls the kernel directly, retrying calls a signal
// interrupted.
type unixSyscalls struct{}

func (unixSyscalls) open(path string, flags int) (int, error) {
	return retryEINTR(func() (int, error) { return unix.Open(path, flags, 0) })
}

func (unixSyscalls) pread(fd int, buf []byte, off int64, holdP bool) (int, error) {
	if holdP {
		return rawTransfer(opRead, fd, buf, off)
	}
	return retryEINTR(func() (int, error) { return unix.Pread(fd, buf, off) })
}

func (unixSyscalls) pwrite(fd int, buf []byte, off int64, holdP bool) (int, error) {
	if holdP {
		return rawTransfer(opWrite, fd, buf, off)
	}
	return retryEINTR(func() (int, error) { return unix.Pwrite(fd, buf, off) })
}

// rawTransfer issues a read or write as a raw system call, which keeps
// the goroutine's P while the kernel waits for the device. A signal's
// EINTR is tried again.
func rawTransfer(o op, fd int, buf []byte, off int64) (int, error) {
	for {
		n, errno := rawPositioned(o, fd, buf, off)
		switch errno {
		case 0:
			return int(n), nil
		case unix.EINTR:
			continue
		}
		return -1, errno
	}
}

// rawPositioned is pread64 or pwrite64 where a word holds the whole
// offset, and preadv2 or pwritev2 elsewhere, whose offset comes in two
// words. The vectored calls cost the kernel an iovec copied in and
// checked: 2 % of a page-cache read's time.
func rawPositioned(o op, fd int, buf []byte, off int64) (uintptr, unix.Errno) {
	if wordBits == 64 {
		n, _, errno := unix.RawSyscall6(plainTraps[o], uintptr(fd), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), uintptr(off), 0, 0)
		return n, errno
	}
	return rawVectored(o, fd, buf, off, 0)
}

// rawVectored issues preadv2 or pwritev2 of buf with flags.
func rawVectored(o op, fd int, buf []byte, off int64, flags uintptr) (uintptr, unix.Errno) {
	iov := unix.Iovec{Base: &buf[0]}
	iov.SetLen(len(buf))
	lo, hi := offsetHalves(off)
	n, _, errno := unix.RawSyscall6(vectoredTraps[o], uintptr(fd), uintptr(unsafe.Pointer(&iov)), 1, lo, hi, flags)
	return n, errno
}

// plainTraps and vectoredTraps are the system calls of each op.
var (
	plainTraps    = [...]uintptr{opRead: unix.SYS_PREAD64, opWrite: unix.SYS_PWRITE64}
	vectoredTraps = [...]uintptr{opRead: unix.SYS_PREADV2, opWrite: unix.SYS_PWRITEV2}
)

// wordBits is the size of a machine word.
const wordBits = 8 * unsafe.Sizeof(uintptr(0))

func (unixSyscalls) close(fd int) error { return unix.Close(fd) }

func (unixSyscalls) fsync(fd int) error {
	_, err := retryEINTR(func() (int, error) { return 0, unix.Fsync(fd) })
	return err
}

func (unixSyscalls) tryPread(fd int, buf []byte, off int64) (int, error, bool) {
	return tryTransfer(opRead, fd, buf, off)
}

func (unixSyscalls) tryPwrite(fd int, buf []byte, off int64) (int, error, bool) {
	return tryTransfer(opWrite, fd, buf, off)
}

// tryTransfer issues preadv2 or pwritev2 with RWF_NOWAIT as a raw system
// call: the kernel either completes it at once or refuses with EAGAIN
// (or, where it does not support the flag for this file, EOPNOTSUPP), so
// the call never blocks while holding the P. A signal's EINTR is tried
// again.
func tryTransfer(o op, fd int, buf []byte, off int64) (int, error, bool) {
	for {
		n, errno := rawVectored(o, fd, buf, off, unix.RWF_NOWAIT)
		switch errno {
		case 0:
			return int(n), nil, true
		case unix.EINTR:
			continue
		case unix.EAGAIN, unix.EOPNOTSUPP:
			return 0, nil, false
		}
		return -1, errno, true
	}
}

func retryEINTR(call func() (int, error)) (int, error) {
	for {
		n, err := call()
		if !errors.Is(err, unix.EINTR) {
			return n, err
		}
	}
}

// offsetHalves splits off into the low and high words preadv2 and
// pwritev2 take; the high word is zero where a word holds 64 bits.
func offsetHalves(off int64) (lo, hi uintptr) {
	return uintptr(off), uintptr(uint64(off) >> (wordBits - 1) >> 1)
}

// openTarget opens the target for the workload: read-only when it never
// writes, with O_DIRECT when asked. A refusal of O_DIRECT is reported as
// such.
func openTarget(sys syscalls, path string, writes, direct bool) (int, error) {
	flags := unix.O_RDONLY | unix.O_CLOEXEC
	if writes {
		flags = unix.O_RDWR | unix.O_CLOEXEC
	}
	if direct {
		flags |= unix.O_DIRECT
	}
	fd, err := sys.open(path, flags)
	if err == nil {
		return fd, nil
	}
	if direct && errors.Is(err, unix.EINVAL) {
		return -1, &directRefusedError{path: path, cause: err}
	}
	return -1, fmt.Errorf("open %s: %w", path, err)
}

// servedByProcessPath is servedByProcess for the file system of path.
func servedByProcessPath(path string) bool {
	var st unix.Statfs_t
	return unix.Statfs(path, &st) == nil && st.Type == unix.FUSE_SUPER_MAGIC
}

// servedByProcess reports whether fd's file system is served by a process
// (FUSE) rather than the kernel.
func servedByProcess(fd int) bool {
	var st unix.Statfs_t
	return unix.Fstatfs(fd, &st) == nil && st.Type == unix.FUSE_SUPER_MAGIC
}

// arena is the memory slots transfer through: one anonymous mapping cut
// into page-aligned buffers, as O_DIRECT requires, outside the Go heap.
type arena struct {
	mem    []byte
	size   int
	stride int
}

// mapArena maps count buffers of size bytes each.
func mapArena(count, size int) (*arena, error) {
	page := unix.Getpagesize()
	stride := (size + page - 1) / page * page
	if count <= 0 || stride <= 0 || stride > maxMapping/count {
		return nil, fmt.Errorf("cannot hold %d I/O buffers of %d bytes in memory; lower numjobs, iodepth or bs", count, size)
	}
	mem, err := unix.Mmap(-1, 0, count*stride, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil, fmt.Errorf("allocating %d I/O buffers of %d bytes: %w; lower numjobs, iodepth or bs", count, size, err)
	}
	return &arena{mem: mem, size: size, stride: stride}, nil
}

// maxMapping bounds the arena so its size cannot overflow an int.
const maxMapping = 1 << 46

// buffer returns the i-th buffer.
func (a *arena) buffer(i int) []byte {
	off := i * a.stride
	return a.mem[off : off+a.size : off+a.size]
}

// release unmaps the arena; its buffers must no longer be used.
func (a *arena) release() error {
	return unix.Munmap(a.mem)
}
