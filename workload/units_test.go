package workload

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  string
	}{
		{in: "512", want: 512},
		{in: "512B", want: 512},
		{in: "4KiB", want: 4096},
		{in: "4k", want: 4096},
		{in: "4K", want: 4096},
		{in: "128kib", want: 128 << 10},
		{in: "1.5GiB", want: 3 << 29},
		{in: "1.5 GiB", want: 3 << 29},
		{in: "0.5KiB", want: 512},
		{in: ".5KiB", want: 512},
		{in: "1m", want: 1 << 20},
		{in: "2g", want: 2 << 30},
		{in: "1T", want: 1 << 40},
		{in: "1PiB", want: 1 << 50},
		{in: "1.92TB", want: 1_920_000_000_000},
		{in: "4KB", want: 4000},
		{in: "6MB", want: 6_000_000},
		{in: "1GB", want: 1_000_000_000},
		{in: "0", want: 0},
		{in: "", err: "not a number"},
		{in: "KiB", err: "not a number"},
		{in: "-4KiB", err: "not a number"},
		{in: "4XB", err: `unknown unit "XB"`},
		{in: "4KiB/s", err: "unknown unit"},
		{in: "1.5", err: "whole number of bytes"},
		{in: "0.1KiB", err: "whole number of bytes"},
		{in: "1e3", err: "not a number"},
		{in: "9999999PiB", err: "too large"},
	}
	for _, tt := range tests {
		got, err := ParseSize(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseSize(%q) = %d, %v; want error containing %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

func TestFormatSize(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{0, "0B"},
		{512, "512B"},
		{1000, "1000B"},
		{4096, "4KiB"},
		{131072, "128KiB"},
		{3 << 29, "1.5GiB"},
		{1 << 40, "1TiB"},
		{1_920_000_000_000, "1.92TB"},
		{6_000_000, "6MB"},
		{1536, "1.5KiB"},
		{1_126, "1.1KiB"},
		{1234567, "1.18MiB"},
		{-4096, "-4KiB"},
		{math.MaxInt64, "8192PiB"},
	}
	for _, tt := range tests {
		if got := FormatSize(tt.in); got != tt.want {
			t.Errorf("FormatSize(%d) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFormatSizeRoundTrip(t *testing.T) {
	for _, n := range []int64{1, 512, 4096, 65536, 3 << 29, 1_920_000_000_000, 7 << 40, 1_000_000, 1536} {
		s := FormatSize(n)
		back, err := ParseSize(s)
		if err != nil || back != n {
			t.Errorf("ParseSize(FormatSize(%d) = %q) = %d, %v", n, s, back, err)
		}
	}
}

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		err  bool
	}{
		{in: "60s", want: time.Minute},
		{in: "2m", want: 2 * time.Minute},
		{in: "1h30m", want: 90 * time.Minute},
		{in: "500ms", want: 500 * time.Millisecond},
		{in: "10", want: 10 * time.Second},
		{in: "1.5", want: 1500 * time.Millisecond},
		{in: " 5s ", want: 5 * time.Second},
		{in: "0", want: 0},
		{in: "-5s", err: true},
		{in: "10 minutes", err: true},
		{in: "", err: true},
		{in: "5d", err: true},
	}
	for _, tt := range tests {
		got, err := ParseDuration(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	tests := []struct {
		in   time.Duration
		want string
	}{
		{0, "0s"},
		{10 * time.Second, "10s"},
		{2 * time.Minute, "2m"},
		{90 * time.Minute, "1h30m"},
		{2 * time.Hour, "2h"},
		{500 * time.Millisecond, "500ms"},
		{1500 * time.Millisecond, "1.5s"},
		{61 * time.Second, "1m1s"},
	}
	for _, tt := range tests {
		got := FormatDuration(tt.in)
		if got != tt.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", tt.in, got, tt.want)
		}
		if back, err := ParseDuration(got); err != nil || back != tt.in {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", got, back, err, tt.in)
		}
	}
}

func TestParsePercent(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		err  bool
	}{
		{in: "25%", want: 25},
		{in: "12.5%", want: 12.5},
		{in: "100 %", want: 100},
		{in: "25", err: true},
		{in: "%", err: true},
		{in: "-5%", err: true},
		{in: "a%", err: true},
	}
	for _, tt := range tests {
		got, err := ParsePercent(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParsePercent(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestParseBandwidth(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		err  string
	}{
		{in: "6200MB/s", want: 6.2e9},
		{in: "5.5GiB/s", want: 5.5 * (1 << 30)},
		{in: "100 KiB/s", want: 102400},
		{in: "1.2gb/s", want: 1.2e9},
		{in: "1000", want: 1000},
		{in: "6200MB", err: `needs "/s"`},
		{in: "6200XB/s", err: "unknown unit"},
		{in: "fast", err: "not a number"},
	}
	for _, tt := range tests {
		got, err := ParseBandwidth(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseBandwidth(%q) = %v, %v; want error containing %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseBandwidth(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"4KiB", "1.92TB", "512", "0.5k", "1e9", "99999999999999999999PiB", "1234567"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseSize(s)
		if err != nil {
			return
		}
		if n < 0 {
			t.Fatalf("ParseSize(%q) = %d, negative", s, n)
		}
		checkFormatSize(t, n)
	})
}

// checkFormatSize checks that FormatSize(n) reads back as n or, when it
// had to round, is within the 0.5% that rounding to two decimals allows.
func checkFormatSize(t *testing.T, n int64) {
	formatted := FormatSize(n)
	if back, err := ParseSize(formatted); err == nil && back == n {
		return
	}
	num, unit, err := splitQuantity(formatted)
	if err != nil {
		t.Fatalf("FormatSize(%d) = %q does not parse: %v", n, formatted, err)
	}
	value, _ := num.Float64()
	value *= float64(sizeUnits[strings.ToLower(unit)])
	if rel := math.Abs(value-float64(n)) / float64(n); rel > 0.005 {
		t.Fatalf("FormatSize(%d) = %q is off by %.2f%%", n, formatted, rel*100)
	}
}

func TestFormatSizeApproximation(t *testing.T) {
	for _, n := range []int64{1126, 13567, 1234567, 1 << 62, math.MaxInt64, 999_999_999_999} {
		checkFormatSize(t, n)
	}
}
