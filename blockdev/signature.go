package blockdev

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// headSize is how much of a device DetectSignature reads: enough for the
// deepest signature it knows, the ZFS uberblocks at 128-256 KiB.
const headSize = 256 << 10

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
}

// DetectSignature looks for a partition table or filesystem signature at
// the start of r, a device or image file. It returns the kind in blkid's
// TYPE/PTTYPE naming (for example "ext4", "xfs", "gpt", "dos", "swap",
// "LVM2_member", "crypto_LUKS"), or "" when it finds none. Data shorter
// than the probed offsets is treated as zero-filled.
func DetectSignature(r io.ReaderAt) (string, error) {
	head := make([]byte, headSize)
	n, err := r.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read the first %d KiB: %w", headSize>>10, err)
	}
	clear(head[n:])
	return detectInHead(head), nil
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

func probeLUKS(h []byte) string  { return when(at(h, 0, "LUKS\xba\xbe"), "crypto_LUKS") }
func probeXFS(h []byte) string   { return when(at(h, 0, "XFSB"), "xfs") }
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

// zfsUberblockMagic starts every uberblock, in either byte order.
const zfsUberblockMagic = 0x00bab10c

// probeZFS scans the uberblock ring of vdev label 0 (128-256 KiB) in 1 KiB
// steps, the smallest uberblock slot.
func probeZFS(h []byte) string {
	for off := 128 << 10; off+8 <= len(h); off += 1024 {
		if binary.LittleEndian.Uint64(h[off:]) == zfsUberblockMagic ||
			binary.BigEndian.Uint64(h[off:]) == zfsUberblockMagic {
			return "zfs_member"
		}
	}
	return ""
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
