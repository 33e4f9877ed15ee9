package plot

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// PNGScale is how many pixels of a chart's PNG make one unit of its SVG:
// a 720-unit chart is a 1440-pixel image, sharp on a high-density screen
// and in a forum post or a CMS that takes no SVG.
const PNGScale = 2

// PNG draws the chart as a PNG image, PNGScale times the size of its SVG.
// It is drawn in Go, with no browser: the chart's own SVG is read back
// and each of the few shapes plot writes (rect, line, polyline, circle,
// text) is filled with golang.org/x/image's vector rasterizer, its text
// set in the Go fonts. So the PNG shows exactly what the SVG does, from
// one layout.
func (c *Chart) PNG() ([]byte, error) {
	img, err := rasterize(c.SVG(), PNGScale)
	if err != nil {
		return nil, fmt.Errorf("draw chart %q as PNG: %w", c.Title, err)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, fmt.Errorf("draw chart %q as PNG: %w", c.Title, err)
	}
	return b.Bytes(), nil
}

// raster is an SVG being drawn onto an image, scale pixels to the unit.
type raster struct {
	img      *image.RGBA
	scale    float64
	fontSize float64 // the document's, for text that sets none
}

// rasterize draws an SVG as plot writes it.
func rasterize(svg []byte, scale float64) (*image.RGBA, error) {
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var r *raster
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		a := attrs(el)
		if el.Name.Local == "svg" {
			w, h := a.num("width"), a.num("height")
			if w <= 0 || h <= 0 || w*scale > maxImageSide || h*scale > maxImageSide {
				return nil, fmt.Errorf("the SVG's size %gx%g is not one a chart has", w, h)
			}
			r = &raster{img: image.NewRGBA(image.Rect(0, 0, int(math.Ceil(w*scale)), int(math.Ceil(h*scale)))), scale: scale, fontSize: a.numOr("font-size", 12)}
			continue
		}
		if r == nil {
			return nil, fmt.Errorf("<%s> outside <svg>", el.Name.Local)
		}
		switch el.Name.Local {
		case "title":
			if err := dec.Skip(); err != nil {
				return nil, err
			}
		case "rect":
			r.rect(a)
		case "line":
			r.stroke([]pt{{a.num("x1"), a.num("y1")}, {a.num("x2"), a.num("y2")}}, a)
		case "polyline":
			r.polyline(a)
		case "circle":
			r.circle(a)
		case "text":
			var text struct {
				Text string `xml:",chardata"`
			}
			if err := dec.DecodeElement(&text, &el); err != nil {
				return nil, err
			}
			if err := r.text(a, text.Text); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("<%s> is not an element plot draws", el.Name.Local)
		}
	}
	if r == nil {
		return nil, fmt.Errorf("no <svg> element")
	}
	return r.img, nil
}

// attributes are an element's attributes by name.
type attributes map[string]string

func attrs(el xml.StartElement) attributes {
	a := attributes{}
	for _, at := range el.Attr {
		a[at.Name.Local] = at.Value
	}
	return a
}

func (a attributes) num(name string) float64 { return a.numOr(name, 0) }

// numOr is a number attribute, or when it is absent or not a finite
// number; numbers are held within ±maxCoordinate, far outside any chart.
func (a attributes) numOr(name string, or float64) float64 {
	v, err := strconv.ParseFloat(a[name], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return or
	}
	return math.Max(-maxCoordinate, math.Min(v, maxCoordinate))
}

// The largest image side and coordinate the rasterizer takes: plot's
// charts are 720 units wide and some hundreds high, 1440 pixels and more
// at PNGScale.
const (
	maxImageSide  = 1 << 12
	maxCoordinate = 1 << 20
)

// paint is the colour of a fill or stroke attribute with its opacity;
// ok is false for "none" or no colour.
func (a attributes) paint(name string) (color.NRGBA, bool) {
	text := a[name]
	if len(text) == 4 && text[0] == '#' { // #444 is #444444
		text = string([]byte{'#', text[1], text[1], text[2], text[2], text[3], text[3]})
	}
	if len(text) != 7 || text[0] != '#' {
		return color.NRGBA{}, false
	}
	v, err := strconv.ParseUint(text[1:], 16, 32)
	if err != nil {
		return color.NRGBA{}, false
	}
	alpha := math.Min(math.Max(a.numOr(name+"-opacity", 1), 0), 1)
	return color.NRGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), uint8(math.Round(alpha * 255))}, true
}

type pt struct{ x, y float64 }

// fill fills the closed paths, given in SVG units, with c; a path drawn
// the other way round cuts a hole in one it lies inside (a ring).
func (r *raster) fill(c color.NRGBA, paths ...[]pt) {
	box := image.Rectangle{}
	for _, path := range paths {
		for _, p := range path {
			x, y := int(math.Floor(p.x*r.scale)), int(math.Floor(p.y*r.scale))
			box = box.Union(image.Rect(x, y, x+2, y+2))
		}
	}
	// The rasterizer covers only the shape's box: a chart is some hundred
	// shapes, each small beside the image.
	box = box.Intersect(r.img.Bounds())
	if box.Empty() {
		return
	}
	z := vector.NewRasterizer(box.Dx(), box.Dy())
	ox, oy := float64(box.Min.X), float64(box.Min.Y)
	for _, path := range paths {
		if len(path) < 3 {
			continue
		}
		z.MoveTo(float32(path[0].x*r.scale-ox), float32(path[0].y*r.scale-oy))
		for _, p := range path[1:] {
			z.LineTo(float32(p.x*r.scale-ox), float32(p.y*r.scale-oy))
		}
		z.ClosePath()
	}
	z.Draw(r.img, box, image.NewUniform(c), image.Point{})
}

func (r *raster) rect(a attributes) {
	x, y, w, h := a.num("x"), a.num("y"), a.num("width"), a.num("height")
	if c, ok := a.paint("fill"); ok {
		r.fill(c, []pt{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}})
	}
	if _, ok := a.paint("stroke"); ok {
		r.stroke([]pt{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}, {x, y}}, a)
	}
}

// stroke draws the open path with the element's stroke: its colour,
// width and dashes, segments joined round.
func (r *raster) stroke(path []pt, a attributes) {
	c, ok := a.paint("stroke")
	if !ok {
		return
	}
	width := a.numOr("stroke-width", 1)
	var quads [][]pt
	for _, seg := range dashes(path, dashPattern(a["stroke-dasharray"])) {
		for i := 1; i < len(seg); i++ {
			if q := segmentQuad(seg[i-1], seg[i], width); q != nil {
				quads = append(quads, q)
			}
		}
	}
	r.fill(c, quads...)
	if a["stroke-linejoin"] == "round" && a["stroke-dasharray"] == "" {
		for _, p := range path[1 : len(path)-1] {
			r.fill(c, circlePath(p, width/2, true))
		}
	}
}

// segmentQuad is the rectangle a stroke of width w draws along p-q.
func segmentQuad(p, q pt, w float64) []pt {
	dx, dy := q.x-p.x, q.y-p.y
	n := math.Hypot(dx, dy)
	if n == 0 {
		return nil
	}
	ox, oy := -dy/n*w/2, dx/n*w/2
	return []pt{{p.x + ox, p.y + oy}, {q.x + ox, q.y + oy}, {q.x - ox, q.y - oy}, {p.x - ox, p.y - oy}}
}

// dashPattern reads stroke-dasharray ("6 4"); nil for a solid line.
func dashPattern(text string) []float64 {
	var out []float64
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' }) {
		if v, err := strconv.ParseFloat(f, 64); err == nil && v > 0 {
			out = append(out, v)
		}
	}
	if len(out)%2 == 1 {
		out = append(out, out...)
	}
	return out
}

// dashes cuts a path into the pieces a dash pattern draws, the pattern
// running on across corners; the whole path when there is no pattern.
func dashes(path []pt, pattern []float64) [][]pt {
	length, cycle := 0.0, 0.0
	for i := 1; i < len(path); i++ {
		length += math.Hypot(path[i].x-path[i-1].x, path[i].y-path[i-1].y)
	}
	for _, v := range pattern {
		cycle += v
	}
	// A pattern of more dashes than a chart could show is drawn solid.
	if len(pattern) == 0 || length/cycle > maxDashes {
		return [][]pt{path}
	}
	var out [][]pt
	idx, left, on := 0, pattern[0], true
	cur := []pt{path[0]}
	for i := 1; i < len(path); i++ {
		p, q := path[i-1], path[i]
		seg := math.Hypot(q.x-p.x, q.y-p.y)
		at := 0.0
		for seg-at > left {
			at += left
			t := at / seg
			m := pt{p.x + (q.x-p.x)*t, p.y + (q.y-p.y)*t}
			if on {
				out = append(out, append(cur, m))
			}
			cur = []pt{m}
			on = !on
			idx = (idx + 1) % len(pattern)
			left = pattern[idx]
		}
		left -= seg - at
		cur = append(cur, q)
	}
	if on && len(cur) > 1 {
		out = append(out, cur)
	}
	return out
}

func (r *raster) polyline(a attributes) {
	var path []pt
	fields := strings.Fields(a["points"])
	for _, f := range fields {
		x, y, ok := strings.Cut(f, ",")
		if !ok {
			continue
		}
		xy := attributes{"x": x, "y": y}
		if _, errX := strconv.ParseFloat(x, 64); errX == nil {
			if _, errY := strconv.ParseFloat(y, 64); errY == nil {
				path = append(path, pt{xy.num("x"), xy.num("y")})
			}
		}
	}
	switch len(path) {
	case 0:
	case 1:
		if c, ok := a.paint("stroke"); ok {
			r.fill(c, circlePath(path[0], a.numOr("stroke-width", 1)/2, true))
		}
	default:
		r.stroke(path, a)
	}
}

func (r *raster) circle(a attributes) {
	at, radius := pt{a.num("cx"), a.num("cy")}, a.num("r")
	if c, ok := a.paint("fill"); ok {
		r.fill(c, circlePath(at, radius, true))
	}
	if c, ok := a.paint("stroke"); ok {
		w := a.numOr("stroke-width", 1)
		r.fill(c, circlePath(at, radius+w/2, true), circlePath(at, math.Max(radius-w/2, 0), false))
	}
}

// circlePath is a circle as a polygon fine enough at any scale plot
// draws, clockwise or the other way.
func circlePath(c pt, radius float64, clockwise bool) []pt {
	const n = 48
	out := make([]pt, n)
	for i := range n {
		a := 2 * math.Pi * float64(i) / n
		if !clockwise {
			a = -a
		}
		out[i] = pt{c.x + radius*math.Cos(a), c.y + radius*math.Sin(a)}
	}
	return out
}

// The Go fonts stand in for the SVG's system sans-serif: they ship with
// golang.org/x/image, so a chart draws the same on every machine.
var (
	fontsOnce     sync.Once
	regular, bold *opentype.Font
	errFonts      error
	facesMu       sync.Mutex
	faces         = map[faceKey]font.Face{}
)

// maxDashes is the most dash cycles a dashed line is cut into.
const maxDashes = 10000

// maxFontSize is the largest font size, in SVG units, text is set in.
const maxFontSize = 200

// maxTextWidth is the widest text, in SVG units, a chart sets; longer
// text is not set rather than drawn over the whole image.
const maxTextWidth = 2000

type faceKey struct {
	size float64
	bold bool
}

// face is the Go font of the size (in pixels) and weight.
func face(size float64, heavy bool) (font.Face, error) {
	fontsOnce.Do(func() {
		if regular, errFonts = opentype.Parse(goregular.TTF); errFonts == nil {
			bold, errFonts = opentype.Parse(gobold.TTF)
		}
	})
	if errFonts != nil {
		return nil, errFonts
	}
	facesMu.Lock()
	defer facesMu.Unlock()
	key := faceKey{size, heavy}
	if f, ok := faces[key]; ok {
		return f, nil
	}
	src := regular
	if heavy {
		src = bold
	}
	f, err := opentype.NewFace(src, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil, err
	}
	faces[key] = f
	return f, nil
}

// text sets a text element: its anchor (start, middle, end), size,
// weight and colour, turned by a quarter when it is rotate(±90 x y)
// about its own position, as axis titles are.
func (r *raster) text(a attributes, text string) error {
	c, ok := a.paint("fill")
	if !ok || strings.TrimSpace(text) == "" {
		return nil
	}
	heavy := a.numOr("font-weight", 400) >= 600
	size := a.numOr("font-size", r.fontSize)
	if size <= 0 || size > maxFontSize {
		return nil
	}
	f, err := face(size*r.scale, heavy)
	if err != nil {
		return err
	}
	m := f.Metrics()
	width := font.MeasureString(f, text).Ceil()
	ascent, descent := m.Ascent.Ceil(), m.Descent.Ceil()
	if width <= 0 || float64(width) > maxTextWidth*r.scale {
		return nil
	}
	// The text is set on a strip of its own, its baseline at ascent, then
	// laid on the chart: shifted by its anchor, and turned when rotated.
	strip := image.NewRGBA(image.Rect(0, 0, width, ascent+descent))
	d := font.Drawer{Dst: strip, Src: image.NewUniform(c), Face: f, Dot: fixed.P(0, ascent)}
	d.DrawString(text)
	shift := 0
	switch a["text-anchor"] {
	case "middle":
		shift = width / 2
	case "end":
		shift = width
	}
	x, y := int(math.Round(a.num("x")*r.scale)), int(math.Round(a.num("y")*r.scale))
	switch rotation(a["transform"]) {
	case -90:
		turned := turn(strip, false)
		draw.Draw(r.img, turned.Bounds().Add(image.Pt(x-ascent, y-width+shift)), turned, image.Point{}, draw.Over)
	case 90:
		turned := turn(strip, true)
		draw.Draw(r.img, turned.Bounds().Add(image.Pt(x-descent, y-shift)), turned, image.Point{}, draw.Over)
	default:
		draw.Draw(r.img, strip.Bounds().Add(image.Pt(x-shift, y-ascent)), strip, image.Point{}, draw.Over)
	}
	return nil
}

// rotation is the angle of a transform="rotate(a x y)", 0 for none.
func rotation(transform string) int {
	inner, ok := strings.CutPrefix(transform, "rotate(")
	if !ok {
		return 0
	}
	fields := strings.Fields(strings.TrimSuffix(inner, ")"))
	if len(fields) == 0 {
		return 0
	}
	a, err := strconv.Atoi(fields[0])
	if err != nil {
		return 0
	}
	return a
}

// turn turns an image by a quarter, clockwise or the other way.
func turn(src *image.RGBA, clockwise bool) *image.RGBA {
	b := src.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dy(), b.Dx()))
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			if clockwise {
				out.Set(b.Dy()-1-y, x, src.At(x, y))
			} else {
				out.Set(y, b.Dx()-1-x, src.At(x, y))
			}
		}
	}
	return out
}
