package plot

import (
	"fmt"
	"strings"
)

// SVG lays a chart out as a standalone SVG document. The output depends on
// the chart alone and every number is written by num, so the same chart
// gives the same bytes. The document uses presentation attributes, no ids
// and no style sheet, so several can be inlined in one HTML page.
func (c *Chart) SVG() []byte {
	p := newCanvas(c)
	p.open(c.Title)
	switch {
	case c.Heat != nil:
		p.heatMap(c.Heat)
	case c.Bars != nil:
		p.bars(c.Bars)
	default:
		p.valueAxes(c)
		p.band(c.Band)
		for _, l := range c.Lines {
			p.line(l)
		}
		for _, m := range c.Marks {
			p.mark(m)
		}
	}
	p.legend()
	p.b.WriteString("</svg>\n")
	return []byte(p.b.String())
}

// canvas is a chart being drawn: the plot area and the document so far.
type canvas struct {
	b                        strings.Builder
	left, right, top, bottom float64
	x, y, y2                 *Axis
	legendItems              []legendItem
	height                   float64
	// title is the chart's title in lines that fit its width.
	title []string
}

type legendItem struct {
	label  string
	color  string
	dashed bool
	// outline draws a hollow square, as the peak of a heat map is marked.
	outline bool
	// swatch draws a filled square, as heat map colours are keyed.
	swatch bool
	// ring draws a circle, as marks are drawn.
	ring bool
}

func newCanvas(c *Chart) *canvas {
	p := &canvas{left: plotLeft, right: chartWidth - plotRightPad, top: plotTop, bottom: plotTop + plotHeight, title: titleLines(c.Title)}
	if c.Bars != nil {
		p.bottom = plotTop + barsHeight(c.Bars) + 16
	}
	// A title of several lines moves the plot down by the lines it adds.
	extra := float64(len(p.title)-1) * titleLine
	p.top, p.bottom = p.top+extra, p.bottom+extra
	if c.Y2 != nil || c.Y2Room {
		p.right = chartWidth - y2Pad
	}
	p.x, p.y, p.y2 = c.X, c.Y, c.Y2
	p.legendItems = legendOf(c)
	rows := p.legendRows()
	p.height = p.bottom + 52 + float64(len(rows))*legendRow
	return p
}

// legendOf lists the chart's legend: every named line, or the colour key
// of a heat map.
func legendOf(c *Chart) []legendItem {
	if c.Heat != nil {
		return heatKey(c.Heat)
	}
	if c.Bars != nil {
		return barsKey(c.Bars)
	}
	var items []legendItem
	for _, l := range c.Lines {
		if l.Name != "" {
			items = append(items, legendItem{label: l.Name, color: l.Color, dashed: l.Dashed})
		}
	}
	if c.MarkKey != "" && len(c.Marks) > 0 {
		items = append(items, legendItem{label: c.MarkKey, color: "#444444", ring: true})
	}
	return items
}

// legendRows flows the legend items into rows as wide as the chart.
func (p *canvas) legendRows() [][]legendItem {
	var rows [][]legendItem
	width := 0.0
	for _, it := range p.legendItems {
		w := itemWidth(it)
		if len(rows) == 0 || width+w > chartWidth-2*16 {
			rows = append(rows, nil)
			width = 0
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], it)
		width += w
	}
	return rows
}

func itemWidth(it legendItem) float64 { return 24 + textWidth(it.label) + 18 }

func (p *canvas) open(title string) {
	h := num(p.height)
	fmt.Fprintf(&p.b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %s" width="%d" height="%s" role="img" aria-label="%s" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif" font-size="12">`+"\n",
		chartWidth, h, chartWidth, h, xmlText.Replace(title))
	fmt.Fprintf(&p.b, "<title>%s</title>\n", xmlText.Replace(title))
	fmt.Fprintf(&p.b, `<rect width="%d" height="%s" fill="#ffffff"/>`+"\n", chartWidth, h)
	for i, line := range p.title {
		fmt.Fprintf(&p.b, `<text x="16" y="%s" font-size="15" font-weight="600" fill="#1a1a1a">%s</text>`+"\n", num(26+float64(i)*titleLine), xmlText.Replace(line))
	}
}

// titleLine is the height of a line of a chart's title.
const titleLine = 19

// titleLines breaks a title into lines that fit the chart's width, at
// spaces, so a long one ("64k-random-read on cm9 (KIOXIA KCM9XRJE15T3,
// S/N X4E0A01ZT1A8, FW 0102): bandwidth by iodepth and numjobs") is not
// cut at the chart's edge; one line when it fits or has no space.
func titleLines(title string) []string {
	// The title's 15 px semibold characters are about 1.3 times as wide
	// as the 12 px ones textWidth measures.
	fits := func(s string) bool { return textWidth(s)*1.3 <= chartWidth-32 }
	var lines []string
	line := ""
	for _, word := range strings.Split(title, " ") {
		switch {
		case line == "":
			line = word
		case fits(line + " " + word):
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}

// px and py map data values to canvas coordinates.
func (p *canvas) px(v float64) float64 { return p.left + p.x.pos(v)*(p.right-p.left) }

func (p *canvas) py(a *Axis, v float64) float64 {
	return p.bottom - a.pos(v)*(p.bottom-p.top)
}

func (p *canvas) valueAxes(c *Chart) {
	b := &p.b
	for _, t := range c.Y.ticks {
		y := num(p.py(c.Y, t.v))
		fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#e6e6e6"/>`+"\n", num(p.left), y, num(p.right), y)
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="end" fill="#444">%s</text>`+"\n", num(p.left-8), num(p.py(c.Y, t.v)+4), xmlText.Replace(t.label))
	}
	for _, t := range c.X.ticks {
		x := num(p.px(t.v))
		fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#f0f0f0"/>`+"\n", x, num(p.top), x, num(p.bottom))
		fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#333"/>`+"\n", x, num(p.bottom), x, num(p.bottom+5))
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle" fill="#444">%s</text>`+"\n", x, num(p.bottom+19), xmlText.Replace(t.label))
	}
	if c.Y2 != nil {
		for _, t := range c.Y2.ticks {
			fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="start" fill="#444">%s</text>`+"\n", num(p.right+8), num(p.py(c.Y2, t.v)+4), xmlText.Replace(t.label))
		}
		p.verticalTitle(c.Y2.title, chartWidth-14, 90)
	}
	fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="#333"/>`+"\n",
		num(p.left), num(p.top), num(p.right-p.left), num(p.bottom-p.top))
	p.verticalTitle(c.Y.title, 18, -90)
	fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle" fill="#1a1a1a">%s</text>`+"\n", num((p.left+p.right)/2), num(p.bottom+40), xmlText.Replace(c.X.title))
}

// verticalTitle writes an axis title along the plot's height at x.
func (p *canvas) verticalTitle(title string, x float64, angle int) {
	y := num((p.top + p.bottom) / 2)
	fmt.Fprintf(&p.b, `<text x="%s" y="%s" transform="rotate(%d %s %s)" text-anchor="middle" fill="#1a1a1a">%s</text>`+"\n",
		num(x), y, angle, num(x), y, xmlText.Replace(title))
}

func (p *canvas) band(bd *Band) {
	if bd == nil {
		return
	}
	x1, x2 := p.px(bd.From), p.px(bd.To)
	fmt.Fprintf(&p.b, `<rect x="%s" y="%s" width="%s" height="%s" fill="#0072B2" fill-opacity="0.08"/>`+"\n",
		num(x1), num(p.top), num(x2-x1), num(p.bottom-p.top))
	fmt.Fprintf(&p.b, `<text x="%s" y="%s" text-anchor="middle" font-size="11" fill="#0072B2">%s</text>`+"\n",
		num((x1+x2)/2), num(p.top+14), xmlText.Replace(bd.Label))
}

// yAxisOf is the axis a line or mark is drawn against.
func (p *canvas) yAxisOf(onY2 bool) *Axis {
	if onY2 && p.y2 != nil {
		return p.y2
	}
	return p.y
}

func (p *canvas) line(l Line) {
	ya := p.yAxisOf(l.OnY2)
	var coords []string
	var dots []string
	for _, pt := range l.Points {
		if !p.x.accepts(pt.X) || !ya.accepts(pt.Y) {
			continue
		}
		x, y := num(p.px(pt.X)), num(p.py(ya, pt.Y))
		coords = append(coords, x+","+y)
		dots = append(dots, fmt.Sprintf(`<circle cx="%s" cy="%s" r="3" fill="%s"/>`, x, y, l.Color))
	}
	if len(coords) == 0 {
		return
	}
	dash := ""
	if l.Dashed {
		dash = ` stroke-dasharray="6 4"`
	}
	fmt.Fprintf(&p.b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round"%s/>`+"\n",
		strings.Join(coords, " "), l.Color, dash)
	if l.Markers || len(coords) == 1 {
		p.b.WriteString(strings.Join(dots, "\n") + "\n")
	}
}

func (p *canvas) mark(m Mark) {
	ya := p.yAxisOf(m.OnY2)
	if !p.x.accepts(m.At.X) || !ya.accepts(m.At.Y) {
		return
	}
	x, y := p.px(m.At.X), p.py(ya, m.At.Y)
	fmt.Fprintf(&p.b, `<circle cx="%s" cy="%s" r="6" fill="none" stroke="%s" stroke-width="2"/>`+"\n", num(x), num(y), m.Color)
	if m.Label == "" {
		return
	}
	anchor, dx := "start", 9.0
	if x+dx+textWidth(m.Label) > p.right {
		anchor, dx = "end", -9
	}
	ty := y - 9
	if ty < p.top+12 {
		ty = y + 18
	}
	fmt.Fprintf(&p.b, `<text x="%s" y="%s" text-anchor="%s" font-size="11" font-weight="600" fill="%s">%s</text>`+"\n",
		num(x+dx), num(ty), anchor, m.Color, xmlText.Replace(m.Label))
}

func (p *canvas) legend() {
	y := p.bottom + 64
	for _, row := range p.legendRows() {
		x := 16.0
		for _, it := range row {
			p.legendItem(it, x, y)
			x += itemWidth(it)
		}
		y += legendRow
	}
}

func (p *canvas) legendItem(it legendItem, x, y float64) {
	b := &p.b
	switch {
	case it.swatch:
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="16" height="12" fill="%s"/>`+"\n", num(x), num(y-10), it.color)
	case it.ring:
		fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="6" fill="none" stroke="%s" stroke-width="2"/>`+"\n", num(x+9), num(y-4), it.color)
	case it.outline:
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="16" height="12" fill="none" stroke="%s" stroke-width="2"/>`+"\n", num(x), num(y-10), it.color)
	default:
		dash := ""
		if it.dashed {
			dash = ` stroke-dasharray="6 4"`
		}
		fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"%s/>`+"\n",
			num(x), num(y-4), num(x+18), num(y-4), it.color, dash)
	}
	fmt.Fprintf(b, `<text x="%s" y="%s" fill="#1a1a1a">%s</text>`+"\n", num(x+24), num(y), xmlText.Replace(it.label))
}
