package native

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/workload"
	"golang.org/x/sys/unix"
)

// TestVerifyFindsEveryFault writes a file twice with verify while the
// "drive" loses one write and misdirects another, then corrupts bytes of
// random blocks behind the engine's back before the verify pass. Every
// fault must be reported, at its offset, and nothing else.
func TestVerifyFindsEveryFault(t *testing.T) {
	const (
		capacity  = 1 << 20
		bs        = 4096
		lost      = 10 * bs // its second write never reaches the file
		misdirect = 20 * bs // its second write lands on target instead
		target    = 5 * bs  // already rewritten when the misdirected write comes
		writes    = 2 * capacity / bs
	)
	path, _ := patternFile(t, t.TempDir(), capacity)
	rng := rand.New(rand.NewPCG(4, 4))
	corrupted := map[int64]bool{}
	for len(corrupted) < 12 {
		if b := rng.Int64N(capacity / bs); b != lost/bs && b != misdirect/bs && b != target/bs {
			corrupted[b*bs] = true
		}
	}
	seen := map[int64]int{}
	sys := &recordingSys{
		write: func(fd int, buf []byte, off int64) (int, error) {
			if seen[off]++; seen[off] == 2 {
				switch off {
				case lost:
					return len(buf), nil
				case misdirect:
					return unix.Pwrite(fd, buf, target)
				}
			}
			return unix.Pwrite(fd, buf, off)
		},
		after: func(n int) {
			if n == writes+1 { // the verify pass's first read
				corruptBytes(t, path, corrupted, bs, rng)
			}
		},
	}
	w := workload.Workload{RW: "write", BS: bs, IODepth: 1, NumJobs: 1, Loops: 2, Verify: true}
	res, err := execPsync(context.Background(), driver.Target{Path: path, Capacity: capacity}, w, nil, sys)
	var v *VerifyError
	if !errors.As(err, &v) {
		t.Fatalf("error %v, want a *VerifyError", err)
	}
	want := []BadBlock{{Offset: lost, Kind: Stale}, {Offset: misdirect, Kind: Stale}, {Offset: target, Kind: Misplaced}}
	for off := range corrupted {
		want = append(want, BadBlock{Offset: off, Kind: Corrupt})
	}
	sort.Slice(want, func(i, j int) bool { return want[i].Offset < want[j].Offset })
	var got []BadBlock
	for _, b := range v.Blocks {
		got = append(got, BadBlock{Offset: b.Offset, Kind: b.Kind})
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("verify reported\n%v\nwant\n%v", got, want)
	}
	if v.Checked != capacity/bs || v.Bad != int64(len(want)) || res.Metrics["verify_bad_blocks"] != float64(len(want)) {
		t.Errorf("checked %d blocks, %d bad (metrics %v); want %d and %d", v.Checked, v.Bad, res.Metrics, capacity/bs, len(want))
	}
	for _, part := range []string{"15 of 256 written blocks are bad", fmt.Sprintf("stale at %d (generation 1, last written 2)", lost),
		fmt.Sprintf("misplaced at %d (holds the block written for offset %d)", target, misdirect)} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("message %q does not say %q", err, part)
		}
	}
}

// corruptBytes changes one to four random bytes of each listed block of
// size bytes of the file, bypassing the engine.
func corruptBytes(t *testing.T, path string, blocks map[int64]bool, size int64, rng *rand.Rand) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Error(err)
		return
	}
	defer f.Close()
	for off := range blocks {
		for range 1 + rng.IntN(4) {
			at := off + rng.Int64N(size)
			b := make([]byte, 1)
			if _, err := f.ReadAt(b, at); err != nil {
				t.Error(err)
			}
			b[0] ^= byte(1 + rng.IntN(255))
			if _, err := f.WriteAt(b, at); err != nil {
				t.Error(err)
			}
		}
	}
}

func TestVerifyPassesACleanRun(t *testing.T) {
	tests := []struct {
		engine string
		w      workload.Workload
	}{
		{engine: "psync", w: workload.Workload{RW: "randwrite", BSSplit: testSplit, IODepth: 4, NumJobs: 2, Loops: 3}},
		{engine: "io_uring", w: workload.Workload{RW: "randrw", ReadPct: 30, BS: 8192, IODepth: 16, NumJobs: 2, Loops: 3}},
		{engine: "io_uring", w: workload.Workload{RW: "write", BS: 4096, IODepth: 8, NumJobs: 3, Loops: 2, Direct: true}},
	}
	for _, tt := range tests {
		t.Run(tt.engine+","+tt.w.RW, func(t *testing.T) {
			if tt.engine == "io_uring" {
				requireUring(t)
			}
			const capacity = 1 << 20
			path, _ := patternFile(t, t.TempDir(), capacity)
			w := tt.w
			w.IOEngine, w.Verify, w.Seed = tt.engine, true, 6
			res, err := Engine{}.Run(context.Background(), driver.Target{Path: path, Capacity: capacity}, w, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Metrics["verify_blocks"] == 0 || res.Metrics["verify_bad_blocks"] != 0 {
				t.Errorf("verify metrics %v, want blocks checked and none bad", res.Metrics)
			}
		})
	}
}

func TestDiagnoseEachFault(t *testing.T) {
	const (
		unit  = 512
		off   = 4096
		nonce = 77
	)
	tbl := &blockTable{start: 0, unit: unit, nonce: nonce}
	good := func() []byte {
		b := make([]byte, unit)
		for i := range b {
			b[i] = byte(i)
		}
		writeHeader(b, off, nonce, 3)
		return b
	}
	tests := []struct {
		name   string
		change func(b []byte)
		want   FaultKind
		detail string
	}{
		{name: "intact", change: func([]byte) {}},
		{name: "payload changed", change: func(b []byte) { b[300] ^= 1 }, want: Corrupt, detail: "checksum"},
		{name: "checksum changed", change: func(b []byte) { b[33] ^= 1 }, want: Corrupt, detail: "checksum"},
		{name: "no header", change: func(b []byte) { clear(b) }, want: Corrupt, detail: "no block header"},
		{name: "other length", change: func(b []byte) { writeHeader(b[:256], off, nonce, 3) }, want: Corrupt, detail: "length 256"},
		{name: "other run", change: func(b []byte) { writeHeader(b, off, 78, 3) }, want: Stale, detail: "another run"},
		{name: "other offset", change: func(b []byte) { writeHeader(b, 8192, nonce, 3) }, want: Misplaced, detail: "offset 8192"},
		{name: "older write", change: func(b []byte) { writeHeader(b, off, nonce, 2) }, want: Stale, detail: "generation 2, last written 3"},
		{name: "newer than the last write", change: func(b []byte) { writeHeader(b, off, nonce, 4) }, want: Corrupt, detail: "generation 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := good()
			tt.change(b)
			kind, detail := tbl.diagnose(b, off, 3)
			if kind != tt.want || !strings.Contains(detail, tt.detail) {
				t.Errorf("diagnosed %q (%s), want %q mentioning %q", kind, detail, tt.want, tt.detail)
			}
		})
	}
}

func TestBlockTableKeepsWritesApart(t *testing.T) {
	tbl := newBlockTable(region{start: 4096, length: 8 * 4096}, 4096, 1)
	if !tbl.claim(4096, 2*4096) {
		t.Fatal("claim of free blocks failed")
	}
	if tbl.claim(2*4096, 2*4096) {
		t.Fatal("claimed a block with a write in flight")
	}
	if g := tbl.gens[2].Load(); g != 0 {
		t.Errorf("a failed claim left block 2 at %#x, want it untouched", g)
	}
	tbl.release(4096, 2*4096)
	if !tbl.claim(2*4096, 2*4096) {
		t.Fatal("claim after release failed")
	}
	tbl.release(2*4096, 2*4096)
	for b, want := range []uint32{1, 2, 1, 0} {
		if got := tbl.gens[b].Load(); got != want<<1 {
			t.Errorf("block %d at %#x, want generation %d and idle", b, got, want)
		}
	}
	block := make([]byte, 4096)
	tbl.stamp(block, 2*4096)
	if gen := binary.LittleEndian.Uint32(block[24:]); gen != 2 {
		t.Errorf("stamped generation %d, want 2", gen)
	}
}

func TestVerifyFindsCorruptionAfterUringWrites(t *testing.T) {
	requireUring(t)
	const capacity = 2 << 20
	path, _ := patternFile(t, t.TempDir(), capacity)
	rng := rand.New(rand.NewPCG(9, 9))
	corrupted := map[int64]bool{}
	for len(corrupted) < 20 {
		corrupted[rng.Int64N(capacity/16384)*16384] = true
	}
	sys := &recordingSys{after: func(n int) {
		if n == 1 { // io_uring writes bypass sys: this is the verify pass
			corruptBytes(t, path, corrupted, 16384, rng)
		}
	}}
	w := workload.Workload{RW: "write", BS: 16384, IODepth: 8, NumJobs: 2, Loops: 2, Verify: true, IOEngine: "io_uring", Direct: true}
	_, err := execute(context.Background(), driver.Target{Path: path, Capacity: capacity}, w, nil, sys, time.Second)
	var v *VerifyError
	if !errors.As(err, &v) {
		t.Fatalf("error %v, want a *VerifyError", err)
	}
	found := map[int64]bool{}
	for _, b := range v.Blocks {
		if b.Kind != Corrupt {
			t.Errorf("%v: want only corrupt blocks", b)
		}
		found[b.Offset] = true
	}
	if !reflect.DeepEqual(found, corrupted) {
		t.Errorf("found corruption at %v, made it at %v", keys(found), keys(corrupted))
	}
}

func keys(m map[int64]bool) []int64 {
	var out []int64
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
