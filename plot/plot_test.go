package plot

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/format"
)

func tickLabels(a *Axis) []string {
	var out []string
	for _, t := range a.ticks {
		out = append(out, t.label)
	}
	return out
}

func TestAxisTicks(t *testing.T) {
	tests := []struct {
		name   string
		axis   *Axis
		lo, hi float64
		labels string
	}{
		{"IOPS from zero", LinearAxis("IOPS", []float64{47_218, 590_441}, true, format.ShortCount), 0, 600_000, "0 200K 400K 600K"},
		{"minutes that end on a tick", LinearAxis("t", []float64{0.2, 120}, true, format.Trim), 0, 120, "0 20 40 60 80 100 120"},
		{"not from zero", LinearAxis("v", []float64{198_200, 412_000}, false, format.ShortCount), 150_000, 450_000, "150K 200K 250K 300K 350K 400K 450K"},
		{"one value", LinearAxis("v", []float64{7, 7}, false, format.Trim), 6.2, 7.8, "6.2 6.4 6.6 6.8 7 7.2 7.4 7.6 7.8"},
		{"zero alone", LinearAxis("v", []float64{0}, true, format.Trim), 0, 1, "0 0.5 1"},
		{"no values", LinearAxis("v", nil, true, format.Trim), 0, 1, "0 0.5 1"},
		{"latency within a decade", LogAxis("lat", []float64{84_600, 241_700}, format.ShortLatency), 50_000, 500_000, "50 µs 100 µs 200 µs 500 µs"},
		{"latency over decades", LogAxis("lat", []float64{9_000, 41_000_000}, format.ShortLatency), 5_000, 50_000_000, "10 µs 100 µs 1 ms 10 ms"},
		{"log ignores zero", LogAxis("lat", []float64{0, -1, 150}, format.ShortLatency), 100, 200, "100 ns 200 ns"},
		{"queue depths", ValuesAxis("iodepth", []float64{16, 1, 4, 4}, format.Trim), 1, 16, "1 4 16"},
		{"percentiles", NinesAxis("p", []float64{50, 99.99}), 50, 99.99, "50 90 99 99.9 99.99"},
		{"rounds", WholeAxis("Round", []float64{1, 9}, format.Trim), 0.5, 9.5, "1 2 3 4 5 6 7 8 9"},
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
	if a := ValuesAxis("iodepth", []float64{1, 4, 16}, format.Trim); a.scale != logarithmic {
		t.Error("queue depths 1 to 16 are not drawn on a log scale")
	}
	if a := ValuesAxis("rwmix", []float64{30, 50, 70}, format.Trim); a.scale != linear {
		t.Error("mixes 30 to 70 are not drawn on a linear scale")
	}
	n := NinesAxis("p", []float64{90, 99.99})
	if got := n.pos(99); math.Abs(got-1.0/3) > 1e-9 {
		t.Errorf("99 sits at %v of a 90..99.99 nines axis, want 1/3", got)
	}
	l := LogAxis("lat", []float64{10, 1000}, format.Trim)
	if l.accepts(0) || !l.accepts(1) || (&Axis{scale: nines}).accepts(100) {
		t.Error("a log axis accepts zero, or a nines axis accepts 100")
	}
}

// TestSVGEscapesAndIsStable draws a chart whose names need escaping twice:
// the bytes must match and no raw markup may leak from the names.
func TestSVGEscapesAndIsStable(t *testing.T) {
	c := &Chart{
		Title: `<b>"4k" & 'read'</b>`,
		X:     LinearAxis("IOPS", []float64{0, 100}, true, format.ShortCount),
		Y:     LogAxis("lat", []float64{100, 1000}, format.ShortLatency),
		Lines: []Line{{Name: "a<b", Color: SeriesColor(0), Points: []Point{{10, 100}, {50, 0}, {90, 1000}}}},
		Marks: []Mark{{At: Point{90, 1000}, Label: "peak & more", Color: SeriesColor(0)}},
	}
	first, second := c.SVG(), c.SVG()
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

func TestCoordinatesAndColors(t *testing.T) {
	tests := []struct{ got, want string }{
		{num(12.349), "12.3"},
		{num(-0.04), "0"},
		{num(math.NaN()), "0"},
		{heatColor(0), "#eef4fb"},
		{heatColor(1), "#08306b"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// TestMarkKey: a chart's marks are keyed in its legend when it names
// them, and only when it has any.
func TestMarkKey(t *testing.T) {
	c := &Chart{
		Title:   "spread",
		X:       WholeAxis("rank", []float64{1, 3}, format.Trim),
		Y:       LinearAxis("v", []float64{1, 9}, true, format.Trim),
		Lines:   []Line{{Name: "model", Color: SeriesColor(0), Points: []Point{{1, 1}, {2, 2}, {3, 9}}}},
		Marks:   []Mark{{At: Point{3, 9}, Label: "outlier S3", Color: SeriesColor(0)}},
		MarkKey: "outlier: more than 3 MADs",
	}
	svg := string(c.SVG())
	if !strings.Contains(svg, ">outlier: more than 3 MADs</text>") || !strings.Contains(svg, `r="6" fill="none" stroke="#444444"`) {
		t.Errorf("the marks are not keyed in the legend:\n%s", svg)
	}
	c.Marks = nil
	if strings.Contains(string(c.SVG()), "more than 3 MADs") {
		t.Error("a chart without marks keys them")
	}
}

// TestLongTitleWraps: a title wider than the chart is set on two lines
// and the plot moves down by one, where it ran past the chart's edge.
func TestLongTitleWraps(t *testing.T) {
	short := "4k-random-read: IOPS by iodepth"
	long := "64k-random-read on cm9 (KIOXIA KCM9XRJE15T3, S/N X4E0A01ZT1A8, FW 0102): bandwidth by iodepth and numjobs"
	if got := titleLines(short); len(got) != 1 || got[0] != short {
		t.Errorf("titleLines(%q) = %q", short, got)
	}
	got := titleLines(long)
	if len(got) != 2 || strings.Join(got, " ") != long {
		t.Fatalf("titleLines(long) = %q, want two lines of it", got)
	}
	for _, line := range got {
		if textWidth(line)*1.3 > chartWidth-32 {
			t.Errorf("line %q is wider than the chart", line)
		}
	}
	c := &Chart{Title: long, X: LinearAxis("x", []float64{0, 1}, true, format.Trim), Y: LinearAxis("y", []float64{0, 1}, true, format.Trim)}
	if p := newCanvas(c); p.top != plotTop+titleLine {
		t.Errorf("the plot starts at %v, want one title line lower, %v", p.top, plotTop+titleLine)
	}
}
