package reports

import (
	"math"
	"strconv"
	"strings"
)

// chart is a figure drawn from the Summary: lines on value axes, or a heat
// map of a two-parameter sweep. It is data until svg lays it out.
type chart struct {
	title string
	// x and y are the value axes; y2, when set, is a second y axis on the
	// right for the lines marked onY2.
	x, y, y2 *axis
	lines    []line
	// marks are labelled points, such as a peak.
	marks []mark
	// band shades a range of x, such as a steady-state window.
	band *band
	// heat, when set, replaces the value axes and lines.
	heat *heatMap
}

// line is one series of points, drawn in the order given.
type line struct {
	name    string
	color   string
	points  []point
	onY2    bool
	dashed  bool
	markers bool
}

type point struct{ x, y float64 }

type mark struct {
	at    point
	label string
	color string
	onY2  bool
}

type band struct {
	from, to float64
	label    string
}

// heatMap is a grid of values over two swept parameters, columns along x
// and rows along y, the first row at the bottom.
type heatMap struct {
	xTitle, yTitle string
	cols, rows     []string
	// cells holds a value per [row][col]; NaN where no point was measured.
	cells [][]float64
	// peakRow and peakCol locate the marked cell, -1 when none is.
	peakRow, peakCol int
	// metric names the value for the colour key; cell writes a value.
	metric string
	cell   func(float64) string
}

// palette holds line colours that stay apart for colour-blind readers
// (Okabe and Ito), darkest first.
var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"}

// colorAt is the palette colour of the i-th drive of a chart.
func colorAt(i int) string { return palette[i%len(palette)] }

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
