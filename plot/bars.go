package plot

import (
	"fmt"
	"math"

	"github.com/drivebench/drivebench/format"
)

// Bars is a grouped horizontal bar chart: one group per category, top to
// bottom, one bar per series in each, such as CrystalDiskMark's read and
// write of each test.
type Bars struct {
	Categories []string
	Series     []BarSeries
	// Metric titles the value axis; Value writes a bar's value.
	Metric string
	Value  func(float64) string
}

// BarSeries is one bar of every group; Values holds one value per
// category, NaN where none was measured.
type BarSeries struct {
	Name   string
	Color  string
	Values []float64
}

// Layout of a bar chart: the label column and the height of one bar.
const (
	barLabels = 120
	barHeight = 18
	barGap    = 12
)

// barsHeight is the height of the plot area a bar chart needs.
func barsHeight(b *Bars) float64 {
	group := float64(len(b.Series))*barHeight + barGap
	return float64(len(b.Categories))*group + barGap
}

// bars draws the groups, each bar with its value at its end, from a zero
// line on the left.
func (p *canvas) bars(b *Bars) {
	left := float64(barLabels)
	right := p.right - 70 // room for the value past the longest bar
	hi := 0.0
	for _, s := range b.Series {
		for _, v := range s.Values {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				hi = math.Max(hi, v)
			}
		}
	}
	group := float64(len(b.Series))*barHeight + barGap
	for c, name := range b.Categories {
		top := p.top + barGap + float64(c)*group
		fmt.Fprintf(&p.b, `<text x="%s" y="%s" text-anchor="end" fill="#1a1a1a">%s</text>`+"\n",
			num(left-8), num(top+float64(len(b.Series))*barHeight/2+4), xmlText.Replace(name))
		for i, s := range b.Series {
			y := top + float64(i)*barHeight
			v := math.NaN()
			if c < len(s.Values) {
				v = s.Values[c]
			}
			text, w := format.Dash, 0.0
			if !math.IsNaN(v) && !math.IsInf(v, 0) && hi > 0 {
				text, w = b.Value(v), math.Max(v, 0)/hi*(right-left)
			}
			fmt.Fprintf(&p.b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`+"\n", num(left), num(y+1), num(w), num(barHeight-2), s.Color)
			fmt.Fprintf(&p.b, `<text x="%s" y="%s" fill="#1a1a1a">%s</text>`+"\n", num(left+w+6), num(y+barHeight-5), xmlText.Replace(text))
		}
	}
	bottom := p.top + barsHeight(b)
	fmt.Fprintf(&p.b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#444"/>`+"\n", num(left), num(p.top), num(left), num(bottom))
	fmt.Fprintf(&p.b, `<text x="%s" y="%s" text-anchor="middle" fill="#1a1a1a">%s</text>`+"\n",
		num((left+right)/2), num(bottom+20), xmlText.Replace(b.Metric))
}

// barsKey is the legend of a bar chart: a swatch per series.
func barsKey(b *Bars) []legendItem {
	items := make([]legendItem, len(b.Series))
	for i, s := range b.Series {
		items[i] = legendItem{label: s.Name, color: s.Color, swatch: true}
	}
	return items
}
