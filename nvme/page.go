package nvme

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
)

// Sizes of the pages this package reads and decodes.
const (
	IDCtrlSize        = 4096 // Identify Controller data structure (CNS 01h)
	IDNsSize          = 4096 // Identify Namespace data structure (CNS 00h)
	SmartLogSize      = 512  // SMART / Health Information log (LID 02h)
	ErrorLogEntrySize = 64   // one Error Information log entry (LID 01h)
	FwSlotLogSize     = 512  // Firmware Slot Information log (LID 03h)
	SanitizeLogSize   = 512  // Sanitize Status log (LID 81h)
)

// ShortPageError reports a page shorter than its layout.
type ShortPageError struct {
	Page string // what the bytes were meant to be, e.g. "SMART/health log"
	Got  int    // bytes given
	Want int    // bytes the page has
}

// Error names the page, its length and the length expected.
func (e *ShortPageError) Error() string {
	return fmt.Sprintf("nvme: %s is truncated: got %d bytes, want %d; read the whole page from the device",
		e.Page, e.Got, e.Want)
}

// page reads little-endian fields at fixed offsets. Decoders check the
// length once with newPage, after which every offset of the layout is in
// range.
type page []byte

// newPage returns b as a page, or a ShortPageError when it is shorter than
// want bytes.
func newPage(name string, b []byte, want int) (page, error) {
	if len(b) < want {
		return nil, &ShortPageError{Page: name, Got: len(b), Want: want}
	}
	return page(b[:want]), nil
}

func (p page) u8(off int) uint8   { return p[off] }
func (p page) u16(off int) uint16 { return binary.LittleEndian.Uint16(p[off:]) }
func (p page) u32(off int) uint32 { return binary.LittleEndian.Uint32(p[off:]) }
func (p page) u64(off int) uint64 { return binary.LittleEndian.Uint64(p[off:]) }

// u24 reads a 3-byte little-endian field such as IEEE OUI.
func (p page) u24(off int) uint32 {
	return uint32(p[off]) | uint32(p[off+1])<<8 | uint32(p[off+2])<<16
}

func (p page) u128(off int) Uint128 {
	return Uint128{Lo: p.u64(off), Hi: p.u64(off + 8)}
}

// ascii reads a fixed-width, space-padded ASCII field (serial number,
// model, firmware revision) without its padding.
func (p page) ascii(off, n int) string {
	return strings.TrimRight(string(p[off:off+n]), " \x00")
}

// padded reads a fixed-width ASCII field as nvme-cli prints it: up to
// the first NUL, trailing spaces kept.
func (p page) padded(off, n int) string {
	field := p[off : off+n]
	if i := bytes.IndexByte(field, 0); i >= 0 {
		field = field[:i]
	}
	return string(field)
}

// uuid reads 16 bytes as a UUID, in byte order: "00000000-0000-...".
func (p page) uuid(off int) string {
	h := hex.EncodeToString(p[off : off+16])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// cstring reads a NUL-terminated string in a fixed-width field (SUBNQN).
func (p page) cstring(off, n int) string {
	field := p[off : off+n]
	if i := bytes.IndexByte(field, 0); i >= 0 {
		field = field[:i]
	}
	return strings.TrimRight(string(field), " ")
}

// hex reads an identifier (EUI64, NGUID) as lower-case hex in byte order.
func (p page) hex(off, n int) string { return hex.EncodeToString(p[off : off+n]) }
