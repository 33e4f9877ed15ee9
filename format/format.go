// Package format writes the numbers people read: sizes, counts, rates,
// latencies and durations, in one style for every output (the terminal,
// Markdown, HTML, SVG charts and hook text). A figure written two ways in
// two places reads as two figures, so every renderer calls these instead
// of its own Sprintf.
//
// Capacities and amounts written are decimal ("1.92 TB"), as drive makers
// state them; block sizes and namespace sizes are binary ("4KiB",
// "1.00 GiB"), as the kernel and spec sheets state them; counts and rates
// group thousands with commas ("41,230"). Short forms ("250K", "200 µs")
// are for chart ticks and cells, where space is tight.
package format

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// UpperFirst capitalises the first letter of s, for a sentence that
// starts with a word written elsewhere: a share ("all"), a message from
// a lower layer, a block type in a title.
func UpperFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

// Dash stands in a report for a figure that is unknown.
const Dash = "—"

// Counted writes a count with its noun, the noun singular for one and its
// digits grouped: "1 file", "1,251 samples". The noun takes an s in the
// plural.
func Counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return Count(float64(n)) + " " + noun + "s"
}

// Grouped writes v with the given number of decimals and commas
// between groups of three digits: 8668.14 -> "8,668.1". Halves round away
// from zero, as people round.
func Grouped(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Dash
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

// Count writes a rate or a count as a whole number: "41,230".
func Count(v float64) string { return Grouped(v, 0) }

// Plain writes v with at most two decimals and no trailing zeros:
// 2.5 -> "2.5", 1e6 -> "1,000,000".
func Plain(v float64) string {
	text := Grouped(v, 2)
	if strings.Contains(text, ".") {
		text = strings.TrimRight(strings.TrimRight(text, "0"), ".")
	}
	return text
}

// MBps writes a bandwidth in bytes per second as decimal megabytes
// per second without the Unit, as reviews quote it: "8,668.1".
func MBps(bytesPerSec float64) string { return Grouped(bytesPerSec/1e6, 1) }

// Bandwidth is MBps with its Unit: "8,668.1 MB/s".
func Bandwidth(bytesPerSec float64) string { return MBps(bytesPerSec) + " MB/s" }

// MiBps writes a bandwidth in bytes per second as binary mebibytes per
// second without the Unit, as Tom's Hardware quotes it: "8,266.4".
func MiBps(bytesPerSec float64) string { return Grouped(bytesPerSec/(1<<20), 1) }

// BandwidthMiB is MiBps with its Unit: "8,266.4 MiB/s".
func BandwidthMiB(bytesPerSec float64) string { return MiBps(bytesPerSec) + " MiB/s" }

// Latency writes a latency in the Unit its magnitude calls for:
// "850 ns", "388.2 µs", "1.42 ms", "2.31 s". The Unit is chosen after
// rounding, so 999.96 µs is "1.00 ms", never "1000.0 µs".
func Latency(ns float64) string {
	switch {
	case math.IsNaN(ns) || math.IsInf(ns, 0) || ns < 0:
		return Dash
	case ns < 999.5:
		return Grouped(ns, 0) + " ns"
	case ns < 999_950:
		return Grouped(ns/1e3, 1) + " µs"
	case ns < 999_995_000:
		return Grouped(ns/1e6, 2) + " ms"
	}
	return Grouped(ns/1e9, 2) + " s"
}

// BlockSize writes a block size in the largest binary Unit that
// divides it, without a space, as spec sheets do: "4KiB", "1MiB", "520B".
func BlockSize(n int64) string {
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

// Bytes writes a capacity or an amount written in decimal units, as
// drive makers state capacity: "1.92 TB", "512 B".
func Bytes(n uint64) string { return BytesOf(float64(n)) }

// BytesOf is Bytes for counts beyond 64 bits, such as the 128-bit data
// unit counters of an NVMe SMART log.
func BytesOf(n float64) string {
	return prefixed(n, 1000, []string{"kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"})
}

// BinaryBytes writes a size in binary units, as the kernel reports
// device and namespace sizes: "1.00 GiB", "512 B".
func BinaryBytes(n uint64) string {
	return prefixed(float64(n), 1024, []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"})
}

// prefixed writes n bytes in the largest unit of base it reaches, with two
// decimals; below base, as whole bytes.
func prefixed(n, base float64, units []string) string {
	if n < base {
		return strconv.FormatFloat(math.Max(n, 0), 'f', 0, 64) + " B"
	}
	v := n / base
	i := 0
	for v >= base-0.005 && i < len(units)-1 { // would print as 1000.00
		v /= base
		i++
	}
	return fmt.Sprintf("%.2f %s", v, units[i])
}

// Duration writes a duration at the precision people read it with:
// "42.3 s", "13 min 54 s", "2 h 05 min"; a Dash when zero or negative.
func Duration(ns int64) string {
	d := time.Duration(ns)
	switch {
	case d <= 0:
		return Dash
	case d < 59950*time.Millisecond:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d < time.Hour-500*time.Millisecond:
		d = d.Round(time.Second)
		return fmt.Sprintf("%d min %02d s", d/time.Minute, d%time.Minute/time.Second)
	}
	d = d.Round(time.Minute)
	return fmt.Sprintf("%d h %02d min", d/time.Hour, d%time.Hour/time.Minute)
}

// Share writes a percentage of a whole (0 to 100) with the precision a
// reader needs: a small share is not rounded to zero ("0.35 %"), others
// are whole ("4 %"), and all of it is "all".
func Share(pct float64) string {
	switch {
	case pct >= 99.95:
		return "all"
	case pct >= 1:
		return fmt.Sprintf("%.0f %%", math.Round(pct))
	}
	return fmt.Sprintf("%.2g %%", pct)
}

// Trim writes v rounded to three decimals, without trailing zeros:
// the numbers of chart ticks and cells.
func Trim(v float64) string {
	text := strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
	if text == "-0" {
		return "0"
	}
	return text
}

// Scaled writes v divided by the largest of the units it reaches, with
// that Unit's suffix; units are ordered largest first and the last has a
// factor of 1.
func Scaled(v float64, units []Unit) string {
	if v == 0 {
		return "0"
	}
	for _, u := range units {
		if math.Abs(v) >= u.Factor || u.Factor == 1 {
			return Trim(v/u.Factor) + u.Suffix
		}
	}
	return Trim(v)
}

// Unit is a factor and the suffix that names it.
type Unit struct {
	Factor float64
	Suffix string
}

var (
	CountUnits     = []Unit{{1e9, "G"}, {1e6, "M"}, {1e3, "K"}, {1, ""}}
	LatencyUnits   = []Unit{{1e9, " s"}, {1e6, " ms"}, {1e3, " µs"}, {1, " ns"}}
	BandwidthUnits = []Unit{{1e9, " GB/s"}, {1e6, " MB/s"}, {1e3, " kB/s"}, {1, " B/s"}}
	// BinaryBandwidthUnits are the binary multiples of bytes per second.
	BinaryBandwidthUnits = []Unit{{1 << 30, " GiB/s"}, {1 << 20, " MiB/s"}, {1 << 10, " KiB/s"}, {1, " B/s"}}
	ByteUnits            = []Unit{{1e15, " PB"}, {1e12, " TB"}, {1e9, " GB"}, {1e6, " MB"}, {1e3, " kB"}, {1, " B"}}
)

// Short forms for chart ticks and heat map cells: "250K" IOPS, "200 µs",
// "13.4 GB/s", "1.5 TB".
func ShortCount(v float64) string     { return Scaled(v, CountUnits) }
func ShortLatency(ns float64) string  { return Scaled(ns, LatencyUnits) }
func ShortBandwidth(v float64) string { return Scaled(v, BandwidthUnits) }
func ShortBytes(v float64) string     { return Scaled(v, ByteUnits) }

// Significant writes v in the largest unit it reaches with three
// significant digits: "1.97M", "13.4 GB/s".
func Significant(v float64, units []Unit) string {
	for _, u := range units {
		if math.Abs(v) >= u.Factor || u.Factor == 1 {
			x := v / u.Factor
			decimals := 0
			switch a := math.Abs(math.Round(x*100) / 100); {
			case a < 10:
				decimals = 2
			case a < 100:
				decimals = 1
			}
			return strconv.FormatFloat(x, 'f', decimals, 64) + u.Suffix
		}
	}
	return Trim(v)
}
