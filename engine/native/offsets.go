package native

import (
	"math/rand/v2"
	"sort"
	"strings"
)

// op is the direction of one I/O.
type op int

const (
	opRead op = iota
	opWrite
)

// syscall is the name of the system call that carries op out with psync.
func (o op) syscall() string {
	if o == opRead {
		return "pread"
	}
	return "pwrite"
}

// pattern is what an rw mode means: random or sequential offsets and the
// share of reads.
type pattern struct {
	random bool
	// readPct is the fixed share of reads in percent, or workloadReadPct
	// when the workload's read_pct applies.
	readPct int
}

const workloadReadPct = -1

// patterns are the rw modes, by name.
var patterns = map[string]pattern{
	"read":      {random: false, readPct: 100},
	"write":     {random: false, readPct: 0},
	"randread":  {random: true, readPct: 100},
	"randwrite": {random: true, readPct: 0},
	"rw":        {random: false, readPct: workloadReadPct},
	"randrw":    {random: true, readPct: workloadReadPct},
}

// patternNames lists the rw modes for error messages.
func patternNames() string {
	names := make([]string, 0, len(patterns))
	for name := range patterns {
		names = append(names, name)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// readShare is the percentage of reads p issues under read_pct readPct.
func (p pattern) readShare(readPct int) int {
	if p.readPct == workloadReadPct {
		return readPct
	}
	return p.readPct
}

// opMix picks the direction of each I/O: a read with probability
// readPct percent, drawn from the slot's own random stream.
type opMix struct {
	readPct int
	rng     *rand.Rand
}

func (m opMix) next() op {
	switch {
	case m.readPct >= 100:
		return opRead
	case m.readPct <= 0:
		return opWrite
	case m.rng.IntN(100) < m.readPct:
		return opRead
	}
	return opWrite
}

// offsetSource yields the offset of each I/O. n is the I/O's sequence
// number within its job, counted from 0 across all the job's slots.
type offsetSource interface {
	offset(n int64) int64
}

// sequentialOffsets walks a job's slice block by block, wrapping at its
// end: the n-th I/O of the job goes to the n-th block, so the slots of a
// job share one cursor and a pass writes every block exactly once.
type sequentialOffsets struct {
	slice region
	bs    int64
}

func (s sequentialOffsets) offset(n int64) int64 {
	return s.slice.start + n%s.slice.blocks(s.bs)*s.bs
}

// randomOffsets picks a block of the region uniformly at random for every
// I/O, from the slot's own random stream.
type randomOffsets struct {
	region region
	bs     int64
	rng    *rand.Rand
}

func (r randomOffsets) offset(int64) int64 {
	return r.region.start + r.rng.Int64N(r.region.blocks(r.bs))*r.bs
}

// stream names what a slot's random numbers are for; each purpose has its
// own stream so adding draws for one does not shift the others.
type stream uint64

const (
	streamOffsets stream = iota
	streamOps
	streamData
)

// slotRNG returns the random stream of one purpose for the slot with the
// given index in the run. The same seed gives every slot the same offsets,
// op choices and data again.
func slotRNG(seed uint64, slot int, purpose stream) *rand.Rand {
	return rand.New(rand.NewPCG(seed, splitmix64(uint64(slot)<<8|uint64(purpose))))
}

// splitmix64 scatters consecutive integers over the 64-bit space, so
// neighbouring slots start their streams far apart.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
