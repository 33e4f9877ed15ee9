package fio

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
)

// The driver satisfies the contract the scheduler calls.
var _ driver.Driver = Driver{}

func TestRunLocal(t *testing.T) {
	needFio(t)
	t.Parallel()
	target := dataFile(t, 8<<20)
	keep := t.TempDir()
	w := randRead(2 * time.Second)
	w.NumJobs = 2
	var mu sync.Mutex
	var samples []metrics.Sample
	live := func(s metrics.Sample) {
		mu.Lock()
		samples = append(samples, s)
		mu.Unlock()
	}
	start := time.Now()
	res, err := Driver{KeepDir: keep, Name: "step-1"}.Run(context.Background(), target, w, live)
	wall := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	r := res.Read
	if r == nil || r.IOs == 0 || res.Write != nil {
		t.Fatalf("read %+v write %+v", r, res.Write)
	}
	secs := float64(res.RuntimeNs) / 1e9
	// fio runs at least the runtime asked for, and no longer than the call
	// took; how much longer a loaded machine makes it is not the driver's.
	if secs < 1.9 || secs > wall.Seconds() || math.Abs(r.IOPS-float64(r.IOs)/secs) > 1e-6*r.IOPS {
		t.Errorf("runtime %.3fs (call %.3fs), IOPS %.0f for %d I/Os", secs, wall.Seconds(), r.IOPS, r.IOs)
	}
	if r.Hist == nil || r.Hist.Count() != r.IOs || r.Bytes != r.IOs*4096 {
		t.Errorf("histogram or bytes do not match the I/Os: %+v", r)
	}
	if p50, p99 := r.Quantile(50), r.Quantile(99); p50 == 0 || p50 > p99 || float64(p50) > 10*r.Lat.Mean {
		t.Errorf("p50 %d p99 %d mean %.0f", p50, p99, r.Lat.Mean)
	}
	if res.CPU.UserSec+res.CPU.SysSec <= 0 {
		t.Errorf("no CPU time: %+v", res.CPU)
	}
	checkSeries(t, res)
	if len(samples) == 0 {
		t.Error("live received no sample")
	}
	kept, err := os.ReadFile(filepath.Join(keep, "step-1.fio"))
	want, _ := JobFile("step-1", target, w)
	if err != nil || string(kept) != want {
		t.Errorf("kept job file %q (%v), want the job file %q", kept, err, want)
	}
}

// checkSeries expects the series to account for the run's I/Os.
func checkSeries(t *testing.T, res *metrics.Result) {
	t.Helper()
	// fio may fold a late interval into the next on a loaded machine, so
	// one sample is enough; the I/Os it accounts for must still add up.
	if len(res.Series) == 0 {
		t.Fatalf("series %+v", res.Series)
	}
	var ios, prevT float64
	complete := 0
	for _, s := range res.Series {
		ios += (s.ReadIOPS + s.WriteIOPS) * (s.T - prevT)
		prevT = s.T
		// fio writes its latency and bandwidth logs on ticks of their own;
		// on a loaded machine one interval may hold an entry of one log
		// and not the other, but not of neither.
		if s.MeanLatNs <= 0 && s.BW <= 0 {
			t.Errorf("sample %+v has neither latency nor bandwidth", s)
		}
		if s.MeanLatNs > 0 && s.BW > 0 {
			complete++
		}
	}
	if complete == 0 {
		t.Errorf("no sample of %+v has both latency and bandwidth", res.Series)
	}
	// The series is fio's per-interval log of averaged rates, not a count:
	// on a loaded machine fio's log ticks come late or early, so rates
	// times interval lengths can miss the run's I/Os either way (by 24 %
	// with two CPU hogs and a disk writer beside it); a factor of two
	// holds however loaded the machine is.
	total := float64(res.Read.IOs)
	if ios > 2*total || ios < 0.5*total {
		t.Errorf("series holds %.0f I/Os, the run did %.0f", ios, total)
	}
}

// TestRunByteBudget: a sequential write of bytes split unevenly among
// three jobs transfers exactly bytes, each job in its own slice.
func TestRunByteBudget(t *testing.T) {
	needFio(t)
	t.Parallel()
	target := dataFile(t, 1<<20)
	w := workload.Workload{RW: "write", BS: 4096, IODepth: 1, NumJobs: 3, Bytes: 100 * 4096, Engine: "fio"}
	res, err := Driver{}.Run(context.Background(), target, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Write == nil || res.Write.Bytes != uint64(w.Bytes) || res.Write.IOs != 100 || res.Read != nil {
		t.Fatalf("write %+v read %+v", res.Write, res.Read)
	}
}

func TestRunCancelReturnsPartialResult(t *testing.T) {
	needFio(t)
	t.Parallel()
	target := dataFile(t, 8<<20)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	start := time.Now()
	res, err := Driver{}.Run(ctx, target, randRead(time.Minute), func(metrics.Sample) { once.Do(cancel) })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want the context's", err)
	}
	if took := time.Since(start); took > 15*time.Second {
		t.Errorf("stopping took %v", took)
	}
	if res == nil || res.Read == nil || res.Read.IOs == 0 || res.RuntimeNs >= int64(30*time.Second) {
		t.Fatalf("partial result %+v", res)
	}
}

func TestRunErrors(t *testing.T) {
	needFio(t)
	t.Parallel()
	unusable := driver.Target{Path: "/proc/self/no-such-dir/file", Capacity: 1 << 20}
	full := driver.Target{Path: "/dev/full", Capacity: 1 << 20}
	cases := []struct {
		name   string
		d      Driver
		target driver.Target
		w      workload.Workload
		want   string
		is     error
		result bool
	}{
		{name: "fio missing", d: Driver{Binary: "/nonexistent/fio"}, target: full, w: randRead(time.Second),
			want: "fio is not installed", is: ErrNotInstalled},
		{name: "untranslatable", target: full, w: workload.Workload{RW: "randwrite", BS: 4096, IODepth: 1, NumJobs: 1, Runtime: time.Second, Verify: true},
			want: "workload verify: fio reads back"},
		{name: "fio cannot open the target", target: unusable, w: randRead(time.Second),
			want: "fio failed (exit status 1): fio: failed to create dir (/proc/self/no-such-dir)", result: true},
		{name: "job error", target: full, w: workload.Workload{RW: "write", BS: 4096, IODepth: 1, NumJobs: 1, Bytes: 8192},
			want: "failed with error 28 (no space left on device)", result: true},
		{name: "bad host", d: Driver{Hosts: []string{"ip:10.0.0.1,http"}}, target: full, w: randRead(time.Second),
			want: `"http" is not a port`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := tc.d.Run(context.Background(), tc.target, tc.w, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v does not match %v", err, tc.is)
			}
			if (res != nil) != tc.result {
				t.Errorf("result %+v, want one: %v", res, tc.result)
			}
		})
	}
}

func TestRunFioNotOnPath(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := Driver{}.Run(context.Background(), driver.Target{Path: "/dev/null", Capacity: 1 << 20}, randRead(time.Second), nil)
	if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "install the fio package") {
		t.Fatalf("error %v", err)
	}
}
