package workload

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// SizeUnitsHelp lists the units ParseSize accepts, for error messages.
const SizeUnitsHelp = `Write a number of bytes, or a number with a unit: ` +
	`B; KiB, MiB, GiB, TiB, PiB or the fio-style K, M, G, T, P (powers of 1024); ` +
	`KB, MB, GB, TB, PB (powers of 1000). Examples: "4KiB", "128k", "1.92TB".`

// DurationUnitsHelp lists the forms ParseDuration accepts, for error messages.
const DurationUnitsHelp = `Write a number of seconds, or a duration with the units ` +
	`ns, us, ms, s, m, h. Examples: "60s", "500ms", "1h30m".`

// BandwidthUnitsHelp lists the forms ParseBandwidth accepts.
const BandwidthUnitsHelp = `Write a size per second, e.g. "6200MB/s" or "5.5GiB/s" ` +
	`(KiB, MiB, GiB, TiB are powers of 1024; KB, MB, GB, TB powers of 1000), ` +
	`or a number of bytes per second.`

// sizeUnits maps a lower-case unit suffix to its multiplier. Bare letters
// are binary, as in fio; an explicit "B" after the letter is decimal.
var sizeUnits = map[string]int64{
	"":    1,
	"b":   1,
	"k":   1 << 10,
	"kib": 1 << 10,
	"m":   1 << 20,
	"mib": 1 << 20,
	"g":   1 << 30,
	"gib": 1 << 30,
	"t":   1 << 40,
	"tib": 1 << 40,
	"p":   1 << 50,
	"pib": 1 << 50,
	"kb":  1e3,
	"mb":  1e6,
	"gb":  1e9,
	"tb":  1e12,
	"pb":  1e15,
}

// quantityPattern splits "1.5 GiB" into its number and its unit.
var quantityPattern = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?|\.[0-9]+)\s*([A-Za-z/]*)$`)

// ParseSize parses a byte count such as "4KiB", "128k", "1.5GiB", "1.92TB"
// or "512". Bare K, M, G, T and P are binary multiples, as in fio; KB, MB,
// GB, TB and PB are decimal. The result must be a whole number of bytes.
func ParseSize(s string) (int64, error) {
	num, unit, err := splitQuantity(s)
	if err != nil {
		return 0, err
	}
	mult, ok := sizeUnits[strings.ToLower(unit)]
	if !ok {
		return 0, fmt.Errorf("%q has an unknown unit %q", s, unit)
	}
	return wholeBytes(s, num.Mul(num, new(big.Rat).SetInt64(mult)))
}

// splitQuantity parses the number of "1.5GiB" exactly and returns its unit.
func splitQuantity(s string) (*big.Rat, string, error) {
	m := quantityPattern.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return nil, "", fmt.Errorf("%q is not a number with an optional unit", s)
	}
	num, ok := new(big.Rat).SetString(m[1])
	if !ok {
		return nil, "", fmt.Errorf("%q is not a number", m[1])
	}
	return num, m[2], nil
}

// wholeBytes converts an exact byte count to int64.
func wholeBytes(s string, n *big.Rat) (int64, error) {
	if !n.IsInt() {
		return 0, fmt.Errorf("%q is not a whole number of bytes", s)
	}
	if !n.Num().IsInt64() {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n.Num().Int64(), nil
}

// bareNumber matches a plain decimal number without a unit.
var bareNumber = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

// ParseDuration parses "60s", "2m", "1h30m", "500ms" or a bare number of
// seconds such as "10" or "1.5". Negative durations are refused.
func ParseDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	if bareNumber.MatchString(t) {
		t += "s"
	}
	d, err := time.ParseDuration(t)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("%q is negative", s)
	}
	return d, nil
}

// ParsePercent parses "25%" or "12.5%" and returns the number before the
// percent sign. Callers check the range that makes sense to them.
func ParsePercent(s string) (float64, error) {
	t := strings.TrimSpace(s)
	num, ok := strings.CutSuffix(t, "%")
	if !ok {
		return 0, fmt.Errorf("%q is not a percentage (a number followed by %%)", s)
	}
	num = strings.TrimSpace(num)
	if !bareNumber.MatchString(num) {
		return 0, fmt.Errorf("%q is not a percentage (a number followed by %%)", s)
	}
	return strconv.ParseFloat(num, 64)
}

// ParseBandwidth parses a rate such as "6200MB/s" or "5.5GiB/s" and returns
// bytes per second. A bare number is bytes per second.
func ParseBandwidth(s string) (float64, error) {
	num, unit, err := splitQuantity(s)
	if err != nil {
		return 0, err
	}
	lower := strings.ToLower(unit)
	perSecond, ok := strings.CutSuffix(lower, "/s")
	if !ok && lower != "" {
		return 0, fmt.Errorf("%q is not a rate: it needs \"/s\" after the unit", s)
	}
	mult, ok := sizeUnits[perSecond]
	if !ok {
		return 0, fmt.Errorf("%q has an unknown unit %q", s, strings.TrimSuffix(unit, "/s"))
	}
	f, _ := num.Mul(num, new(big.Rat).SetInt64(mult)).Float64()
	if math.IsInf(f, 0) {
		return 0, errors.New("bandwidth too large")
	}
	return f, nil
}

// unitName pairs a multiplier with the name FormatSize prints for it.
type unitName struct {
	mult int64
	name string
}

// binaryUnits and decimalUnits are ordered largest first.
var (
	binaryUnits = []unitName{
		{1 << 50, "PiB"}, {1 << 40, "TiB"}, {1 << 30, "GiB"},
		{1 << 20, "MiB"}, {1 << 10, "KiB"}, {1, "B"},
	}
	decimalUnits = []unitName{
		{1e15, "PB"}, {1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "KB"},
	}
)

// FormatSize prints a byte count in the largest binary unit that is not
// bigger than it: "4KiB", "1.5GiB", "512B". It is exact when it can be
// (up to three decimals in a binary unit, or two in a decimal unit, as in
// "1.92TB"); otherwise it rounds to two decimals in the binary unit.
// ParseSize reads every exact result back to the same number.
func FormatSize(n int64) string {
	if n < 0 {
		return "-" + formatMagnitude(new(big.Rat).Neg(new(big.Rat).SetInt64(n)))
	}
	return formatMagnitude(new(big.Rat).SetInt64(n))
}

// formatMagnitude formats a non-negative byte count.
func formatMagnitude(n *big.Rat) string {
	bin := largestUnit(n, binaryUnits)
	if s, ok := exactIn(n, bin, 3); ok {
		return s
	}
	if dec, found := largestDecimalUnit(n); found {
		if s, ok := exactIn(n, dec, 2); ok {
			return s
		}
	}
	q := new(big.Rat).Quo(n, new(big.Rat).SetInt64(bin.mult))
	return trimDecimals(q.FloatString(2)) + bin.name
}

// largestUnit returns the largest unit not bigger than n (bytes for 0).
func largestUnit(n *big.Rat, units []unitName) unitName {
	for _, u := range units {
		if n.Cmp(new(big.Rat).SetInt64(u.mult)) >= 0 {
			return u
		}
	}
	return units[len(units)-1]
}

// largestDecimalUnit is largestUnit over the decimal units; found is false
// below 1 KB.
func largestDecimalUnit(n *big.Rat) (unitName, bool) {
	u := largestUnit(n, decimalUnits)
	return u, n.Cmp(new(big.Rat).SetInt64(u.mult)) >= 0
}

// exactIn formats n in unit u when it needs at most maxDecimals decimals.
func exactIn(n *big.Rat, u unitName, maxDecimals int) (string, bool) {
	q := new(big.Rat).Quo(n, new(big.Rat).SetInt64(u.mult))
	scaled := new(big.Rat).Mul(q, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(maxDecimals)), nil)))
	if !scaled.IsInt() {
		return "", false
	}
	return trimDecimals(q.FloatString(maxDecimals)) + u.name, true
}

// trimDecimals removes trailing zeros and a trailing point: "1.50" -> "1.5".
func trimDecimals(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

// FormatDuration prints a duration the way a plan would write it: "10s",
// "2m", "1h30m", "500ms", "1.5s". ParseDuration reads it back.
func FormatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
