package plot

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"github.com/drivebench/drivebench/format"
)

// pngChart is a chart with every shape plot draws: a line, a dashed one
// on a second axis, a mark, a band, and rotated axis titles.
func pngChart() *Chart {
	return &Chart{
		Title: "4k-random-read: IOPS and latency",
		X:     ValuesAxis("iodepth", []float64{1, 4, 16, 64}, format.Trim),
		Y:     LinearAxis("IOPS", []float64{0, 400_000}, true, format.ShortCount),
		Y2:    LogAxis("p99 latency", []float64{100_000, 2_000_000}, format.ShortLatency),
		Lines: []Line{
			{Name: "nvme0 IOPS", Color: SeriesColor(0), Markers: true, Points: []Point{{1, 40_000}, {4, 150_000}, {16, 380_000}, {64, 400_000}}},
			{Name: "nvme0 p99", Color: SeriesColor(1), Dashed: true, OnY2: true, Points: []Point{{1, 100_000}, {4, 150_000}, {16, 700_000}, {64, 2_000_000}}},
		},
		Marks: []Mark{{At: Point{64, 400_000}, Label: "peak 400K", Color: SeriesColor(0)}},
		Band:  &Band{From: 8, To: 32, Label: "window"},
	}
}

// TestPNG checks the PNG of a chart by its properties, not its bytes: its
// size is PNGScale times the SVG's, the plot area holds the lines' colours,
// text is set in the title's and the axes' places, and the legend shows
// both series' colours.
func TestPNG(t *testing.T) {
	c := pngChart()
	data, err := c.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	p := newCanvas(c)
	if b := img.Bounds(); b.Dx() != chartWidth*PNGScale || b.Dy() != int(p.height*PNGScale) {
		t.Fatalf("PNG is %dx%d, want %dx%d", b.Dx(), b.Dy(), chartWidth*PNGScale, int(p.height*PNGScale))
	}
	area := func(x0, y0, x1, y1 float64) image.Rectangle {
		return image.Rect(int(x0*PNGScale), int(y0*PNGScale), int(x1*PNGScale), int(y1*PNGScale))
	}
	plotArea := area(p.left+2, p.top+2, p.right-2, p.bottom-2)
	for _, want := range []string{SeriesColor(0), SeriesColor(1)} {
		if n := countColor(img, plotArea, want); n < 200 {
			t.Errorf("the plot area has %d pixels of %s, a line's colour", n, want)
		}
	}
	legend := area(0, p.bottom+50, chartWidth, p.height)
	for _, want := range []string{SeriesColor(0), SeriesColor(1)} {
		if n := countColor(img, legend, want); n < 20 {
			t.Errorf("the legend has %d pixels of %s", n, want)
		}
	}
	for _, tt := range []struct {
		name string
		at   image.Rectangle
	}{
		{"the title", area(16, 10, 300, 30)},
		{"the x ticks", area(p.left, p.bottom+6, p.right, p.bottom+24)},
		{"the y ticks", area(0, p.top, p.left-4, p.bottom)},
		{"the y title, turned", area(8, p.top, 24, p.bottom)},
		{"the y2 title, turned", area(chartWidth-24, p.top, chartWidth-4, p.bottom)},
		{"the legend's labels", legend},
	} {
		if n := countDark(img, tt.at); n < 30 {
			t.Errorf("%s: %d dark pixels, no text drawn", tt.name, n)
		}
	}
	if again, _ := c.PNG(); !bytes.Equal(again, data) {
		t.Error("the same chart gave two different PNGs")
	}
}

// TestPNGOfEveryKind draws a heat map and a bar chart too.
func TestPNGOfEveryKind(t *testing.T) {
	heat := &Chart{Title: "heat", Heat: &HeatMap{XTitle: "iodepth", YTitle: "numjobs", Cols: []string{"1", "2"}, Rows: []string{"1", "2"},
		Cells: [][]float64{{1, 2}, {3, 4}}, PeakRow: 1, PeakCol: 1, Metric: "IOPS", Cell: format.ShortCount}}
	bars := &Chart{Title: "bars", Bars: &Bars{Categories: []string{"SEQ1M Q8T1", "RND4K Q1T1"}, Metric: "MB/s", Value: format.Trim,
		Series: []BarSeries{{Name: "read", Color: SeriesColor(0), Values: []float64{7000, 80}}, {Name: "write", Color: SeriesColor(1), Values: []float64{5000, 200}}}}}
	for _, c := range []*Chart{heat, bars} {
		data, err := c.PNG()
		if err != nil {
			t.Fatalf("%s: %v", c.Title, err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if n := countDark(img, img.Bounds()); n < 500 {
			t.Errorf("%s: %d dark pixels", c.Title, n)
		}
	}
	if n := countColor(mustPNG(t, heat), mustPNG(t, heat).Bounds(), "#08306b"); n < 1000 {
		t.Errorf("the heat map's largest cell is not filled: %d pixels", n)
	}
}

func mustPNG(t *testing.T, c *Chart) image.Image {
	data, err := c.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// countColor counts the pixels within r of the colour #rrggbb, give or
// take a little for edges.
func countColor(img image.Image, r image.Rectangle, hex string) int {
	var want [3]int
	for i := range want {
		v := 0
		for _, ch := range hex[1+2*i : 3+2*i] {
			v = v*16 + hexDigit(ch)
		}
		want[i] = v
	}
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if near(int(cr>>8), want[0]) && near(int(cg>>8), want[1]) && near(int(cb>>8), want[2]) {
				n++
			}
		}
	}
	return n
}

func hexDigit(ch rune) int {
	switch {
	case ch >= '0' && ch <= '9':
		return int(ch - '0')
	case ch >= 'a' && ch <= 'f':
		return int(ch-'a') + 10
	}
	return int(ch-'A') + 10
}

func near(a, b int) bool { return a-b < 12 && b-a < 12 }

// countDark counts the pixels within r dark enough to be text.
func countDark(img image.Image, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if (cr>>8)+(cg>>8)+(cb>>8) < 3*110 {
				n++
			}
		}
	}
	return n
}

// FuzzRasterize: any document, plot's or not, is drawn or refused with
// an error, never a panic, and within the size limits.
func FuzzRasterize(f *testing.F) {
	f.Add(pngChart().SVG())
	f.Add([]byte(`<svg width="20" height="10" font-size="12"><rect width="5" height="5" fill="#fff"/><text x="1" y="8" transform="rotate(90 1 8)">a</text></svg>`))
	f.Add([]byte(`<svg width="20" height="10"><polyline points="1,1 NaN,2 1e300,3" stroke="#000" stroke-dasharray="0.001 0.001"/></svg>`))
	f.Fuzz(func(t *testing.T, svg []byte) {
		img, err := rasterize(svg, PNGScale)
		if err == nil && (img.Bounds().Dx() > maxImageSide || img.Bounds().Dy() > maxImageSide) {
			t.Errorf("drew a %v image", img.Bounds())
		}
	})
}
