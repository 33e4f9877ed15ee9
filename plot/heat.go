package plot

import (
	"cmp"
	"fmt"
	"math"

	"github.com/drivebench/drivebench/format"
)

// The colour ramp of heat maps, from the smallest value to the largest.
var (
	heatLow  = [3]float64{0xee, 0xf4, 0xfb}
	heatHigh = [3]float64{0x08, 0x30, 0x6b}
)

// peakColor outlines the peak cell of a heat map.
const peakColor = "#D55E00"

// heatColor is the ramp's colour at t in [0, 1].
func heatColor(t float64) string {
	t = math.Min(math.Max(t, 0), 1)
	var rgb [3]int
	for i := range rgb {
		rgb[i] = int(math.Round(heatLow[i] + (heatHigh[i]-heatLow[i])*t))
	}
	return fmt.Sprintf("#%02x%02x%02x", rgb[0], rgb[1], rgb[2])
}

// heatRange is the smallest and largest measured value of the grid.
func (h *HeatMap) heatRange() (lo, hi float64, ok bool) {
	var all []float64
	for _, row := range h.Cells {
		all = append(all, row...)
	}
	return finiteRange(all)
}

// shade is where v falls between lo and hi, 1 when they are equal.
func shade(v, lo, hi float64) float64 {
	if hi <= lo {
		return 1
	}
	return (v - lo) / (hi - lo)
}

func (p *canvas) heatMap(h *HeatMap) {
	b := &p.b
	lo, hi, _ := h.heatRange()
	cw := (p.right - p.left) / float64(max(len(h.Cols), 1))
	ch := (p.bottom - p.top) / float64(max(len(h.Rows), 1))
	for r := range h.Rows {
		for c := range h.Cols {
			x, y := p.left+float64(c)*cw, p.bottom-float64(r+1)*ch
			v := h.Cells[r][c]
			fill, text, ink := "#f4f4f4", format.Dash, "#888"
			if !math.IsNaN(v) {
				t := shade(v, lo, hi)
				fill, text, ink = heatColor(t), h.Cell(v), "#1a1a1a"
				if t > 0.55 {
					ink = "#ffffff"
				}
			}
			fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="#ffffff"/>`+"\n", num(x), num(y), num(cw), num(ch), fill)
			if cw >= 34 && ch >= 14 {
				fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle" font-size="11" fill="%s">%s</text>`+"\n",
					num(x+cw/2), num(y+ch/2+4), ink, xmlText.Replace(text))
			}
		}
	}
	if h.PeakRow >= 0 && h.PeakCol >= 0 {
		x, y := p.left+float64(h.PeakCol)*cw, p.bottom-float64(h.PeakRow+1)*ch
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="%s" stroke-width="3"/>`+"\n",
			num(x+1.5), num(y+1.5), num(cw-3), num(ch-3), peakColor)
	}
	p.heatLabels(h, cw, ch)
}

// heatLabels writes the categories along both axes and the axis titles.
func (p *canvas) heatLabels(h *HeatMap, cw, ch float64) {
	b := &p.b
	for c, name := range h.Cols {
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle" fill="#444">%s</text>`+"\n",
			num(p.left+(float64(c)+0.5)*cw), num(p.bottom+19), xmlText.Replace(name))
	}
	for r, name := range h.Rows {
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="end" fill="#444">%s</text>`+"\n",
			num(p.left-8), num(p.bottom-(float64(r)+0.5)*ch+4), xmlText.Replace(name))
	}
	fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle" fill="#1a1a1a">%s</text>`+"\n",
		num((p.left+p.right)/2), num(p.bottom+40), xmlText.Replace(h.XTitle))
	p.verticalTitle(h.YTitle, 18, -90)
}

// heatKey is the legend of a heat map: five swatches from the smallest
// value to the largest, and the peak's outline.
func heatKey(h *HeatMap) []legendItem {
	lo, hi, ok := h.heatRange()
	if !ok {
		return nil
	}
	items := []legendItem{}
	const steps = 5
	for i := range steps {
		t := float64(i) / (steps - 1)
		if hi == lo && i > 0 {
			break
		}
		items = append(items, legendItem{label: h.Cell(lo + (hi-lo)*t), color: heatColor(t), swatch: true})
	}
	items[0].label = h.Metric + " " + items[0].label
	if h.PeakRow >= 0 {
		items = append(items, legendItem{label: cmp.Or(h.PeakName, "peak"), color: peakColor, outline: true})
	}
	return items
}
