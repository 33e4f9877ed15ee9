//go:build linux

package blockdev

import (
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/blockdev/blockdevtest"
	"github.com/drivebench/drivebench/internal/testenv"
	"golang.org/x/sys/unix"
)

func TestReadBlockFactsFakeSystem(t *testing.T) {
	f := newFakeSys(t)
	f.Disk(true)
	tests := []struct {
		dev  uint64
		want BlockDevice
	}{
		{unix.Mkdev(8, 240), BlockDevice{Name: "sdz", Disk: "sdz"}},
		{unix.Mkdev(8, 241), BlockDevice{Name: "sdz1", Disk: "sdz", Partition: true}},
	}
	for _, tt := range tests {
		var got BlockDevice
		if err := f.sys.readBlockFacts(tt.dev, &got); err != nil {
			t.Fatal(err)
		}
		want := tt.want
		want.Rotational, want.NrRequests, want.Scheduler = true, 64, "mq-deadline"
		want.Model, want.Vendor, want.Firmware, want.QueueDepth = "Fake Disk 2000", "ATA", "FW01", 32
		if got != want {
			t.Errorf("facts of %s:\n got %+v\nwant %+v", tt.want.Name, got, want)
		}
	}
}

func TestBlockDeviceFacts(t *testing.T) {
	b := BlockDevice{Name: "nvme0n1", Size: 1 << 30, LogicalBlockSize: 512, PhysicalBlockSize: 4096,
		Model: "QEMU NVMe Ctrl", Serial: "deadbeef", Scheduler: "none"}
	want := map[string]string{
		"type": "block", "kernel_name": "nvme0n1", "size": "1073741824", "logical_block_size": "512",
		"physical_block_size": "4096", "rotational": "false", "model": "QEMU NVMe Ctrl", "serial": "deadbeef",
		"scheduler": "none",
	}
	if got := b.Facts(); !reflect.DeepEqual(got, want) {
		t.Errorf("Facts() = %v, want %v", got, want)
	}
}

func TestActiveScheduler(t *testing.T) {
	for in, want := range map[string]string{"[none] mq-deadline kyber bfq": "none", "none [mq-deadline]": "mq-deadline", "": "", "none": "none"} {
		if got := activeScheduler(in); got != want {
			t.Errorf("activeScheduler(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBlockInfoRejectsFiles(t *testing.T) {
	if _, err := BlockInfo(zeroImage(t)); err == nil || !strings.Contains(err.Error(), "not a block device") {
		t.Errorf("err = %v", err)
	}
	if IsBlockDevice(zeroImage(t)) || IsBlockDevice("/dev/null") || IsBlockDevice(filepath.Join(t.TempDir(), "x")) {
		t.Error("IsBlockDevice accepted a file, a character device or a missing path")
	}
}

// TestBlockInfoLoop compares BlockInfo on loop devices with what
// blockdev(8) reports.
func TestBlockInfoLoop(t *testing.T) {
	testenv.Command(t, "blockdev", "util-linux")
	for _, sector := range []string{"512", "4096"} {
		t.Run(sector, func(t *testing.T) {
			loop := blockdevtest.LoopDevice(t, 48<<20, "--sector-size", sector)
			if !IsBlockDevice(loop) {
				t.Fatalf("IsBlockDevice(%s) = false", loop)
			}
			b, err := BlockInfo(loop)
			if err != nil {
				t.Fatal(err)
			}
			want := blockdevReport(t, loop)
			got := []int64{b.Size, int64(b.LogicalBlockSize), int64(b.PhysicalBlockSize)}
			if !reflect.DeepEqual(got, want) || b.Size != 48<<20 {
				t.Errorf("size, logical, physical = %v; blockdev says %v", got, want)
			}
			if b.Name != filepath.Base(loop) || b.Disk != b.Name || b.Partition {
				t.Errorf("name %q disk %q partition %v for %s", b.Name, b.Disk, b.Partition, loop)
			}
			if b.NrRequests == 0 || b.Scheduler == "" {
				t.Errorf("queue facts missing: %+v", b)
			}
		})
	}
}

// blockdevReport returns size, logical and physical block size from
// blockdev(8).
func blockdevReport(t *testing.T, dev string) []int64 {
	t.Helper()
	out, err := exec.Command("blockdev", "--getsize64", "--getss", "--getpbsz", dev).Output()
	if err != nil {
		t.Fatal(err)
	}
	var vals []int64
	for _, field := range strings.Fields(string(out)) {
		v, err := strconv.ParseInt(field, 10, 64)
		if err != nil {
			t.Fatalf("blockdev output %q: %v", out, err)
		}
		vals = append(vals, v)
	}
	return vals
}
