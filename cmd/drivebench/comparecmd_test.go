package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/reports"
)

// quickstartRun is a results folder of the quickstart plan; its iodepth=16
// step reads 590,441 IOPS.
const (
	quickstartRun  = "../../reports/testdata/quickstart"
	quickstartQD16 = "7c4f18e6a2b05d93"
)

// runCompare runs drivebench compare in-process.
func runCompare(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = cmdCompare(context.Background(), args, stdio{out: &out, err: &errb, getenv: func(string) string { return "" }})
	return code, out.String(), errb.String()
}

// copyRunScaled copies the quickstart folder and multiplies the read IOPS
// and bandwidth of its iodepth=16 step by factor, as a firmware that reads
// slower (or faster) would.
func copyRunScaled(t *testing.T, factor float64) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(quickstartRun)); err != nil {
		t.Fatal(err)
	}
	editJSON(t, filepath.Join(dir, "steps", quickstartQD16+".json"), func(rec map[string]any) {
		read := rec["result"].(map[string]any)["read"].(map[string]any)
		read["iops"] = read["iops"].(float64) * factor
		read["bw_bytes"] = read["bw_bytes"].(float64) * factor
	})
	return dir
}

// inMiBps makes the copy of a run at dir ask for its reports in MiB/s,
// as a plan with report { units = "MiB/s" } does.
func inMiBps(t *testing.T, dir string) string {
	t.Helper()
	editJSON(t, filepath.Join(dir, "manifest.json"), func(m map[string]any) { m["units"] = "MiB/s" })
	return dir
}

// editJSON rewrites the JSON object in the file at path as edit changes
// it.
func editJSON(t *testing.T, path string, edit func(map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatal(err)
	}
	edit(obj)
	if data, err = json.Marshal(obj); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCompareCommand(t *testing.T) {
	slower, noisy := copyRunScaled(t, 0.90), copyRunScaled(t, 0.98)
	slowerMiB := inMiBps(t, copyRunScaled(t, 0.90))
	tests := []struct {
		name     string
		args     []string
		code     int
		contains []string
	}{
		{
			name: "injected 10% regression fails",
			args: []string{quickstartRun, slower, "--threshold", "5%"},
			code: exitCheckFailed,
			contains: []string{
				"nvme0 / 4k-random-read / iodepth=16  IOPS       590,441       531,397       -10.0%  —      regressed",
				"2 regressed, 0 improved, 0 noise, 16 unchanged, 0 lost",
			},
		},
		{
			name:     "a wider threshold accepts it",
			args:     []string{"-threshold", "12", quickstartRun, slower},
			code:     exitOK,
			contains: []string{"-10.0%  —      noise", "0 regressed"},
		},
		{
			name:     "noise under the threshold passes",
			args:     []string{quickstartRun, noisy},
			code:     exitOK,
			contains: []string{"-2.0%   —      noise", "18 figures compared at a 5% threshold, and beyond the runs' noise: 0 regressed, 0 improved, 2 noise"},
		},
		{
			name:     "improvement passes",
			args:     []string{slower, quickstartRun, "-threshold=5%"},
			code:     exitOK,
			contains: []string{"+11.1%  —      improved"},
		},
		{
			name:     "a threshold for one figure",
			args:     []string{"-threshold", "5%,iops=12%", quickstartRun, slower},
			code:     exitCheckFailed,
			contains: []string{"IOPS       590,441       531,397       -10.0%  —      noise", "bandwidth  2,418.4 MB/s  2,176.6 MB/s  -10.0%  —      regressed", "at a 5% threshold (iops 12%)"},
		},
		{
			name:     "bandwidth in the base run's unit",
			args:     []string{slowerMiB, quickstartRun},
			code:     exitOK,
			contains: []string{"bandwidth  2,075.8 MiB/s  2,306.4 MiB/s  +11.1%"},
		},
		{
			name:     "-units sets the unit",
			args:     []string{"-units", "MiB/s", "-format", "markdown", quickstartRun, slower},
			code:     exitCheckFailed,
			contains: []string{"| bandwidth | 2,306.4 MiB/s | 2,075.8 MiB/s | -10.0% |"},
		},
		{
			name:     "-units over the base run's",
			args:     []string{"-units=MB/s", slowerMiB, quickstartRun},
			code:     exitOK,
			contains: []string{"bandwidth  2,176.6 MB/s  2,418.4 MB/s  +11.1%"},
		},
		{name: "unknown unit", args: []string{"-units", "GB/s", quickstartRun, slower}, code: exitUsage, contains: []string{`-units "GB/s": use MB/s or MiB/s`}},
		{
			name:     "markdown",
			args:     []string{"-format", "markdown", quickstartRun, slower},
			code:     exitCheckFailed,
			contains: []string{"| point | figure | base | new | change | noise | verdict |", "| nvme0 / 4k-random-read / iodepth=16 | p99 latency | 241.7 µs | 241.7 µs | +0.0% | — | unchanged |"},
		},
		{
			name: "junit",
			args: []string{"-format", "junit", quickstartRun, slower},
			code: exitCheckFailed,
			contains: []string{`<testsuites name="compare quickstart" tests="18" failures="2"`,
				`<testcase name="nvme0 / 4k-random-read / iodepth=16 / IOPS" classname="compare quickstart.nvme0.4k-random-read"`,
				`<failure message="IOPS regressed by 10.0% (threshold 5%)" type="regressed">`},
		},
		{name: "unknown figure", args: []string{"-threshold", "p42=5%", quickstartRun, slower}, code: exitUsage, contains: []string{`"p42" is not a figure; use one of iops, bw, mean, p50, p99, p99_9`}},
		{
			name: "old figure name", args: []string{"-threshold", "p99.9=50%", quickstartRun, quickstartRun}, code: exitOK,
			contains: []string{`drivebench compare: -threshold: warning: "p99.9", the old command-line flag name of the p99.9 latency, is deprecated: write "p99_9"`},
		},
		{name: "unknown format", args: []string{"-format", "csv", quickstartRun, slower}, code: exitUsage, contains: []string{`-format "csv": use text, markdown, json or junit`}},
		{
			name:     "the same run twice",
			args:     []string{quickstartRun, quickstartRun},
			code:     exitOK,
			contains: []string{"No figure moved.", "0 noise, 18 unchanged"},
		},
		{name: "bad threshold", args: []string{quickstartRun, noisy, "-threshold", "five"}, code: exitUsage, contains: []string{`"five" is not a percentage`}},
		{name: "not a results folder", args: []string{quickstartRun, t.TempDir()}, code: exitUsage, contains: []string{"new:", "is not a results folder"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCompare(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tt.code, out, errOut)
			}
			for _, want := range tt.contains {
				if !strings.Contains(out+errOut, want) {
					t.Errorf("output lacks %q:\n%s%s", want, out, errOut)
				}
			}
		})
	}
}

// Step records of the quickstart folder's 4k-random-read points.
var quickstartReads = []string{"0d6b93f2e47a1c85", "e21a7c5b903f86d4", quickstartQD16}

// copyRun copies the quickstart folder and lets edit change each record
// of its 4k-random-read points (and, with manifest, its manifest).
func copyRun(t *testing.T, edit func(id string, rec map[string]any), manifest func(map[string]any)) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(quickstartRun)); err != nil {
		t.Fatal(err)
	}
	for _, id := range quickstartReads {
		editJSON(t, filepath.Join(dir, "steps", id+".json"), func(rec map[string]any) { edit(id, rec) })
	}
	if manifest != nil {
		editJSON(t, filepath.Join(dir, "manifest.json"), manifest)
	}
	return dir
}

// setWorkload sets a workload parameter of every 4k-random-read record.
func setWorkload(key string, value any) func(string, map[string]any) {
	return func(_ string, rec map[string]any) { rec["workload"].(map[string]any)[key] = value }
}

// withoutStep drops step id from a manifest, as a run of a plan without
// that point would list it.
func withoutStep(id string) func(map[string]any) {
	return func(m map[string]any) {
		var kept []any
		for _, s := range m["steps"].([]any) {
			if s.(map[string]any)["id"] != id {
				kept = append(kept, s)
			}
		}
		m["steps"] = kept
	}
}

func TestCompareCommandRefuses(t *testing.T) {
	bs16k := copyRun(t, setWorkload("bs", 16384), nil)
	fio := copyRun(t, func(id string, rec map[string]any) {
		if id == quickstartQD16 {
			w := rec["workload"].(map[string]any)
			w["engine"], w["ioengine"], w["numjobs"] = "fio", "libaio", 1
		}
	}, nil)
	unfinished := copyRun(t, func(_ string, rec map[string]any) { rec["status"] = "failed"; delete(rec, "result") }, nil)
	fewer := copyRun(t, func(string, map[string]any) {}, withoutStep("0d6b93f2e47a1c85"))
	longer := copyRun(t, setWorkload("runtime_ns", 600e9), nil)
	tests := []struct {
		name     string
		args     []string
		code     int
		contains []string
	}{
		{
			name: "runs that share no point",
			args: []string{quickstartRun, "../../reports/testdata/latency-qos"},
			code: exitUsage,
			contains: []string{"drivebench compare: ../../reports/testdata/quickstart and ../../reports/testdata/latency-qos: the runs share no point: " +
				"base lists 4 points (nvme0 / 4k-random-read / iodepth=1, nvme0 / 4k-random-read / iodepth=4, nvme0 / 4k-random-read / iodepth=16, nvme0 / 128k-seq-write / single run), " +
				"new lists 11 points (dut / qos-search / iodepth=1, dut / qos-search / iodepth=2, dut / qos-search / iodepth=4, dut / qos-search / iodepth=8, dut / qos-search / iodepth=16 and 6 more); " +
				"points are matched by drive, profile and sweep point, so compare two runs of the same profiles on drives of the same names\n"},
		},
		{
			name: "a 16 KiB run against a 4 KiB run",
			args: []string{quickstartRun, bs16k},
			code: exitUsage,
			contains: []string{"3 of the 4 points both runs list ran different workloads in the two runs, so their figures measure different things:\n" +
				"  nvme0 / 4k-random-read / iodepth=1: bs 4KiB → 16KiB\n  nvme0 / 4k-random-read / iodepth=4: bs 4KiB → 16KiB\n  nvme0 / 4k-random-read / iodepth=16: bs 4KiB → 16KiB\n" +
				"compare runs of the same workload, or pass -allow-workload-change"},
		},
		{
			name:     "another engine and job count",
			args:     []string{fio, quickstartRun},
			code:     exitUsage,
			contains: []string{"1 of the 4 points both runs list", "  nvme0 / 4k-random-read / iodepth=16: numjobs 1 → 4, engine fio → native, ioengine libaio → —\n"},
		},
		{
			name: "-allow-workload-change compares them, marked",
			args: []string{"-allow-workload-change", quickstartRun, bs16k},
			code: exitOK,
			contains: []string{"No figure moved.", "† compared across a workload change: nvme0 / 4k-random-read / iodepth=1: bs 4KiB → 16KiB\n",
				"18 figures compared"},
		},
		{
			name:     "marked in every row of the point",
			args:     []string{"-allow-workload-change", "-format", "markdown", fio, copyRunScaled(t, 0.9)},
			code:     exitCheckFailed,
			contains: []string{"| nvme0 / 4k-random-read / iodepth=16 † | IOPS | 590,441 | 531,397 | -10.0% | — | regressed |", "| nvme0 / 4k-random-read / iodepth=4 | IOPS |"},
		},
		{
			name:     "a longer run of the same workload is compared",
			args:     []string{quickstartRun, longer},
			code:     exitOK,
			contains: []string{"No figure moved.", "18 unchanged"},
		},
		{
			name:     "a base that finished none of the shared points",
			args:     []string{unfinished, quickstartRun},
			code:     exitUsage,
			contains: []string{"the base run finished none of the 4 points both runs list, so there is no figure to compare"},
		},
		{
			name:     "a partial overlap says how many matched",
			args:     []string{quickstartRun, fewer},
			code:     exitOK,
			contains: []string{"only in base: nvme0 / 4k-random-read / iodepth=1\n3 points matched, of 4 in base and 3 in new\n"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCompare(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tt.code, out, errOut)
			}
			for _, want := range tt.contains {
				if !strings.Contains(out+errOut, want) {
					t.Errorf("output lacks %q:\n%s%s", want, out, errOut)
				}
			}
			if tt.code == exitUsage && out != "" {
				t.Errorf("a refused comparison printed %q", out)
			}
		})
	}
}

func TestCompareCommandJSON(t *testing.T) {
	code, out, errOut := runCompare(t, "-json", quickstartRun, copyRunScaled(t, 0.9))
	if code != exitCheckFailed {
		t.Fatalf("exit %d, want %d: %s", code, exitCheckFailed, errOut)
	}
	var c reports.Comparison
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("output is not a comparison: %v\n%s", err, out)
	}
	if c.ThresholdPct != 5 || c.Counts[reports.Regressed] != 2 || !c.Regressed() || c.Units != "MB/s" {
		t.Errorf("comparison = threshold %v, counts %v, units %q", c.ThresholdPct, c.Counts, c.Units)
	}
}

func TestParseThreshold(t *testing.T) {
	for text, want := range map[string]float64{"5%": 5, "5": 5, " 2.5 % ": 2.5, "0%": 0} {
		if got, err := parseThreshold(text); err != nil || got != want {
			t.Errorf("parseThreshold(%q) = %v, %v; want %v", text, got, err, want)
		}
	}
	for _, text := range []string{"", "%", "-1%", "five", "NaN", "Inf%", "5%%"} {
		if _, err := parseThreshold(text); err == nil {
			t.Errorf("parseThreshold(%q) gave no error", text)
		}
	}
}

func FuzzParseThreshold(f *testing.F) {
	for _, seed := range []string{"5%", "2.5", "-1%", "1e3%", "0x10"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		pct, err := parseThreshold(text)
		if err == nil && (pct < 0 || math.IsNaN(pct) || math.IsInf(pct, 0)) {
			t.Errorf("parseThreshold(%q) = %v, which is no threshold", text, pct)
		}
	})
}
