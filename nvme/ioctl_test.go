//go:build linux

package nvme

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/drivebench/drivebench/blockdev/blockdevtest"
)

// TestPassthruLayout checks struct nvme_passthru_cmd field by field
// against linux/nvme_ioctl.h.
func TestPassthruLayout(t *testing.T) {
	var c passthruCmd
	if size := unsafe.Sizeof(c); size != 72 {
		t.Fatalf("sizeof(passthruCmd) = %d, want 72", size)
	}
	offsets := []struct {
		field     string
		got, want uintptr
	}{
		{"opcode", unsafe.Offsetof(c.Opcode), 0}, {"flags", unsafe.Offsetof(c.Flags), 1},
		{"rsvd1", unsafe.Offsetof(c.Rsvd1), 2}, {"nsid", unsafe.Offsetof(c.NSID), 4},
		{"cdw2", unsafe.Offsetof(c.Cdw2), 8}, {"cdw3", unsafe.Offsetof(c.Cdw3), 12},
		{"metadata", unsafe.Offsetof(c.Metadata), 16}, {"addr", unsafe.Offsetof(c.Addr), 24},
		{"metadata_len", unsafe.Offsetof(c.MetadataLen), 32}, {"data_len", unsafe.Offsetof(c.DataLen), 36},
		{"cdw10", unsafe.Offsetof(c.Cdw10), 40}, {"cdw11", unsafe.Offsetof(c.Cdw11), 44},
		{"cdw12", unsafe.Offsetof(c.Cdw12), 48}, {"cdw13", unsafe.Offsetof(c.Cdw13), 52},
		{"cdw14", unsafe.Offsetof(c.Cdw14), 56}, {"cdw15", unsafe.Offsetof(c.Cdw15), 60},
		{"timeout_ms", unsafe.Offsetof(c.TimeoutMs), 64}, {"result", unsafe.Offsetof(c.Result), 68},
	}
	for _, o := range offsets {
		if o.got != o.want {
			t.Errorf("offsetof(%s) = %d, want %d", o.field, o.got, o.want)
		}
	}
}

// TestIoctlNumbers checks the computed request numbers against the values
// of linux/nvme_ioctl.h (and the lab's probe, which used 0xC0484E41).
func TestIoctlNumbers(t *testing.T) {
	if nvmeIoctlAdminCmd != 0xC0484E41 {
		t.Errorf("NVME_IOCTL_ADMIN_CMD = %#x, want 0xC0484E41", nvmeIoctlAdminCmd)
	}
	if nvmeIoctlID != 0x4E40 {
		t.Errorf("NVME_IOCTL_ID = %#x, want 0x4E40", nvmeIoctlID)
	}
}

func TestPassthruFromCommand(t *testing.T) {
	buf := make([]byte, SmartLogSize)
	p := getLogPageCmd(LogSmart, NSIDAll, buf).passthru()
	want := passthruCmd{
		Opcode: 0x02, NSID: NSIDAll, Addr: uint64(uintptr(unsafe.Pointer(&buf[0]))),
		DataLen: 512, Cdw10: 0x007f0002,
	}
	if p != want {
		t.Errorf("passthru = %+v, want %+v", p, want)
	}
	c, err := formatCmd(1, FormatOptions{LBAFormat: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p := c.passthru(); p.Addr != 0 || p.DataLen != 0 || p.TimeoutMs != 600000 || p.Cdw10 != 1 {
		t.Errorf("format passthru = %+v, want no buffer, 600000 ms, cdw10 1", p)
	}
	if got := timeoutMs(100 * 24 * time.Hour); got != ^uint32(0) {
		t.Errorf("timeoutMs(100 days) = %d, want saturation", got)
	}
}

// fakeController answers admin commands with the lab's QEMU pages and a
// sanitize log that moves from running to done.
type fakeController struct {
	t        *testing.T
	pages    map[string][]byte
	commands []adminCmd
	// formatStatus and sanitizeStatus complete Format NVM and Sanitize.
	formatStatus, sanitizeStatus Status
}

func newFakeController(t *testing.T) *fakeController {
	return &fakeController{t: t, formatStatus: 0x010a, sanitizeStatus: 0x0001, pages: map[string][]byte{
		"identify 0x01": readFixture(t, "qemu-nvme-id-ctrl.bin"),
		"identify 0x00": readFixture(t, "qemu-nvme-id-ns.bin"),
		"log 0x02":      readFixture(t, "qemu-nvme-smart-log.bin"),
	}}
}

func (f *fakeController) submit(c adminCmd) (uint32, Status, error) {
	f.commands = append(f.commands, c)
	var key string
	switch c.opcode {
	case opIdentify:
		key = fmt.Sprintf("identify 0x%02x", c.cdw10&0xff)
	case opGetLogPage:
		key = fmt.Sprintf("log 0x%02x", c.cdw10&0xff)
	case opFormatNVM:
		return 0, f.formatStatus, nil
	case opSanitize:
		return 0, f.sanitizeStatus, nil
	default:
		return 0, 0x0001, nil // invalid opcode
	}
	page, ok := f.pages[key]
	if !ok {
		return 0, 0x0109, nil // invalid log page
	}
	copy(c.data, page)
	return 0, 0, nil
}

func fakeDevice(f *fakeController) *Device {
	return &Device{Path: "/dev/nvme0n1", NSID: 1, fd: -1, submit: f.submit}
}

func TestDeviceCommands(t *testing.T) {
	f := newFakeController(t)
	d := fakeDevice(f)
	c, err := d.IdentifyController()
	if err != nil || c.MN != "QEMU NVMe Ctrl" {
		t.Fatalf("IdentifyController = %+v, %v", c, err)
	}
	ns, err := d.IdentifyNamespace(d.NSID)
	if err != nil || ns.CapacityBytes != 1<<30 {
		t.Fatalf("IdentifyNamespace = %+v, %v", ns, err)
	}
	s, err := d.SmartLog()
	if err != nil || s.Temperature != 323 {
		t.Fatalf("SmartLog = %+v, %v", s, err)
	}
	if got := len(f.commands); got != 3 {
		t.Fatalf("%d commands sent, want 3", got)
	}
	sameCmd(t, f.commands[1], adminCmd{opcode: opIdentify, nsid: 1, cdw10: cnsNamespace, data: f.commands[1].data})
	if n := len(f.commands[1].data); n != IDNsSize {
		t.Errorf("identify namespace buffer is %d bytes", n)
	}
}

func TestDeviceErrors(t *testing.T) {
	d := fakeDevice(newFakeController(t))
	_, err := d.FirmwareSlotLog()
	var se *StatusError
	if !errors.As(err, &se) || se.Status != 0x0109 || !strings.Contains(err.Error(), "get log page 0x03 on /dev/nvme0n1") {
		t.Errorf("FirmwareSlotLog: err = %v, want a StatusError for get log page 0x03", err)
	}
	err = d.Format(1, FormatOptions{LBAFormat: 4, SecureErase: CryptoErase})
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "LBA format 4, crypto erase") || !strings.Contains(err.Error(), "invalid format") {
		t.Errorf("Format: err = %v", err)
	}
	if _, err := d.IdentifyNamespace(0); err == nil || !strings.Contains(err.Error(), "not a namespace") {
		t.Errorf("IdentifyNamespace(0): err = %v", err)
	}
	if _, err := d.ErrorLog(0); err == nil {
		t.Error("ErrorLog(0) accepted")
	}
	if _, err := d.GetLogPage(0xc0, 1, 6); err == nil {
		t.Error("GetLogPage of 6 bytes accepted")
	}
}

func TestDeviceWaitSanitizeReadsTheLog(t *testing.T) {
	f := newFakeController(t)
	done := make([]byte, SanitizeLogSize)
	done[2] = byte(SanitizeCompleted)
	f.pages["log 0x81"] = done
	d := fakeDevice(f)
	log, err := d.WaitSanitize(context.Background(), nil)
	if err != nil || log.Status() != SanitizeCompleted {
		t.Fatalf("WaitSanitize = %+v, %v", log, err)
	}
	sameCmd(t, f.commands[0], adminCmd{opcode: opGetLogPage, nsid: NSIDAll, cdw10: 0x007f0081, data: f.commands[0].data})
}

func TestOpenRejectsNonNVMe(t *testing.T) {
	file := filepath.Join(t.TempDir(), "plain")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ path, want string }{
		{file, "not a device file"},
		{"/dev/null", "not an NVMe controller or namespace"},
		{filepath.Join(t.TempDir(), "missing"), "no such file"},
	}
	for _, tt := range tests {
		d, err := Open(tt.path)
		if err == nil {
			d.Close()
			t.Errorf("Open(%s) succeeded", tt.path)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open(%s): err = %v, want %q", tt.path, err, tt.want)
		}
	}
}

func TestOpenRejectsLoopDevice(t *testing.T) {
	loop := blockdevtest.LoopDevice(t, 1<<20)
	_, err := Open(loop)
	if err == nil || !strings.Contains(err.Error(), "not an NVMe controller or namespace") {
		t.Errorf("Open(%s): err = %v", loop, err)
	}
}
