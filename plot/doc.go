// Package plot draws line charts and heat maps as self-contained SVG. It
// knows axes (linear, logarithmic, percentile nines, whole numbers),
// series, marks, shaded bands and colour keys, and nothing of drives or
// runs: reports decides what to draw, plot how. Output is byte-stable
// (coordinates rounded to one decimal, no maps iterated), so a chart
// regenerated from the same data is the same file and golden tests can
// hold it. Colours are Okabe and Ito's, apart for colour-blind readers.
//
// A chart is also drawn as a PNG, for pages that take no SVG, from its
// own SVG: the few shapes plot writes are filled with golang.org/x/image's
// rasterizer and its text set in the Go fonts, so the PNG needs no
// browser and shows what the SVG shows. PNGs are tested by what they
// show (size, colours where lines and text are), not their bytes, which
// depend on floating-point rounding that may differ between machines.
package plot
