package reports

import "testing"

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
			name: "p99 exceeded 1 ms at iodepth=16",
			rows: []Row{
				okRow("iodepth=1", fig(9_800, 101_500, 140_000)),
				okRow("iodepth=4", fig(30_120, 132_700, 640_000)),
				okRow("iodepth=16", fig(41_230, 388_200, 1_420_000)),
				okRow("iodepth=64", fig(40_870, 1_566_000, 4_100_000)),
			},
			want: "Peak of 41,230 IOPS (168.9 MB/s) at iodepth=16 with 388.2 µs mean latency; p99 exceeded 1 ms at iodepth=16 (1.42 ms).",
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
			name: "mixed rows name the direction over the line",
			rows: []Row{
				mixedRow("iodepth=1", fig(7_000, 90_000, 200_000), fig(3_000, 30_000, 80_000)),
				mixedRow("iodepth=8", fig(35_000, 180_000, 600_000), fig(15_000, 60_000, 1_300_000)),
			},
			want: "Peak of 50,000 IOPS (204.8 MB/s) at iodepth=8 with 120.0 µs mean latency; write p99 exceeded 1 ms at iodepth=8 (1.30 ms).",
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
