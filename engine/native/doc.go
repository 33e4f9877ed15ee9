// Package native is drivebench's built-in I/O engine: it runs one
// workload (plan.Workload) against one file or block device and returns
// what it measured as a metrics.Result, in the same histogram and time
// series model the fio driver produces, so the two engines' results
// compare and merge exactly.
//
// It exists so a plan runs on any Linux machine without fio installed,
// and so the engine's behaviour is ours to test: which bytes a fill
// writes, how random offsets are drawn, what a ramp excludes.
//
// # Model
//
// A run has numjobs jobs of iodepth slots each. A slot is one outstanding
// I/O with its own buffers, random streams and recorders, so completions
// are recorded without locks. The I/O method (ioengine) decides how slots
// reach the kernel; "psync", the default, runs each slot as a goroutine
// issuing pread or pwrite synchronously.
//
// The region is offset bytes into the target, size bytes (or size_pct
// percent of the capacity, or the rest of the target) long, rounded down
// to whole blocks of bs. Random patterns draw block-aligned offsets
// uniformly over the whole region, each slot from its own PCG stream
// seeded from the workload's seed and the slot's index, so a run repeats.
// Sequential patterns split the region into numjobs contiguous slices, one
// per job (fio's offset_increment = size/numjobs), and the slots of a job
// take consecutive blocks from one shared cursor: a sequential write pass
// writes every block of the region exactly once. The mixed patterns (rw,
// randrw) choose each I/O's direction with probability read_pct; rw's
// reads and writes share the cursor.
//
// # Phases
//
// A time-based run (runtime > 0) issues I/Os for ramp without recording
// them, then records for runtime, sampling the running totals once a
// second into the time series; sequential cursors wrap at the end of
// their slice. A byte-count run has no ramp: it transfers bytes, or loops
// passes over the region, exactly, then stops. The measured phase ends
// when the last I/O in flight completes, so IOPS is the I/Os completed
// divided by the reported runtime.
//
// With direct = true the target is opened with O_DIRECT and the buffers
// are page-aligned anonymous mappings; bs and offset must be multiples of
// the target's logical block size. Write buffers hold seeded random
// bytes, one buffer per slot.
package native
