package native

import (
	"errors"
	"fmt"
)

// WorkloadError reports a workload the engine cannot run. Field is the
// workload attribute at fault, as the plan spells it ("iodepth", "bs",
// "offset", ...), so a caller can point the user at it.
type WorkloadError struct {
	Field string
	// Problem says what is wrong and what to do, without the field name.
	Problem string
}

func (e *WorkloadError) Error() string {
	return fmt.Sprintf("workload %s: %s", e.Field, e.Problem)
}

func workloadErrorf(field, format string, args ...any) error {
	return &WorkloadError{Field: field, Problem: fmt.Sprintf(format, args...)}
}

// IOError is a failed or short transfer. It stops the run; Run returns it
// together with the result measured up to that point.
type IOError struct {
	Path string
	// Op is the system call that failed: "pread", "pwrite" or "fsync"
	// (whose Offset is 0).
	Op     string
	Offset int64
	// Err is the errno (a unix.Errno, comparable with errors.Is) or a
	// description of a short transfer.
	Err error
}

func (e *IOError) Error() string {
	return fmt.Sprintf("%s %s at offset %d: %v", e.Op, e.Path, e.Offset, e.Err)
}

func (e *IOError) Unwrap() error { return e.Err }

// shortTransfer is the cause of an IOError when the kernel moved fewer
// bytes than asked: the target ended early or the device misbehaved.
type shortTransfer struct {
	got, want int
}

func (e *shortTransfer) Error() string {
	return fmt.Sprintf("short transfer: %d of %d bytes", e.got, e.want)
}

// ErrDirectRefused is matched (errors.Is) by the error Run returns when
// the target's filesystem or device rejects O_DIRECT.
var ErrDirectRefused = errors.New("the filesystem refuses O_DIRECT")

// directRefusedError wraps the open or I/O failure that showed O_DIRECT is
// refused; errors.Is finds ErrDirectRefused and errors.As the cause (an
// *IOError when a transfer failed).
type directRefusedError struct {
	path  string
	cause error
}

func (e *directRefusedError) Error() string {
	return fmt.Sprintf("%s: %v (%v); set direct = false or put the target on another filesystem",
		e.path, ErrDirectRefused, e.cause)
}

func (e *directRefusedError) Unwrap() []error { return []error{ErrDirectRefused, e.cause} }
