package fio

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// fioLogLine is a line of fio's bw, iops and lat logs with
// log_avg_msec: "time, value, ddir, bs, offset", integers, bs and offset
// 0 for an average.
var fioLogLine = regexp.MustCompile(`^\d+, \d+, [01], 0, 0$`)

// TestFioLogsAsFioWritesThem: the logs results.FioLogs makes of a step's
// series are fio's own. fio, run with write_bw_log, write_iops_log,
// write_lat_log and log_avg_msec=1000, writes lines of the same shape
// under names of the same pattern, and the driver's reader of fio's logs
// reads ours back into the series it read from fio's.
func TestFioLogsAsFioWritesThem(t *testing.T) {
	needFio(t)
	t.Parallel()
	target := dataFile(t, 8<<20)
	fios, ours := t.TempDir(), t.TempDir()
	prefix := filepath.Join(fios, logPrefix)
	out, err := exec.Command("fio", "--name=x", "--filename="+target.Path, "--rw=randread", "--bs=4k", "--size=8M",
		"--runtime=3", "--time_based", "--ioengine=psync", "--output=/dev/null",
		"--write_bw_log="+prefix, "--write_iops_log="+prefix, "--write_lat_log="+prefix, "--log_avg_msec=1000").CombinedOutput()
	if err != nil {
		t.Fatalf("fio: %v\n%s", err, out)
	}
	series := readSeries([]string{fios}, [][]Job{{{}}})
	if len(series) < 2 {
		t.Fatalf("fio's logs hold %d intervals: %+v", len(series), series)
	}
	for _, log := range results.FioLogs(&metrics.Result{Series: series}) {
		name := logPrefix + "_" + log.Kind + ".1.log"
		fioText, err := os.ReadFile(filepath.Join(fios, name))
		if err != nil {
			t.Fatalf("fio wrote no %s, which ours is named after: %v", name, err)
		}
		checkLines(t, "fio's "+name, string(fioText))
		checkLines(t, "our "+name, string(log.Data))
		if err := os.WriteFile(filepath.Join(ours, name), log.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	again := readSeries([]string{ours}, [][]Job{{{}}})
	if len(again) != len(series) {
		t.Fatalf("our logs read as %d intervals, fio's as %d:\n%+v\n%+v", len(again), len(series), again, series)
	}
	for i, s := range series {
		a := again[i]
		// values are whole numbers in the logs, bandwidth in KiB/s
		if a.T != s.T || math.Abs(a.ReadIOPS-s.ReadIOPS) > 0.5 || math.Abs(a.BW-s.BW) > 512 || math.Abs(a.MeanLatNs-s.MeanLatNs) > 0.5 {
			t.Errorf("interval %d read back as %+v, fio's %+v", i, a, s)
		}
	}
}

func checkLines(t *testing.T, what, text string) {
	t.Helper()
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if !fioLogLine.MatchString(line) {
			t.Errorf("%s line %d %q is not \"time, value, ddir, 0, 0\"", what, i+1, line)
		}
	}
}
