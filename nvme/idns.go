package nvme

import (
	"fmt"
	"math/bits"
)

// IDNs is the Identify Namespace data structure (CNS 00h) for the NVM
// command set: the namespace's size and the LBA formats it can be
// formatted with. Sizes (NSZE, NCAP, NUSE) count logical blocks of the
// format in use.
type IDNs struct {
	NSZE     uint64  `json:"nsze"`     // namespace size, blocks
	NCAP     uint64  `json:"ncap"`     // namespace capacity, blocks
	NUSE     uint64  `json:"nuse"`     // namespace utilization, blocks
	NSFEAT   uint8   `json:"nsfeat"`   // namespace features
	NLBAF    uint8   `json:"nlbaf"`    // number of LBA formats, 0's based
	FLBAS    uint8   `json:"flbas"`    // formatted LBA size: the format in use
	MC       uint8   `json:"mc"`       // metadata capabilities
	DPC      uint8   `json:"dpc"`      // end-to-end data protection capabilities
	DPS      uint8   `json:"dps"`      // end-to-end data protection type settings
	NMIC     uint8   `json:"nmic"`     // multi-path I/O and sharing
	RESCAP   uint8   `json:"rescap"`   // reservation capabilities
	FPI      uint8   `json:"fpi"`      // format progress indicator
	DLFEAT   uint8   `json:"dlfeat"`   // deallocate logical block features
	NAWUN    uint16  `json:"nawun"`    // namespace atomic write unit normal, 0's based
	NAWUPF   uint16  `json:"nawupf"`   // namespace atomic write unit power fail, 0's based
	NACWU    uint16  `json:"nacwu"`    // namespace atomic compare & write unit
	NABSN    uint16  `json:"nabsn"`    // atomic boundary size normal
	NABO     uint16  `json:"nabo"`     // atomic boundary offset
	NABSPF   uint16  `json:"nabspf"`   // atomic boundary size power fail
	NOIOB    uint16  `json:"noiob"`    // optimal I/O boundary, blocks
	NVMCAP   Uint128 `json:"nvmcap"`   // NVM capacity, bytes
	NPWG     uint16  `json:"npwg"`     // preferred write granularity, 0's based blocks
	NPWA     uint16  `json:"npwa"`     // preferred write alignment, 0's based blocks
	NPDG     uint16  `json:"npdg"`     // preferred deallocate granularity, 0's based blocks
	NPDA     uint16  `json:"npda"`     // preferred deallocate alignment, 0's based blocks
	NOWS     uint16  `json:"nows"`     // optimal write size, 0's based blocks
	MSSRL    uint16  `json:"mssrl"`    // maximum single source range length (copy), blocks
	MCL      uint32  `json:"mcl"`      // maximum copy length, blocks
	MSRC     uint8   `json:"msrc"`     // maximum source range count, 0's based
	NULBAF   uint8   `json:"nulbaf"`   // number of unique attribute LBA formats
	ANAGRPID uint32  `json:"anagrpid"` // ANA group identifier
	NSATTR   uint8   `json:"nsattr"`   // namespace attributes (bit 0: write protected)
	NVMSETID uint16  `json:"nvmsetid"`
	ENDGID   uint16  `json:"endgid"` // endurance group identifier
	NGUID    string  `json:"nguid"`  // namespace globally unique identifier, hex
	EUI64    string  `json:"eui64"`  // IEEE extended unique identifier, hex

	LBAFormats []LBAFormat `json:"lbafs"` // NLBAF+1 formats

	// FormatInUse is the index into LBAFormats selected by FLBAS.
	FormatInUse int `json:"lbaf_in_use"`
	// BlockSize is the data size of the format in use, bytes.
	BlockSize uint64 `json:"block_size"`
	// CapacityBytes is NSZE in bytes; UsedBytes is NUSE in bytes.
	CapacityBytes uint64 `json:"capacity_bytes"`
	UsedBytes     uint64 `json:"used_bytes"`
}

// LBAFormat is one LBA format a namespace supports.
type LBAFormat struct {
	MS    uint16 `json:"ms"` // metadata bytes per block
	LBADS uint8  `json:"ds"` // data size as a power of two; 0 = format not available
	RP    uint8  `json:"rp"` // relative performance: 0 best, 3 degraded
}

// DataSize returns the format's data size in bytes, 0 when the format is
// not available.
func (f LBAFormat) DataSize() uint64 {
	if f.LBADS == 0 || f.LBADS >= 64 {
		return 0
	}
	return 1 << f.LBADS
}

const (
	lbafOffset = 128 // LBAF0
	maxLBAFs   = 64  // NLBAF is 0's based and at most 63
)

// DecodeIDNs decodes an Identify Namespace page (4096 bytes). It fails
// when the page lists more than 64 LBA formats, when FLBAS selects a format
// the page does not list, or when the size in bytes overflows 64 bits.
func DecodeIDNs(b []byte) (*IDNs, error) {
	p, err := newPage("identify namespace data", b, IDNsSize)
	if err != nil {
		return nil, err
	}
	ns := &IDNs{}
	decodeNsFields(p, ns)
	if int(ns.NLBAF) >= maxLBAFs {
		return nil, fmt.Errorf("nvme: identify namespace data: nlbaf %d lists more than %d LBA formats", ns.NLBAF, maxLBAFs)
	}
	ns.LBAFormats = decodeLBAFormats(p, int(ns.NLBAF)+1)
	if err := ns.computeSizes(); err != nil {
		return nil, fmt.Errorf("nvme: identify namespace data: %w", err)
	}
	return ns, nil
}

// decodeNsFields reads the fixed fields of the page.
func decodeNsFields(p page, ns *IDNs) {
	ns.NSZE, ns.NCAP, ns.NUSE = p.u64(0), p.u64(8), p.u64(16)
	ns.NSFEAT, ns.NLBAF, ns.FLBAS, ns.MC = p.u8(24), p.u8(25), p.u8(26), p.u8(27)
	ns.DPC, ns.DPS, ns.NMIC, ns.RESCAP = p.u8(28), p.u8(29), p.u8(30), p.u8(31)
	ns.FPI, ns.DLFEAT = p.u8(32), p.u8(33)
	ns.NAWUN, ns.NAWUPF, ns.NACWU = p.u16(34), p.u16(36), p.u16(38)
	ns.NABSN, ns.NABO, ns.NABSPF, ns.NOIOB = p.u16(40), p.u16(42), p.u16(44), p.u16(46)
	ns.NVMCAP = p.u128(48)
	ns.NPWG, ns.NPWA, ns.NPDG, ns.NPDA, ns.NOWS = p.u16(64), p.u16(66), p.u16(68), p.u16(70), p.u16(72)
	ns.MSSRL, ns.MCL, ns.MSRC, ns.NULBAF = p.u16(74), p.u32(76), p.u8(80), p.u8(82)
	ns.ANAGRPID, ns.NSATTR, ns.NVMSETID, ns.ENDGID = p.u32(92), p.u8(99), p.u16(100), p.u16(102)
	ns.NGUID, ns.EUI64 = p.hex(104, 16), p.hex(120, 8)
}

// decodeLBAFormats reads n LBA format descriptors of 4 bytes each.
func decodeLBAFormats(p page, n int) []LBAFormat {
	formats := make([]LBAFormat, n)
	for i := range formats {
		v := p.u32(lbafOffset + 4*i)
		formats[i] = LBAFormat{MS: uint16(v), LBADS: uint8(v >> 16), RP: uint8(v>>24) & 3}
	}
	return formats
}

// lbafIndex returns the LBA format index FLBAS selects: bits 3:0, with
// bits 6:5 as the upper bits when there are more than 16 formats.
func lbafIndex(flbas uint8) int {
	return int(flbas&0x0f) | int(flbas>>5&0x03)<<4
}

// computeSizes fills FormatInUse, BlockSize, CapacityBytes and UsedBytes.
func (ns *IDNs) computeSizes() error {
	ns.FormatInUse = lbafIndex(ns.FLBAS)
	if ns.FormatInUse >= len(ns.LBAFormats) {
		return fmt.Errorf("flbas 0x%02x selects LBA format %d but nlbaf lists only %d", ns.FLBAS, ns.FormatInUse, len(ns.LBAFormats))
	}
	ns.BlockSize = ns.LBAFormats[ns.FormatInUse].DataSize()
	var err error
	if ns.CapacityBytes, err = blocksToBytes("nsze", ns.NSZE, ns.BlockSize); err != nil {
		return err
	}
	ns.UsedBytes, err = blocksToBytes("nuse", ns.NUSE, ns.BlockSize)
	return err
}

// blocksToBytes multiplies a block count by the block size, failing when
// the product does not fit in 64 bits.
func blocksToBytes(field string, blocks, size uint64) (uint64, error) {
	hi, lo := bits.Mul64(blocks, size)
	if hi != 0 {
		return 0, fmt.Errorf("%s %d blocks of %d bytes overflows 64 bits", field, blocks, size)
	}
	return lo, nil
}

// Protection says how end-to-end data protection is set (DPS): "none",
// or "type 1, in the first 8 bytes of metadata".
func (ns *IDNs) Protection() string {
	if ns.DPS&7 == 0 {
		return "none"
	}
	where := "last"
	if ns.DPS&8 != 0 {
		where = "first"
	}
	return fmt.Sprintf("type %d, in the %s bytes of metadata", ns.DPS&7, where)
}

// DeallocatedRead says what a read of a deallocated block returns
// (DLFEAT bits 2:0): "zeroes", "ones (0xff)" or "not reported".
func (ns *IDNs) DeallocatedRead() string {
	switch ns.DLFEAT & 7 {
	case 1:
		return "zeroes"
	case 2:
		return "ones (0xff)"
	}
	return "not reported"
}
