package native

import (
	"encoding/binary"
	"math/rand/v2"
)

// dataKind is the write buffer pattern (the workload's data).
type dataKind int

const (
	dataRandom dataKind = iota
	dataZero
	dataCompressible
	dataDedupe
)

// dataKinds are the data values, by name; "" is the default.
var dataKinds = map[string]dataKind{
	"":             dataRandom,
	"random":       dataRandom,
	"zero":         dataZero,
	"compressible": dataCompressible,
	"dedupe":       dataDedupe,
}

// sector is the granularity of the per-write stamp that keeps every write
// unique: a drive that deduplicates or compresses at 512 bytes or more
// sees no two equal sectors.
const sector = 512

// dataSpec is the workload's data pattern, shared by every slot.
type dataSpec struct {
	kind dataKind
	// randomPerSector is how many leading bytes of each sector hold
	// random data; the rest is zero (compressible).
	randomPerSector int
	dedupePct       int
	// shared is the content every deduplicable write repeats.
	shared []byte
}

// writeData supplies one slot's write buffers. Its buffer is seeded once;
// each write stamps a fresh 8-byte value at the start of every sector that
// holds random data, which makes it unique at the cost of a few stores
// rather than a refill.
type writeData struct {
	spec  *dataSpec
	buf   []byte
	rng   *rand.Rand
	stamp uint64
}

// newWriteData seeds buf with the pattern from rng. slot makes the stamps
// of different slots differ.
func newWriteData(spec *dataSpec, buf []byte, rng *rand.Rand, slot int) writeData {
	fillPattern(buf, spec, rng)
	return writeData{spec: spec, buf: buf, rng: rng, stamp: uint64(slot) << 40}
}

// fillPattern writes the initial content of a buffer: random bytes, zeroes,
// or per sector random bytes followed by zeroes.
func fillPattern(buf []byte, spec *dataSpec, rng *rand.Rand) {
	switch spec.kind {
	case dataZero:
		clear(buf)
	case dataCompressible:
		for s := 0; s < len(buf); s += sector {
			part := buf[s:min(s+sector, len(buf))]
			n := min(spec.randomPerSector, len(part))
			fillRandom(part[:n], rng)
			clear(part[n:])
		}
	default:
		fillRandom(buf, rng)
	}
}

// fillRandom fills buf from rng.
func fillRandom(buf []byte, rng *rand.Rand) {
	i := 0
	for ; i+8 <= len(buf); i += 8 {
		binary.LittleEndian.PutUint64(buf[i:], rng.Uint64())
	}
	if i < len(buf) {
		var tail [8]byte
		binary.LittleEndian.PutUint64(tail[:], rng.Uint64())
		copy(buf[i:], tail[:])
	}
}

// buffer returns the bytes the next write of size bytes carries.
func (d *writeData) buffer(size int64) []byte {
	switch d.spec.kind {
	case dataZero:
		return d.buf[:size]
	case dataDedupe:
		if d.rng.IntN(100) < d.spec.dedupePct {
			return d.spec.shared[:size]
		}
	}
	buf := d.buf[:size]
	if d.spec.kind != dataCompressible || d.spec.randomPerSector >= 8 {
		d.stamp++
		for s := 0; s+8 <= len(buf); s += sector {
			binary.LittleEndian.PutUint64(buf[s:], d.stamp)
		}
	}
	return buf
}
