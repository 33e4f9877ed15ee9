// Package plot draws line charts and heat maps as self-contained SVG. It
// knows axes (linear, logarithmic, percentile nines, whole numbers),
// series, marks, shaded bands and colour keys, and nothing of drives or
// runs: reports decides what to draw, plot how. Output is byte-stable
// (coordinates rounded to one decimal, no maps iterated), so a chart
// regenerated from the same data is the same file and golden tests can
// hold it. Colours are Okabe and Ito's, apart for colour-blind readers.
package plot
