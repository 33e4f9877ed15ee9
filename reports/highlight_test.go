package reports

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// fig makes figures for a 4KiB workload: bandwidth follows from IOPS. A
// zero latency means the run did not record it.
func fig(iops, meanNs float64, p99Ns uint64) *Figures {
	f := &Figures{IOPS: iops, BWBytes: iops * 4096}
	if meanNs > 0 {
		f.MeanLatNs = &meanNs
	}
	if p99Ns > 0 {
		f.P99Ns = &p99Ns
	}
	return f
}

func okRow(point string, f *Figures) Row {
	return Row{Point: point, Status: "ok", Total: f}
}

func mixedRow(point string, read, write *Figures) Row {
	mean := 0.0
	if read.MeanLatNs != nil && write.MeanLatNs != nil {
		mean = (*read.MeanLatNs + *write.MeanLatNs) / 2
	}
	return Row{Point: point, Status: "ok", Total: fig(read.IOPS+write.IOPS, mean, 0), Read: read, Write: write}
}

func TestHighlight(t *testing.T) {
	tests := []struct {
		name string
		rows []Row
		want string
	}{
		{
			name: "p99 under 1 ms throughout",
			rows: []Row{
				okRow("iodepth=1", fig(9_800, 101_500, 140_000)),
				okRow("iodepth=4", fig(30_120, 132_700, 310_000)),
				okRow("iodepth=16", fig(41_230, 388_200, 912_000)),
			},
			want: "Peak of 41,230 IOPS (168.9 MB/s) at iodepth=16 with 388.2 µs mean latency; p99 stayed under 1 ms throughout.",
		},
		{
			name: "exactly 1 ms is not over",
			rows: []Row{
				okRow("iodepth=1", fig(9_800, 101_500, 1_000_000)),
				okRow("iodepth=4", fig(30_120, 132_700, 1_000_000)),
			},
			want: "Peak of 30,120 IOPS (123.4 MB/s) at iodepth=4 with 132.7 µs mean latency; p99 stayed under 1 ms throughout.",
		},
		{
			name: "p99 over 1 ms everywhere",
			rows: []Row{
				okRow("iodepth=1", fig(180, 5_550_000, 11_200_000)),
				okRow("iodepth=8", fig(410, 19_500_000, 61_000_000)),
			},
			want: "Peak of 410 IOPS (1.7 MB/s) at iodepth=8 with 19.50 ms mean latency; p99 was above 1 ms at every point.",
		},
		{
			name: "single run without a sweep",
			rows: []Row{okRow("", fig(41_230, 388_200, 912_000))},
			want: "Measured 41,230 IOPS (168.9 MB/s) with 388.2 µs mean latency; p99 was 912.0 µs.",
		},
		{
			name: "no percentiles recorded",
			rows: []Row{
				okRow("iodepth=1", fig(9_800, 101_500, 0)),
				okRow("iodepth=4", fig(30_120, 132_700, 0)),
			},
			want: "Peak of 30,120 IOPS (123.4 MB/s) at iodepth=4 with 132.7 µs mean latency.",
		},
		{
			name: "no mean latency",
			rows: []Row{okRow("numjobs=2", fig(30_120, 0, 0))},
			want: "Measured 30,120 IOPS (123.4 MB/s) at numjobs=2.",
		},
		{
			name: "the first of equal peaks",
			rows: []Row{
				okRow("iodepth=32", fig(41_230, 700_000, 900_000)),
				okRow("iodepth=64", fig(41_230, 1_400_000, 900_000)),
			},
			want: "Peak of 41,230 IOPS (168.9 MB/s) at iodepth=32 with 700.0 µs mean latency; p99 stayed under 1 ms throughout.",
		},
		{
			name: "failed and interrupted points are not compared",
			rows: []Row{
				okRow("iodepth=1", fig(9_800, 101_500, 140_000)),
				{Point: "iodepth=4", Status: "interrupted", Total: fig(52_000, 90_000, 2_000_000)},
				{Point: "iodepth=16", Status: "failed"},
			},
			want: "Measured 9,800 IOPS (40.1 MB/s) at iodepth=1 with 101.5 µs mean latency; p99 was 140.0 µs. " +
				"The interrupted point's partial result is shown but not ranked or charted.",
		},
		{
			name: "nothing completed",
			rows: []Row{
				{Point: "iodepth=1", Status: "failed"},
				{Point: "iodepth=4", Status: StatusNotRun},
				{Point: "iodepth=16", Status: StatusNotRun},
			},
			want: "No measurements were recorded (1 failed, 2 not run).",
		},
		{
			name: "finished without data",
			rows: []Row{{Point: "", Status: "ok"}},
			want: "No measurements were recorded (1 finished without data).",
		},
		{
			name: "no rows",
			rows: []Row{},
			want: "No measurements were recorded (no points).",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table := ProfileResult{Profile: "p", Drive: "d", Rows: tt.rows}
			finishTable(&table, nil, headlineIOPS)
			writeHighlight(&table)
			if table.Highlight != tt.want {
				t.Errorf("highlight:\ngot:  %s\nwant: %s", table.Highlight, tt.want)
			}
		})
	}
}

func TestPeakMarksOneRow(t *testing.T) {
	table := ProfileResult{Rows: []Row{
		okRow("iodepth=1", fig(100, 1, 1)),
		{Point: "iodepth=2", Status: "failed", Total: fig(900, 1, 1)},
		okRow("iodepth=4", fig(300, 1, 1)),
		okRow("iodepth=8", fig(300, 1, 1)),
	}}
	finishTable(&table, nil, headlineIOPS)
	var peaks []string
	for _, r := range table.Rows {
		if r.Peak {
			peaks = append(peaks, r.Point)
		}
	}
	if len(peaks) != 1 || peaks[0] != "iodepth=4" {
		t.Errorf("peak rows = %v, want [iodepth=4]", peaks)
	}
}

// pointRow is okRow with the point's parameters, as Build sets them from
// "iodepth=4, numjobs=2".
func pointRow(point string, f *Figures) Row {
	r := okRow(point, f)
	for _, kv := range strings.Split(point, ", ") {
		name, value, _ := strings.Cut(kv, "=")
		if n, err := strconv.ParseFloat(value, 64); err == nil {
			r.Params = append(r.Params, Param{Name: name, Value: n})
		} else {
			r.Params = append(r.Params, Param{Name: name, Value: value})
		}
	}
	return r
}

// curveRow is a rate curve's row at pct percent of its maximum, or the
// maximum itself when pct is 0.
func curveRow(pct float64, f *Figures) Row {
	r := Row{Status: "ok", Total: f}
	if pct > 0 {
		r.RatePct = &pct
	}
	return r
}

func TestSweepSentencesFollowTheLoad(t *testing.T) {
	under, over := uint64(400_000), uint64(1_200_000)
	tests := []struct {
		name string
		rows []Row
		want string
	}{
		{
			name: "heavier points under the line after a light one over it",
			rows: []Row{
				pointRow("iodepth=1, numjobs=1", fig(10_000, 90_000, under)),
				pointRow("iodepth=1, numjobs=16", fig(90_000, 170_000, over)),
				pointRow("iodepth=4, numjobs=4", fig(95_000, 160_000, under)),
				pointRow("iodepth=16, numjobs=4", fig(99_000, 640_000, 900_000)),
				pointRow("iodepth=32, numjobs=4", fig(100_000, 1_280_000, 990_000)),
			},
			want: "Peak of 100,000 IOPS (409.6 MB/s) at iodepth=32, numjobs=4 with 1.28 ms mean latency; " +
				"p99 exceeded 1 ms only at iodepth=1, numjobs=16 (1.20 ms), yet stayed under it at 3 points as heavy or heavier, up to iodepth=32, numjobs=4 (990.0 µs). " +
				"At the lightest load, iodepth=1, numjobs=1: 10,000 IOPS (41.0 MB/s) with 90.0 µs mean latency.",
		},
		{
			name: "the crossing is the lightest load over the line, not the first step",
			rows: []Row{
				pointRow("iodepth=1, numjobs=1", fig(10_000, 90_000, under)),
				pointRow("iodepth=1, numjobs=8", fig(60_000, 130_000, 1_500_000)),
				pointRow("iodepth=2, numjobs=1", fig(19_000, 100_000, 600_000)),
				pointRow("iodepth=2, numjobs=2", fig(35_000, 110_000, 1_100_000)),
				pointRow("iodepth=2, numjobs=8", fig(70_000, 220_000, 2_000_000)),
			},
			want: "Peak of 70,000 IOPS (286.7 MB/s) at iodepth=2, numjobs=8 with 220.0 µs mean latency; " +
				"p99 stayed under 1 ms up to iodepth=2, numjobs=1 (600.0 µs) and exceeded it from iodepth=2, numjobs=2 on (1.10 ms). " +
				"At the lightest load, iodepth=1, numjobs=1: 10,000 IOPS (41.0 MB/s) with 90.0 µs mean latency.",
		},
		{
			name: "every mix is named",
			rows: []Row{
				pointRow("read_pct=100, iodepth=1", fig(12_000, 80_000, under)),
				pointRow("read_pct=100, iodepth=16", fig(90_000, 170_000, under)),
				pointRow("read_pct=70, iodepth=1", fig(9_000, 110_000, under)),
				pointRow("read_pct=70, iodepth=16", fig(70_000, 230_000, over)),
				pointRow("read_pct=0, iodepth=1", fig(7_000, 140_000, over)),
				pointRow("read_pct=0, iodepth=16", fig(60_000, 260_000, 3_000_000)),
			},
			want: "Peak of 90,000 IOPS (368.6 MB/s) at read_pct=100, iodepth=16 with 170.0 µs mean latency; " +
				"p99 at read_pct=100 stayed under 1 ms throughout; at read_pct=70 stayed under 1 ms up to iodepth=1 (400.0 µs) and exceeded it only at iodepth=16 (1.20 ms); " +
				"at read_pct=0 was above 1 ms at every point. " +
				"At the lightest load of each mix, read_pct=100, iodepth=1: 12,000 IOPS (49.2 MB/s) with 80.0 µs mean latency; " +
				"read_pct=70, iodepth=1: 9,000 IOPS (36.9 MB/s) with 110.0 µs mean latency; read_pct=0, iodepth=1: 7,000 IOPS (28.7 MB/s) with 140.0 µs mean latency.",
		},
		{
			name: "mixes alike are one clause",
			rows: []Row{
				pointRow("read_pct=100, iodepth=1", fig(12_000, 80_000, under)),
				pointRow("read_pct=100, iodepth=16", fig(90_000, 170_000, under)),
				pointRow("read_pct=0, iodepth=1", fig(7_000, 140_000, under)),
				pointRow("read_pct=0, iodepth=16", fig(60_000, 260_000, under)),
			},
			want: "Peak of 90,000 IOPS (368.6 MB/s) at read_pct=100, iodepth=16 with 170.0 µs mean latency; p99 stayed under 1 ms throughout. " +
				"At the lightest load of each mix, read_pct=100, iodepth=1: 12,000 IOPS (49.2 MB/s) with 80.0 µs mean latency; " +
				"read_pct=0, iodepth=1: 7,000 IOPS (28.7 MB/s) with 140.0 µs mean latency.",
		},
		{
			name: "a rate curve by its rate, the maximum heaviest",
			rows: []Row{
				curveRow(0, fig(21_000, 745_000, 2_110_000)),
				curveRow(25, fig(5_250, 190_000, 410_000)),
				curveRow(50, fig(10_500, 230_000, 620_000)),
				curveRow(75, fig(15_750, 380_000, 1_450_000)),
			},
			want: "Peak of 21,000 IOPS (86.0 MB/s) at max rate with 745.0 µs mean latency; " +
				"p99 stayed under 1 ms up to 50% rate (620.0 µs) and exceeded it from 75% rate on (1.45 ms).",
		},
		{
			name: "no load: the highest of the points over",
			rows: []Row{
				pointRow("bs=4KiB", fig(50_000, 300_000, over)),
				pointRow("bs=64KiB", fig(20_000, 400_000, under)),
				pointRow("bs=1MiB", fig(2_000, 900_000, 2_500_000)),
			},
			want: "Peak of 50,000 IOPS (204.8 MB/s) at bs=4KiB with 300.0 µs mean latency; p99 exceeded 1 ms at 2 of 3 points, the highest at bs=1MiB (2.50 ms).",
		},
		{
			name: "mixed rows name the direction over the line",
			rows: []Row{
				withParams(mixedRow("iodepth=1", fig(7_000, 90_000, 200_000), fig(3_000, 30_000, 80_000))),
				withParams(mixedRow("iodepth=8", fig(35_000, 180_000, 600_000), fig(15_000, 60_000, 1_300_000))),
			},
			want: "Peak of 50,000 IOPS (204.8 MB/s) at iodepth=8 with 120.0 µs mean latency; " +
				"p99 stayed under 1 ms up to iodepth=1 (read 200.0 µs) and exceeded it only at iodepth=8 (write 1.30 ms). " +
				"At the lightest load, iodepth=1: 10,000 IOPS (41.0 MB/s) with 60.0 µs mean latency.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table := ProfileResult{Profile: "p", Drive: "d", Rows: tt.rows, Mixed: tt.rows[0].Read != nil}
			finishTable(&table, nil, headlineIOPS)
			writeHighlight(&table)
			if table.Highlight != tt.want {
				t.Errorf("highlight:\ngot:  %s\nwant: %s", table.Highlight, tt.want)
			}
		})
	}
}

// withParams gives a row the parameters of its point.
func withParams(r Row) Row {
	r.Params = pointRow(r.Point, nil).Params
	return r
}

// TestRateCurvePeak: a rate curve's peak is its uncontrolled maximum
// unless a rate row beat it by more than the maximum's noise; a rate row
// 0.03 % above a maximum of one interval, whose noise is unknown, is not
// the peak.
func TestRateCurvePeak(t *testing.T) {
	curve := func(maxSeries []float64, rateIOPS float64) (*results.Manifest, []*results.Record) {
		m := &results.Manifest{Plan: "curve", PlanHash: "h", Created: t0, Drives: []results.Drive{{Name: "d"}}}
		m.Steps = []results.StepInfo{
			{ID: "max", Kind: "profile", Drive: "d", Source: "c", Name: "d / c / max"},
			{ID: "r110", Kind: "profile", Drive: "d", Source: "c", Name: "d / c / rate 110%"},
		}
		res := readResult(maxSeries[0])
		for i, v := range maxSeries {
			res.Series = append(res.Series, metrics.Sample{T: float64(i + 1), ReadIOPS: v})
		}
		mean := 0.0
		for _, v := range maxSeries {
			mean += v / float64(len(maxSeries))
		}
		res.Read.IOPS = mean
		d := dir(rateIOPS, 39_060_000, 1000)
		d.Service = &metrics.LatencySummary{Mean: 568_000, Percentiles: []metrics.Percentile{{P: 99, Ns: 1_200_000}}}
		paced := record("r110", "ok", t0.Add(2*time.Minute), &metrics.Result{Read: d})
		paced.Workload = &workload.Workload{RW: "randread", BS: 4096, RatePct: 110}
		top := record("max", "ok", t0.Add(time.Minute), res)
		top.Workload = &workload.Workload{RW: "randread", BS: 4096}
		return m, []*results.Record{top, paced}
	}
	tests := []struct {
		name      string
		maxSeries []float64
		rate      float64
		want      string
		sentence  string
	}{
		{"one interval, 0.03 % above", []float64{225_029}, 225_097, "max", "Peak of 225,029 IOPS (921.7 MB/s) at max rate with 4.4 µs mean latency."},
		{"within the noise", []float64{220_000, 225_000, 230_000}, 228_000, "max", ""},
		{"beyond the noise", []float64{224_000, 225_000, 226_000}, 240_000, "r110",
			"Peak of 240,000 IOPS (983.0 MB/s) at 110% rate with 568.0 µs mean service latency (39.06 ms from each I/O's due time)"},
		{"below", []float64{224_000, 225_000, 226_000}, 200_000, "max", ""},
	}
	for _, tt := range tests {
		m, recs := curve(tt.maxSeries, tt.rate)
		s := Build(m, recs)
		peak := s.Results[0].peakRow()
		if peak == nil || peak.StepID != tt.want {
			t.Errorf("%s: peak %+v, want %s", tt.name, peak, tt.want)
		}
		if !strings.Contains(s.Results[0].Highlight, tt.sentence) {
			t.Errorf("%s: highlight %q, want %q", tt.name, s.Results[0].Highlight, tt.sentence)
		}
	}
}
