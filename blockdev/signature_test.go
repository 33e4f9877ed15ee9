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
)

// write places a byte string at an offset of a crafted image.
type write struct {
	off  int
	data string
}

// le16 and le32 spell little-endian values as strings for write.
func le16(v uint16) string { return string(binary.LittleEndian.AppendUint16(nil, v)) }
func le32(v uint32) string { return string(binary.LittleEndian.AppendUint32(nil, v)) }

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
		{"xfs", headSize, []write{{0, "XFSB"}}, "xfs"},
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
		{"zfs, little endian", headSize, []write{{128<<10 + 5*1024, string(binary.LittleEndian.AppendUint64(nil, 0x00bab10c))}}, "zfs_member"},
		{"zfs, big endian", headSize, []write{{200 << 10, string(binary.BigEndian.AppendUint64(nil, 0x00bab10c))}}, "zfs_member"},
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
	name, err := DetectSignature(f)
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
	head := make([]byte, headSize)
	for i := 0; i < 200; i++ {
		for j := 0; j < len(head); j += 8 {
			binary.LittleEndian.PutUint64(head[j:], rng.Uint64())
		}
		if name := detectInHead(head); name != "" {
			t.Fatalf("random head %d detected as %q", i, name)
		}
	}
}

type failingReader struct{}

func (failingReader) ReadAt([]byte, int64) (int, error) { return 0, errors.New("I/O error") }

func TestDetectSignatureReadError(t *testing.T) {
	if _, err := DetectSignature(failingReader{}); err == nil || !strings.Contains(err.Error(), "I/O error") {
		t.Errorf("err = %v, want the read error", err)
	}
}

// TestDetectSignatureRealTools formats image files with the real tools
// where installed and checks DetectSignature against blkid's verdict.
func TestDetectSignatureRealTools(t *testing.T) {
	tests := []struct {
		name string
		tool string
		args []string
		in   string
		want string
	}{
		{"mkfs.ext2", "mkfs.ext2", []string{"-q", "-F"}, "", "ext2"},
		{"mkfs.ext3", "mkfs.ext3", []string{"-q", "-F"}, "", "ext3"},
		{"mkfs.ext4", "mkfs.ext4", []string{"-q", "-F"}, "", "ext4"},
		{"mkswap", "mkswap", nil, "", "swap"},
		{"mkfs.xfs", "mkfs.xfs", []string{"-q", "-f"}, "", "xfs"},
		{"mkfs.btrfs", "mkfs.btrfs", []string{"-q", "-f"}, "", "btrfs"},
		{"mkfs.vfat", "mkfs.vfat", nil, "", "vfat"},
		{"sfdisk gpt", "sfdisk", []string{"-q"}, "label: gpt\n,1M\n", "gpt"},
		{"sfdisk dos", "sfdisk", []string{"-q"}, "label: dos\n,1M\n", "dos"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := exec.LookPath(tt.tool); err != nil {
				t.Skipf("%s is not installed", tt.tool)
			}
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
			if blkid := blkidType(t, img); blkid != "" && blkid != tt.want {
				t.Errorf("blkid says %q, want %q", blkid, tt.want)
			}
		})
	}
}

// blkidType asks blkid for the TYPE or PTTYPE of an image, "" if blkid is
// missing.
func blkidType(t *testing.T, path string) string {
	if _, err := exec.LookPath("blkid"); err != nil {
		return ""
	}
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
		name, err := DetectSignature(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if _, known := signatureReasons[name]; name != "" && !known {
			t.Fatalf("unknown signature name %q", name)
		}
	})
}
