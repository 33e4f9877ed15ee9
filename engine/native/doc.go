// Package native is drivebench's built-in I/O engine: it runs one
// workload (workload.Workload) against one file or block device and returns
// what it measured as a metrics.Result, in the same histogram and time
// series model the fio driver produces, so the two engines' results
// compare and merge exactly.
//
// It exists so a plan runs on any Linux machine without fio installed,
// and so the engine's behaviour is ours to test: which bytes a write
// carries, how offsets and sizes are drawn, when a paced I/O was due,
// what a ramp excludes, whether the drive gave back what it was given.
//
// # Model
//
// A run has numjobs jobs of iodepth slots each. A slot is one outstanding
// I/O with its own buffers and random streams. The I/O method (ioengine)
// decides how slots reach the kernel: "psync" runs each slot as a
// goroutine issuing pread or pwrite; "io_uring" runs each job on a ring
// of its own (set up through golang.org/x/sys, no cgo), one goroutine
// submitting every ready I/O and reaping every completion in one system
// call, with the target registered with the kernel, and the buffers too
// where every transfer fits in a page (a larger registered buffer reaches
// the block layer a page per segment, and a virtio disk sent such
// requests back for want of queue room). The
// default is io_uring when the kernel offers it and the job keeps more
// than one I/O in flight or uses O_DIRECT, and psync otherwise. A kernel
// that refuses io_uring gives an error that says so and suggests psync
// when io_uring was asked for, and psync when it was the default.
//
// The jobs start together (gate.go): each job's goroutine is started and
// held at a gate until all are there, and only then do the run's clock
// and its measured phase start, as a checkpoint's ranks start behind a
// barrier: no job begins before every one is ready, and the time spent
// making them ready is in no job's seconds.
//
// Both spare the Go scheduler where they safely can, because on a
// virtual machine every thread hand-off costs microseconds. A goroutine
// that may block in the kernel, a psync slot or a ring's goroutine, does
// so in a raw system call that keeps its P, and the run adds one P to
// GOMAXPROCS for each of them while it lasts (up to 1024 in the process;
// the rest wait in ordinary system calls): a completion never waits for a
// P, and the Ps there were before stay free for the rest of the program.
// A psync slot with a P of its own issues pread64 or pwrite64 at once; one
// without first tries a buffered transfer with RWF_NOWAIT, which the page
// cache completes at once or refuses at once (the I/O is then issued
// normally). A ring's goroutine waits for completions in io_uring_enter,
// which signals interrupt, so the runtime can still stop it for a
// garbage collection. A random job's ring submits every I/O that is
// ready in the same io_uring_enter that waits for the next completion: one
// system call, and on a virtual disk one notification of the device, a
// batch. Measured on a virtio disk, 4 KiB random reads at iodepth 32
// submitted one system call each kept only about 22 of the 32 slots in
// flight and ran at 0.59x the batched rate. A sequential job's ring
// submits at most two I/Os a call: the kernel plugs a larger batch, and
// in the plug adjacent I/Os merge into requests larger than the profile's.
//
// The region is offset bytes into the target, size bytes (or size_pct
// percent of the capacity, or the rest of the target) long, rounded down
// to whole granules: the largest size that divides every transfer size
// (bs, or each size of bs_split). Random patterns place each I/O at a
// granule-aligned offset: uniformly over the region, or over a zone drawn
// by the zones' access shares (fio's zoned distribution), or, with
// probability seq_pct, right after the slot's previous I/O. Sizes are
// drawn from bs_split by weight, directions by read_pct. Each purpose has
// its own PCG stream per slot, seeded from the workload's seed and the
// slot's index, so a run repeats. Sequential patterns split the region
// into numjobs contiguous slices, one per job (fio's offset_increment =
// size/numjobs); the slots of a job take consecutive bytes from one shared
// cursor, an I/O never crossing the end of the slice, so a sequential
// write pass writes every byte of the region exactly once.
//
// # Budgets and phases
//
// A run stops at its runtime or when it has transferred its byte budget,
// whichever comes first: bytes in total, bytes_pct percent of the region,
// or loops passes over it (one pass when nothing else bounds the run). A
// time-based run issues I/Os for ramp before the measured phase and drops
// what they recorded; the budget counts them. The measured phase ends
// when the last I/O in flight completes, so IOPS is the I/Os completed
// divided by the reported runtime.
//
// # Rate control
//
// rate_iops or rate_bw paces each job at its share of the target, open
// loop: a job's arrival schedule (uniform, or Poisson with exponential
// gaps drawn from the seed) fixes every I/O's intended time in advance,
// and a slot issues its I/O when it is due. Latency then counts from the
// intended time: an I/O that would have had to wait behind a slow one of
// its slot, had every I/O been issued on time, has that wait added to its
// service time. A stalled drive thus shows as latency in every I/O
// scheduled behind the stall (no coordinated omission), while the
// engine's own lateness, a timer that wakes late, is not charged to the
// drive. Paced goroutines sleep on their own thread with a timer slack of
// 1 ns.
//
// # Trace replay
//
// A workload with a Replay issues the I/Os of a captured trace instead
// of drawing them (replay.go), open loop as a rate limit is: one
// dispatcher goroutine reads the trace as it goes (the trace package's
// readers stream; nothing the replay keeps grows with the trace but a lag
// sample an interval), sleeps until each I/O's time in the trace scaled by
// the speed, and hands it to a free one of iodepth psync slots. When every
// slot has an I/O in flight the dispatcher waits for one: that wait, the
// time from an I/O's scheduled time to its issue, is the replay's lag,
// recorded in a histogram and a series over the schedule, and an I/O that
// waited is counted, as the drive, at that cap, not keeping up. Latency
// counts from the scheduled time, so the wait is charged to the drive,
// and the service time (submission to completion) is kept beside. A first
// pass over the trace, before any I/O, counts what the replay is to issue
// (its window and disk, what becomes of writes, flushes and trims), sizes
// the buffers for its largest transfer and refuses a trace that does not
// fit the region (unless folded) or that O_DIRECT cannot issue; the
// result sets those counts beside the I/Os and bytes the replay completed,
// which must be equal. Flushes are issued as fsync; trims are left out.
// The replay runs on psync slots alone: one dispatcher handing I/Os to
// threads keeps each I/O's issue time its own, where a ring's batched
// submission would date a batch by its last I/O.
//
// # Data and verification
//
// Write buffers are seeded once per slot: random bytes, zeroes, random
// bytes followed by zeroes in each 512-byte sector (compressible), or
// random bytes of which dedupe_pct percent of the writes carry one shared
// content instead. Every write of random content stamps a fresh 8-byte
// value at the start of each sector, so no two sectors a run writes are
// equal and a drive cannot deduplicate them.
//
// With verify, every granule-sized block written starts with a 40-byte
// header: magic, offset, the run's nonce, the block's generation (how
// often the run has written it), length and a CRC-32C of the whole block.
// The engine keeps the generation of every block (4 bytes a block) and
// never has two writes to one block in flight. After the run it syncs
// the target, drops its cached pages and reads the region back, and
// reports each written block that is corrupt (no header, or the checksum
// fails), misplaced (an intact block of another offset) or stale (an
// intact block of an earlier write or another run) in a *VerifyError.
//
// # Measurements and memory
//
// Completions are recorded without locks into per-interval histograms:
// each psync slot, or each io_uring job, has two buffers per direction
// and the run's epoch says which is current. Once an interval the
// supervisor moves the epoch on, waits for any record under way in the
// old buffers, and folds them into the interval's sample (IOPS,
// bandwidth, mean, p50, p99 and p99.99 of that interval alone, and the
// bytes written so far) and into the run's totals. The few milliseconds
// between the run's last tick and its end, the drain of the I/Os then in
// flight, are folded into the last interval (metrics.FoldStub), its
// percentiles read from the two intervals' merged histograms. Under a rate
// limit, where latency counts from each I/O's due time, the service times
// (submission to completion) are kept beside, in two histograms more per
// direction, for the result's service latency (DirStats.Service). A recorder holds 32
// KiB per direction whatever the run's length; a sample is 72 bytes, 259
// KB per hour of one-second intervals, the only memory that grows with
// time.
//
// # File sets
//
// A workload with files runs on a file set: the target is a folder, in
// which the set has a folder of its own named after its shape (workload.Workload.FileSetName),
// so steps with the same set share its files. The files lie end to end in
// one virtual region, so offsets, slices, budgets and pacing work on it
// as on a drive; each I/O is then mapped to its file and the offset in
// it (fileset.go). A job owns files/numjobs of the files, its slice of the
// region (one file is shared, in slices, as a drive's region is). The
// file selection picks the file of an I/O: sequential takes the job's
// files one after another (the virtual offset's own file), roundrobin the
// next file every I/O, random a uniform one and zipf:THETA file i in
// proportion to 1/(i+1)^THETA; with those the offset in the file is random
// (a random pattern) or the file's next bytes. A job keeps at most
// open_files files open, closing the least recently used idle one to open
// another; opens, creates, closes, flushes, stats and unlinks are each
// timed into a histogram of their own (metrics.FileSetStats), apart from
// the transfers. A file set runs on psync: a file opened and closed while
// the run goes on cannot stay registered with a ring.
//
// Before the run the set is made ready (setup, kept out of the figures
// unless measure_setup): a file at its size is used as it is, any other is
// created and, for a run that reads, filled, flushed and evicted from the
// page cache, as fio lays out its files; for a run that only writes, its
// space is allocated. With drop_cache the whole page cache is emptied
// first (sync, /proc/sys/vm/drop_caches, root only), or, when that is
// refused, the target's own pages are evicted and the result says so.
//
// # Dataloaders
//
// A workload with a batch size is a training job's input pipeline, as
// MLPerf Storage's DLIO runs one (dataloader.go): its data set is a file
// set of files of samples_per_file records, made ready as any set is;
// each epoch visits every sample once in an order shuffled by the seed and
// the epoch, cut into batches; reader threads take the samples in that
// order and read each whole, in transfers of at most bs (a whole number
// of blocks under O_DIRECT, records rounded up), each keeping the file of
// its last sample open; one goroutine stands for the accelerator, taking
// the batches in order, waiting for each until its last sample is read
// (the batch wait, into a histogram of its own) and then sleeping the
// compute time. The readers run ahead of it by at most two batches per
// reader (PyTorch's prefetch_factor), and a new epoch starts with nothing
// read ahead. The accelerator utilisation is the time it slept over the
// run's length, from the set's readiness to the last batch's compute. The
// mechanics take the clock as a value (loaderClock), so that the tests
// judge the waits and the utilisation on a virtual one.
//
// With direct = true the target is opened with O_DIRECT and the buffers
// are page-aligned anonymous mappings; every transfer size and the offset
// must be multiples of the target's logical block size.
package native
