package reports

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
)

func tickLabels(a *axis) []string {
	var out []string
	for _, t := range a.ticks {
		out = append(out, t.label)
	}
	return out
}

func TestAxisTicks(t *testing.T) {
	tests := []struct {
		name   string
		axis   *axis
		lo, hi float64
		labels string
	}{
		{"IOPS from zero", linearAxis("IOPS", []float64{47_218, 590_441}, true, format.ShortCount), 0, 600_000, "0 200K 400K 600K"},
		{"minutes that end on a tick", linearAxis("t", []float64{0.2, 120}, true, format.Trim), 0, 120, "0 20 40 60 80 100 120"},
		{"not from zero", linearAxis("v", []float64{198_200, 412_000}, false, format.ShortCount), 150_000, 450_000, "150K 200K 250K 300K 350K 400K 450K"},
		{"one value", linearAxis("v", []float64{7, 7}, false, format.Trim), 6.2, 7.8, "6.2 6.4 6.6 6.8 7 7.2 7.4 7.6 7.8"},
		{"zero alone", linearAxis("v", []float64{0}, true, format.Trim), 0, 1, "0 0.5 1"},
		{"no values", linearAxis("v", nil, true, format.Trim), 0, 1, "0 0.5 1"},
		{"latency within a decade", logAxis("lat", []float64{84_600, 241_700}, format.ShortLatency), 50_000, 500_000, "50 µs 100 µs 200 µs 500 µs"},
		{"latency over decades", logAxis("lat", []float64{9_000, 41_000_000}, format.ShortLatency), 5_000, 50_000_000, "10 µs 100 µs 1 ms 10 ms"},
		{"log ignores zero", logAxis("lat", []float64{0, -1, 150}, format.ShortLatency), 100, 200, "100 ns 200 ns"},
		{"queue depths", valuesAxis("iodepth", []float64{16, 1, 4, 4}, format.Trim), 1, 16, "1 4 16"},
		{"percentiles", ninesAxis("p", []float64{50, 99.99}), 50, 99.99, "50 90 99 99.9 99.99"},
		{"rounds", roundAxis([]float64{1, 9}), 0.5, 9.5, "1 2 3 4 5 6 7 8 9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if math.Abs(tt.axis.lo-tt.lo) > 1e-9 || math.Abs(tt.axis.hi-tt.hi) > 1e-9 {
				t.Errorf("range = [%v, %v], want [%v, %v]", tt.axis.lo, tt.axis.hi, tt.lo, tt.hi)
			}
			if got := strings.Join(tickLabels(tt.axis), " "); got != tt.labels {
				t.Errorf("ticks = %q, want %q", got, tt.labels)
			}
		})
	}
}

func TestAxisScales(t *testing.T) {
	if a := valuesAxis("iodepth", []float64{1, 4, 16}, format.Trim); a.scale != logarithmic {
		t.Error("queue depths 1 to 16 are not drawn on a log scale")
	}
	if a := valuesAxis("rwmix", []float64{30, 50, 70}, format.Trim); a.scale != linear {
		t.Error("mixes 30 to 70 are not drawn on a linear scale")
	}
	n := ninesAxis("p", []float64{90, 99.99})
	if got := n.pos(99); math.Abs(got-1.0/3) > 1e-9 {
		t.Errorf("99 sits at %v of a 90..99.99 nines axis, want 1/3", got)
	}
	l := logAxis("lat", []float64{10, 1000}, format.Trim)
	if l.accepts(0) || !l.accepts(1) || (&axis{scale: nines}).accepts(100) {
		t.Error("a log axis accepts zero, or a nines axis accepts 100")
	}
}

func TestFormatsForCharts(t *testing.T) {
	tests := []struct{ got, want string }{
		{format.ShortCount(1_250_000), "1.25M"},
		{format.ShortCount(0), "0"},
		{format.ShortLatency(1500), "1.5 µs"},
		{format.ShortBandwidth(13.4e9), "13.4 GB/s"},
		{format.ShortBytes(2e12), "2 TB"},
		{format.Significant(1_973_400, format.CountUnits), "1.97M"},
		{format.Significant(13_293.7e6, format.BandwidthUnits), "13.3 GB/s"},
		{format.Significant(999.6, format.CountUnits), "1000"},
		{num(12.349), "12.3"},
		{num(-0.04), "0"},
		{num(math.NaN()), "0"},
		{slug("4K Random/Read"), "4k-random-read"},
		{slug("??"), "x"},
		{heatColor(0), "#eef4fb"},
		{heatColor(1), "#08306b"},
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

// TestSVGEscapesAndIsStable draws a chart whose names need escaping twice:
// the bytes must match and no raw markup may leak from the names.
func TestSVGEscapesAndIsStable(t *testing.T) {
	c := &chart{
		title: `<b>"4k" & 'read'</b>`,
		x:     linearAxis("IOPS", []float64{0, 100}, true, format.ShortCount),
		y:     logAxis("lat", []float64{100, 1000}, format.ShortLatency),
		lines: []line{{name: "a<b", color: colorAt(0), points: []point{{10, 100}, {50, 0}, {90, 1000}}}},
		marks: []mark{{at: point{90, 1000}, label: "peak & more", color: colorAt(0)}},
	}
	first, second := c.svg(), c.svg()
	if !bytes.Equal(first, second) {
		t.Error("the same chart gave different bytes")
	}
	text := string(first)
	for _, raw := range []string{"<b>", "a<b", "& more"} {
		if strings.Contains(text, raw) {
			t.Errorf("the SVG holds %q unescaped", raw)
		}
	}
	if strings.Count(text, "<polyline") != 1 || !strings.Contains(text, `points="`) {
		t.Error("the line is missing")
	}
	if strings.Contains(text, ",0 ") && strings.Contains(text, "50,") {
		t.Error("the point with zero latency was drawn on a log axis")
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
