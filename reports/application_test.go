package reports

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/results"
)

// TestApplicationsFromSysbench checks the sysbench fileio run: the
// for_each instances are the runs of one application, between the
// prepare and cleanup steps; metrics are ordered rates first.
func TestApplicationsFromSysbench(t *testing.T) {
	s := mustLoad(t, "sysbench-fileio")
	var names []string
	for _, app := range s.Applications {
		names = append(names, app.Name+" x"+format.Count(float64(len(app.Runs))))
	}
	if want := []string{"prepare x1", "fileio x6", "cleanup x1"}; !slices.Equal(names, want) {
		t.Fatalf("applications = %v, want %v", names, want)
	}
	fileio := s.Applications[1]
	wantMetrics := []string{
		"reads_per_s", "writes_per_s", "read_mib_s", "written_mib_s", "fsyncs_per_s",
		"latency_min_ms", "latency_avg_ms", "latency_p99_ms", "latency_max_ms", "elapsed_s", "events",
	}
	if !slices.Equal(fileio.Metrics, wantMetrics) {
		t.Errorf("metrics = %v\nwant %v", fileio.Metrics, wantMetrics)
	}
	if want := wantMetrics[:5]; !slices.Equal(fileio.Headline, want) {
		t.Errorf("headline = %v, want %v", fileio.Headline, want)
	}
	failed := fileio.Runs[4]
	if failed.Status != "failed" || failed.ExitCode != 1 || len(failed.Metrics) != 0 || failed.StdoutFile == "" {
		t.Errorf("the failed run = %+v", failed)
	}
}

// TestApplicationsRendered checks the tables, the conclusion's rows and
// the output of the failed commands under Problems.
func TestApplicationsRendered(t *testing.T) {
	_, md := renderSummary(t, mustLoad(t, "sysbench-fileio"))
	for _, text := range []string{
		"| rndrw-1t | ok | 0 | 2.0 s | 858.44 | 572.13 | 3.35 | 2.23 | 114.72 | 0.03 | 0.64 | 7.98 | 48.02 | 2.02 | 3,117 |\n",
		"| rndread-4t | failed | 1 | 0.0 s | — | — | — | — | — | — | — | — | — | — | — |\n",
		"Command: `sysbench fileio --file-total-size=256M --file-num=8 prepare`, in `/tmp/sb/work-fs`.\n",
		"| fileio.seqrd-4t | fs | 2,884.68 reads/s, 11.27 read MiB/s | — | 1.38 ms | 12.08 ms |\n",
		"Output of fs / fileio.rndread-1t (stdout, last 3 lines; the whole of it is in `steps/dfa5a24ecd11.stdout`):\n\n" +
			"```text\nsysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n\nFATAL: Invalid IO operations mode: rndread.\n```\n",
	} {
		if !strings.Contains(md, text) {
			t.Errorf("report.md lacks\n%s", text)
		}
	}
	if strings.Contains(md, "## Results") {
		t.Error("a run of application steps alone has a Results section")
	}
	_, md = renderSummary(t, mustLoad(t, "postgres-oltp"))
	for _, text := range []string{
		"| oltp.1-threads | pg | 192.5 TPS, 3,849.95 QPS | — | 5.18 ms | 13.95 ms (p95) |\n",
		"Command: `rm -rf pgdata server.log`, in `/tmp/pgbench`, as postgres.\n",
	} {
		if !strings.Contains(md, text) {
			t.Errorf("report.md lacks\n%s", text)
		}
	}
}

func TestApplicationNames(t *testing.T) {
	steps := func(sources ...string) []step {
		var out []step
		for i, src := range sources {
			out = append(out, step{info: results.StepInfo{ID: strconv.Itoa(i), Kind: kindExec, Drive: "d", Source: src}})
		}
		return out
	}
	tests := []struct {
		sources []string
		want    []string
	}{
		{[]string{"fileio.a", "fileio.b", "prepare"}, []string{"fileio", "fileio", "prepare"}},
		{[]string{"db.init", "run"}, []string{"db.init", "run"}},
		{[]string{"oltp.1.5", "oltp.8"}, []string{"oltp", "oltp"}},
		{[]string{"x.1", "x.1"}, []string{"x.1", "x.1"}},
	}
	for _, tt := range tests {
		ss := steps(tt.sources...)
		names := applicationNames(ss)
		var got []string
		for _, s := range ss {
			got = append(got, names[s.info.ID])
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("applicationNames(%v) = %v, want %v", tt.sources, got, tt.want)
		}
	}
}

func TestMetricLabel(t *testing.T) {
	for name, want := range map[string]string{
		"tps": "TPS", "reads_per_s": "reads/s", "read_mib_s": "read MiB/s", "bw_mb_s": "bw MB/s",
		"latency_avg_ms": "latency avg (ms)", "latency_p99_us": "latency p99 (µs)", "elapsed_s": "elapsed (s)",
		"events": "events",
	} {
		if got := metricLabel(name); got != want {
			t.Errorf("metricLabel(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestParseLatencyMetric(t *testing.T) {
	tests := []struct {
		name  string
		ok    bool
		stat  string
		pct   float64
		toNs  float64
		order float64
	}{
		{"latency_avg_ms", true, "avg", 0, 1e6, -1},
		{"latency_p95_ms", true, "p95", 95, 1e6, 95},
		{"latency_p999_us", true, "p999", 99.9, 1e3, 99.9},
		{"latency_max_s", true, "max", 0, 1e9, 1000},
		{"latency_p9999_ns", true, "p9999", 99.99, 1, 99.99},
		{"latency_p5_ms", false, "", 0, 0, 0},
		{"latency_p00_ms", false, "", 0, 0, 0},
		{"latency_pxx_ms", false, "", 0, 0, 0},
		{"latency_avg_hours", false, "", 0, 0, 0},
		{"latency_ms", false, "", 0, 0, 0},
		{"lat_avg_ms", false, "", 0, 0, 0},
	}
	for _, tt := range tests {
		l, ok := parseLatencyMetric(tt.name)
		if ok != tt.ok || l.stat != tt.stat || l.pct != tt.pct || l.toNs != tt.toNs || l.order != tt.order {
			t.Errorf("parseLatencyMetric(%q) = %+v, %v", tt.name, l, ok)
		}
	}
}

func TestRunLatencies(t *testing.T) {
	mean, tail, pct := runLatencies(map[string]float64{
		"latency_avg_ms": 2, "latency_p95_ms": 5, "latency_p99_ms": 9, "latency_max_ms": 40, "tps": 100,
	})
	if mean == nil || *mean != 2e6 || tail == nil || *tail != 9e6 || pct != 99 {
		t.Errorf("runLatencies = %v, %v, %v", mean, tail, pct)
	}
	mean, tail, pct = runLatencies(map[string]float64{"tps": 1})
	if mean != nil || tail != nil || pct != 0 {
		t.Errorf("no latencies gave %v, %v, %v", mean, tail, pct)
	}
}

func TestHeadlineMetrics(t *testing.T) {
	app := Application{Metrics: []string{"score", "latency_avg_ms", "zeta"}, Headline: []string{}}
	if got := headlineMetrics(app, ApplicationRun{Metrics: map[string]float64{"score": 7, "latency_avg_ms": 3, "zeta": 0}}); got != "7 score" {
		t.Errorf("without rates: %q", got)
	}
	app = Application{Metrics: []string{"tps", "qps", "iops"}, Headline: []string{"tps", "qps", "iops"}}
	if got := headlineMetrics(app, ApplicationRun{Metrics: map[string]float64{"tps": 0, "qps": 1200.5, "iops": 3}}); got != "1,200.5 QPS, 3 IOPS" {
		t.Errorf("rates: %q", got)
	}
}
