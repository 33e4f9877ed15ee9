package reports

import (
	"math"
	"strings"
	"testing"
)

func rwRow(rw string, mbps float64, status string) Row {
	return Row{Params: []Param{{Name: "rw", Value: rw}}, Status: status, Total: &Figures{BWBytes: mbps * 1e6, IOPS: mbps * 1e6 / 4096}}
}

func TestGrids(t *testing.T) {
	tables := []ProfileResult{
		{Profile: "cdm.SEQ1M-Q8T1", Drive: "d", Rows: []Row{rwRow("read", 3500, "ok"), rwRow("write", 3000, "ok")}},
		{Profile: "cdm.RND4K-Q1T1", Drive: "d", Rows: []Row{rwRow("randread", 60, "ok"), rwRow("randwrite", 200, "failed")}},
		{Profile: "other", Drive: "d", Rows: []Row{rwRow("read", 1, "ok")}},
		{Profile: "cdm.SEQ1M-Q8T1", Drive: "e", Rows: []Row{rwRow("read", 1, "ok"), rwRow("write", 1, "ok")}},
	}
	grids := buildGrids(tables)
	if len(grids) != 1 || grids[0].Drive != "d" || len(grids[0].Rows) != 2 {
		t.Fatalf("grids %+v: want one grid of drive d's two tests (drive e has one test)", grids)
	}
	r := grids[0].Rows
	if r[0].Test != "SEQ1M Q8T1" || r[1].Test != "RND4K Q1T1" || r[1].Write != nil || r[0].Read.BWBytes != 3500e6 {
		t.Errorf("rows %+v", r)
	}
	svg := string(gridChart(&grids[0], unitMBps).SVG())
	for _, want := range []string{"SEQ1M Q8T1", "3,500.0", "3,000.0", "Read", "Write"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the bar chart lacks %q", want)
		}
	}
	if !math.IsNaN(bandwidthOf(nil)) {
		t.Error("a missing half is drawn as a value")
	}
}

func TestChosenRounds(t *testing.T) {
	tests := []struct{ aggregate, want string }{
		{"best of 5 rounds", "best of 5 rounds"},
		{"mean of last 3 of 5 rounds", "mean of last 3 of 5 rounds"},
		{"", "avg of 2 rounds"},
	}
	for _, tt := range tests {
		if got := chosenRounds(Row{Aggregate: tt.aggregate, Averaged: 2}); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.aggregate, got, tt.want)
		}
	}
}

// TestLadder: a sweep over read share and (workers, queue depth) draws
// one latency line per read share and statistic, against IOPS.
func TestLadder(t *testing.T) {
	row := func(read, jobs, qd, iops, mean float64) Row {
		p99, p9999 := uint64(mean*3), uint64(mean*9)
		return Row{Status: "ok", Params: []Param{{"read_pct", read}, {"numjobs", jobs}, {"iodepth", qd}},
			Total: &Figures{IOPS: iops, MeanLatNs: &mean, P99Ns: &p99, Tail: []PercentileCell{{P: 99.99, Ns: &p9999}}}}
	}
	tab := &ProfileResult{Rows: []Row{
		row(100, 1, 1, 10000, 80e3), row(100, 4, 32, 500000, 250e3),
		row(70, 1, 1, 8000, 100e3), row(70, 4, 32, 300000, 400e3),
	}}
	names, groups := ladderGroups(tab)
	if strings.Join(names, "|") != "read_pct=100|read_pct=70" || len(groups[0]) != 2 {
		t.Fatalf("groups %q", names)
	}
	c := ladderChart("mixes", tab)
	if len(c.Lines) != 6 || c.Lines[2].Name != "read_pct=100 p99.99" || c.Lines[3].Points[1].Y != 400e3 {
		t.Errorf("lines %+v", c.Lines)
	}
	if n, _ := ladderGroups(&ProfileResult{Rows: []Row{row(100, 1, 1, 1, 1)}}); n != nil {
		t.Errorf("a load-only sweep has ladder groups %q", n)
	}
}
