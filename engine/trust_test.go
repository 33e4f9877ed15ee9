package engine

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/drivebench/drivebench/results"
	"golang.org/x/sys/unix"
)

// TestReadOfATruncatedFileIsFlagged: a file made with truncate is all
// holes; the read step says that none of it was written.
func TestReadOfATruncatedFileIsFlagged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sparse.img")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 8<<20); err != nil {
		t.Fatal(err)
	}
	p, g := load(t, "testdata/truncated.hcl", map[string]string{"target": path})
	var warned []string
	out, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out"), Observe: func(e Event) {
		if e.Kind == StepWarning {
			warned = append(warned, e.Message)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	rec := out.Records[0]
	if rec.DriveState == nil || rec.DriveState.UnwrittenPct == nil || *rec.DriveState.UnwrittenPct != 100 {
		t.Fatalf("drive state %+v, want all of the region unwritten", rec.DriveState)
	}
	if len(rec.Warnings) == 0 || rec.Warnings[0].Kind != results.WarnUnwritten || !strings.HasPrefix(rec.Warnings[0].Message, "All of the region this step reads had never been written") {
		t.Errorf("warnings %+v", rec.Warnings)
	}
	if len(warned) == 0 || warned[0] != rec.Warnings[0].Message {
		t.Errorf("the terminal was told %q", warned)
	}
}

// TestAFileInMemoryIsFlagged: O_DIRECT reads of a file on tmpfs measure
// memory; the step records the file system and says so. A file on the
// test's temporary folder records its file system too.
func TestAFileInMemoryIsFlagged(t *testing.T) {
	run := func(dir string) *results.Record {
		path := filepath.Join(dir, "data.img")
		if err := os.WriteFile(path, make([]byte, 8<<20), 0o644); err != nil {
			t.Fatal(err)
		}
		p, g := load(t, "testdata/truncated.hcl", map[string]string{"target": path})
		out, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out")})
		if err != nil {
			t.Fatal(err)
		}
		return out.Records[0]
	}
	rec := run(memoryDir(t))
	if rec.DriveState == nil || rec.DriveState.FileSystem != "tmpfs" {
		t.Fatalf("drive state %+v, want the file system tmpfs", rec.DriveState)
	}
	want := "The file this step runs on is on tmpfs, which keeps its files in memory: its O_DIRECT I/O copies memory and reaches no drive, so these figures are memory speed, not a drive's."
	// A busy host may add its own warning.
	if i := slices.IndexFunc(rec.Warnings, func(w results.Warning) bool { return w.Kind == results.WarnMemoryFS }); i < 0 || !strings.HasPrefix(rec.Warnings[i].Message, want) {
		t.Errorf("warnings %+v, want a %s: %s", rec.Warnings, results.WarnMemoryFS, want)
	}
	var fs unix.Statfs_t
	dir := t.TempDir()
	if unix.Statfs(dir, &fs) != nil || fs.Type == unix.TMPFS_MAGIC {
		return
	}
	if rec := run(dir); rec.DriveState == nil || rec.DriveState.FileSystem == "" || slices.ContainsFunc(rec.Warnings, func(w results.Warning) bool { return w.Kind == results.WarnMemoryFS }) {
		t.Errorf("on %s: drive state %+v, warnings %+v", dir, rec.DriveState, rec.Warnings)
	}
}

// memoryDir is a folder on a tmpfs: one mounted for the test as root,
// else /dev/shm when it is one; the test skips without either.
func memoryDir(t *testing.T) string {
	t.Helper()
	if os.Geteuid() == 0 {
		dir := t.TempDir()
		if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size=32m"); err != nil {
			t.Fatalf("mount a tmpfs on %s: %v", dir, err)
		}
		t.Cleanup(func() { unix.Unmount(dir, 0) })
		return dir
	}
	var fs unix.Statfs_t
	if unix.Statfs("/dev/shm", &fs) != nil || fs.Type != unix.TMPFS_MAGIC {
		testenv.Require(t, "a tmpfs", "run as root to mount one, or mount one on /dev/shm")
	}
	dir, err := os.MkdirTemp("/dev/shm", "drivebench-test-")
	if err != nil {
		testenv.Require(t, "a folder on /dev/shm", "%v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func TestHostWarnings(t *testing.T) {
	tests := []struct {
		load  results.HostLoad
		kinds int
		want  string
	}{
		{results.HostLoad{CPUs: 2, BusyPct: 40, BusiestThreadPct: 35}, 0, ""},
		{results.HostLoad{CPUs: 2, BusyPct: 97, BusiestThreadPct: 50, EnginePct: 80}, 1, "The host's processors were 97 % busy over the step (all 2 of them; drivebench and its engine 80 %)"},
		{results.HostLoad{CPUs: 2, BusyPct: 100, BusiestThreadPct: 20, EnginePct: 15}, 1, "The host's processors were 100 % busy over the step (all 2 of them), mostly with other programs"},
		{results.HostLoad{CPUs: 8, BusyPct: 20, BusiestThreadPct: 99, BusiestThread: "drivebench"}, 1, "The engine's busiest thread (drivebench) kept a processor 99 % busy"},
	}
	for _, tt := range tests {
		got := hostWarnings(&tt.load)
		if len(got) != tt.kinds || tt.kinds > 0 && (got[0].Kind != results.WarnHostCPU || !strings.HasPrefix(got[0].Message, tt.want)) {
			t.Errorf("%+v: %+v", tt.load, got)
		}
	}
}

// TestHostWatchSeesABusyThread spins one thread for 300 ms of its own CPU
// time, however long a loaded machine takes to give it that, and expects
// the watch to find a busy thread and a busy host. The thread lives on
// (a goroutine that ends locked to its thread ends the thread), as the
// engine's threads do, for the watch's last reading.
func TestHostWatchSeesABusyThread(t *testing.T) {
	w := watchHost()
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		defer close(done)
		used := func() int64 {
			var ru unix.Rusage
			unix.Getrusage(unix.RUSAGE_THREAD, &ru)
			return ru.Utime.Sec*1e6 + ru.Utime.Usec + ru.Stime.Sec*1e6 + ru.Stime.Usec
		}
		for from := used(); used()-from < 300e3; {
		}
	}()
	<-done
	load := w.end()
	if load == nil || load.CPUs < 1 || load.BusyPct <= 0 || load.BusiestThreadPct <= 0 || load.BusiestThread == "" {
		t.Fatalf("host load %+v", load)
	}
	t.Logf("host load %+v", load)
}

// TestEveryIOStepRecordsTheHost: each I/O step's record has the host's
// utilisation.
func TestEveryIOStepRecordsTheHost(t *testing.T) {
	p, g := load(t, "testdata/small.hcl", nil)
	out, err := Run(context.Background(), p, g, Options{Dir: filepath.Join(t.TempDir(), "out")})
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range out.Records {
		if rec.Result != nil && (rec.Host == nil || rec.Host.CPUs < 1) {
			t.Errorf("%s: host %+v", rec.Name, rec.Host)
		}
	}
}

// TestBusiestJudgesEachThreadOverItsSpan: a thread's utilisation is its
// ticks over the time it was seen, so one that ended between readings is
// not diluted by the rest of the step, and one seen too briefly is left
// out.
func TestBusiestJudgesEachThreadOverItsSpan(t *testing.T) {
	tests := []struct {
		name     string
		threads  map[string]*threadSpan
		wantPct  float64
		wantName string
	}{
		{"whole step", map[string]*threadSpan{
			"1/task/1": {name: "drivebench", first: 100, last: 150, to: time.Second},
		}, 50, "drivebench"},
		{"ended halfway", map[string]*threadSpan{
			"1/task/1": {name: "drivebench", first: 100, last: 110, to: 2 * time.Second},
			"2/task/2": {name: "fio", first: 0, last: 90, from: 500 * time.Millisecond, to: 1500 * time.Millisecond},
		}, 90, "fio"},
		{"seen too briefly", map[string]*threadSpan{
			"1/task/1": {name: "drivebench", first: 0, last: 10, to: 2 * time.Second},
			"2/task/2": {name: "fio", first: 0, last: 9, from: time.Second, to: time.Second + 100*time.Millisecond},
		}, 5, "drivebench"},
	}
	for _, tt := range tests {
		h := &hostWatch{threads: tt.threads}
		pct, name := h.busiest()
		if math.Abs(pct-tt.wantPct) > 1e-9 || name != tt.wantName {
			t.Errorf("%s: busiest %q at %g%%, want %q at %g%%", tt.name, name, pct, tt.wantName, tt.wantPct)
		}
	}
}

// TestDescendantsFindsAChild: the children files and the scan of every
// process both find a process this one started.
func TestDescendantsFindsAChild(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatalf("cannot start sleep: %v", err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	for name, list := range map[string]func(int) []int{"descendants": descendants, "descendantsByScan": descendantsByScan} {
		if got := list(os.Getpid()); !slices.Contains(got, cmd.Process.Pid) || got[0] != os.Getpid() {
			t.Errorf("%s = %v, want %d and its child %d", name, got, os.Getpid(), cmd.Process.Pid)
		}
	}
}
