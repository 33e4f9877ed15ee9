package metrics

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

// TestWholeIntervals leaves out the intervals less than half as long as
// the longest: the stub at a run's end, not a whole last interval.
func TestWholeIntervals(t *testing.T) {
	ends := func(series []Sample) []float64 {
		var out []float64
		for _, s := range series {
			out = append(out, s.T)
		}
		return out
	}
	tests := []struct {
		name string
		ends []float64
		want []float64
	}{
		{"stub at the end", []float64{1, 2, 3, 3.004}, []float64{1, 2, 3}},
		{"whole last interval", []float64{1, 2, 3}, []float64{1, 2, 3}},
		{"half an interval counts", []float64{1, 2, 2.5}, []float64{1, 2, 2.5}},
		{"one stub alone", []float64{0.004}, []float64{0.004}},
		{"none", nil, nil},
	}
	for _, tt := range tests {
		var series []Sample
		for _, e := range tt.ends {
			series = append(series, Sample{T: e})
		}
		if got := ends(WholeIntervals(series)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: intervals ending %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestFoldStub folds a last interval shorter than half the longest into
// the one before it, rates weighted by time and mean latency by I/Os: the
// quickstart's iodepth=16 series ended at 124,838 IOPS, then a 1 ms stub
// at 38,187 IOPS that read as the run falling by two thirds.
func TestFoldStub(t *testing.T) {
	tests := []struct {
		name   string
		series []Sample
		want   []Sample
	}{
		{"drain stub",
			[]Sample{{T: 9, ReadIOPS: 120000}, {T: 10, ReadIOPS: 124838, BW: 100, MeanLatNs: 100, P99Ns: 500, BytesWritten: 7},
				{T: 10.001, ReadIOPS: 38187, BW: 50, MeanLatNs: 400, P99Ns: 900, BytesWritten: 8}},
			[]Sample{{T: 9, ReadIOPS: 120000}, {T: 10.001, ReadIOPS: (124838 + 38.187) / 1.001, BW: (100 + 0.05) / 1.001,
				MeanLatNs: (124838*100 + 38.187*400) / (124838 + 38.187), P99Ns: 500, BytesWritten: 8}}},
		{"write saturation", // 2 s intervals, a 35 ms stub at a sixth of the rate
			[]Sample{{T: 2, WriteIOPS: 21000}, {T: 4, WriteIOPS: 21400}, {T: 4.035, WriteIOPS: 3500}},
			[]Sample{{T: 2, WriteIOPS: 21000}, {T: 4.035, WriteIOPS: (21400*2 + 3500*0.035) / 2.035}}},
		{"half an interval stays", []Sample{{T: 1, ReadIOPS: 10}, {T: 1.5, ReadIOPS: 4}}, []Sample{{T: 1, ReadIOPS: 10}, {T: 1.5, ReadIOPS: 4}}},
		{"one interval", []Sample{{T: 0.004, ReadIOPS: 4}}, []Sample{{T: 0.004, ReadIOPS: 4}}},
		{"the stub holds more I/Os: its percentiles", // a stalled interval, then a burst
			[]Sample{{T: 1, ReadIOPS: 10, P99Ns: 5}, {T: 1.4, ReadIOPS: 1000, P99Ns: 9}},
			[]Sample{{T: 1.4, ReadIOPS: (10 + 400) / 1.4, P99Ns: 9}}},
		{"none", nil, nil},
	}
	for _, tt := range tests {
		got := FoldStub(tt.series)
		if len(got) != len(tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
			continue
		}
		for i := range got {
			if !sampleNear(got[i], tt.want[i]) {
				t.Errorf("%s: interval %d is %+v, want %+v", tt.name, i, got[i], tt.want[i])
			}
		}
	}
}

func sampleNear(a, b Sample) bool {
	near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(y)) }
	return near(a.T, b.T) && near(a.ReadIOPS, b.ReadIOPS) && near(a.WriteIOPS, b.WriteIOPS) && near(a.BW, b.BW) &&
		near(a.MeanLatNs, b.MeanLatNs) && a.P50Ns == b.P50Ns && a.P99Ns == b.P99Ns && a.P9999Ns == b.P9999Ns &&
		a.BytesWritten == b.BytesWritten
}

// TestReadingFoldsTheStub: a record written before the engines folded
// the drain reads with it folded.
func TestReadingFoldsTheStub(t *testing.T) {
	stored := `{"start":"2025-01-01T00:00:00Z","runtime_ns":2001000000,"cpu":{"user_sec":0,"sys_sec":0},"series":[
		{"t":1,"read_iops":1000,"write_iops":0,"bw_bytes":0,"mean_lat_ns":0,"bytes_written":0},
		{"t":2,"read_iops":1000,"write_iops":0,"bw_bytes":0,"mean_lat_ns":0,"bytes_written":0},
		{"t":2.001,"read_iops":300,"write_iops":0,"bw_bytes":0,"mean_lat_ns":0,"bytes_written":0}]}`
	var r Result
	if err := json.Unmarshal([]byte(stored), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Series) != 2 || r.Series[1].T != 2.001 || math.Abs(r.Series[1].ReadIOPS-1000.3/1.001) > 1e-9 {
		t.Errorf("series read as %+v, want two intervals, the last ending 2.001 s at %.3f IOPS", r.Series, 1000.3/1.001)
	}
}
