package fio

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/workload"
)

// TestImportedWorkload: every imported step's record holds the workload
// its job file set, read from the options fio echoed, fio's defaults
// where the job left an option out, and the options the workload has no
// parameter for listed in its log.
func TestImportedWorkload(t *testing.T) {
	_, recs := importAll(t)
	const gib = 1 << 30
	for _, c := range []struct {
		step    string
		want    workload.Workload
		unknown string
	}{
		{"lab-jsonplus-iouring-qd32.json / dio-iouring-qd32", workload.Workload{RW: "randread", ReadPct: 50, BS: 4096, IODepth: 32, NumJobs: 1,
			Runtime: 10 * time.Second, Loops: 1, Direct: true, Size: 2 * gib, Engine: "fio", IOEngine: "io_uring"}, "randrepeat=0"},
		{"lab-json-psync-2jobs.json / buf-psync-nj2", workload.Workload{RW: "randread", ReadPct: 50, BS: 4096, IODepth: 1, NumJobs: 2,
			Runtime: 10 * time.Second, Loops: 1, Size: 2 * gib, Engine: "fio", IOEngine: "psync"}, "invalidate=0, randrepeat=0"},
		{"lab-qemu-guest-qd1.json / g1", workload.Workload{RW: "randread", ReadPct: 50, BS: 4096, IODepth: 1, NumJobs: 1,
			Runtime: 5 * time.Second, Loops: 1, Direct: true, Engine: "fio", IOEngine: "io_uring"}, ""},
		{"randrw-2jobs.json / randrw", workload.Workload{RW: "randrw", ReadPct: 70, BS: 4096, IODepth: 1, NumJobs: 2,
			Runtime: time.Second, Loops: 1, Size: 64 << 20, Engine: "fio"}, "invalidate=0, randrepeat=0"},
		{"clients-3hosts.json / client", workload.Workload{RW: "randread", ReadPct: 50, BS: 4096, IODepth: 1, NumJobs: 1,
			Runtime: time.Second, Size: 64 << 20, Engine: "fio"}, "invalidate=0"},
		{"verify-error.json / verify", workload.Workload{RW: "read", ReadPct: 50, BS: 4096, IODepth: 1, NumJobs: 1,
			Loops: 1, Size: 1 << 20, Verify: true, Engine: "fio"}, "verify_only=1"},
	} {
		t.Run(c.step, func(t *testing.T) {
			rec := recs[c.step]
			if rec == nil || rec.Workload == nil {
				t.Fatalf("record %+v has no workload", rec)
			}
			if !reflect.DeepEqual(*rec.Workload, c.want) {
				t.Errorf("workload\n%+v\nwant\n%+v", *rec.Workload, c.want)
			}
			note := "fio options drivebench's workload has no parameter for, left out of the step's workload: " + c.unknown
			if has := slices.Contains(rec.Log, note); has != (c.unknown != "") {
				t.Errorf("log %q: want the note %q: %v", rec.Log, note, c.unknown != "")
			}
		})
	}
}

// TestWorkloadOfJobFile reads the workload back from the options of job
// files the fio engine wrote (testdata/jobfiles, as fio echoes a job's
// options: the global section's under the job's): it is the workload
// translated, with what the translation fixed against the target (the
// region, the I/O engine) and fio's per-job budget and rates summed over
// the jobs and directions.
func TestWorkloadOfJobFile(t *testing.T) {
	for _, c := range []struct {
		file  string
		want  workload.Workload
		notes []string
	}{
		{"randread-4k-qd1", workload.Workload{RW: "randread", ReadPct: 50, BS: 4096, IODepth: 1, NumJobs: 1, Runtime: time.Minute, Ramp: 5 * time.Second,
			Size: 1 << 30, Seed: 42, Engine: "fio", IOEngine: "psync"},
			[]string{"fio options drivebench's workload has no parameter for, left out of the step's workload: invalidate=0, lat_percentiles=1, norandommap=1, thread=1"}},
		{"randread-qd32-direct-io_uring", workload.Workload{RW: "randread", ReadPct: 50, BS: 4096, IODepth: 32, NumJobs: 4, Runtime: 90 * time.Second,
			Direct: true, Size: 1 << 30, Seed: 42, Engine: "fio", IOEngine: "io_uring"}, nil},
		{"bssplit-zones-compressible", workload.Workload{RW: "randwrite", ReadPct: 50, BS: 4096, IODepth: 1, NumJobs: 2, Bytes: 2 << 30, Size: 1 << 30,
			BSSplit: []workload.SizeWeight{{Size: 4096, Weight: 50}, {Size: 65536, Weight: 50}}, SeqPct: 20,
			Zones: []workload.Zone{{AccessPct: 80, RegionPct: 20}, {AccessPct: 20, RegionPct: 80}}, Data: "compressible", CompressPct: 60,
			RateBW: 10 << 20, Seed: 3, Engine: "fio", IOEngine: "psync"}, nil},
		{"region-percent-ms", workload.Workload{RW: "read", ReadPct: 50, BS: 131072, IODepth: 1, NumJobs: 2, Runtime: 1500 * time.Millisecond,
			Offset: 1 << 20, Size: 512 << 20, Bytes: 64 << 20, Engine: "fio", IOEngine: "psync"}, nil},
		{"verify-fill-zero", workload.Workload{RW: "write", ReadPct: 50, BS: 1 << 20, IODepth: 4, NumJobs: 1, Size: 256 << 20, Bytes: 256 << 20,
			Verify: true, Data: "zero", Engine: "fio", IOEngine: "io_uring"}, nil},
		{"randrw-rate-poisson", workload.Workload{RW: "randrw", ReadPct: 70, BS: 8192, IODepth: 8, NumJobs: 4, Runtime: 30 * time.Second,
			Size: 1 << 30, RateIOPS: 10000, Arrival: "poisson", Seed: 1, Engine: "fio", IOEngine: "io_uring"}, nil},
	} {
		t.Run(c.file, func(t *testing.T) {
			g := jobGroup{name: c.file, jobs: []Job{{Name: c.file, Options: jobFileOptions(t, filepath.Join("testdata", "jobfiles", c.file+".fio"))}}}
			jw := g.workload()
			if !reflect.DeepEqual(jw.w, c.want) {
				t.Errorf("workload\n%+v\nwant\n%+v", jw.w, c.want)
			}
			for _, n := range c.notes {
				if !slices.Contains(jw.notes, n) {
					t.Errorf("notes %q lack %q", jw.notes, n)
				}
			}
		})
	}
}

// TestWorkloadNotes: a value the workload cannot hold is listed with why,
// and the parameter keeps fio's default.
func TestWorkloadNotes(t *testing.T) {
	g := jobGroup{name: "odd", jobs: []Job{{Name: "odd", Options: map[string]string{
		"rw": "randread", "bs": "4k,64k", "random_distribution": "zipf:1.2", "offset": "10%", "time_based": "", "runtime": "30", "exitall": "1",
		"rate_iops": "100,,50"}}}}
	jw := g.workload()
	want := []string{
		`fio options the step's workload does not hold: bs=4k,64k ("4k,64k" is not one size); ` +
			`random_distribution=zipf:1.2 ("zipf:1.2" is not a distribution drivebench draws (random, or zoned:ACCESS/REGION:... for reads and writes alike)); ` +
			`offset=10% ("10%" is not a number of bytes); rate_iops=100,,50 ("100,,50" caps trims too, which drivebench does not issue)`,
		"fio options drivebench's workload has no parameter for, left out of the step's workload: exitall=1",
	}
	if !slices.Equal(jw.notes, want) {
		t.Errorf("notes\n%q\nwant\n%q", jw.notes, want)
	}
	if jw.w.BS != 4096 || jw.w.Zones != nil || jw.w.Loops != 0 || jw.w.Runtime != 30*time.Second || jw.read["bs"] || !jw.read["rw"] {
		t.Errorf("workload %+v, read %v", jw.w, jw.read)
	}
}

// jobFileOptions reads a job file's first job's options over its global
// ones, as fio's JSON output gives them.
func jobFileOptions(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opts := map[string]string{}
	sections := 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			sections++
			if sections > 2 {
				return opts
			}
			if line != "[global]" {
				opts["name"] = strings.Trim(line, "[]")
			}
		default:
			k, v, _ := strings.Cut(line, "=")
			opts[k] = v
		}
	}
	return opts
}
