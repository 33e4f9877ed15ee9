// Package driver is the contract between the scheduler and the engines
// that do the I/O (the built-in one, fio, an external command): the
// resolved target a step runs against and the one method a driver
// implements, and the registry the engine packages add themselves to,
// which says what engines a build has. It has its own package so that
// drivers depend on the contract and not on each other or on the
// scheduler.
package driver

import (
	"context"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
)

// Target is an already-resolved file or block device: the scheduler has
// checked that it may be written, created scratch files and knows its
// capacity.
type Target struct {
	Path string
	// Capacity is the number of usable bytes from offset 0.
	Capacity int64
	// BlockSize is the logical block size O_DIRECT aligns to; 0 means
	// 4096.
	BlockSize int
}

// LogicalBlockSize is the alignment O_DIRECT needs on the target.
func (t Target) LogicalBlockSize() int {
	if t.BlockSize <= 0 {
		return 4096
	}
	return t.BlockSize
}

// Driver runs one workload against a target. live, when not nil, receives
// about one sample a second while the workload runs. On cancellation a
// driver stops within a second and returns what it measured so far with
// the context's error.
type Driver interface {
	Run(ctx context.Context, t Target, w workload.Workload, live func(metrics.Sample)) (*metrics.Result, error)
}

// Step is the identity of the step a driver runs: its content ID and the
// folder that holds its record. A driver that leaves files of its own
// (fio's job file) names them after ID and puts them in Dir, beside the
// record.
type Step struct {
	ID  string
	Dir string
}

// StepDriver is implemented by a driver that wants to know the step it
// runs: the scheduler calls ForStep before each step and runs the driver
// it returns. Drivers without files of their own need not implement it.
type StepDriver interface {
	Driver
	ForStep(s Step) Driver
}

// Checker is implemented by a driver that cannot run every workload the
// plan language can state: Check says, before anything runs, why w cannot
// be run, or nil.
type Checker interface {
	Check(w workload.Workload) error
}
