package plot

import (
	"math"
	"strconv"
	"strings"
)

// Chart is a figure drawn from the Summary: lines on value axes, or a heat
// map of a two-parameter sweep. It is data until svg lays it out.
type Chart struct {
	Title string
	// X and Y are the value axes; Y2, when set, is a second Y axis on the
	// right for the lines marked onY2.
	X, Y, Y2 *Axis
	Lines    []Line
	// Marks are labelled points, such as a peak. MarkKey, when set, names
	// them in the legend beside a ring, where their own labels say which
	// point each is but not what the rings mean ("outlier, > 3 MADs").
	Marks   []Mark
	MarkKey string
	// Band shades a range of x, such as a steady-state window.
	Band *Band
	// Y2Room leaves the room of a second Y axis on the right of a chart
	// that has none, so that its plot area lines up with one's that has.
	Y2Room bool
	// Heat, when set, replaces the value axes and lines; so does Bars.
	Heat *HeatMap
	Bars *Bars
}

// Line is one series of points, drawn in the order given.
type Line struct {
	Name    string
	Color   string
	Points  []Point
	OnY2    bool
	Dashed  bool
	Markers bool
}

type Point struct{ X, Y float64 }

// Mark circles a point; Label, when not empty, names it beside.
type Mark struct {
	At    Point
	Label string
	Color string
	OnY2  bool
}

type Band struct {
	From, To float64
	Label    string
}

// HeatMap is a grid of values over two swept parameters, columns along x
// and rows along y, the first row at the bottom.
type HeatMap struct {
	XTitle, YTitle string
	Cols, Rows     []string
	// Cells holds a value per [row][col]; NaN where no point was measured.
	Cells [][]float64
	// PeakRow and PeakCol locate the marked cell, -1 when none is;
	// PeakName names it in the key, "peak" when empty.
	PeakRow, PeakCol int
	PeakName         string
	// Metric names the value for the colour key; cell writes a value.
	Metric string
	Cell   func(float64) string
}

// palette holds line colours that stay apart for colour-blind readers
// (Okabe and Ito), darkest first.
var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"}

// SeriesColor is the palette colour of the i-th drive of a chart.
func SeriesColor(i int) string { return palette[i%len(palette)] }

// Layout of every chart, in SVG user units.
const (
	chartWidth   = 720
	plotTop      = 44
	plotHeight   = 260
	plotLeft     = 76
	plotRightPad = 24
	y2Pad        = 76
	legendRow    = 20
	charWidth    = 6.6 // average width of a 12px sans-serif character
)

// num writes a coordinate with at most one decimal, the same bytes on
// every machine.
func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	text := strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
	if text == "-0" {
		return "0"
	}
	return text
}

// xmlText escapes text for SVG and HTML.
var xmlText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

// textWidth estimates the drawn width of text for layout.
func textWidth(text string) float64 {
	return float64(len([]rune(text))) * charWidth
}
