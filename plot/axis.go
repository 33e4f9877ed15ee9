package plot

import (
	"math"
	"slices"
	"strconv"
)

// scale is how an axis maps values to positions.
type scale int

const (
	// linear spaces values evenly.
	linear scale = iota
	// logarithmic spaces powers of ten evenly: latencies, queue depths.
	logarithmic
	// nines spaces percentiles by their nines: 90, 99, 99.9 and 99.99 are
	// evenly apart, as latency percentile plots draw them.
	nines
)

// Axis is a value Axis of a chart: its scale, the range it shows and its
// labelled ticks.
type Axis struct {
	title  string
	scale  scale
	lo, hi float64
	ticks  []tick
}

// tick is a labelled value on an axis.
type tick struct {
	v     float64
	label string
}

// pos maps v to [0, 1] along the axis; values outside the range map
// outside it.
func (a *Axis) pos(v float64) float64 {
	lo, hi, t := a.lo, a.hi, v
	switch a.scale {
	case logarithmic:
		lo, hi, t = math.Log10(lo), math.Log10(hi), math.Log10(v)
	case nines:
		lo, hi, t = ninesOf(lo), ninesOf(hi), ninesOf(v)
	}
	if hi == lo {
		return 0.5
	}
	return (t - lo) / (hi - lo)
}

// accepts reports whether v can be drawn on the axis: a logarithmic axis
// has no place for zero or negative values.
func (a *Axis) accepts(v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return false
	}
	switch a.scale {
	case logarithmic:
		return v >= minLogValue && v <= maxLogValue
	case nines:
		return v >= 0 && v < 100
	}
	return true
}

// ninesOf is the number of nines of percentile p: 90 -> 1, 99 -> 2.
func ninesOf(p float64) float64 { return -math.Log10(1 - p/100) }

// LinearAxis covers values with about five evenly spaced round ticks; from
// zero when fromZero is set, as counts and rates are drawn.
func LinearAxis(title string, values []float64, fromZero bool, label func(float64) string) *Axis {
	lo, hi, ok := finiteRange(values)
	switch {
	case !ok:
		lo, hi = 0, 1
	case fromZero:
		lo, hi = min(lo, 0), max(hi, 0)
	}
	switch {
	case lo == hi && fromZero:
		hi = 1
	case lo == hi:
		pad := math.Abs(lo) / 10
		if pad == 0 {
			pad = 1
		}
		lo, hi = lo-pad, hi+pad
	}
	step := bestStep(lo, hi)
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	a := &Axis{title: title, scale: linear, lo: lo, hi: hi}
	for i := 0; ; i++ {
		v := lo + float64(i)*step
		if v > hi+step/2 {
			break
		}
		v = math.Round(v/step) * step
		a.ticks = append(a.ticks, tick{v, label(v)})
	}
	return a
}

// bestStep picks the tick step for a linear axis over [lo, hi]: of the
// round steps giving four to eight intervals, the one whose rounded-out
// range wastes least, the larger on a tie.
func bestStep(lo, hi float64) float64 {
	best, bestSpan := 0.0, math.Inf(1)
	for n := 4; n <= 8; n++ {
		step := niceStep((hi - lo) / float64(n))
		span := math.Ceil(hi/step)*step - math.Floor(lo/step)*step
		if span < bestSpan*(1-1e-9) || span <= bestSpan*(1+1e-9) && step > best {
			best, bestSpan = step, span
		}
	}
	return best
}

// niceStep rounds a raw tick step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 || math.IsNaN(raw) || math.IsInf(raw, 0) {
		return 1
	}
	pow := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5} {
		if raw <= m*pow*(1+1e-9) {
			return m * pow
		}
	}
	return 10 * pow
}

// The range of values a logarithmic axis draws; latencies in nanoseconds
// and rates fall well inside it.
const (
	minLogValue = 1e-6
	maxLogValue = 1e18
)

// LogAxis covers the positive values on a logarithmic scale, from the 1-2-5
// step below the smallest to the one above the largest; ticks are at every
// 1-2-5 step, or at powers of ten alone when those would crowd.
func LogAxis(title string, values []float64, label func(float64) string) *Axis {
	var positive []float64
	for _, v := range values {
		if v >= minLogValue && v <= maxLogValue {
			positive = append(positive, v)
		}
	}
	lo, hi, ok := finiteRange(positive)
	if !ok {
		lo, hi = 1, 10
	}
	lo, hi = stepBelow(lo), stepAbove(hi)
	if lo == hi {
		lo, hi = stepBelow(lo*0.99), stepAbove(hi*1.01)
	}
	a := &Axis{title: title, scale: logarithmic, lo: lo, hi: hi}
	steps := oneTwoFive(lo, hi)
	if len(steps) > 7 {
		steps = slices.DeleteFunc(steps, func(v float64) bool { return mantissa(v) != 1 })
	}
	for _, v := range steps {
		a.ticks = append(a.ticks, tick{v, label(v)})
	}
	return a
}

// ValuesAxis puts a tick at each distinct value: the points of a sweep.
// The scale is logarithmic when the values are positive and span a factor
// of eight or more (queue depths 1, 4, 16, 64), linear otherwise.
func ValuesAxis(title string, values []float64, label func(float64) string) *Axis {
	distinct := slices.Compact(slices.Sorted(slices.Values(values)))
	lo, hi, ok := finiteRange(distinct)
	if !ok {
		return LinearAxis(title, nil, false, label)
	}
	a := &Axis{title: title, scale: linear, lo: lo, hi: hi}
	if lo > 0 && hi/lo >= 8 {
		a.scale = logarithmic
	}
	if lo == hi {
		a.lo, a.hi = lo-1, hi+1
		if lo > 0 {
			a.lo, a.hi = lo/2, hi*2
		}
	}
	for _, v := range distinct {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			a.ticks = append(a.ticks, tick{v, label(v)})
		}
	}
	return a
}

// NinesAxis covers percentiles from the smallest given to the largest,
// with ticks at 0, 50, 90, 99, 99.9 and so on.
func NinesAxis(title string, ps []float64) *Axis {
	lo, hi, ok := finiteRange(ps)
	if !ok || hi <= lo {
		lo, hi = 50, 99.99
	}
	lo, hi = max(lo, 0), min(hi, 99.9999)
	a := &Axis{title: title, scale: nines, lo: lo, hi: hi}
	for _, p := range []float64{0, 50, 90, 99, 99.9, 99.99, 99.999, 99.9999} {
		if p >= lo-1e-9 && p <= hi+1e-9 {
			a.ticks = append(a.ticks, tick{p, strconv.FormatFloat(p, 'f', -1, 64)})
		}
	}
	return a
}

// finiteRange is the smallest and largest finite value; ok is false when
// there is none.
func finiteRange(values []float64) (lo, hi float64, ok bool) {
	for _, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		if !ok {
			lo, hi, ok = v, v, true
			continue
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi, ok
}

// stepBelow is the largest 1-2-5 step (1, 2, 5 times a power of ten) not
// above v; stepAbove the smallest not below it.
func stepBelow(v float64) float64 {
	pow := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{5, 2, 1} {
		if m*pow <= v*(1+1e-9) {
			return m * pow
		}
	}
	return pow / 2
}

func stepAbove(v float64) float64 {
	pow := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*pow >= v*(1-1e-9) {
			return m * pow
		}
	}
	return 10 * pow
}

// oneTwoFive lists the 1-2-5 steps from lo to hi inclusive.
func oneTwoFive(lo, hi float64) []float64 {
	var out []float64
	for k := math.Floor(math.Log10(lo)); k <= math.Ceil(math.Log10(hi)); k++ {
		for _, m := range []float64{1, 2, 5} {
			v := roundSignificant(m * math.Pow(10, k))
			if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
				out = append(out, v)
			}
		}
	}
	return out
}

// mantissa is v's leading digit times a power of ten removed: 200 -> 2.
func mantissa(v float64) float64 {
	return roundSignificant(v / math.Pow(10, math.Floor(math.Log10(v)+1e-9)))
}

// roundSignificant rounds away the error repeated multiplication leaves
// (0.30000000000000004 -> 0.3), keeping twelve format.Significant digits.
func roundSignificant(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	return f
}

// WholeAxis covers whole numbers (rounds, passes) with half a step to
// spare on each side, ticked at whole numbers (every few when there are
// many).
func WholeAxis(title string, rounds []float64, label func(float64) string) *Axis {
	lo, hi, ok := finiteRange(rounds)
	if !ok {
		lo, hi = 1, 1
	}
	first, last := math.Ceil(lo), math.Floor(hi)
	a := &Axis{title: title, scale: linear, lo: math.Min(lo, first-0.5), hi: math.Max(hi, last+0.5)}
	step := math.Max(1, niceStep((last-first)/12))
	for r := math.Ceil(first/step) * step; r <= last; r += step {
		a.ticks = append(a.ticks, tick{r, label(r)})
	}
	return a
}
