package native

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// Every block a verify run writes starts with a header:
//
//	 0  magic       8 bytes  "DRVBENCH"
//	 8  offset      8 bytes  where the block belongs on the target
//	16  nonce       8 bytes  identifies the run that wrote it
//	24  generation  4 bytes  how many times the run has written the block
//	28  length      4 bytes  the block's length
//	32  checksum    4 bytes  CRC-32C of the whole block but this field
//	36  reserved    4 bytes  zero
//
// all little-endian. A block is one granule: the unit every transfer size
// is a multiple of.
const (
	headerMagic = "DRVBENCH"
	headerSize  = 40
	// minVerifyBlock leaves room for some payload after the header.
	minVerifyBlock = 64
	// maxVerifyBlocks bounds the table of generations (4 bytes a block).
	maxVerifyBlocks = 1 << 28
	// maxReported bounds the bad blocks a VerifyError lists; it counts
	// them all.
	maxReported = 1 << 16
	// verifyChunk is how much the verify pass reads at a time.
	verifyChunk = 1 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// blockTable holds, for every block of the region, the generation of its
// last write and whether a write to it is in flight (the low bit). A
// write claims its blocks first, so two writes to one block never overlap
// and the last one issued is the one the block must hold.
type blockTable struct {
	start, unit int64
	nonce       uint64
	gens        []atomic.Uint32
}

func newBlockTable(reg region, unit int64, nonce uint64) *blockTable {
	return &blockTable{start: reg.start, unit: unit, nonce: nonce, gens: make([]atomic.Uint32, reg.length/unit)}
}

// claim marks the blocks of [off, off+size) in flight and raises their
// generations; false, with nothing changed, when a write to one of them is
// already in flight.
func (t *blockTable) claim(off, size int64) bool {
	first, last := (off-t.start)/t.unit, (off+size-t.start)/t.unit
	for b := first; b < last; b++ {
		v := t.gens[b].Load()
		if v&1 != 0 || !t.gens[b].CompareAndSwap(v, v+3) {
			t.undo(first, b)
			return false
		}
	}
	return true
}

// undo releases the blocks [first, end) that claim took.
func (t *blockTable) undo(first, end int64) {
	for b := first; b < end; b++ {
		t.gens[b].Add(^uint32(2)) // -3
	}
}

// release marks the write to [off, off+size) complete.
func (t *blockTable) release(off, size int64) {
	first, last := (off-t.start)/t.unit, (off+size-t.start)/t.unit
	for b := first; b < last; b++ {
		t.gens[b].Add(^uint32(0)) // -1
	}
}

// stamp writes the header of every block of buf, which is about to be
// written at off and whose blocks claim has taken.
func (t *blockTable) stamp(buf []byte, off int64) {
	for i := int64(0); i < int64(len(buf)); i += t.unit {
		block := buf[i : i+t.unit]
		gen := t.gens[(off+i-t.start)/t.unit].Load() >> 1
		writeHeader(block, off+i, t.nonce, gen)
	}
}

func writeHeader(block []byte, off int64, nonce uint64, gen uint32) {
	copy(block, headerMagic)
	binary.LittleEndian.PutUint64(block[8:], uint64(off))
	binary.LittleEndian.PutUint64(block[16:], nonce)
	binary.LittleEndian.PutUint32(block[24:], gen)
	binary.LittleEndian.PutUint32(block[28:], uint32(len(block)))
	binary.LittleEndian.PutUint32(block[36:], 0)
	binary.LittleEndian.PutUint32(block[32:], blockChecksum(block))
}

// blockChecksum is the CRC-32C of the block without its checksum field.
func blockChecksum(block []byte) uint32 {
	return crc32.Update(crc32.Update(0, castagnoli, block[:32]), castagnoli, block[36:])
}

// FaultKind is what is wrong with a block the verify pass read back.
type FaultKind string

const (
	// Corrupt: the block's bytes do not match its checksum, or it holds
	// no header at all.
	Corrupt FaultKind = "corrupt"
	// Misplaced: an intact block written for another offset.
	Misplaced FaultKind = "misplaced"
	// Stale: an intact block of this offset, but from an earlier write
	// than the last one (a lost write) or from another run.
	Stale FaultKind = "stale"
)

// BadBlock is one block the verify pass found wrong.
type BadBlock struct {
	Offset int64
	Kind   FaultKind
	// Detail says what was found, e.g. "generation 1, last written 2".
	Detail string
}

func (b BadBlock) String() string {
	return fmt.Sprintf("%s at %d (%s)", b.Kind, b.Offset, b.Detail)
}

// VerifyError reports the blocks a verify pass found corrupt, misplaced
// or stale. Run returns it together with the run's result.
type VerifyError struct {
	Path string
	// Checked is the number of written blocks read back; Bad how many
	// were wrong.
	Checked, Bad int64
	// Blocks lists the bad blocks in offset order, the first 65536 of
	// them.
	Blocks []BadBlock
}

func (e *VerifyError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "verify %s: %d of %d written blocks are bad:", e.Path, e.Bad, e.Checked)
	for i, bad := range e.Blocks {
		if i == 8 {
			fmt.Fprintf(&b, "; and %d more", e.Bad-8)
			break
		}
		sep := " "
		if i > 0 {
			sep = "; "
		}
		b.WriteString(sep + bad.String())
	}
	return b.String()
}

// verifyPass reads back every block the run wrote and checks it against
// the table. It returns the number of blocks checked and a *VerifyError
// when any is bad. A buffered target is synced and its cached pages of
// the region dropped first, so the pass reads what reached the device.
func (r *run) verifyPass(t *blockTable, reg region) (int64, error) {
	if !r.direct {
		if err := unix.Fdatasync(r.fd); err != nil {
			return 0, fmt.Errorf("verify %s: fdatasync before reading back: %w", r.path, err)
		}
		_ = unix.Fadvise(r.fd, reg.start, reg.length, unix.FADV_DONTNEED)
	}
	chunk := min(reg.length, verifyChunk/t.unit*t.unit)
	buf, err := mapArena(1, int(chunk))
	if err != nil {
		return 0, err
	}
	defer buf.release()
	v := &VerifyError{Path: r.path}
	for off := reg.start; off < reg.end(); off += chunk {
		n := min(chunk, reg.end()-off)
		data := buf.buffer(0)[:n]
		got, err := r.sys.pread(r.fd, data, off, false)
		if err == nil && got != len(data) {
			err = &shortTransfer{got: got, want: len(data)}
		}
		if err != nil {
			return v.Checked, fmt.Errorf("verify: %w", &IOError{Path: r.path, Op: "pread", Offset: off, Err: err})
		}
		t.check(data, off, v)
	}
	if v.Bad > 0 {
		return v.Checked, v
	}
	return v.Checked, nil
}

// check checks the blocks of data, read from off, that the run wrote.
func (t *blockTable) check(data []byte, off int64, v *VerifyError) {
	for i := int64(0); i < int64(len(data)); i += t.unit {
		at := off + i
		want := t.gens[(at-t.start)/t.unit].Load() >> 1
		if want == 0 {
			continue
		}
		v.Checked++
		kind, detail := t.diagnose(data[i:i+t.unit], at, want)
		if kind == "" {
			continue
		}
		v.Bad++
		if len(v.Blocks) < maxReported {
			v.Blocks = append(v.Blocks, BadBlock{Offset: at, Kind: kind, Detail: detail})
		}
	}
}

// diagnose says what is wrong with block, read from off, whose last write
// had generation want; "" when nothing is.
func (t *blockTable) diagnose(block []byte, off int64, want uint32) (FaultKind, string) {
	if string(block[:8]) != headerMagic {
		return Corrupt, "no block header"
	}
	if n := binary.LittleEndian.Uint32(block[28:]); int64(n) != t.unit {
		return Corrupt, fmt.Sprintf("header gives length %d, blocks are %d bytes", n, t.unit)
	}
	if got, sum := binary.LittleEndian.Uint32(block[32:]), blockChecksum(block); got != sum {
		return Corrupt, fmt.Sprintf("checksum %08x, content sums to %08x", got, sum)
	}
	if nonce := binary.LittleEndian.Uint64(block[16:]); nonce != t.nonce {
		return Stale, fmt.Sprintf("written by another run (nonce %016x, this run %016x)", nonce, t.nonce)
	}
	if at := int64(binary.LittleEndian.Uint64(block[8:])); at != off {
		return Misplaced, fmt.Sprintf("holds the block written for offset %d", at)
	}
	switch gen := binary.LittleEndian.Uint32(block[24:]); {
	case gen < want:
		return Stale, fmt.Sprintf("generation %d, last written %d", gen, want)
	case gen > want:
		return Corrupt, fmt.Sprintf("generation %d, but the last write was %d", gen, want)
	}
	return "", ""
}
