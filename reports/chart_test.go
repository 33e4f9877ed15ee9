package reports

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
)

func TestReportNames(t *testing.T) {
	tests := []struct{ got, want string }{
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
	readings := []metrics.ThermalSample{{T: -2, TempC: 40}, {T: 5, TempC: 52}, {T: 11, TempC: 61}}
	long := make([]SeriesSample, minSeries)
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
		{"short series", ProfileResult{Rows: []Row{row(10)}, Series: long[:minSeries-1]}, shapeSingle, nil},
		{"long series and temperatures", ProfileResult{Rows: []Row{row(10)}, Series: long, Thermal: readings},
			shapeSingle, []string{chartSeriesTime, chartThermal, chartSeriesWritten}},
		{"temperatures alone", ProfileResult{Rows: []Row{row(10)}, Thermal: readings}, shapeSingle, []string{chartThermal}},
		{"too few temperatures", ProfileResult{Rows: []Row{row(10)}, Thermal: readings[:minThermal-1]}, shapeSingle, nil},
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
			files, err := ChartFiles(s)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				if strings.HasSuffix(f.Name, ".svg") != bytes.HasPrefix(f.Data, []byte("<svg ")) {
					t.Errorf("%s is not an SVG document", f.Name)
				}
				if strings.HasSuffix(f.Name, ".png") != bytes.HasPrefix(f.Data, []byte("\x89PNG")) {
					t.Errorf("%s is not a PNG image", f.Name)
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

func TestThermalReadingsMerge(t *testing.T) {
	var samples []metrics.ThermalSample
	for i := range 1000 {
		samples = append(samples, metrics.ThermalSample{T: float64(5 * i), TempC: 40 + i%7, Throttle1: uint32(i / 100), Throttle1Sec: uint32(i)})
	}
	got := thermalReadings(samples)
	if len(got) != 200 {
		t.Fatalf("1000 readings merged into %d, want 200", len(got))
	}
	if r := got[1]; r.T != 45 || r.TempC != 46 || r.Throttle1Sec != 9 {
		t.Errorf("second merged reading = %+v; want the hottest temperature, the time and counters of the last", r)
	}
	if len(thermalReadings(samples[:maxThermal])) != maxThermal || thermalReadings(nil) != nil {
		t.Error("a list of maxThermal readings was merged, or none gave some")
	}
}

func TestThrottleLabel(t *testing.T) {
	base := metrics.ThermalSample{Throttle1: 3, Throttle2: 1, Throttle1Sec: 400}
	// The transitions into light and heavy throttling since base.
	for moved, want := range map[[2]uint32]string{
		{0, 0}: "", {1, 0}: "light throttling", {2, 0}: "light x2 throttling", {0, 1}: "heavy throttling", {1, 3}: "light and heavy x3 throttling",
	} {
		r := base
		r.Throttle1, r.Throttle2, r.Throttle1Sec = base.Throttle1+moved[0], base.Throttle2+moved[1], 900
		if got := throttleLabel(base, r); got != want {
			t.Errorf("%d light and %d heavy transitions: %q, want %q", moved[0], moved[1], got, want)
		}
	}
	// A counter that went back (another drive, a reset) is no throttling.
	if got := throttleLabel(metrics.ThermalSample{Throttle1: 5}, metrics.ThermalSample{Throttle1: 2}); got != "" {
		t.Errorf("a counter that fell reads %q", got)
	}
}

// TestThermalChart: the temperature is drawn on the time axis of the
// IOPS above it, with its right margin, within the series' span; each
// transition into throttling is circled and each kind named once.
func TestThermalChart(t *testing.T) {
	series := make([]SeriesSample, 120)
	for i := range series {
		series[i] = SeriesSample{T: float64(10 * (i + 1)), IOPS: 1000}
	}
	readings := []metrics.ThermalSample{{T: -5, TempC: 40, Throttle1: 7, Throttle2: 1}}
	for i := range 241 {
		r := metrics.ThermalSample{T: float64(5 * i), TempC: 50 + i/10}
		r.Throttle1 = uint32(i/100) + 7 // into light throttling at 500 s and 1000 s
		r.Throttle2 = uint32(i/200) + 1 // into heavy throttling at 1000 s
		readings = append(readings, r)
	}
	readings = append(readings, metrics.ThermalSample{T: 1200.4, TempC: 90, Throttle1: 9, Throttle2: 2})
	e := entry{label: "nvme0", table: &ProfileResult{Series: series, Thermal: readings}}
	c := thermalChart("p", []entry{e}, []entry{e})
	if above := seriesChart("p", []entry{e}, false); !reflect.DeepEqual(c.X, above.X) || !c.Y2Room {
		t.Errorf("the temperature's time axis %+v is not that of the IOPS above it, %+v (room for Y2: %v)", c.X, above.X, c.Y2Room)
	}
	if n := len(c.Lines[0].Points); n != 241 {
		t.Errorf("%d readings drawn, want the 241 within the series' span", n)
	}
	var marks []string
	for _, m := range c.Marks {
		marks = append(marks, format.Trim(m.At.X)+" min: "+m.Label)
	}
	if want := []string{"8.333 min: light throttling", "16.667 min: light and heavy throttling"}; !slices.Equal(marks, want) {
		t.Errorf("marks = %q, want %q", marks, want)
	}
	alone := thermalChart("p", []entry{e}, nil)
	if n := len(alone.Lines[0].Points); n != 242 || alone.Y2Room {
		t.Errorf("on its own the chart draws %d readings (want the 242 from the measured phase's start) and room for Y2 %v", n, alone.Y2Room)
	}
	if svg := string(c.SVG()); !strings.Contains(svg, ">light throttling</text>") {
		t.Errorf("the chart does not name the throttling:\n%s", svg)
	}
}

// TestThermalText: a step's thermal summary in words, THROTTLED when a
// counter grew, and a table's notes list a throttled row even among
// several.
func TestThermalText(t *testing.T) {
	tests := []struct {
		name    string
		samples []metrics.ThermalSample
		want    string
	}{
		{"none", nil, ""},
		{"steady", []metrics.ThermalSample{{TempC: 50}, {TempC: 50}}, "drive temperature 50 °C over 2 readings; no thermal throttling"},
		{"throttled", []metrics.ThermalSample{
			{TempC: 60, Throttle1: 4, Throttle1Sec: 100, WarningMin: 7},
			{TempC: 78},
			{TempC: 83, Throttle1: 6, Throttle1Sec: 130, Throttle2: 1, Throttle2Sec: 5, WarningMin: 9},
		}, "drive temperature 60 to 83 °C over 3 readings; THROTTLED: light thermal throttling 2 times (30 s), heavy thermal throttling once (5 s), 2 min above the warning temperature"},
	}
	for _, tt := range tests {
		if got := thermalText(metrics.SummarizeThermal(tt.samples)); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
