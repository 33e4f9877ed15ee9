// Package addrspace keeps drivebench's processes within an address-space
// limit (ulimit -v, RLIMIT_AS): the hook worker's own, and a user's.
//
// The Starlark interpreter (go.starlark.net/starlark) reserves 4 GiB of
// address space when its package is initialized, in every process that
// links it, so that it can represent small integers as addresses in that
// range without allocating. Only the hook worker runs Starlark code. In
// every other drivebench process those 4 GiB count against a user's
// limit for nothing: under ulimit -v 6000000 they left too little for
// the Go runtime's next mapping, and commands ended with a Go trace.
//
// This package is initialized before the Starlark package: Go initializes,
// in the order of their import paths, the packages whose imports are all
// initialized, this path sorts before go.starlark.net, and its imports are
// a subset of Starlark's. Its init lowers the soft limit so that the
// reservation fails (Starlark then allocates its integers) and silences
// the log line Starlark writes about it; [Release], which the script
// package calls from its own init, after Starlark's, restores both. In a
// hook worker whose limit leaves room for the reservation beside the
// hook's memory, the reservation is left to happen, for speed.
package addrspace

import (
	"errors"
	"io"
	"log"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
)

// WorkerEnv, set in a process's environment, makes it a hook worker with
// the memory limit in bytes it holds.
const WorkerEnv = "DRIVEBENCH_HOOK_WORKER"

// Starlark is the address space the Starlark package reserves at start.
const Starlark = 1 << 32

// WorkerHeadroom is the address space the worker may take beyond what it
// has mapped at start and the hook's memory limit: the garbage
// collector's and the runtime's own needs.
const WorkerHeadroom = 256 << 20

// unlimited is RLIM_INFINITY, which package syscall declares as -1.
const unlimited = ^uint64(0)

// restore undoes what init did; nil once done.
var restore func()

func init() {
	restore = hold(os.Getenv(WorkerEnv))
}

// Release restores the limit and the log output that init changed to keep
// Starlark from reserving its address space. The script package calls it
// from its init; later calls do nothing.
func Release() {
	if restore != nil {
		restore()
		restore = nil
	}
}

// hold makes a reservation of Starlark bytes fail from now on, unless
// worker (a hook worker's memory limit, "" outside the worker) has room
// for it, and returns what undoes that.
func hold(worker string) func() {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		return func() {}
	}
	mapped, err := Mapped()
	if err != nil {
		return func() {}
	}
	if memory, err := strconv.ParseInt(worker, 10, 64); err == nil && memory > 0 && room(lim.Cur, mapped) >= Starlark+uint64(memory)+WorkerHeadroom {
		return func() {}
	}
	out := log.Writer()
	log.SetOutput(io.Discard)
	held := lim
	// Half the reservation beyond what is mapped: it fails, and the other
	// packages' initialization has room to spare.
	held.Cur = min(lim.Cur, uint64(mapped)+Starlark/2)
	syscall.Setrlimit(syscall.RLIMIT_AS, &held)
	return func() {
		syscall.Setrlimit(syscall.RLIMIT_AS, &lim)
		log.SetOutput(out)
	}
}

// room is the address space a process with mapped bytes may still map
// under the limit cur.
func room(cur uint64, mapped int64) uint64 {
	if cur == unlimited {
		return unlimited
	}
	if cur < uint64(mapped) {
		return 0
	}
	return cur - uint64(mapped)
}

// Limit is the process's address-space limit in bytes (its soft
// RLIMIT_AS); ok is false when there is none.
func Limit() (limit uint64, ok bool) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil || lim.Cur == unlimited {
		return 0, false
	}
	return lim.Cur, true
}

// LimitWorker caps a hook worker's address space at what it has mapped
// plus memory and WorkerHeadroom, or at the limit it was started under
// when that is lower, and has the garbage collector work to stay within
// memory. It returns the cap.
func LimitWorker(memory int64) (uint64, error) {
	mapped, err := Mapped()
	if err != nil {
		return 0, err
	}
	debug.SetMemoryLimit(memory)
	limit := uint64(mapped + memory + WorkerHeadroom)
	if cur, ok := Limit(); ok {
		limit = min(limit, cur)
	}
	return limit, syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: limit, Max: limit})
}

// Mapped is the process's address space in use (VmSize).
func Mapped() (int64, error) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmSize in /proc/self/status")
}
