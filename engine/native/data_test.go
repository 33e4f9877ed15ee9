package native

import (
	"bytes"
	"compress/flate"
	"context"
	"math"
	"testing"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/workload"
)

// writeRegion writes a 4 MiB file once, sequentially, with data = kind,
// and returns what the file then holds.
func writeRegion(t *testing.T, kind string, compressPct, dedupePct int) []byte {
	t.Helper()
	const capacity = 4 << 20
	path, _ := patternFile(t, t.TempDir(), capacity)
	w := workload.Workload{RW: "write", BS: 16384, IODepth: 2, NumJobs: 2, Seed: 8,
		Data: kind, CompressPct: compressPct, DedupePct: dedupePct}
	_, err := Engine{}.Run(context.Background(), driver.Target{Path: path, Capacity: capacity}, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	return readFile(t, path)
}

func TestRandomDataNeverRepeatsASector(t *testing.T) {
	content := writeRegion(t, "random", 0, 0)
	seen := map[string]int{}
	for off := 0; off < len(content); off += sector {
		s := string(content[off : off+sector])
		if prev, ok := seen[s]; ok {
			t.Fatalf("sectors at %d and %d are equal", prev, off)
		}
		seen[s] = off
	}
	if ratio := compressedRatio(t, content); ratio < 0.99 {
		t.Errorf("random data compresses to %.3f of its size", ratio)
	}
}

func TestZeroData(t *testing.T) {
	content := writeRegion(t, "zero", 0, 0)
	if !bytes.Equal(content, make([]byte, len(content))) {
		t.Error("data = zero wrote non-zero bytes")
	}
}

func TestCompressibleDataCompressesToTheRatio(t *testing.T) {
	for _, pct := range []int{25, 50, 75} {
		content := writeRegion(t, "compressible", pct, 0)
		want := float64(100-pct) / 100
		if got := compressedRatio(t, content); math.Abs(got-want) > 0.05 {
			t.Errorf("compress_pct = %d: data compresses to %.3f of its size, want %.2f ± 0.05", pct, got, want)
		}
	}
}

func TestDedupeDataRepeatsTheShare(t *testing.T) {
	content := writeRegion(t, "dedupe", 0, 40)
	const block = 16384
	counts := map[string]int{}
	for off := 0; off < len(content); off += block {
		counts[string(content[off:off+block])]++
	}
	blocks := len(content) / block
	duplicates := blocks - len(counts)
	if share := 100 * float64(duplicates) / float64(blocks); math.Abs(share-40) > 7 {
		t.Errorf("%.1f%% of the blocks repeat an earlier one, want 40%%", share)
	}
}

// compressedRatio is how small data gets when each 4 KiB block of it is
// compressed on its own, as a drive that compresses does; it looks at
// every fourth block.
func compressedRatio(t *testing.T, data []byte) float64 {
	t.Helper()
	var out bytes.Buffer
	zw, err := flate.NewWriter(&out, flate.DefaultCompression)
	if err != nil {
		t.Fatal(err)
	}
	var in, compressed int
	for off := 0; off < len(data); off += 4 * 4096 {
		out.Reset()
		zw.Reset(&out)
		if _, err := zw.Write(data[off : off+4096]); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		in += 4096
		compressed += min(out.Len(), 4096)
	}
	return float64(compressed) / float64(in)
}
