//go:build linux

package nvme

import (
	"context"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/blockdev"
	"github.com/drivebench/drivebench/internal/testenv"
)

// Tests against a real (or emulated) NVMe drive. They skip on machines
// without one; run them as root in a VM with an NVMe controller, e.g.
// QEMU's -device nvme.

// liveDevice opens the first NVMe device matching pattern, or skips:
// a machine without one is the rule (testdata/skip-allowlist.txt).
func liveDevice(t *testing.T, pattern string) *Device {
	t.Helper()
	testenv.Root(t, "NVMe admin commands need root")
	paths, _ := filepath.Glob(pattern)
	if len(paths) == 0 {
		t.Skipf("no device matches %s: these tests need a real NVMe drive", pattern)
	}
	d, err := Open(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
	})
	return d
}

func TestLiveController(t *testing.T) {
	d := liveDevice(t, "/dev/nvme[0-9]")
	if d.NSID != 0 {
		t.Errorf("controller %s has namespace ID %d, want 0", d.Path, d.NSID)
	}
	c, err := d.IdentifyController()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %s %s firmware %s, NVMe %s, OACS %v, SANICAP %v", d.Path, c.MN, c.SN, c.FR, c.Version, c.OACS, c.SANICAP)
	if c.MN == "" || c.VID == 0 {
		t.Errorf("identify controller looks empty: %+v", c)
	}
	s, err := d.SmartLog()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("SMART: critical warning %v, composite %v, %s bytes read", s.CriticalWarning, s.Temperature, s.BytesRead())
	if _, err := d.ErrorLog(min(int(c.ELPE)+1, 16)); err != nil {
		t.Error(err)
	}
	fw, err := d.FirmwareSlotLog()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("firmware slots: active %d, revisions %q", fw.ActiveSlot, fw.Slots)
	if c.SANICAP&(SanicapCrypto|SanicapBlock|SanicapOverwrite) != 0 {
		if _, err := d.SanitizeLog(); err != nil {
			t.Error(err)
		}
	}
}

// TestLiveNamespace checks Identify Namespace against what the block
// layer reports for the same namespace.
func TestLiveNamespace(t *testing.T) {
	d := liveDevice(t, "/dev/nvme[0-9]n[0-9]")
	if d.NSID == 0 {
		t.Fatalf("namespace %s has namespace ID 0", d.Path)
	}
	ns, err := d.IdentifyNamespace(d.NSID)
	if err != nil {
		t.Fatal(err)
	}
	b, err := blockdev.BlockInfo(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	if ns.CapacityBytes != uint64(b.Size) || ns.BlockSize != uint64(b.LogicalBlockSize) {
		t.Errorf("identify: %d bytes in %d-byte blocks; block layer: %d bytes in %d-byte blocks",
			ns.CapacityBytes, ns.BlockSize, b.Size, b.LogicalBlockSize)
	}
	if _, err := d.SmartLog(); err != nil {
		t.Error(err)
	}
}

// TestLiveFormat formats the namespace named by DRIVEBENCH_NVME_FORMAT_TEST
// (destroying its data) to another LBA format and back, and checks that
// the block layer follows.
func TestLiveFormat(t *testing.T) {
	path := os.Getenv("DRIVEBENCH_NVME_FORMAT_TEST")
	if path == "" {
		t.Skip("set DRIVEBENCH_NVME_FORMAT_TEST to a namespace whose data may be destroyed")
	}
	d := liveDevice(t, path)
	ns, err := d.IdentifyNamespace(d.NSID)
	if err != nil {
		t.Fatal(err)
	}
	original, other := ns.FormatInUse, otherFormat(ns)
	if other < 0 {
		t.Skip("the namespace offers no other LBA format without metadata")
	}
	for _, index := range []int{other, original} {
		formatAndCheck(t, d, index, ns.LBAFormats[index].DataSize())
	}
}

// otherFormat returns an LBA format without metadata and of another data
// size than the one in use, or -1.
func otherFormat(ns *IDNs) int {
	inUse := ns.LBAFormats[ns.FormatInUse]
	for i, f := range ns.LBAFormats {
		if f.MS == 0 && f.DataSize() != 0 && f.DataSize() != inUse.DataSize() {
			return i
		}
	}
	return -1
}

func formatAndCheck(t *testing.T, d *Device, index int, blockSize uint64) {
	t.Helper()
	if err := d.Format(d.NSID, FormatOptions{LBAFormat: uint8(index), SecureErase: UserDataErase}); err != nil {
		t.Fatal(err)
	}
	ns, err := d.IdentifyNamespace(d.NSID)
	if err != nil {
		t.Fatal(err)
	}
	if ns.FormatInUse != index || ns.BlockSize != blockSize {
		t.Errorf("after format %d: format %d in use, %d-byte blocks", index, ns.FormatInUse, ns.BlockSize)
	}
	b, err := blockdev.BlockInfo(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("formatted %s with LBA format %d: %d-byte blocks, %d bytes", d.Path, index, b.LogicalBlockSize, b.Size)
	if uint64(b.LogicalBlockSize) != blockSize {
		t.Errorf("after format %d: block layer reports %d-byte blocks, want %d", index, b.LogicalBlockSize, blockSize)
	}
}

// TestLiveSnapshot checks Snapshot and IsNVMe on every NVMe device file.
func TestLiveSnapshot(t *testing.T) {
	d := liveDevice(t, "/dev/nvme[0-9]n[0-9]")
	s, err := Snapshot(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	if s.NSID != d.NSID || s.IDNs == nil || s.IDCtrl.MN == "" || s.SmartLog == nil {
		t.Errorf("snapshot of %s: %+v", d.Path, s)
	}
	devices, _ := filepath.Glob("/dev/n[vg]*")
	for _, path := range append(devices, "/dev/null") {
		want := path != "/dev/null"
		if got := IsNVMe(path); got != want {
			t.Errorf("IsNVMe(%s) = %v, want %v", path, got, want)
		}
	}
}

// TestLivePurge purges the namespace named by DRIVEBENCH_NVME_FORMAT_TEST
// (destroying its data) with every method: the ones the controller
// supports must leave no signature behind, even one the kernel cached
// just before; the others must be refused before anything is sent.
func TestLivePurge(t *testing.T) {
	path := os.Getenv("DRIVEBENCH_NVME_FORMAT_TEST")
	if path == "" {
		t.Skip("set DRIVEBENCH_NVME_FORMAT_TEST to a namespace whose data may be destroyed")
	}
	c, err := liveDevice(t, path).IdentifyController()
	if err != nil {
		t.Fatal(err)
	}
	supported := SupportedPurgeMethods(c)
	for _, method := range PurgeMethods() {
		writeCachedSignature(t, path)
		err := Purge(context.Background(), path, method, nil)
		if !slices.Contains(supported, method) {
			if err == nil || !strings.Contains(err.Error(), "does not support") {
				t.Errorf("purge %s (unsupported): err = %v", method, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("purge %s: %v", method, err)
			continue
		}
		if err := blockdev.CheckWritable(path); err != nil {
			t.Errorf("after purge %s: %v", method, err)
		}
	}
}

// writeCachedSignature writes the start of an XFS superblock through the page
// cache and reads it back, so the kernel holds it in memory.
func writeCachedSignature(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sb := make([]byte, 512) // magic, 4 KiB blocks, 512-byte sectors
	copy(sb, "XFSB")
	binary.BigEndian.PutUint32(sb[4:], 4096)
	binary.BigEndian.PutUint16(sb[102:], 512)
	if _, err := f.WriteAt(sb, 0); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		t.Fatal(err)
	}
	if name, err := blockdev.DetectSignature(f, size); name != "xfs" || err != nil {
		t.Fatalf("signature before the purge: %q, %v; want xfs", name, err)
	}
}
