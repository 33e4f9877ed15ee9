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

// randomOffsets places the I/Os of a random pattern: uniformly over the
// region, or over a zone drawn by the skew, or, with probability seqPct,
// right after the slot's previous I/O. Offsets are multiples of the
// granule from the region's start and an I/O never crosses the region's
// end.
type randomOffsets struct {
	region  region
	granule int64
	zones   zoneSet
	seqPct  int
	// lastEnd is the end of the slot's previous I/O; -1 before the first.
	lastEnd int64
	rng     *rand.Rand // offsets
	skew    *rand.Rand // zone and sequential-continuation choices
}

// offset places an I/O of size bytes.
func (p *randomOffsets) offset(size int64) int64 {
	off := p.draw(size)
	p.lastEnd = off + size
	return off
}

func (p *randomOffsets) draw(size int64) int64 {
	if p.seqPct > 0 && p.skew.IntN(100) < p.seqPct && p.lastEnd >= 0 && p.lastEnd+size <= p.region.end() {
		return p.lastEnd
	}
	if len(p.zones.zones) == 0 {
		positions := (p.region.length-size)/p.granule + 1
		return p.region.start + p.rng.Int64N(positions)*p.granule
	}
	z := p.zones.pick(p.skew)
	off := z.start + p.rng.Int64N(z.length/p.granule)*p.granule
	return min(off, p.region.end()-size)
}

// stream names what a slot's random numbers are for; each purpose has its
// own stream so adding draws for one does not shift the others.
type stream uint64

const (
	streamOffsets stream = iota
	streamOps
	streamData
	streamSizes
	streamSkew
	streamFiles
	numStreams
)

// streamKey is the second PCG seed of the stream of one purpose of the
// slot with the given index in the run.
func streamKey(slot int, purpose stream) uint64 {
	return splitmix64(uint64(slot)<<8 | uint64(purpose))
}

// splitmix64 scatters consecutive integers over the 64-bit space, so
// neighbouring slots start their streams far apart.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
