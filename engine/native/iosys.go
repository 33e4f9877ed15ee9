package native

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// syscalls is the system interface the engine opens the target and moves
// data through. Run uses unixSyscalls; tests wrap it to watch or fail
// individual transfers.
type syscalls interface {
	open(path string, flags int) (fd int, err error)
	pread(fd int, buf []byte, off int64) (int, error)
	pwrite(fd int, buf []byte, off int64) (int, error)
	close(fd int) error
}

// unixSyscalls calls the kernel directly, retrying calls a signal
// interrupted.
type unixSyscalls struct{}

func (unixSyscalls) open(path string, flags int) (int, error) {
	return retryEINTR(func() (int, error) { return unix.Open(path, flags, 0) })
}

func (unixSyscalls) pread(fd int, buf []byte, off int64) (int, error) {
	return retryEINTR(func() (int, error) { return unix.Pread(fd, buf, off) })
}

func (unixSyscalls) pwrite(fd int, buf []byte, off int64) (int, error) {
	return retryEINTR(func() (int, error) { return unix.Pwrite(fd, buf, off) })
}

func (unixSyscalls) close(fd int) error { return unix.Close(fd) }

func retryEINTR(call func() (int, error)) (int, error) {
	for {
		n, err := call()
		if !errors.Is(err, unix.EINTR) {
			return n, err
		}
	}
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
