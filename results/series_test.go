package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
)

// mixed is two intervals of a 70/30 4 KiB random mix and the drain of
// its end, folded into the second.
var mixed = []metrics.Sample{
	{T: 1, ReadIOPS: 7000, WriteIOPS: 3000, BW: 10000 * 4096, MeanLatNs: 95500, P50Ns: 81920, P99Ns: 250000, BytesWritten: 3000 * 4096},
	{T: 2.004, ReadIOPS: 6993, WriteIOPS: 2997.5, BW: 9990.5 * 4096, MeanLatNs: 120000, BytesWritten: 6010 * 4096},
}

func TestSeriesCSV(t *testing.T) {
	want := `t_start_s,t_end_s,read_iops,write_iops,read_mb_s,write_mb_s,lat_mean_us,lat_p50_us,lat_p99_us,lat_p9999_us,written_bytes
0.000,1.000,7000.0,3000.0,28.672,12.288,95.500,81.920,250.000,,12288000
1.000,2.004,6993.0,2997.5,28.643,12.278,120.000,,,,24616960
`
	if got := string(SeriesCSV(mixed)); got != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", got, want)
	}
}

// TestFioLogs: fio's logs of a series, as fio 3.33 writes them with
// log_avg_msec=1000 (see engine/fio's TestFioLogsAsFioWritesThem for
// fio's own): a line per interval and direction, bandwidth in KiB/s
// shared by I/O count, and latency only where the series' one latency
// is a single direction's.
func TestFioLogs(t *testing.T) {
	read := []metrics.Sample{{T: 1, ReadIOPS: 1000.4, BW: 1000.4 * 4096, MeanLatNs: 990.6}, {T: 2, ReadIOPS: 0, BW: 0}}
	for _, tt := range []struct {
		name    string
		res     metrics.Result
		want    map[string]string
		absence string
	}{
		{"read", metrics.Result{Series: read}, map[string]string{
			"bw":   "1000, 4002, 0, 0, 0\n2000, 0, 0, 0, 0\n",
			"iops": "1000, 1000, 0, 0, 0\n2000, 0, 0, 0, 0\n",
			"lat":  "1000, 991, 0, 0, 0\n",
		}, "clat"},
		{"fio's clat", metrics.Result{Series: read, Latency: metrics.LatencyFioClat}, map[string]string{
			"clat": "1000, 991, 0, 0, 0\n",
		}, "lat"},
		{"mixed", metrics.Result{Series: mixed}, map[string]string{
			"bw":   "1000, 28000, 0, 0, 0\n1000, 12000, 1, 0, 0\n2004, 27972, 0, 0, 0\n2004, 11990, 1, 0, 0\n",
			"iops": "1000, 7000, 0, 0, 0\n1000, 3000, 1, 0, 0\n2004, 6993, 0, 0, 0\n2004, 2998, 1, 0, 0\n",
		}, "lat"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := map[string]string{}
			for _, l := range FioLogs(&tt.res) {
				got[l.Kind] = string(l.Data)
			}
			for kind, want := range tt.want {
				if got[kind] != want {
					t.Errorf("%s log:\n%s\nwant:\n%s", kind, got[kind], want)
				}
			}
			if _, ok := got[tt.absence]; ok {
				t.Errorf("a %s log was written: %q", tt.absence, got[tt.absence])
			}
		})
	}
}

// TestWriteRecordWritesItsSeries: a step's series is written with its
// record, as CSV always and as fio's logs when the plan asked; a step
// whose slug another step shares is told apart by its ID; RewriteSeries
// writes them again from the records alone.
func TestWriteRecordWritesItsSeries(t *testing.T) {
	m := &Manifest{Plan: "p", PlanHash: "h", FioLogs: true, Steps: []StepInfo{
		{ID: "a1", Name: "d / 4k-read / iodepth=16"},
		{ID: "b2", Name: "d / 4k read / iodepth=16"},
		{ID: "c3", Name: "d / fill / pass 1"},
	}}
	f, err := Create(filepath.Join(t.TempDir(), "run"), m)
	if err != nil {
		t.Fatal(err)
	}
	series := []metrics.Sample{{T: 1, WriteIOPS: 10, BW: 10 * 131072, MeanLatNs: 2e6, BytesWritten: 10 * 131072}}
	for _, r := range []*Record{
		{StepID: "a1", Name: "d / 4k-read / iodepth=16", Drive: "d", Source: "4k-read", Result: &metrics.Result{Series: read4k()},
			Workload: &workload.Workload{RW: "randread", IODepth: 16, NumJobs: 1}},
		{StepID: "c3", Name: "d / fill / pass 1", Drive: "d", Source: "fill", Result: &metrics.Result{Series: series},
			Workload: &workload.Workload{RW: "write", IODepth: 4}},
		{StepID: "e5", Name: "d / check", Drive: "d", Source: "check"},
	} {
		r.Status, r.Finished = StatusOK, time.Unix(1, 0)
		if err := f.WriteRecord(r); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		"fio-logs/d/4k-read/iodepth-16-a1.randread-iodepth-16-numjobs-1_bw.1.log",
		"fio-logs/d/4k-read/iodepth-16-a1.randread-iodepth-16-numjobs-1_iops.1.log",
		"fio-logs/d/4k-read/iodepth-16-a1.randread-iodepth-16-numjobs-1_lat.1.log",
		"fio-logs/d/fill/pass-1.write-iodepth-4-numjobs-1_bw.1.log",
		"fio-logs/d/fill/pass-1.write-iodepth-4-numjobs-1_iops.1.log",
		"fio-logs/d/fill/pass-1.write-iodepth-4-numjobs-1_lat.1.log",
		"series/d-4k-read-iodepth-16-a1.csv",
		"series/d-fill-pass-1.csv",
	}
	if got := seriesFiles(t, f.Dir); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := readText(t, filepath.Join(f.Dir, "series/d-fill-pass-1.csv")); !strings.HasSuffix(got, "\n0.000,1.000,0.0,10.0,0.000,1.311,2000.000,,,,1310720\n") {
		t.Errorf("fill's CSV:\n%s", got)
	}

	for _, dir := range []string{SeriesDir, FioLogsDir} {
		os.RemoveAll(filepath.Join(f.Dir, dir))
	}
	f.Manifest.FioLogs = false
	if err := f.RewriteSeries(false); err != nil {
		t.Fatal(err)
	}
	if got := seriesFiles(t, f.Dir); strings.Join(got, "\n") != strings.Join(want[6:], "\n") {
		t.Errorf("rewritten without fio's logs:\n%s", strings.Join(got, "\n"))
	}
	if err := f.RewriteSeries(true); err != nil {
		t.Fatal(err)
	}
	if got := seriesFiles(t, f.Dir); len(got) != len(want) {
		t.Errorf("rewritten with fio's logs:\n%s", strings.Join(got, "\n"))
	}
}

func read4k() []metrics.Sample {
	return []metrics.Sample{{T: 1, ReadIOPS: 1000, BW: 1000 * 4096, MeanLatNs: 100000}}
}

// seriesFiles lists the series and fio log files under dir.
func seriesFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, sub := range []string{FioLogsDir, SeriesDir} {
		filepath.WalkDir(filepath.Join(dir, sub), func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(dir, path)
				out = append(out, rel)
			}
			return nil
		})
	}
	return out
}

func readText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestTraceSeriesCSV: a trace replay's series over trace time is written
// beside its series over run time, a line per bin of 10 ms of trace time
// from the skip (1.5 s) on, its rates per second of trace time, an empty
// bin with empty latency cells, the second loop marked.
func TestTraceSeriesCSV(t *testing.T) {
	rp := &metrics.ReplayStats{TraceBinNs: 10_000_000, TraceSeries: []metrics.TraceBin{
		{T: 1.5, Loop: 1, Due: 12, Reads: 9, Writes: 3, Bytes: 12 * 4096, MeanLatNs: 150_500, P99Ns: 480_000, LagP99Ns: 21_000},
		{T: 1.51, Loop: 1},
		{T: 1.52, Loop: 2, Due: 2, Reads: 1, Bytes: 65536, MeanLatNs: 90_000, P99Ns: 90_000},
	}}
	want := `trace_t_start_s,trace_t_end_s,loop,due,issued,read_iops,write_iops,mb_s,lat_mean_us,lat_p99_us,lag_p99_us
1.500000,1.510000,1,12,12,900.0,300.0,4.915,150.500,480.000,21.000
1.510000,1.520000,1,0,0,0.0,0.0,0.000,,,
1.520000,1.530000,2,2,1,100.0,0.0,6.554,90.000,90.000,
`
	if got := string(TraceSeriesCSV(rp)); got != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", got, want)
	}
	f, err := Create(filepath.Join(t.TempDir(), "run"), &Manifest{Plan: "p", PlanHash: "h", Steps: []StepInfo{{ID: "r1", Name: "d / boot"}}})
	if err != nil {
		t.Fatal(err)
	}
	r := &Record{StepID: "r1", Name: "d / boot", Drive: "d", Source: "boot", Status: StatusOK, Finished: time.Unix(1, 0),
		Result: &metrics.Result{Series: read4k(), Replay: rp}}
	if err := f.WriteRecord(r); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(seriesFiles(t, f.Dir), " "); got != "series/d-boot.csv series/d-boot.trace-time.csv" {
		t.Errorf("files: %s", got)
	}
	if got := readText(t, filepath.Join(f.Dir, "series/d-boot.trace-time.csv")); got != want {
		t.Errorf("written:\n%s\nwant:\n%s", got, want)
	}
}
