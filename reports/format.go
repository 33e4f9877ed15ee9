package reports

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// dash stands in a report for a figure that is unknown.
const dash = "—"

// formatGrouped writes v with the given number of decimals and commas
// between groups of three digits: 8668.14 -> "8,668.1". Halves round away
// from zero, as people round.
func formatGrouped(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return dash
	}
	scale := math.Pow10(decimals)
	text := strconv.FormatFloat(math.Round(math.Abs(v)*scale)/scale, 'f', decimals, 64)
	whole, frac, hasFrac := strings.Cut(text, ".")
	var b strings.Builder
	if v < 0 && strings.Trim(text, "0.") != "" {
		b.WriteByte('-')
	}
	for i, digit := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(digit)
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	return b.String()
}

// formatCount writes a rate or a count as a whole number: "41,230".
func formatCount(v float64) string { return formatGrouped(v, 0) }

// formatPlain writes v with at most two decimals and no trailing zeros:
// 2.5 -> "2.5", 1e6 -> "1,000,000".
func formatPlain(v float64) string {
	text := formatGrouped(v, 2)
	if strings.Contains(text, ".") {
		text = strings.TrimRight(strings.TrimRight(text, "0"), ".")
	}
	return text
}

// formatMBps writes a bandwidth in bytes per second as decimal megabytes
// per second without the unit, as reviews quote it: "8,668.1".
func formatMBps(bytesPerSec float64) string { return formatGrouped(bytesPerSec/1e6, 1) }

// formatBandwidth is formatMBps with its unit: "8,668.1 MB/s".
func formatBandwidth(bytesPerSec float64) string { return formatMBps(bytesPerSec) + " MB/s" }

// formatLatency writes a latency in the unit its magnitude calls for:
// "850 ns", "388.2 µs", "1.42 ms", "2.31 s". The unit is chosen after
// rounding, so 999.96 µs is "1.00 ms", never "1000.0 µs".
func formatLatency(ns float64) string {
	switch {
	case math.IsNaN(ns) || math.IsInf(ns, 0) || ns < 0:
		return dash
	case ns < 999.5:
		return formatGrouped(ns, 0) + " ns"
	case ns < 999_950:
		return formatGrouped(ns/1e3, 1) + " µs"
	case ns < 999_995_000:
		return formatGrouped(ns/1e6, 2) + " ms"
	}
	return formatGrouped(ns/1e9, 2) + " s"
}

// formatBlockSize writes a block size in the largest binary unit that
// divides it, without a space, as spec sheets do: "4KiB", "1MiB", "520B".
func formatBlockSize(n int64) string {
	units := []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}}
	for _, u := range units {
		if n != 0 && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}

// formatBytes writes a capacity or an amount written in decimal units, as
// drive makers state capacity: "1.92 TB", "512 B".
func formatBytes(n uint64) string {
	if n < 1000 {
		return strconv.FormatUint(n, 10) + " B"
	}
	units := []string{"kB", "MB", "GB", "TB", "PB", "EB"}
	v := float64(n) / 1000
	i := 0
	for v >= 999.995 && i < len(units)-1 {
		v /= 1000
		i++
	}
	return fmt.Sprintf("%.2f %s", v, units[i])
}

// formatDuration writes a duration at the precision people read it with:
// "42.3 s", "13 min 54 s", "2 h 05 min"; a dash when zero or negative.
func formatDuration(ns int64) string {
	d := time.Duration(ns)
	switch {
	case d <= 0:
		return dash
	case d < 59950*time.Millisecond:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d < time.Hour-500*time.Millisecond:
		d = d.Round(time.Second)
		return fmt.Sprintf("%d min %02d s", d/time.Minute, d%time.Minute/time.Second)
	}
	d = d.Round(time.Minute)
	return fmt.Sprintf("%d h %02d min", d/time.Hour, d%time.Hour/time.Minute)
}

// trimNumber writes v rounded to three decimals, without trailing zeros:
// the numbers of chart ticks and cells.
func trimNumber(v float64) string {
	text := strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
	if text == "-0" {
		return "0"
	}
	return text
}

// scaled writes v divided by the largest of the units it reaches, with
// that unit's suffix; units are ordered largest first and the last has a
// factor of 1.
func scaled(v float64, units []unit) string {
	if v == 0 {
		return "0"
	}
	for _, u := range units {
		if math.Abs(v) >= u.factor || u.factor == 1 {
			return trimNumber(v/u.factor) + u.suffix
		}
	}
	return trimNumber(v)
}

// unit is a factor and the suffix that names it.
type unit struct {
	factor float64
	suffix string
}

var (
	countUnits     = []unit{{1e9, "G"}, {1e6, "M"}, {1e3, "K"}, {1, ""}}
	latencyUnits   = []unit{{1e9, " s"}, {1e6, " ms"}, {1e3, " µs"}, {1, " ns"}}
	bandwidthUnits = []unit{{1e9, " GB/s"}, {1e6, " MB/s"}, {1e3, " kB/s"}, {1, " B/s"}}
	byteUnits      = []unit{{1e15, " PB"}, {1e12, " TB"}, {1e9, " GB"}, {1e6, " MB"}, {1e3, " kB"}, {1, " B"}}
)

// Short forms for chart ticks and heat map cells: "250K" IOPS, "200 µs",
// "13.4 GB/s", "1.5 TB".
func shortCount(v float64) string     { return scaled(v, countUnits) }
func shortLatency(ns float64) string  { return scaled(ns, latencyUnits) }
func shortBandwidth(v float64) string { return scaled(v, bandwidthUnits) }
func shortBytes(v float64) string     { return scaled(v, byteUnits) }
