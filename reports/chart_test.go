package reports

import (
	"bytes"
	"slices"
	"testing"

	"github.com/drivebench/drivebench/metrics"
)

func TestReportNames(t *testing.T) {
	tests := []struct{ got, want string }{
		{slug("4K Random/Read"), "4k-random-read"},
		{slug("??"), "x"},
		{ordinal(2), "2nd"},
		{ordinal(13), "13th"},
		{ordinal(21), "21st"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestChartFileNamesAreUnique(t *testing.T) {
	used := map[string]bool{}
	a := chartFile(used, "4k read", chartHeatmap, "nvme0")
	b := chartFile(used, "4k-read", chartHeatmap, "nvme0")
	if a != "charts/4k-read-heatmap-nvme0.svg" || b != "charts/4k-read-heatmap-nvme0-2.svg" {
		t.Errorf("chart files = %q, %q", a, b)
	}
}

// plannedKinds lists the chart kinds planned for the only section of s.
func plannedKinds(s *Summary) []string {
	var kinds []string
	for _, pc := range planCharts(s) {
		kinds = append(kinds, pc.ref.Kind)
	}
	return kinds
}

func TestChartsFollowTheData(t *testing.T) {
	pcts := []LatencyCurve{{Direction: "read", Percentiles: []PercentileValue{{50, 90_000}, {99, 200_000}}}}
	param := func(name string, v any) Param { return Param{Name: name, Value: v} }
	row := func(iops float64, params ...Param) Row {
		return Row{Status: "ok", Total: fig(iops, 100_000, 0), Params: params}
	}
	rate := 50.0
	long := make([]SeriesSample, minSeries+1)
	for i := range long {
		long[i] = SeriesSample{T: float64(i + 1), IOPS: 1000, BytesWritten: uint64(i+1) * 4096000}
	}
	tests := []struct {
		name  string
		table ProfileResult
		shape string
		kinds []string
	}{
		{"single run", ProfileResult{Rows: []Row{row(10)}}, shapeSingle, nil},
		{"sweep", ProfileResult{Rows: []Row{row(10, param("iodepth", 1.0)), row(20, param("iodepth", 4.0))}, Latency: pcts},
			shapeSweep, []string{chartSweepIOPS, chartSweepLatency, chartPercentiles}},
		{"sweep over words", ProfileResult{Rows: []Row{row(10, param("rw", "read")), row(20, param("rw", "write"))}}, shapeSweep, nil},
		{"matrix", ProfileResult{Rows: []Row{
			row(10, param("iodepth", 1.0), param("numjobs", 1.0)), row(20, param("iodepth", 4.0), param("numjobs", 1.0)),
			row(30, param("iodepth", 1.0), param("numjobs", 2.0)),
		}}, shapeMatrix, []string{chartHeatmap}},
		{"three parameters", ProfileResult{Rows: []Row{
			row(10, param("a", 1.0), param("b", 1.0), param("c", 1.0)), row(20, param("a", 2.0), param("b", 2.0), param("c", 2.0)),
		}}, shapeMulti, nil},
		{"rate curve", ProfileResult{Rows: []Row{row(100, param("rate", "max")), {Status: "ok", Total: fig(50, 1, 0), RatePct: &rate}}},
			shapeRateCurve, []string{chartRateCurve}},
		{"long series", ProfileResult{Rows: []Row{row(10)}, Series: long}, shapeSingle, []string{chartSeriesTime, chartSeriesWritten}},
		{"short series", ProfileResult{Rows: []Row{row(10)}, Series: long[:minSeries]}, shapeSingle, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			latency, series := tt.table.Latency, tt.table.Series
			tt.table.Profile, tt.table.Drive = "p", "d"
			finishTable(&tt.table, nil, headlineIOPS)
			tt.table.Latency, tt.table.Series = latency, series
			s := &Summary{Results: []ProfileResult{tt.table}}
			s.arrange()
			if got := s.Sections[0].Shape; got != tt.shape {
				t.Errorf("shape = %s, want %s", got, tt.shape)
			}
			if got := plannedKinds(s); !slices.Equal(got, tt.kinds) {
				t.Errorf("charts = %v, want %v", got, tt.kinds)
			}
			for _, f := range ChartFiles(s) {
				if !bytes.HasPrefix(f.Data, []byte("<svg ")) {
					t.Errorf("%s is not an SVG document", f.Name)
				}
			}
		})
	}
}

func TestSeriesSamplesMerge(t *testing.T) {
	var series []metrics.Sample
	for i := range 1000 {
		series = append(series, metrics.Sample{T: float64(i + 1), WriteIOPS: float64(i), P99Ns: uint64(i), BytesWritten: uint64(i+1) * 10})
	}
	got := seriesSamples(series)
	if len(got) != 500 {
		t.Fatalf("1000 samples merged into %d, want 500", len(got))
	}
	if s := got[0]; s.IOPS != 0.5 || s.P99Ns != 1 || s.T != 2 || s.BytesWritten != 20 {
		t.Errorf("first merged sample = %+v; want IOPS averaged, worst p99, time and bytes of the last", s)
	}
	if len(seriesSamples(series[:maxSeries])) != maxSeries {
		t.Error("a series of maxSeries samples was merged")
	}
}
