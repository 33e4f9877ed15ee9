package fio

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/drivebench/drivebench/metrics"
)

// TestReadSeries assembles two jobs' interval logs, laid out as fio 3.33
// writes them: IOPS and bandwidth lines for the whole intervals only,
// latency lines for the last, partial one too.
func TestReadSeries(t *testing.T) {
	dir := t.TempDir()
	logs := map[string]string{
		// Job 1 reads 1000 IOPS of 4 KiB for 2.5 s.
		"log_iops.1.log": "1000, 1000, 0, 0, 0\n2000, 1000, 0, 0, 0\n",
		"log_bw.1.log":   "1000, 4000, 0, 0, 0\n2000, 4000, 0, 0, 0\n",
		"log_lat.1.log":  "1000, 100000, 0, 0, 0\n2000, 100000, 0, 0, 0\n2500, 100000, 0, 0, 0\n",
		// Job 2 writes 3000 IOPS of 4 KiB, then 1000 IOPS in its last 0.5 s;
		// a line fio 3.33 cannot have written is skipped.
		"log_iops.2.log": "1001, 3000, 1, 4096, 0\n2001, 3000, 1, 4096, 0\nnot a line\n",
		"log_bw.2.log":   "1001, 12000, 1, 4096, 0\n2001, 12000, 1, 4096, 0\n",
		"log_lat.2.log":  "1001, 300000, 1, 4096, 0\n2001, 300000, 1, 4096, 0\n2400, 500000, 1, 4096, 0\n",
	}
	for name, text := range logs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	jobs := []Job{
		{figures: jobFigures{read: dirFigures{ios: 2500, bytes: 2500 * 4096, runtimeMs: 2500}}},
		{figures: jobFigures{write: dirFigures{ios: 6500, bytes: 6500 * 4096, runtimeMs: 2500}}},
	}
	got := readSeries([]string{dir}, [][]Job{jobs})
	want := []metrics.Sample{
		{T: 1, ReadIOPS: 1000, WriteIOPS: 3000, BW: 16000 * 1024, MeanLatNs: 250000, BytesWritten: 12000 * 1024},
		{T: 2, ReadIOPS: 1000, WriteIOPS: 3000, BW: 16000 * 1024, MeanLatNs: 250000, BytesWritten: 24000 * 1024},
		{T: 2.5, ReadIOPS: 1000, WriteIOPS: 1000, BW: 2000 * 4096, MeanLatNs: 300000, BytesWritten: 6500 * 4096},
	}
	if len(got) != len(want) {
		t.Fatalf("series %+v", got)
	}
	for i := range want {
		if !samplesClose(got[i], want[i]) {
			t.Errorf("sample %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestReadSeriesFoldsTheDrain: a job that ran 4 ms past its last logged
// interval ends its series with those 4 ms folded into that interval, at
// the rate of the two together, not with a stub at the drain's rate.
func TestReadSeriesFoldsTheDrain(t *testing.T) {
	dir := t.TempDir()
	logs := map[string]string{
		"log_iops.1.log": "1000, 1000, 0, 0, 0\n2000, 1000, 0, 0, 0\n",
		"log_bw.1.log":   "1000, 4000, 0, 0, 0\n2000, 4000, 0, 0, 0\n",
		"log_lat.1.log":  "1000, 100000, 0, 0, 0\n2000, 100000, 0, 0, 0\n2004, 400000, 0, 0, 0\n",
	}
	for name, text := range logs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// 2 I/Os in the last 4 ms: 500 IOPS, a stub at half the rate
	jobs := []Job{{figures: jobFigures{read: dirFigures{ios: 2002, bytes: 2002 * 4096, runtimeMs: 2004}}}}
	got := readSeries([]string{dir}, [][]Job{jobs})
	want := []metrics.Sample{
		{T: 1, ReadIOPS: 1000, BW: 4000 * 1024, MeanLatNs: 100000},
		{T: 2.004, ReadIOPS: 1002 / 1.004, BW: 1002 * 4096 / 1.004, MeanLatNs: (1000*100000 + 2*400000) / 1002.0},
	}
	if len(got) != len(want) {
		t.Fatalf("series %+v", got)
	}
	for i := range want {
		if !samplesClose(got[i], want[i]) {
			t.Errorf("sample %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func samplesClose(a, b metrics.Sample) bool {
	close := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(y)) }
	return close(a.T, b.T) && close(a.ReadIOPS, b.ReadIOPS) && close(a.WriteIOPS, b.WriteIOPS) &&
		close(a.BW, b.BW) && close(a.MeanLatNs, b.MeanLatNs) && a.BytesWritten == b.BytesWritten
}

// TestReportStream feeds fio's --status-interval output through the
// stream: every complete report is handed on, and what remains parses to
// the last one.
func TestReportStream(t *testing.T) {
	for _, c := range []struct {
		fixture   string
		reports   int
		truncated bool
	}{
		{"status-interval-sigint.json", 3, false},
		{"truncated.json", 2, true},
		{"clients-host-killed.json", 1, false},
	} {
		t.Run(c.fixture, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", c.fixture))
			if err != nil {
				t.Fatal(err)
			}
			var seen int
			var samples []metrics.Sample
			live := &liveSampler{live: func(s metrics.Sample) { samples = append(samples, s) }}
			s := &reportStream{onReport: func(r []byte) { seen++; live.report(r) }}
			if err := s.consume(bytes.NewReader(raw)); err != nil {
				t.Fatal(err)
			}
			if seen != c.reports {
				t.Errorf("%d reports, want %d", seen, c.reports)
			}
			o, err := Parse(s.output())
			if err != nil || o.Truncated != c.truncated {
				t.Fatalf("parse: %v, truncated %v", err, o != nil && o.Truncated)
			}
			whole := parseFixture(t, c.fixture)
			if o.Result().Read.IOs != whole.Result().Read.IOs || len(o.Messages) != len(whole.Messages) {
				t.Errorf("the stream kept %d I/Os and %d messages, the whole output has %d and %d",
					o.Result().Read.IOs, len(o.Messages), whole.Result().Read.IOs, len(whole.Messages))
			}
			for _, smp := range samples {
				if smp.ReadIOPS <= 0 || smp.MeanLatNs <= 0 || smp.T <= 0 {
					t.Errorf("live sample %+v", smp)
				}
			}
		})
	}
}
