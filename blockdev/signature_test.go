package blockdev

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/testenv"
)

// write places a byte string at an offset of a crafted image.
type write struct {
	off  int
	data string
}

// le16 and le32 spell little-endian values as strings for write.
func le16(v uint16) string { return string(binary.LittleEndian.AppendUint16(nil, v)) }
func le32(v uint32) string { return string(binary.LittleEndian.AppendUint32(nil, v)) }
func le64(v uint64) string { return string(binary.LittleEndian.AppendUint64(nil, v)) }
func be32(v uint32) string { return string(binary.BigEndian.AppendUint32(nil, v)) }
func be64(v uint64) string { return string(binary.BigEndian.AppendUint64(nil, v)) }

// extSB returns the writes of an ext superblock with the given features.
func extSB(compat, incompat, roCompat uint32) []write {
	return []write{{1080, le16(0xef53)}, {1024 + 92, le32(compat)}, {1024 + 96, le32(incompat)}, {1024 + 100, le32(roCompat)}}
}

// mbrEntry is one DOS partition entry with a boot flag.
func mbrEntry(i int, flag byte) write { return write{446 + 16*i, string([]byte{flag, 0, 2, 0, 0x83})} }

var bootSig = write{510, "\x55\xaa"}

func TestDetectSignatureCrafted(t *testing.T) {
	tests := []struct {
		name   string
		size   int
		writes []write
		want   string
	}{
		{"zeroed", headSize, nil, ""},
		{"empty file", 0, nil, ""},
		{"ext2", headSize, extSB(0, 0x2, 0x1), "ext2"},
		{"ext3", headSize, extSB(0x4, 0x2, 0x1), "ext3"},
		{"ext4 (extents)", headSize, extSB(0x4, 0x2|0x40, 0x1), "ext4"},
		{"ext4 (metadata_csum)", headSize, extSB(0x4, 0x2, 0x400), "ext4"},
		{"ext journal device", headSize, extSB(0, 0x8, 0), "jbd"},
		{"ext magic with absurd block size", headSize, append(extSB(0, 0, 0), write{1024 + 24, le32(40)}), ""},
		{"xfs", headSize, []write{{0, "XFSB"}, {4, be32(4096)}, {102, "\x02\x00"}}, "xfs"},
		{"XFSB with no sector size", headSize, []write{{0, "XFSB"}, {4, be32(4096)}}, ""},
		{"XFSB with no block size", headSize, []write{{0, "XFSB"}}, ""},
		{"btrfs", headSize, []write{{65600, "_BHRfS_M"}}, "btrfs"},
		{"swap, 4 KiB pages", headSize, []write{{4086, "SWAPSPACE2"}}, "swap"},
		{"swap, 64 KiB pages", headSize, []write{{65526, "SWAPSPACE2"}}, "swap"},
		{"old swap", headSize, []write{{4086, "SWAP-SPACE"}}, "swap"},
		{"hibernation image", headSize, []write{{4086, "S1SUSPEND"}}, "swsuspend"},
		{"LVM2 label in sector 1", headSize, []write{{512, "LABELONE"}, {536, "LVM2 001"}}, "LVM2_member"},
		{"LABELONE without LVM2", headSize, []write{{512, "LABELONE"}}, ""},
		{"LUKS", headSize, []write{{0, "LUKS\xba\xbe"}}, "crypto_LUKS"},
		{"LUKS in a 1 KiB file", 1024, []write{{0, "LUKS\xba\xbe"}}, "crypto_LUKS"},
		{"FAT32", headSize, []write{{0, "\xeb\x58\x90mkfs.fat"}, {82, "FAT32   "}, bootSig}, "vfat"},
		{"FAT16", headSize, []write{{0, "\xeb\x3c\x90mkfs.fat"}, {54, "FAT16   "}, bootSig}, "vfat"},
		{"NTFS", headSize, []write{{3, "NTFS    "}, bootSig}, "ntfs"},
		{"exFAT", headSize, []write{{3, "EXFAT   "}, bootSig}, "exfat"},
		{"iso9660", headSize, []write{{32769, "CD001"}}, "iso9660"},
		{"bcache", headSize, []write{{4096 + 24, bcacheMagic}}, "bcache"},
		{"zfs, little endian", headSize, zfsLabel(128<<10+5*1024, le64(0x00bab10c)+le64(5000)), "zfs_member"},
		{"zfs, big endian", headSize, zfsLabel(200<<10, be64(0x00bab10c)+be64(28)), "zfs_member"},
		{"zfs magic without a pool version", headSize, zfsLabel(130<<10, le64(0x00bab10c)+le64(29)), ""},
		{"zfs uberblock without a label", headSize, []write{{130 << 10, le64(0x00bab10c) + le64(5000)}}, ""},
		{"md 1.1", 4 << 20, mdV1(0), "linux_raid_member"},
		{"md 1.2", 4 << 20, mdV1(4096), "linux_raid_member"},
		{"md 1.0", 4<<20 + 3*512, mdV1((4<<20 + 3*512 - 8192) &^ 4095), "linux_raid_member"},
		{"md 1.0 in a file smaller than the head", 96 << 10, mdV1(88 << 10), "linux_raid_member"},
		{"md 1.2 naming another sector", 4 << 20, []write{{4096, le32(0xa92b4efc) + le32(1)}, {4096 + 144, le64(0)}}, ""},
		{"md 0.90", 4<<20 + 5000, md090(4<<20-64<<10, binary.LittleEndian), "linux_raid_member"},
		{"md 0.90, big endian", 4 << 20, md090(4<<20-64<<10, binary.BigEndian), "linux_raid_member"},
		{"md 0.90 magic with another version", 4 << 20, []write{{4<<20 - 64<<10, le32(0xa92b4efc) + le32(1) + le32(90)}}, ""},
		{"md 0.90 with no members", 4 << 20, []write{{4<<20 - 64<<10, le32(0xa92b4efc) + le32(0) + le32(90)}}, ""},
		{"md 1.2 with no members", 4 << 20, []write{{4096, le32(0xa92b4efc) + le32(1)}, {4096 + 144, le64(8)}}, ""},
		{"md 0.90 in 64 KiB", 64 << 10, md090(0, binary.LittleEndian), ""},
		{"GPT, 512-byte sectors", headSize, []write{{512, "EFI PART"}, mbrEntry(0, 0), bootSig}, "gpt"},
		{"GPT, 4096-byte sectors", headSize, []write{{4096, "EFI PART"}, bootSig}, "gpt"},
		{"MBR", headSize, []write{mbrEntry(0, 0x80), mbrEntry(1, 0), bootSig}, "dos"},
		{"MBR with no partitions", headSize, []write{bootSig}, "dos"},
		{"55AA with bad boot flags", headSize, []write{mbrEntry(2, 0x17), bootSig}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := craftImage(t, tt.size, tt.writes)
			if got := detectFile(t, path); got != tt.want {
				t.Errorf("DetectSignature = %q, want %q", got, tt.want)
			}
		})
	}
}

// zfsLabel is a vdev label 0 whose configuration starts with its version
// (an XDR nvlist) and whose uberblock ring holds ub at off.
func zfsLabel(off int, ub string) []write {
	return []write{{16 << 10, "\x01\x01\x00\x00" + be32(0) + be32(1) + be32(40) + be32(32) + be32(7) + "version\x00"}, {off, ub}}
}

// mdV1 is an md metadata 1.x superblock at off, as mdadm writes it: magic,
// major version 1, its own sector at byte 144, and the checksum over its
// 256 bytes (no device roles) that blkid verifies.
func mdV1(off int) []write {
	sb := make([]byte, 256)
	binary.LittleEndian.PutUint32(sb[0:], 0xa92b4efc)
	binary.LittleEndian.PutUint32(sb[4:], 1)
	copy(sb[32:], "drivebench:0")
	binary.LittleEndian.PutUint32(sb[72:], 1) // level: RAID 1
	binary.LittleEndian.PutUint32(sb[92:], 2) // raid_disks
	binary.LittleEndian.PutUint64(sb[144:], uint64(off/512))
	var sum uint64
	for i := 0; i < len(sb); i += 4 {
		sum += uint64(binary.LittleEndian.Uint32(sb[i:]))
	}
	binary.LittleEndian.PutUint32(sb[216:], uint32(sum&0xffffffff+sum>>32))
	return []write{{off, string(sb)}}
}

// md090 is an md metadata 0.90 superblock at off in the given byte order:
// magic, version 0.90.0.
func md090(off int, order binary.AppendByteOrder) []write {
	sb := make([]byte, 0, 44)
	for _, v := range []uint32{0xa92b4efc, 0, 90, 0, 0, 0, 0, 1, 0, 2, 2} { // magic, version 0.90.0, ..., level 1, size, 2 disks
		sb = order.AppendUint32(sb, v)
	}
	return []write{{off, string(sb)}}
}

// craftImage writes a zero-filled file of size bytes with the writes.
func craftImage(t *testing.T, size int, writes []write) string {
	t.Helper()
	b := make([]byte, size)
	for _, w := range writes {
		copy(b[w.off:], w.data)
	}
	path := filepath.Join(t.TempDir(), "image")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func detectFile(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	name, err := detectOpen(f)
	if err != nil {
		t.Fatal(err)
	}
	return name
}

// TestDetectSignatureRandomData checks that a drive filled with random
// data, the state a benchmark leaves behind, is not mistaken for one that
// holds data.
func TestDetectSignatureRandomData(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	img := make([]byte, 1<<20)
	for i := 0; i < 100; i++ {
		for j := 0; j < len(img); j += 8 {
			binary.LittleEndian.PutUint64(img[j:], rng.Uint64())
		}
		if name, _ := DetectSignature(bytes.NewReader(img), int64(len(img))); name != "" {
			t.Fatalf("random image %d detected as %q", i, name)
		}
	}
}

// TestDetectSignatureBenchmarkData checks the worst that drivebench's own
// writes can leave (engine/native/data.go): every 512-byte sector starts
// with an 8-byte little-endian stamp, slot<<40 + a count of the slot's
// writes, followed by random bytes, or by random bytes up to the
// compressible share and zeros after it. Each stamp here is a magic
// number that a probe looks for at a sector's start, reached by a slot
// after at most 8 billion writes; it is put in every sector, so only the
// rest of each probe keeps the file from being taken for data to protect.
func TestDetectSignatureBenchmarkData(t *testing.T) {
	stamps := map[string]uint64{
		"zfs uberblock":       0x00bab10c,
		"md 0.90 magic":       0xa92b4efc,
		"md 1.x magic":        1<<32 | 0xa92b4efc,
		"XFSB, slot 1":        1<<40 | 0x42534658,
		"XFSB, slot 256":      256<<40 | 0x42534658,
		"ext magic, shifted":  0xef53 << 48,
		"an ordinary counter": 3<<40 | 123456,
	}
	rng := rand.New(rand.NewPCG(3, 4))
	img := make([]byte, 1<<20+3*512)
	for name, stamp := range stamps {
		for compressPct := 0; compressPct < 100; compressPct++ { // 0: data = "random"
			random := 512 * (100 - compressPct) / 100
			if random < 8 {
				continue // no stamp: random bytes then zeros, as the zero fill is
			}
			for sec := 0; sec+512 <= len(img); sec += 512 {
				for j := sec; j < sec+512; j++ {
					img[j] = 0
					if j-sec < random {
						img[j] = byte(rng.Uint32())
					}
				}
				binary.LittleEndian.PutUint64(img[sec:], stamp)
			}
			if got, _ := DetectSignature(bytes.NewReader(img), int64(len(img))); got != "" {
				t.Errorf("stamp %s (%#x), %d random bytes a sector: detected as %q", name, stamp, random, got)
			}
		}
	}
}

type failingReader struct{}

func (failingReader) ReadAt([]byte, int64) (int, error) { return 0, errors.New("I/O error") }

func TestDetectSignatureReadError(t *testing.T) {
	if _, err := DetectSignature(failingReader{}, 1<<20); err == nil || !strings.Contains(err.Error(), "I/O error") {
		t.Errorf("err = %v, want the read error", err)
	}
}

// TestDetectSignatureRealTools formats image files with the real tools
// and checks DetectSignature against blkid's verdict.
func TestDetectSignatureRealTools(t *testing.T) {
	tests := []struct {
		name string
		tool string
		pkg  string // Debian's package of tool
		args []string
		in   string
		want string
	}{
		{"mkfs.ext2", "mkfs.ext2", "e2fsprogs", []string{"-q", "-F"}, "", "ext2"},
		{"mkfs.ext3", "mkfs.ext3", "e2fsprogs", []string{"-q", "-F"}, "", "ext3"},
		{"mkfs.ext4", "mkfs.ext4", "e2fsprogs", []string{"-q", "-F"}, "", "ext4"},
		{"mkswap", "mkswap", "util-linux", nil, "", "swap"},
		{"mkfs.xfs", "mkfs.xfs", "xfsprogs", []string{"-q", "-f"}, "", "xfs"},
		{"mkfs.btrfs", "mkfs.btrfs", "btrfs-progs", []string{"-q", "-f"}, "", "btrfs"},
		{"mkfs.vfat", "mkfs.vfat", "dosfstools", nil, "", "vfat"},
		{"sfdisk gpt", "sfdisk", "fdisk", []string{"-q"}, "label: gpt\n,1M\n", "gpt"},
		{"sfdisk dos", "sfdisk", "fdisk", []string{"-q"}, "label: dos\n,1M\n", "dos"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			testenv.Command(t, tt.tool, tt.pkg)
			img := craftImage(t, 0, nil)
			if err := os.Truncate(img, 320<<20); err != nil { // xfs and btrfs need 300 MiB
				t.Fatal(err)
			}
			cmd := exec.Command(tt.tool, append(tt.args, img)...)
			cmd.Stdin = strings.NewReader(tt.in)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", tt.tool, err, out)
			}
			if got := detectFile(t, img); got != tt.want {
				t.Errorf("DetectSignature = %q, want %q", got, tt.want)
			}
			if blkid := blkidType(t, img); blkid != tt.want {
				t.Errorf("blkid says %q, want %q", blkid, tt.want)
			}
		})
	}
}

// TestDetectSignatureFixturesMatchBlkid checks the crafted md RAID and
// ZFS fixtures, for which no tool here writes real ones, against blkid's
// own probes, so the fixtures are what those tools write and not only
// what DetectSignature expects. blkid skips RAID probes on images under
// 1.44 MB and wants four ZFS uberblocks in a device of 64 MiB or more.
func TestDetectSignatureFixturesMatchBlkid(t *testing.T) {
	testenv.Command(t, "blkid", "util-linux")
	var ubs []write
	for i := 0; i < 4; i++ {
		ubs = append(ubs, zfsLabel(128<<10+i*1024, le64(0x00bab10c)+le64(5000))...)
	}
	tests := []struct {
		name   string
		size   int
		writes []write
		want   string
	}{
		{"md 1.1", 4 << 20, mdV1(0), "linux_raid_member"},
		{"md 1.2", 4 << 20, mdV1(4096), "linux_raid_member"},
		{"md 1.0", 4<<20 + 3*512, mdV1((4<<20 + 3*512 - 8192) &^ 4095), "linux_raid_member"},
		{"md 0.90", 4<<20 + 5000, md090(4<<20-64<<10, binary.LittleEndian), "linux_raid_member"},
		{"md 0.90, big endian", 4 << 20, md090(4<<20-64<<10, binary.BigEndian), "linux_raid_member"},
		{"zfs", 64 << 20, ubs, "zfs_member"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img := craftImage(t, tt.size, tt.writes)
			if got, blkid := detectFile(t, img), blkidType(t, img); got != tt.want || blkid != tt.want {
				t.Errorf("DetectSignature = %q, blkid = %q; want %q", got, blkid, tt.want)
			}
		})
	}
}

// blkidType asks blkid for the TYPE or PTTYPE of an image, "" when it
// finds neither.
func blkidType(t *testing.T, path string) string {
	testenv.Command(t, "blkid", "util-linux")
	out, _ := exec.Command("blkid", "-p", "-o", "export", path).Output()
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "TYPE="); ok {
			return v
		}
		if v, ok := strings.CutPrefix(line, "PTTYPE="); ok {
			return v
		}
	}
	return ""
}

func FuzzDetectSignature(f *testing.F) {
	f.Add([]byte{})
	f.Add(append(make([]byte, 510), 0x55, 0xaa))
	f.Add(append(make([]byte, 512), "EFI PART"...))
	f.Add([]byte("LUKS\xba\xbe"))
	f.Fuzz(func(t *testing.T, data []byte) {
		name, err := DetectSignature(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if _, known := signatureReasons[name]; name != "" && !known {
			t.Fatalf("unknown signature name %q", name)
		}
	})
}
