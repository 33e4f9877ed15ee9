package fio

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/workload"
)

var update = flag.Bool("update", false, "rewrite the golden job files")

var nvme = driver.Target{Path: "/dev/nvme0n1", Capacity: 1 << 30, BlockSize: 4096}

// jobFileCases are translated into testdata/jobfiles/<name>.fio.
var jobFileCases = []struct {
	name   string
	target driver.Target
	w      workload.Workload
}{
	{"randread-4k-qd1", nvme, workload.Workload{RW: "randread", ReadPct: 100, BS: 4096, IODepth: 1, NumJobs: 1, Runtime: time.Minute, Ramp: 5 * time.Second, Seed: 42}},
	{"randread-qd32-direct-io_uring", nvme, workload.Workload{RW: "randread", ReadPct: 100, BS: 4096, IODepth: 32, NumJobs: 4, Runtime: 90 * time.Second, Direct: true, Seed: 42}},
	// 257 blocks over 4 jobs: one slice of 65 blocks, three of 64.
	{"seqwrite-uneven-slices", driver.Target{Path: "/srv/target.img", Capacity: 257 * 4096}, workload.Workload{RW: "write", BS: 4096, IODepth: 2, NumJobs: 4, Loops: 2, IOEngine: "libaio", Direct: true}},
	{"randrw-rate-poisson", nvme, workload.Workload{RW: "randrw", ReadPct: 70, BS: 8192, IODepth: 8, NumJobs: 4, Runtime: 30 * time.Second, RateIOPS: 10000, Arrival: "poisson", Seed: 1}},
	{"bssplit-zones-compressible", nvme, workload.Workload{RW: "randwrite", BSSplit: []workload.SizeWeight{{Size: 4096, Weight: 1}, {Size: 65536, Weight: 1}}, IODepth: 1, NumJobs: 2,
		BytesPct: 200, Zones: []workload.Zone{{AccessPct: 80, RegionPct: 20}, {AccessPct: 20, RegionPct: 80}}, SeqPct: 20, RateIOPS: 500, RateBW: 10 << 20,
		Data: "compressible", CompressPct: 60, Seed: 3}},
	{"verify-fill-zero", nvme, workload.Workload{RW: "write", BS: 1 << 20, IODepth: 4, NumJobs: 1, Size: 256 << 20, Verify: true, Data: "zero", IOEngine: "io_uring"}},
	{"region-percent-ms", nvme, workload.Workload{RW: "read", ReadPct: 100, BS: 131072, IODepth: 1, NumJobs: 2, Offset: 1 << 20, SizePct: 50, Runtime: 1500 * time.Millisecond, Bytes: 64 << 20}},
	{"rate-curve-point", nvme, workload.Workload{RW: "randread", ReadPct: 100, BS: 4096, IODepth: 16, NumJobs: 1, Runtime: 20 * time.Second, RateIOPS: 1234, RatePct: 50, RateBase: "3f2a9c0d1e4b5a6c", Seed: 5}},
	{"dedupe-colon-path", driver.Target{Path: "/dev/disk/by-path/pci-0000:01:00.0-nvme-1", Capacity: 1 << 30}, workload.Workload{RW: "rw", ReadPct: 30, BS: 65536, IODepth: 1, NumJobs: 1, Bytes: 1 << 30, Data: "dedupe", DedupePct: 25}},
	// File sets: nrfiles and filesize per job, the open-file cap and the
	// file selection; a distribution, subfolders and a dropped page cache
	// said in comments.
	{"fileset-zipf-dirs", mnt, workload.Workload{RW: "randread", ReadPct: 100, BS: 16384, IODepth: 1, NumJobs: 4, Files: 1024, Dirs: 16, OpenFiles: 32,
		FileSizes: []workload.SizeWeight{{Size: 1 << 20, Weight: 50}, {Size: 4 << 20, Weight: 50}}, FileService: "zipf:1.2", DropCache: true, Runtime: time.Minute, Seed: 7}},
	// A checkpoint's write pass: a file per rank, created as opened and
	// flushed on close; and one shared file, each rank its slice.
	{"checkpoint-write", mnt, workload.Workload{RW: "write", BS: 4 << 20, IODepth: 1, NumJobs: 8, Files: 8, FileSize: 64 << 20, Loops: 1, CreateOnOpen: true, FsyncOnClose: true}},
	// A dataloader: cosmoflow's shape scaled, its records in whole 4 KiB
	// blocks under O_DIRECT, and unet3d's, a sample 140 transfers.
	{"dataloader-cosmoflow", mnt, workload.Workload{RW: "randread", BS: 1 << 20, IODepth: 1, NumJobs: 1, Direct: true, BatchSize: 1, ReaderThreads: 4,
		Files: 263, SamplesPerFile: 1, RecordSize: 2828486, ComputeTime: 3500 * time.Microsecond, Epochs: 5}},
	{"dataloader-unet3d", mnt, workload.Workload{RW: "randread", BS: 1 << 20, IODepth: 1, NumJobs: 1, BatchSize: 7, ReaderThreads: 4,
		Files: 14, SamplesPerFile: 1, RecordSize: 146800640, ComputeTime: 323 * time.Millisecond, Epochs: 1}},
	{"checkpoint-shared-read", mnt, workload.Workload{RW: "read", ReadPct: 100, BS: 1 << 20, IODepth: 1, NumJobs: 4, Files: 1, FileSize: 256 << 20, Loops: 1, DropCache: true}},
}

// mnt is the folder a file set's job is made for.
var mnt = driver.Target{Path: "/mnt/bench/drivebench-files-nvme", BlockSize: 4096}

func TestJobFileGolden(t *testing.T) {
	for _, tc := range jobFileCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := JobFile(tc.name, tc.target, tc.w)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "jobfiles", tc.name+".fio")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("job file differs from %s (go test -update rewrites it):\n%s", golden, got)
			}
		})
	}
}

// TestJobFilesParseWithFio has fio itself check every golden job file.
func TestJobFilesParseWithFio(t *testing.T) {
	needFio(t)
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("testdata", "jobfiles", "*.fio"))
	if len(files) != len(jobFileCases) {
		t.Fatalf("%d golden files for %d cases", len(files), len(jobFileCases))
	}
	for _, f := range files {
		out, err := exec.Command("fio", "--parse-only", f).CombinedOutput()
		if err != nil || len(bytes.TrimSpace(out)) > 0 {
			t.Errorf("fio --parse-only %s: %v\n%s", f, err, out)
		}
	}
}

func TestUntranslatable(t *testing.T) {
	base := workload.Workload{RW: "randread", ReadPct: 100, BS: 4096, IODepth: 1, NumJobs: 1, Runtime: time.Second}
	with := func(f func(*workload.Workload)) workload.Workload {
		w := base
		f(&w)
		return w
	}
	cases := []struct {
		name   string
		target driver.Target
		w      workload.Workload
		field  string
		want   string
	}{
		{"verify by time", nvme, with(func(w *workload.Workload) { w.RW, w.Verify = "randwrite", true }), "verify", "set bytes, bytes_pct or loops"},
		{"verify of reads", nvme, with(func(w *workload.Workload) { w.Verify, w.Runtime, w.Bytes = true, 0, 4096 }), "verify", `rw = "randread" only reads`},
		{"zones on sequential", nvme, with(func(w *workload.Workload) { w.RW, w.Zones = "read", []workload.Zone{{AccessPct: 100, RegionPct: 100}} }), "zones", "sequential"},
		{"fractional zone", nvme, with(func(w *workload.Workload) {
			w.Zones = []workload.Zone{{AccessPct: 60.5, RegionPct: 10}, {AccessPct: 39.5, RegionPct: 90}}
		}), "zones", "whole, positive percentages"},
		{"zone access sum", nvme, with(func(w *workload.Workload) {
			w.Zones = []workload.Zone{{AccessPct: 60, RegionPct: 10}, {AccessPct: 30, RegionPct: 90}}
		}), "zones", "add up to 90; fio requires 100"},
		{"bs_split thirds", nvme, with(func(w *workload.Workload) {
			w.BSSplit = []workload.SizeWeight{{Size: 4096, Weight: 1}, {Size: 8192, Weight: 2}}
		}), "bs_split", "weight 1 of 3 is 33.33%"},
		{"sync engine deep", nvme, with(func(w *workload.Workload) { w.IOEngine, w.IODepth = "psync", 4 }), "ioengine", "use io_uring or libaio"},
		{"unknown engine", nvme, with(func(w *workload.Workload) { w.IOEngine = "spdk" }), "ioengine", `"spdk" is not an I/O engine`},
		{"arrival", nvme, with(func(w *workload.Workload) { w.Arrival = "bursty" }), "arrival", "use uniform or poisson"},
		{"data", nvme, with(func(w *workload.Workload) { w.Data = "ones" }), "data", "use random, zero"},
		{"runtime in ns", nvme, with(func(w *workload.Workload) { w.Runtime = 1500 }), "runtime", "whole number of microseconds"},
		{"rate not resolved", nvme, with(func(w *workload.Workload) { w.RatePct, w.RateBase = 50, "abc" }), "rate_pct", "resolve it into rate_iops first"},
		{"rate below one per job", nvme, with(func(w *workload.Workload) { w.RateIOPS, w.NumJobs = 1, 4 }), "rate", "less than 1 per job"},
		{"direct misaligned", nvme, with(func(w *workload.Workload) { w.Direct, w.BS = true, 1000 }), "bs", "bs = 1000B is not a multiple of 4KiB, the logical block size of"},
		{"region past the end", nvme, with(func(w *workload.Workload) { w.Offset, w.Size = 1<<30-4096, 8192 }), "size", "reaches past the end"},
		{"more jobs than blocks", driver.Target{Path: "/f", Capacity: 8192}, with(func(w *workload.Workload) { w.RW, w.NumJobs = "read", 3 }), "numjobs", "exceeds the 2 blocks"},
		{"capacity unknown", driver.Target{Path: "/f"}, base, "size", "capacity of /f is unknown"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := JobFile("x", tc.target, tc.w)
			var ue *UntranslatableError
			if !errors.As(err, &ue) || ue.Field != tc.field || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want field %s and %q", err, tc.field, tc.want)
			}
		})
	}
}

// TestTranslatableReportsEveryProblem: validation shows all at once.
func TestTranslatableReportsEveryProblem(t *testing.T) {
	w := workload.Workload{RW: "sideways", BS: 0, IODepth: 1, NumJobs: 1, Data: "ones", Arrival: "bursty"}
	err := Translatable(w)
	for _, field := range []string{"workload rw:", "workload bs:", "workload data:", "workload arrival:"} {
		if err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("error %v lacks %q", err, field)
		}
	}
	if err := Translatable(jobFileCases[4].w); err != nil {
		t.Errorf("a translatable workload: %v", err)
	}
}

// TestSequentialFillCoversRegion runs the uneven four-job layout with fio
// and expects every block of the region written exactly once per pass,
// and nothing outside it.
func TestSequentialFillCoversRegion(t *testing.T) {
	needFio(t)
	t.Parallel()
	path := filepath.Join(t.TempDir(), "fill.img")
	const blocks, bs = 259, 4096
	if err := os.WriteFile(path, make([]byte, (blocks+2)*bs), 0o644); err != nil {
		t.Fatal(err)
	}
	w := workload.Workload{RW: "write", BS: bs, IODepth: 1, NumJobs: 4, Offset: bs, Size: blocks * bs, Loops: 1}
	res, err := Driver{}.Run(context.Background(), driver.Target{Path: path, Capacity: (blocks + 2) * bs}, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Write.IOs != blocks {
		t.Errorf("%d writes, want %d", res.Write.IOs, blocks)
	}
	data, _ := os.ReadFile(path)
	zero := make([]byte, bs)
	for b := range blocks + 2 {
		written := !bytes.Equal(data[b*bs:(b+1)*bs], zero)
		if inside := b >= 1 && b <= blocks; written != inside {
			t.Errorf("block %d: written %v, inside the region %v", b, written, inside)
		}
	}
}
