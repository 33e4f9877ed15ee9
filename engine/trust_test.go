package engine

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

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
// the watch to find a busy thread and a busy host.
func TestHostWatchSeesABusyThread(t *testing.T) {
	w := watchHost()
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread()
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
	load := w.finish()
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
