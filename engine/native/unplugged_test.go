package native

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/blockdev/blockdevtest"
	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/workload"
)

// TestSequentialRingIOsReachTheDeviceAsTheyAre runs a sequential job on a
// loop device and reads the device's own counters: every 128 KiB read of
// the profile must reach it as a request of its own, as fio's do. With
// all 8 of the ring's I/Os submitted in one call, the kernel's plug
// merged them into requests of up to 512 KiB.
func TestSequentialRingIOsReachTheDeviceAsTheyAre(t *testing.T) {
	requireUring(t)
	const size, bs = 64 << 20, 128 << 10
	dev := blockdevtest.LoopDevice(t, size, "--direct-io=on")
	before := deviceReads(t, dev)
	w := workload.Workload{RW: "read", BS: bs, IOEngine: "io_uring", NumJobs: 1, IODepth: 8, Direct: true, Bytes: size, Seed: 1}
	if _, err := (Engine{}).Run(context.Background(), driver.Target{Path: dev, Capacity: size, BlockSize: 512}, w, nil); err != nil {
		t.Fatal(err)
	}
	after := deviceReads(t, dev)
	ios, merges := after[0]-before[0], after[1]-before[1]
	// Anything else reading the device (udev's probe of a new one) may
	// add a few requests; the engine's own are size/bs.
	if ios < size/bs || merges > ios/100 {
		t.Errorf("%s completed %d read requests with %d merges for the engine's %d reads of %d KiB; want a request per read", dev, ios, merges, size/bs, bs>>10)
	}
}

// deviceReads is a block device's completed read requests and read
// merges so far, from its sysfs stat file.
func deviceReads(t *testing.T, dev string) [2]int64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("/sys/block", filepath.Base(dev), "stat"))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	var got [2]int64
	for i := range got {
		if got[i], err = strconv.ParseInt(f[i], 10, 64); err != nil {
			t.Fatalf("%s stat: %v", dev, err)
		}
	}
	return got
}
