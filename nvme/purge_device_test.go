//go:build linux

package nvme

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/blockdev"
	"github.com/drivebench/drivebench/blockdev/blockdevtest"
	"golang.org/x/sys/unix"
)

func TestRunPurge(t *testing.T) {
	completed := make([]byte, SanitizeLogSize)
	completed[2] = byte(SanitizeCompleted)
	tests := []struct {
		name         string
		method       string
		ctrl         IDCtrl
		nsid         uint32
		want         []adminCmd // data buffers compared by length only
		wantProgress []float64
		wantErr      string
	}{
		{name: "format keeps the LBA format", method: PurgeFormat, ctrl: IDCtrl{OACS: OACSFormat}, nsid: 1,
			want: []adminCmd{
				{opcode: opIdentify, nsid: 1, cdw10: cnsNamespace, data: make([]byte, IDNsSize)},
				{opcode: opFormatNVM, nsid: 1, cdw10: 0x200, timeout: time.Hour},
			}, wantProgress: []float64{0, 1}},
		{name: "format applying to all namespaces", method: PurgeFormatCrypto, nsid: 1,
			ctrl: IDCtrl{OACS: OACSFormat, FNA: FNAFormatAll | FNACryptoErase},
			want: []adminCmd{
				{opcode: opIdentify, nsid: 1, cdw10: cnsNamespace, data: make([]byte, IDNsSize)},
				{opcode: opFormatNVM, nsid: NSIDAll, cdw10: 0x400, timeout: time.Hour},
			}, wantProgress: []float64{0, 1}},
		{name: "sanitize waits for the log", method: PurgeSanitizeBlock, ctrl: IDCtrl{SANICAP: SanicapBlock},
			want: []adminCmd{
				{opcode: opSanitize, cdw10: 0x2},
				{opcode: opGetLogPage, nsid: NSIDAll, cdw10: 0x007f0081, data: make([]byte, SanitizeLogSize)},
			}, wantProgress: []float64{1}},
		{name: "format through the controller", method: PurgeFormat, ctrl: IDCtrl{OACS: OACSFormat},
			wantErr: "give the namespace device (e.g. /dev/nvme0n1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeController(t)
			f.formatStatus, f.sanitizeStatus = 0, 0
			f.pages["log 0x81"] = completed
			d := &Device{Path: "/dev/nvme0", NSID: tt.nsid, fd: -1, submit: f.submit}
			if tt.nsid != 0 {
				d.Path = "/dev/nvme0n1"
			}
			m, err := lookupPurge(tt.method)
			if err != nil {
				t.Fatal(err)
			}
			var progress []float64
			err = d.runPurge(context.Background(), &tt.ctrl, m, func(p float64) { progress = append(progress, p) })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || len(f.commands) != 0 {
					t.Fatalf("err = %v after %d commands, want %q before any command", err, len(f.commands), tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(f.commands) != len(tt.want) {
				t.Fatalf("%d commands sent, want %d", len(f.commands), len(tt.want))
			}
			for i, want := range tt.want {
				want.data = f.commands[i].data[:len(want.data)]
				sameCmd(t, f.commands[i], want)
			}
			if !slices.Equal(progress, tt.wantProgress) {
				t.Errorf("progress %v, want %v", progress, tt.wantProgress)
			}
		})
	}
}

func TestRunPurgeReportsTheControllerStatus(t *testing.T) {
	f := newFakeController(t) // fails Format NVM with "invalid format"
	d := fakeDevice(f)
	m, _ := lookupPurge(PurgeFormat)
	err := d.runPurge(context.Background(), &IDCtrl{OACS: OACSFormat}, m, nil)
	if err == nil || !strings.Contains(err.Error(), "user data erase") || !strings.Contains(err.Error(), "invalid format") {
		t.Errorf("err = %v", err)
	}
}

func TestDeviceSnapshot(t *testing.T) {
	f := newFakeController(t)
	s, err := fakeDevice(f).Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if s.Path != "/dev/nvme0n1" || s.NSID != 1 || s.IDCtrl.SN != "deadbeef" || s.IDNs.NSZE != 2097152 ||
		s.SmartLog.Temperature != 323 || s.Time.IsZero() {
		t.Errorf("snapshot %+v", s)
	}
	controller := &Device{Path: "/dev/nvme0", fd: -1, submit: f.submit}
	s, err = controller.Snapshot()
	if err != nil || s.IDNs != nil || s.IDCtrl == nil || s.SmartLog == nil {
		t.Errorf("controller snapshot %+v, %v; want no namespace", s, err)
	}
	compareWithNvmeCli(t, s.SmartLog, "qemu-nvme-smart-log.json")
}

// fakeSys is a crafted tree and the system that reads it.
type fakeSys struct {
	*blockdevtest.Tree
	sys system
}

func newFakeSys(t *testing.T) *fakeSys {
	tr := blockdevtest.New(t)
	return &fakeSys{Tree: tr, sys: system{blockdev.System{Sysfs: tr.Sysfs(), Mountinfo: tr.Mountinfo(), Swaps: tr.Swaps()}}}
}

// checkInUse expects err to refuse a device in use for want, saying what
// to do; want "" expects no error.
func checkInUse(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("refused: %v", err)
		}
		return
	}
	var ue *blockdev.UnsafeError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v, want an UnsafeError containing %q", err, want)
	}
	if !strings.Contains(ue.Reason, want) || !ue.InUse {
		t.Errorf("reason %q (in use %v), want %q (in use)", ue.Reason, ue.InUse, want)
	}
	if !strings.Contains(err.Error(), "unmount it or stop what holds it") || !strings.HasPrefix(err.Error(), ue.Path+" "+ue.Reason) {
		t.Errorf("message %q does not start with the path and reason or lacks the remedy", err)
	}
}

// nvmeTree adds controller nvme0 (char 247:0) with namespaces nvme0n1
// (259:0, partition nvme0n1p1 259:2) and nvme0n2 (259:1), the generic
// device ng0n1 (246:0) and a hidden multipath path nvme0c0n3 (259:5).
func (f *fakeSys) nvmeTree() {
	ctrl := "pci0/nvme/nvme0"
	f.File("sys/devices/"+ctrl+"/dev", "247:0\n")
	f.Link("sys/devices/"+ctrl+"/subsystem", "sys/class/nvme")
	f.Link("sys/dev/char/247:0", "sys/devices/"+ctrl)
	for _, ns := range []struct{ name, dev, hidden string }{
		{"nvme0n1", "259:0", "0"}, {"nvme0n2", "259:1", "0"}, {"nvme0c0n3", "259:5", "1"},
	} {
		dir := ctrl + "/" + ns.name
		f.Block(dir, ns.dev)
		f.File("sys/devices/"+dir+"/queue/rotational", "0\n")
		f.File("sys/devices/"+dir+"/hidden", ns.hidden+"\n")
		f.Link("sys/devices/"+dir+"/device", "sys/devices/"+ctrl)
	}
	f.Block(ctrl+"/nvme0n1/nvme0n1p1", "259:2")
	f.File("sys/devices/"+ctrl+"/nvme0n1/nvme0n1p1/partition", "1\n")
	f.File("sys/devices/"+ctrl+"/ng0n1/dev", "246:0\n")
	f.Link("sys/devices/"+ctrl+"/ng0n1/subsystem", "sys/class/nvme-generic")
	f.Link("sys/dev/char/246:0", "sys/devices/"+ctrl+"/ng0n1")
	f.Link("sys/devices/pci0/block/sdz/device/subsystem", "sys/bus/scsi")
}

func TestIsNVMeFakeSystem(t *testing.T) {
	f := newFakeSys(t)
	f.Disk(false)
	f.nvmeTree()
	tests := []struct {
		name string
		mode uint32
		dev  uint64
		want bool
	}{
		{"namespace", unix.S_IFBLK, unix.Mkdev(259, 0), true},
		{"partition of a namespace", unix.S_IFBLK, unix.Mkdev(259, 2), true},
		{"controller", unix.S_IFCHR, unix.Mkdev(247, 0), true},
		{"generic namespace", unix.S_IFCHR, unix.Mkdev(246, 0), true},
		{"SCSI disk", unix.S_IFBLK, unix.Mkdev(8, 240), false},
		{"unknown block device", unix.S_IFBLK, unix.Mkdev(7, 0), false},
		{"unknown character device", unix.S_IFCHR, unix.Mkdev(1, 3), false},
		{"regular file", unix.S_IFREG, 0, false},
	}
	for _, tt := range tests {
		if got := f.sys.isNVMe(tt.mode, tt.dev); got != tt.want {
			t.Errorf("%s: isNVMe = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestErasedNamespaces(t *testing.T) {
	f := newFakeSys(t)
	f.nvmeTree()
	both := []string{"nvme0n1", "nvme0n2"}
	tests := []struct {
		name  string
		mode  uint32
		dev   uint64
		whole bool
		want  []string
	}{
		{"one namespace", unix.S_IFBLK, unix.Mkdev(259, 1), false, []string{"nvme0n2"}},
		{"through a partition", unix.S_IFBLK, unix.Mkdev(259, 2), false, []string{"nvme0n1"}},
		{"whole subsystem", unix.S_IFBLK, unix.Mkdev(259, 0), true, both},
		{"controller", unix.S_IFCHR, unix.Mkdev(247, 0), false, both},
		{"generic namespace", unix.S_IFCHR, unix.Mkdev(246, 0), false, both},
	}
	for _, tt := range tests {
		nodes, err := f.sys.erasedNamespaces(tt.mode, tt.dev, tt.whole)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		var names []string
		for _, n := range nodes {
			names = append(names, n.Name)
		}
		if !reflect.DeepEqual(names, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, names, tt.want)
		}
	}
	if _, err := f.sys.erasedNamespaces(unix.S_IFCHR, unix.Mkdev(1, 3), false); err == nil {
		t.Error("unknown character device accepted")
	}
}

// TestCheckNotInUse: a purge minds mounts and holders, not data.
func TestCheckNotInUse(t *testing.T) {
	tests := []struct {
		name  string
		setup func(f *fakeSys)
		want  string
	}{
		{name: "partitioned, not mounted"},
		{name: "partition mounted", setup: func(f *fakeSys) {
			f.File("mountinfo", "40 27 259:2 / /data rw - xfs /dev/nvme0n1p1 rw\n")
		}, want: "has partition /dev/nvme0n1p1 mounted at /data"},
		{name: "held by md", setup: func(f *fakeSys) {
			f.Block("virtual/block/md0", "9:0")
			f.Holder("pci0/nvme/nvme0/nvme0n1", "md0")
		}, want: "is held by md0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeSys(t)
			f.nvmeTree()
			if tt.setup != nil {
				tt.setup(f)
			}
			image := blockdevtest.Image(t, 1<<20, map[int]string{0: "XFSB"})
			checkInUse(t, f.sys.CheckNotInUse(image, unix.Mkdev(259, 0)), tt.want)
		})
	}
}
