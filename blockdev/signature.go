package blockdev

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// headSize is how much of the start of a device DetectSignature reads:
// enough for the deepest signature it knows there, the ZFS uberblocks at
// 128-256 KiB. tailSize is how much of the end it reads: enough for the
// md RAID superblocks kept there (0.90 and 1.0), at most 128 KiB from it.
const (
	headSize = 256 << 10
	tailSize = 128 << 10
)

// signatureProbe recognises one kind of on-disk structure in the head of
// a device and returns its name, or "".
type signatureProbe func(head []byte) string

// signatureProbes run in order. Partition tables and filesystems that
// also carry an MBR boot signature come before the plain MBR probe.
var signatureProbes = []signatureProbe{
	probeGPT, probeLUKS, probeXFS, probeNTFS, probeExFAT, probeVFAT, probeISO9660,
	probeExt, probeBtrfs, probeSwap, probeLVM, probeBcache, probeZFS, probeMBR,
}

// signatureReasons says, for each name DetectSignature returns, why the
// device must not be overwritten.
var signatureReasons = map[string]string{
	"gpt":         "has a GPT partition table",
	"dos":         "has an MBR partition table",
	"crypto_LUKS": "holds a LUKS encrypted volume",
	"xfs":         "holds an XFS filesystem",
	"ntfs":        "holds an NTFS filesystem",
	"exfat":       "holds an exFAT filesystem",
	"vfat":        "holds a FAT filesystem",
	"iso9660":     "holds an ISO 9660 filesystem",
	"ext2":        "holds an ext2 filesystem",
	"ext3":        "holds an ext3 filesystem",
	"ext4":        "holds an ext4 filesystem",
	"jbd":         "holds an ext3/ext4 external journal",
	"btrfs":       "holds a btrfs filesystem",
	"swap":        "holds a swap area",
	"swsuspend":   "holds a hibernation image",
	"LVM2_member": "is an LVM2 physical volume",
	"bcache":      "is a bcache backing or cache device",
	"zfs_member":  "is a member of a ZFS pool",

	"linux_raid_member": "is a member of an md RAID array",
}

// DetectSignature looks for a partition table, filesystem, LVM or RAID
// signature in r, a device or image file of size bytes. It returns the
// kind in blkid's TYPE/PTTYPE naming (for example "ext4", "xfs", "gpt",
// "dos", "swap", "LVM2_member", "linux_raid_member", "crypto_LUKS"), or ""
// when it finds none. Data shorter than the probed offsets is treated as
// zero-filled.
//
// Every probe checks more than a magic number where the format allows, so
// that what a benchmark leaves behind (random bytes, each 512-byte sector
// starting with an 8-byte counter) is not taken for data to protect.
func DetectSignature(r io.ReaderAt, size int64) (string, error) {
	head, err := readPart(r, 0, headSize)
	if err != nil {
		return "", err
	}
	tailAt := max(0, size-tailSize)
	tail, err := readPart(r, tailAt, int(size-tailAt))
	if err != nil {
		return "", err
	}
	if name := probeMD(head, tail, tailAt, size); name != "" {
		return name, nil
	}
	return detectInHead(head), nil
}

// detectOpen runs DetectSignature on an open device or file.
func detectOpen(f *os.File) (string, error) {
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return "", err
	}
	return DetectSignature(f, size)
}

// readPart reads n bytes of r at off, zero-filling what lies past its end.
func readPart(r io.ReaderAt, off int64, n int) ([]byte, error) {
	b := make([]byte, n)
	got, err := r.ReadAt(b, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read %d KiB at %d: %w", n>>10, off, err)
	}
	clear(b[got:])
	return b, nil
}

// detectInHead runs the probes on head, which is headSize bytes long.
func detectInHead(head []byte) string {
	for _, probe := range signatureProbes {
		if name := probe(head); name != "" {
			return name
		}
	}
	return ""
}

// at reports whether head holds magic at off.
func at(head []byte, off int, magic string) bool {
	return off+len(magic) <= len(head) && string(head[off:off+len(magic)]) == magic
}

// when returns name if cond holds, else "".
func when(cond bool, name string) string {
	if cond {
		return name
	}
	return ""
}

// probeGPT finds the GPT header at LBA 1 for 512-byte and 4096-byte
// sectors.
func probeGPT(h []byte) string {
	return when(at(h, 512, "EFI PART") || at(h, 4096, "EFI PART"), "gpt")
}

func probeLUKS(h []byte) string { return when(at(h, 0, "LUKS\xba\xbe"), "crypto_LUKS") }

// probeXFS finds the XFS superblock magic with a block size and a sector
// size XFS can have.
func probeXFS(h []byte) string {
	be := binary.BigEndian
	return when(at(h, 0, "XFSB") && powerOfTwo(uint64(be.Uint32(h[4:])), 512, 65536) &&
		powerOfTwo(uint64(be.Uint16(h[102:])), 512, 32768), "xfs")
}

// powerOfTwo reports whether n is a power of two from lo to hi.
func powerOfTwo(n, lo, hi uint64) bool { return n >= lo && n <= hi && n&(n-1) == 0 }

func probeNTFS(h []byte) string  { return when(at(h, 3, "NTFS    "), "ntfs") }
func probeExFAT(h []byte) string { return when(at(h, 3, "EXFAT   "), "exfat") }

// bootSignature reports whether sector 0 ends in 55 AA.
func bootSignature(h []byte) bool { return h[510] == 0x55 && h[511] == 0xaa }

// probeVFAT finds a FAT boot sector: the boot signature plus the file
// system type string of FAT12/16 (offset 54) or FAT32 (offset 82).
func probeVFAT(h []byte) string {
	return when(bootSignature(h) && (at(h, 54, "FAT1") || at(h, 82, "FAT32")), "vfat")
}

// probeISO9660 finds the primary volume descriptor at sector 16 of 2048.
func probeISO9660(h []byte) string { return when(at(h, 32769, "CD001"), "iso9660") }

// ext superblock: at 1024; magic 0xEF53 at +56.
const (
	extSuper            = 1024
	extIncompatJournal  = 0x0008 // external journal device
	extIncompatExt3     = 0x0002 | 0x0004 | 0x0010
	extROCompatExt3     = 0x0001 | 0x0002 | 0x0004
	extCompatHasJournal = 0x0004
	extMaxLogBlockSize  = 6 // 64 KiB blocks
)

// probeExt finds an ext2/3/4 superblock and tells the three apart the way
// blkid does: features ext3 lacks mean ext4, a journal means ext3.
func probeExt(h []byte) string {
	sb := h[extSuper : extSuper+1024]
	le := binary.LittleEndian
	if le.Uint16(sb[56:]) != 0xef53 || le.Uint32(sb[24:]) > extMaxLogBlockSize {
		return ""
	}
	compat, incompat, roCompat := le.Uint32(sb[92:]), le.Uint32(sb[96:]), le.Uint32(sb[100:])
	switch {
	case incompat&extIncompatJournal != 0:
		return "jbd"
	case incompat&^extIncompatExt3 != 0 || roCompat&^extROCompatExt3 != 0:
		return "ext4"
	case compat&extCompatHasJournal != 0:
		return "ext3"
	}
	return "ext2"
}

// probeBtrfs finds the superblock magic at 64 KiB + 64.
func probeBtrfs(h []byte) string { return when(at(h, 65600, "_BHRfS_M"), "btrfs") }

// swapPageSizes are the page sizes whose last 10 bytes may hold a swap
// signature.
var swapPageSizes = []int{4096, 8192, 16384, 32768, 65536}

// probeSwap finds a swap area or a hibernation image written over one.
func probeSwap(h []byte) string {
	for _, ps := range swapPageSizes {
		off := ps - 10
		switch {
		case at(h, off, "SWAPSPACE2"), at(h, off, "SWAP-SPACE"):
			return "swap"
		case at(h, off, "S1SUSPEND"), at(h, off, "S2SUSPEND"), at(h, off, "ULSUSPEND"), at(h, off, "LINHIB0001"):
			return "swsuspend"
		}
	}
	return ""
}

// probeLVM finds an LVM2 label in any of the first four 512-byte sectors.
func probeLVM(h []byte) string {
	for sector := 0; sector < 4; sector++ {
		off := sector * 512
		if at(h, off, "LABELONE") && at(h, off+24, "LVM2 001") {
			return "LVM2_member"
		}
	}
	return ""
}

// bcacheMagic sits 24 bytes into the bcache superblock at 4 KiB.
var bcacheMagic = string([]byte{0xc6, 0x85, 0x73, 0xf6, 0x4e, 0x1a, 0x45, 0xca,
	0x82, 0x65, 0xf5, 0x7f, 0x48, 0xba, 0x6d, 0x81})

func probeBcache(h []byte) string { return when(at(h, 4096+24, bcacheMagic), "bcache") }

// zfsUberblockMagic starts every uberblock, in either byte order;
// zfsVersionFeatures is the last pool version, after 1-28.
const (
	zfsUberblockMagic  = 0x00bab10c
	zfsVersionFeatures = 5000
)

// zfsNVList is where vdev label 0 keeps its configuration, an XDR nvlist
// whose first pair is "version"; blkid reads its first 4 KiB too.
const zfsNVList = 16 << 10

// probeZFS scans the uberblock ring of vdev label 0 (128-256 KiB) in 1 KiB
// steps, the smallest uberblock slot, for the magic followed by a pool
// version, and wants the label's configuration to name its version. A
// magic alone is 8 bytes that a benchmark's per-sector counter passes
// through.
func probeZFS(h []byte) string {
	if !bytes.Contains(h[zfsNVList:zfsNVList+4096], []byte("version")) {
		return ""
	}
	for off := 128 << 10; off+16 <= len(h); off += 1024 {
		for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
			v := order.Uint64(h[off+8:])
			if order.Uint64(h[off:]) == zfsUberblockMagic && (v >= 1 && v <= 28 || v == zfsVersionFeatures) {
				return "zfs_member"
			}
		}
	}
	return ""
}

// mdMagic starts an md RAID superblock: little-endian in metadata 1.x,
// in the host's byte order in 0.90. mdReserved is the space metadata 0.90
// keeps at the end of a device.
const (
	mdMagic    = 0xa92b4efc
	mdReserved = 64 << 10
)

// probeMD finds an md RAID superblock where mdadm puts one, as blkid
// looks for it: metadata 1.1 at the start, 1.2 at 4 KiB, 1.0 8 to 12 KiB
// before the end, 0.90 in the last 64 KiB-aligned 64 KiB. A 1.x superblock records its own sector, so
// a magic number elsewhere does not pass. tail holds the device's bytes
// from tailAt to its end, size.
func probeMD(head, tail []byte, tailAt, size int64) string {
	if mdV1At(head, 0, 0) || mdV1At(head, 4096, 4096) {
		return "linux_raid_member"
	}
	if size <= mdReserved {
		return "" // too small to hold an array's data before its superblock
	}
	if off := size&^(mdReserved-1) - mdReserved; mdV090At(tail, off-tailAt) {
		return "linux_raid_member"
	}
	if off := size&^4095 - 8192; mdV1At(tail, off-tailAt, off) {
		return "linux_raid_member"
	}
	return ""
}

// mdLevels are the RAID levels an md superblock may record: multipath,
// faulty, linear, 0, 1, 4, 5, 6 and 10.
var mdLevels = []int32{-4, -5, -1, 0, 1, 4, 5, 6, 10}

// mdV1At reports whether b holds at i a metadata 1.x superblock written
// for device offset off: magic, major version 1, a RAID level (byte 72),
// one or more members (byte 92), and super_offset (byte 144) naming
// off's sector.
func mdV1At(b []byte, i, off int64) bool {
	if i < 0 || i+152 > int64(len(b)) {
		return false
	}
	le := binary.LittleEndian
	return le.Uint32(b[i:]) == mdMagic && le.Uint32(b[i+4:]) == 1 &&
		slices.Contains(mdLevels, int32(le.Uint32(b[i+72:]))) && le.Uint32(b[i+92:]) >= 1 &&
		le.Uint64(b[i+144:]) == uint64(off/512)
}

// mdV090At reports whether b holds at i a metadata 0.90 superblock, in
// either byte order: magic, version 0.90, and 1 to 27 members (byte 40).
func mdV090At(b []byte, i int64) bool {
	if i < 0 || i+44 > int64(len(b)) {
		return false
	}
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		disks := order.Uint32(b[i+40:])
		if order.Uint32(b[i:]) == mdMagic && order.Uint32(b[i+4:]) == 0 && order.Uint32(b[i+8:]) == 90 && disks >= 1 && disks <= 27 {
			return true
		}
	}
	return false
}

// probeMBR finds a DOS partition table: the boot signature and four
// partition entries whose boot indicators are 0x00 or 0x80.
func probeMBR(h []byte) string {
	if !bootSignature(h) {
		return ""
	}
	for i := 0; i < 4; i++ {
		if flag := h[446+16*i]; flag != 0 && flag != 0x80 {
			return ""
		}
	}
	return "dos"
}

// signatureReason returns the UnsafeError reason for a signature name.
func signatureReason(name string) string {
	if reason, ok := signatureReasons[name]; ok {
		return reason
	}
	return "holds a " + name + " signature"
}
