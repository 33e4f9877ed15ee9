// Command nativebench runs one workload on drivebench's built-in engine and
// prints what it measured as one line of JSON, so that bench/fio-compare.sh
// can set it beside fio's figures for the same job. It talks to the engine
// directly, not through the drivebench command line.
//
//	nativebench -file /tmp/f -rw randread -bs 4096 -iodepth 32 -ioengine io_uring -runtime 10s
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/drivebench/drivebench/engine/driver"
	"github.com/drivebench/drivebench/engine/native"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
	"golang.org/x/sys/unix"
)

// report is the JSON line nativebench prints. Latencies are in ns, CPU in
// seconds of the whole process during the run.
type report struct {
	IOEngine  string  `json:"ioengine"`
	IOs       uint64  `json:"ios"`
	IOPS      float64 `json:"iops"`
	BW        float64 `json:"bw_bytes"`
	MeanNs    float64 `json:"mean_ns"`
	P50Ns     uint64  `json:"p50_ns"`
	P99Ns     uint64  `json:"p99_ns"`
	P999Ns    uint64  `json:"p999_ns"`
	MaxNs     uint64  `json:"max_ns"`
	RuntimeNs int64   `json:"runtime_ns"`
	CPUUser   float64 `json:"cpu_user_sec"`
	CPUSys    float64 `json:"cpu_sys_sec"`
	Samples   int     `json:"samples"`
	// HeapInuse is the Go heap in use after the run, before the result
	// is dropped; MaxRSS the peak resident set of the process.
	HeapInuse uint64 `json:"heap_inuse_bytes"`
	MaxRSS    int64  `json:"max_rss_bytes"`
	// TargetIOPS is the rate target, when there was one.
	TargetIOPS float64 `json:"target_iops,omitempty"`
	// Histogram is every latency recorded, in the stored form whose bins
	// are fio's json+ bins, with -histogram: to compare the two tools'
	// distributions, not only three percentiles.
	Histogram *metrics.Histogram `json:"histogram,omitempty"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "nativebench:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		w        workload.Workload
		file     string
		size     int64
		interval time.Duration
		profile  string
		hist     bool
	)
	flag.StringVar(&file, "file", "", "target file or block device (required)")
	flag.Int64Var(&size, "size", 0, "bytes of the target to use; 0 means its whole size")
	flag.StringVar(&w.RW, "rw", "randread", "read, write, randread, randwrite, rw or randrw")
	flag.IntVar(&w.ReadPct, "read-pct", 50, "share of reads of rw and randrw, in percent")
	flag.Int64Var(&w.BS, "bs", 4096, "transfer size in bytes")
	flag.IntVar(&w.IODepth, "iodepth", 1, "I/Os in flight per job")
	flag.IntVar(&w.NumJobs, "numjobs", 1, "jobs")
	flag.BoolVar(&w.Direct, "direct", false, "open the target with O_DIRECT")
	flag.StringVar(&w.IOEngine, "ioengine", "", "psync or io_uring; empty for the engine's default")
	flag.DurationVar(&w.Runtime, "runtime", 10*time.Second, "measured time")
	flag.DurationVar(&w.Ramp, "ramp", 0, "unmeasured time before it")
	flag.Int64Var(&w.Bytes, "bytes", 0, "stop after this many bytes as well")
	flag.Float64Var(&w.RateIOPS, "rate-iops", 0, "rate target in I/Os a second; 0 for none")
	flag.Float64Var(&w.RateBW, "rate-bw", 0, "rate target in bytes a second; 0 for none")
	flag.StringVar(&w.Arrival, "arrival", "", "uniform or poisson arrivals under a rate target")
	flag.StringVar(&w.Data, "data", "", "write data: random, zero, compressible or dedupe")
	flag.BoolVar(&w.Verify, "verify", false, "write block headers and verify them afterwards")
	flag.Uint64Var(&w.Seed, "seed", 1, "random seed")
	flag.DurationVar(&interval, "interval", time.Second, "time series interval; short ones simulate long runs")
	flag.StringVar(&profile, "cpuprofile", "", "write a CPU profile of the run to this file")
	flag.BoolVar(&hist, "histogram", false, "print the latency histogram as well (fio's json+ bins)")
	flag.Parse()
	if file == "" {
		return fmt.Errorf("-file is required")
	}
	t, err := target(file, size)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if profile != "" {
		stopProfile, err := startProfile(profile)
		if err != nil {
			return err
		}
		defer stopProfile()
	}
	res, err := native.Engine{Interval: interval}.Run(ctx, t, w, nil)
	if err != nil {
		return err
	}
	rep := summarize(res, w)
	if !hist {
		rep.Histogram = nil
	}
	return json.NewEncoder(os.Stdout).Encode(rep)
}

// startProfile starts a CPU profile into path; the returned function
// ends it.
func startProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// target resolves file to a driver target of size bytes.
func target(file string, size int64) (driver.Target, error) {
	if size > 0 {
		return driver.Target{Path: file, Capacity: size}, nil
	}
	f, err := os.Open(file)
	if err != nil {
		return driver.Target{}, err
	}
	defer f.Close()
	end, err := f.Seek(0, 2)
	if err != nil {
		return driver.Target{}, err
	}
	return driver.Target{Path: file, Capacity: end}, nil
}

func summarize(res *metrics.Result, w workload.Workload) report {
	var merged metrics.Histogram
	var bytes uint64
	for _, d := range []*metrics.DirStats{res.Read, res.Write} {
		if d != nil && d.Hist != nil {
			merged.Merge(d.Hist)
			bytes += d.Bytes
		}
	}
	secs := float64(res.RuntimeNs) / 1e9
	rep := report{Histogram: &merged, IOEngine: w.IOEngine, IOs: merged.Count(), MeanNs: merged.Mean(), P50Ns: merged.Percentile(50), P99Ns: merged.Percentile(99), P999Ns: merged.Percentile(99.9), MaxNs: merged.Max(),
		RuntimeNs: res.RuntimeNs, CPUUser: res.CPU.UserSec, CPUSys: res.CPU.SysSec, Samples: len(res.Series), TargetIOPS: w.RateIOPS}
	if secs > 0 {
		rep.IOPS, rep.BW = float64(merged.Count())/secs, float64(bytes)/secs
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	rep.HeapInuse = ms.HeapInuse
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) == nil {
		rep.MaxRSS = ru.Maxrss * 1024
	}
	runtime.KeepAlive(res)
	return rep
}
