package native

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/workload"
)

var testSplit = []workload.SizeWeight{{Size: 4096, Weight: 50}, {Size: 16384, Weight: 30}, {Size: 65536, Weight: 20}}

func TestSizeMixFollowsTheWeights(t *testing.T) {
	m := newSizeMix(workload.Workload{BSSplit: append(testSplit, workload.SizeWeight{Size: 8192, Weight: 0})})
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 200000
	counts := map[int64]int{}
	for range n {
		counts[m.pick(rng)]++
	}
	for _, sw := range testSplit {
		if share := 100 * float64(counts[sw.Size]) / n; math.Abs(share-sw.Weight) > 0.5 {
			t.Errorf("size %d drawn %.2f%% of the time, weight %g%%", sw.Size, share, sw.Weight)
		}
	}
	if counts[8192] != 0 {
		t.Errorf("size 8192 of weight 0 drawn %d times", counts[8192])
	}
	if g := m.granule(); g != 4096 {
		t.Errorf("granule %d, want 4096", g)
	}
}

func TestBSSplitRandomRun(t *testing.T) {
	const (
		capacity = 4 << 20
		budget   = 4000 * 4096
	)
	path, _ := patternFile(t, t.TempDir(), capacity)
	w := workload.Workload{RW: "randrw", ReadPct: 50, BSSplit: testSplit, IODepth: 2, NumJobs: 2, Bytes: budget, Offset: 8192, Seed: 5}
	sys := &recordingSys{}
	res, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: capacity}, w, nil, sys)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	sizes := map[int]int{}
	for _, tr := range sys.transfers() {
		total += int64(tr.length)
		sizes[tr.length]++
		if tr.offset < 8192 || tr.offset+int64(tr.length) > capacity || (tr.offset-8192)%4096 != 0 {
			t.Fatalf("%d bytes at %d: outside the region or off the 4096-byte grid", tr.length, tr.offset)
		}
	}
	if total != budget || int64(res.Read.Bytes+res.Write.Bytes) != budget {
		t.Errorf("transferred %d bytes (recorded %d), want exactly %d", total, res.Read.Bytes+res.Write.Bytes, budget)
	}
	for _, size := range []int{4096, 16384, 65536} {
		if sizes[size] == 0 {
			t.Errorf("no transfer of %d bytes", size)
		}
	}
}

func TestBSSplitSequentialPassCoversTheRegionOnce(t *testing.T) {
	const capacity = 1 << 20
	path, _ := patternFile(t, t.TempDir(), capacity)
	w := workload.Workload{RW: "write", BSSplit: testSplit, IODepth: 3, NumJobs: 2, Size: 900 << 10, Seed: 9}
	sys := &recordingSys{}
	if _, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: capacity}, w, nil, sys); err != nil {
		t.Fatal(err)
	}
	written := make([]int, (900<<10)/4096)
	for _, tr := range sys.transfers() {
		for b := tr.offset / 4096; b < (tr.offset+int64(tr.length))/4096; b++ {
			written[b]++
		}
	}
	for b, n := range written {
		if n != 1 {
			t.Errorf("block %d written %d times, want once", b, n)
		}
	}
}

func TestZonesSkewTheOffsets(t *testing.T) {
	const capacity = 4 << 20
	path, _ := patternFile(t, t.TempDir(), capacity)
	w := workload.Workload{RW: "randread", BS: 4096, IODepth: 1, NumJobs: 2, Bytes: 20000 * 4096, Seed: 4,
		Zones: []workload.Zone{{AccessPct: 80, RegionPct: 10}, {AccessPct: 15, RegionPct: 40}, {AccessPct: 5, RegionPct: 50}}}
	sys := &recordingSys{}
	if _, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: capacity}, w, nil, sys); err != nil {
		t.Fatal(err)
	}
	bounds := []int64{0, capacity / 10 / 4096 * 4096, capacity / 2 / 4096 * 4096, capacity}
	var hits [3]int
	log := sys.transfers()
	for _, tr := range log {
		for z := range hits {
			if tr.offset >= bounds[z] && tr.offset < bounds[z+1] {
				hits[z]++
			}
		}
	}
	for z, want := range []float64{80, 15, 5} {
		if got := 100 * float64(hits[z]) / float64(len(log)); math.Abs(got-want) > 1.5 {
			t.Errorf("zone %d got %.1f%% of the I/Os, want %g%%", z+1, got, want)
		}
	}
}

func TestSeqPctContinuesFromThePreviousIO(t *testing.T) {
	const capacity = 64 << 20
	path, _ := patternFile(t, t.TempDir(), capacity)
	w := workload.Workload{RW: "randread", BS: 4096, IODepth: 1, NumJobs: 1, Bytes: 20000 * 4096, SeqPct: 60, Seed: 2}
	sys := &recordingSys{}
	if _, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: capacity}, w, nil, sys); err != nil {
		t.Fatal(err)
	}
	log := sys.transfers()
	seq := 0
	for i := 1; i < len(log); i++ {
		if log[i].offset == log[i-1].offset+int64(log[i-1].length) {
			seq++
		}
	}
	if got := 100 * float64(seq) / float64(len(log)-1); math.Abs(got-60) > 1.5 {
		t.Errorf("%.1f%% of the I/Os continue from the previous one, want 60%%", got)
	}
}

func TestMixesRepeatForASeed(t *testing.T) {
	const capacity = 4 << 20
	path, _ := patternFile(t, t.TempDir(), capacity)
	log := func(seed uint64) []transfer {
		w := workload.Workload{RW: "randrw", ReadPct: 70, BSSplit: testSplit, IODepth: 1, NumJobs: 1, Bytes: 500 * 4096, SeqPct: 30, Seed: seed,
			Zones: []workload.Zone{{AccessPct: 90, RegionPct: 20}, {AccessPct: 10, RegionPct: 80}}}
		sys := &recordingSys{}
		if _, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: capacity}, w, nil, sys); err != nil {
			t.Fatal(err)
		}
		return sys.transfers()
	}
	first := log(11)
	if again := log(11); !reflect.DeepEqual(first, again) {
		t.Error("the same seed gave different I/Os")
	}
	if other := log(12); fmt.Sprint(other) == fmt.Sprint(first) {
		t.Error("different seeds gave the same I/Os")
	}
}
