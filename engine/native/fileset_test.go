package native

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
)

// fileSetWorkload is a file set of files files of size bytes, written or
// read once through in 4 KiB transfers.
func fileSetWorkload(rw string, files, jobs int, size int64) workload.Workload {
	w := baseWorkload()
	w.RW, w.NumJobs, w.Files, w.FileSize, w.Loops = rw, jobs, files, size, 1
	return w
}

// runSet runs w on a file set in dir with the real system calls, logged.
func runSet(t *testing.T, dir string, w workload.Workload) (*metrics.Result, *recordingSys) {
	t.Helper()
	sys := &recordingSys{}
	res, err := execute(context.Background(), driver.Target{Path: dir}, w, nil, sys, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return res, sys
}

// opCount is how many of one metadata operation a result holds.
func opCount(res *metrics.Result, op string) uint64 {
	if m := res.Files.Op(op); m != nil {
		return m.Count
	}
	return 0
}

// TestFileSetCounts runs small file sets and checks what each did: the
// bytes every job moved, the files it opened, created, flushed and
// closed, and the files on disk afterwards.
func TestFileSetCounts(t *testing.T) {
	const size = 64 << 10
	for _, tt := range []struct {
		name string
		w    func() workload.Workload
		// want counts of create, open, close, fsync; jobBytes per job
		create, open, close, fsync uint64
		jobBytes                   uint64
		setupCreated               int
	}{
		{name: "write 8 files in 2 jobs", w: func() workload.Workload { return fileSetWorkload("write", 8, 2, size) },
			open: 8, close: 8, jobBytes: 4 * size, setupCreated: 8},
		{name: "create on open, fsync on close", w: func() workload.Workload {
			w := fileSetWorkload("write", 8, 2, size)
			w.CreateOnOpen, w.FsyncOnClose = true, true
			return w
		}, create: 8, close: 8, fsync: 8, jobBytes: 4 * size},
		{name: "one file shared by 4 jobs", w: func() workload.Workload {
			w := fileSetWorkload("write", 1, 4, size)
			w.CreateOnOpen, w.FsyncOnClose = true, true
			return w
		}, open: 4, close: 4, fsync: 4, jobBytes: size / 4, setupCreated: 1},
		{name: "read, one file open at a time, round robin", w: func() workload.Workload {
			w := fileSetWorkload("read", 4, 1, size)
			w.OpenFiles, w.FileService = 1, "roundrobin"
			return w
		}, open: 4 * size / 4096, close: 4 * size / 4096, jobBytes: 4 * size, setupCreated: 4},
		{name: "fsync every 4 writes, in 3 dirs", w: func() workload.Workload {
			w := fileSetWorkload("randwrite", 6, 2, size)
			w.Fsync, w.Dirs = 4, 3
			return w
		}, open: 6, close: 6, fsync: 6 * size / 4096 / 4, jobBytes: 3 * size, setupCreated: 6},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			w := tt.w()
			res, _ := runSet(t, dir, w)
			f := res.Files
			if f == nil {
				t.Fatal("the result has no file-set figures")
			}
			got := [4]uint64{opCount(res, metrics.OpCreate), opCount(res, metrics.OpOpen), opCount(res, metrics.OpClose), opCount(res, metrics.OpFsync)}
			if want := [4]uint64{tt.create, tt.open, tt.close, tt.fsync}; got != want {
				t.Errorf("create, open, close, fsync = %v, want %v", got, want)
			}
			if f.Setup.Created != tt.setupCreated || f.Setup.Measured {
				t.Errorf("setup %+v, want %d created, not measured", f.Setup, tt.setupCreated)
			}
			if len(f.Jobs) != w.NumJobs {
				t.Fatalf("%d job spans, want %d", len(f.Jobs), w.NumJobs)
			}
			for i, j := range f.Jobs {
				if j.Bytes != tt.jobBytes || j.Seconds <= 0 {
					t.Errorf("job %d moved %d bytes in %gs, want %d bytes in more than 0s", i, j.Bytes, j.Seconds, tt.jobBytes)
				}
			}
			set := filepath.Join(dir, w.FileSetName())
			for k := range w.Files {
				info, err := os.Stat(filepath.Join(set, fileName(k, max(1, w.Dirs))))
				if err != nil || info.Size() != size {
					t.Errorf("file %d: %v, size %v; want %d bytes", k, err, info, size)
				}
			}
		})
	}
}

// TestFileSetWritesEveryByte checks that a sequential write pass over a
// set writes each file whole: no block of any file is left as setup
// allocated it (zeroes).
func TestFileSetWritesEveryByte(t *testing.T) {
	dir := t.TempDir()
	w := fileSetWorkload("write", 6, 3, 32<<10)
	runSet(t, dir, w)
	for k := range 6 {
		data, err := os.ReadFile(filepath.Join(dir, w.FileSetName(), fileName(k, 1)))
		if err != nil {
			t.Fatal(err)
		}
		for off := 0; off < len(data); off += 4096 {
			if allZero(data[off : off+4096]) {
				t.Fatalf("file %d: block at %d was never written", k, off)
			}
		}
	}
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// TestFileSetSetupReusesAndUnlinks runs a read on a set twice: the first
// run creates the files (setup, not in the figures unless
// measure_setup), the second finds them at their size and only stats
// them; a last run with unlink removes every file and the set's folder.
func TestFileSetSetupReusesAndUnlinks(t *testing.T) {
	dir := t.TempDir()
	w := fileSetWorkload("read", 5, 1, 16<<10)
	w.Dirs = 2
	first, _ := runSet(t, dir, w)
	if s := first.Files.Setup; s.Created != 5 || s.Reused != 0 || opCount(first, metrics.OpCreate) != 0 {
		t.Errorf("first run: setup %+v and %d creates in the figures, want 5 created and none", s, opCount(first, metrics.OpCreate))
	}
	w.MeasureSetup = true
	second, _ := runSet(t, dir, w)
	if s := second.Files.Setup; s.Created != 0 || s.Reused != 5 || !s.Measured || opCount(second, metrics.OpStat) != 5 {
		t.Errorf("second run: setup %+v with %d stats, want 5 reused and measured, 5 stats", s, opCount(second, metrics.OpStat))
	}
	w.Unlink = true
	last, _ := runSet(t, dir, w)
	if n := opCount(last, metrics.OpUnlink); n != 5 {
		t.Errorf("%d unlinks, want 5", n)
	}
	if _, err := os.Stat(filepath.Join(dir, w.FileSetName())); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the set's folder is still there after unlink: %v", err)
	}
}

// TestFileSetSizes checks that a size distribution gives every file one
// of its sizes, in about their shares, the same ones for every step.
func TestFileSetSizes(t *testing.T) {
	w := fileSetWorkload("read", 1000, 1, 0)
	w.FileSizes = []workload.SizeWeight{{Size: 4096, Weight: 75}, {Size: 16384, Weight: 25}}
	a, err := newFileSet(driver.Target{Path: "/x"}, w)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := newFileSet(driver.Target{Path: "/x"}, w)
	small := 0
	for k, s := range a.sizes {
		if s != b.sizes[k] {
			t.Fatalf("file %d is %d bytes in one layout and %d in another", k, s, b.sizes[k])
		}
		if s == 4096 {
			small++
		}
	}
	if small < 700 || small > 800 {
		t.Errorf("%d of 1000 files are 4 KiB, want about 750", small)
	}
}

// TestFileChoice checks the file selections' shares over 8 files.
func TestFileChoice(t *testing.T) {
	for _, tt := range []struct {
		kind  string
		theta float64
		check func(counts []int) string
	}{
		{kind: "roundrobin", check: func(c []int) string {
			for _, n := range c {
				if n != 1000 {
					return "round robin is not even"
				}
			}
			return ""
		}},
		{kind: "random", check: func(c []int) string {
			for _, n := range c {
				if n < 800 || n > 1200 {
					return "random is not about even"
				}
			}
			return ""
		}},
		{kind: "zipf", theta: 1.2, check: func(c []int) string {
			for i := 1; i < len(c); i++ {
				if c[i] >= c[i-1] && c[i] > 50 {
					return "zipf's shares do not fall from the first file"
				}
			}
			if c[0] < 3000 {
				return "zipf's first file is not chosen most often"
			}
			return ""
		}},
	} {
		jf := &jobFiles{count: 8}
		if tt.kind == "zipf" {
			jf.zipf = zipfShares(8, tt.theta)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		counts := make([]int, 8)
		for range 8000 {
			counts[jf.choose(tt.kind, rng)]++
		}
		if msg := tt.check(counts); msg != "" {
			t.Errorf("%s: %s: %v", tt.kind, msg, counts)
		}
	}
}

// TestFileSetRefused checks the workloads a file set refuses, each with
// a message naming the attribute.
func TestFileSetRefused(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(w *workload.Workload)
		want string
	}{
		{"fewer files than jobs", func(w *workload.Workload) { w.Files, w.NumJobs = 3, 4 }, "files = 3 is fewer than numjobs = 4"},
		{"size not a multiple of bs", func(w *workload.Workload) { w.FileSize = 10000 }, "a file of 10000 bytes is not a whole number of bs = 4096 bytes"},
		{"no file size", func(w *workload.Workload) { w.FileSize = 0 }, "a file set needs file_size"},
		{"io_uring", func(w *workload.Workload) { w.IOEngine = "io_uring" }, "a file set runs on psync"},
		{"unknown selection", func(w *workload.Workload) { w.FileService = "lru" }, `file_service = "lru" is not a file selection`},
		{"create on open for reads", func(w *workload.Workload) { w.RW, w.CreateOnOpen = "read", true }, "create_on_open starts every file empty"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := fileSetWorkload("write", 4, 2, 16<<10)
			tt.edit(&w)
			_, err := execute(context.Background(), driver.Target{Path: t.TempDir()}, w, nil, &recordingSys{}, time.Second)
			var we *WorkloadError
			if !errors.As(err, &we) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want a WorkloadError containing %q", err, tt.want)
			}
		})
	}
}

// TestDropCache empties the page cache before a read: as root through
// /proc/sys/vm/drop_caches; when that is refused (here: a path that
// cannot be written) by evicting the set's files, which the result says.
func TestDropCache(t *testing.T) {
	w := fileSetWorkload("read", 2, 1, 16<<10)
	w.DropCache = true
	t.Run("refused", func(t *testing.T) {
		old := dropCachesPath
		dropCachesPath = filepath.Join(t.TempDir(), "missing", "drop_caches")
		t.Cleanup(func() { dropCachesPath = old })
		res, _ := runSet(t, t.TempDir(), w)
		if d := res.CacheDrop; d == nil || d.Method != metrics.CacheEvicted || !strings.Contains(d.Refused, "no such file") {
			t.Fatalf("cache drop %+v, want the files evicted and why drop_caches was refused", d)
		}
	})
	t.Run("root", func(t *testing.T) {
		testenv.Root(t, "dropping the page cache writes /proc/sys/vm/drop_caches")
		res, _ := runSet(t, t.TempDir(), w)
		if d := res.CacheDrop; d == nil || d.Method != metrics.CacheDropped || d.Refused != "" {
			t.Fatalf("cache drop %+v, want the page cache dropped", d)
		}
	})
}

// TestSequentialSelectionOfARandomPattern: with file_service =
// "sequential" a random pattern's job reads one file at random offsets
// until it has read a file's size, then the next (fio's sequential
// file service), where "random" moves between files every I/O.
func TestSequentialSelectionOfARandomPattern(t *testing.T) {
	for _, tt := range []struct {
		service      string
		most, lowest int // bounds of the times the file changes
	}{{"sequential", 3, 3}, {"random", 63, 30}} {
		w := fileSetWorkload("randread", 4, 1, 64<<10)
		w.FileService = tt.service
		_, sys := runSet(t, t.TempDir(), w)
		changes, last := 0, -1
		for _, tr := range sys.transfers() {
			if tr.fd != last && last >= 0 {
				changes++
			}
			last = tr.fd
		}
		if changes < tt.lowest || changes > tt.most {
			t.Errorf("%s: the file changed %d times over 64 reads of 4 files, want %d to %d", tt.service, changes, tt.lowest, tt.most)
		}
	}
}
