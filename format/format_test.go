package format

import (
	"math"
	"testing"
	"time"
)

// formats is the table test of a formatter of one value: f(in) is want.
type formats[T any] []struct {
	in   T
	want string
}

func (tests formats[T]) check(t *testing.T, name string, f func(T) string) {
	t.Helper()
	for _, tt := range tests {
		if got := f(tt.in); got != tt.want {
			t.Errorf("%s(%v) = %q, want %q", name, tt.in, got, tt.want)
		}
	}
}

func TestFormatGrouped(t *testing.T) {
	tests := []struct {
		v        float64
		decimals int
		want     string
	}{
		{0, 0, "0"},
		{999, 0, "999"},
		{1000, 0, "1,000"},
		{41230.4, 0, "41,230"},
		{41230.5, 0, "41,231"},
		{1973412, 0, "1,973,412"},
		{8668.14, 1, "8,668.1"},
		{100000, 1, "100,000.0"},
		{-1234.5, 1, "-1,234.5"},
		{-0.04, 1, "0.0"},
		{math.NaN(), 1, "—"},
		{math.Inf(1), 0, "—"},
	}
	for _, tt := range tests {
		if got := Grouped(tt.v, tt.decimals); got != tt.want {
			t.Errorf("Grouped(%v, %d) = %q, want %q", tt.v, tt.decimals, got, tt.want)
		}
	}
}

func TestFormatPlain(t *testing.T) {
	formats[float64]{
		{1e6, "1,000,000"},
		{2.5, "2.5"},
		{2350, "2,350"},
		{0.125, "0.13"},
		{95, "95"},
	}.check(t, "Plain", Plain)
}

func TestFormatBandwidth(t *testing.T) {
	formats[float64]{
		{0, "0.0 MB/s"},
		{168_900_000, "168.9 MB/s"},
		{8_668_140_000, "8,668.1 MB/s"},
		{4096 * 47218.35, "193.4 MB/s"},
		{400_000, "0.4 MB/s"},
	}.check(t, "Bandwidth", Bandwidth)
}

func TestFormatBandwidthMiB(t *testing.T) {
	formats[float64]{
		{0, "0.0 MiB/s"},
		{1 << 20, "1.0 MiB/s"},
		{6_200e6, "5,912.8 MiB/s"},
		{8_668_140_000, "8,266.6 MiB/s"},
		{-1, "0.0 MiB/s"},
	}.check(t, "BandwidthMiB", BandwidthMiB)
}

func TestFormatLatency(t *testing.T) {
	formats[float64]{
		{0, "0 ns"},
		{850, "850 ns"},
		{999.4, "999 ns"},
		{999.5, "1.0 µs"},
		{8_200, "8.2 µs"},
		{388_200, "388.2 µs"},
		{999_940, "999.9 µs"},
		{999_960, "1.00 ms"},
		{1_420_000, "1.42 ms"},
		{999_994_000, "999.99 ms"},
		{999_996_000, "1.00 s"},
		{2_310_000_000, "2.31 s"},
		{4_000_000_000_000, "4,000.00 s"},
		{-1, "—"},
		{math.NaN(), "—"},
	}.check(t, "Latency", Latency)
}

func TestFormatBlockSize(t *testing.T) {
	formats[int64]{
		{512, "512B"},
		{520, "520B"},
		{4096, "4KiB"},
		{6144, "6KiB"},
		{131072, "128KiB"},
		{1 << 20, "1MiB"},
		{3 << 29, "1536MiB"},
		{1 << 30, "1GiB"},
		{0, "0B"},
	}.check(t, "BlockSize", BlockSize)
}

func TestFormatBytes(t *testing.T) {
	formats[uint64]{
		{0, "0 B"},
		{999, "999 B"},
		{1000, "1.00 kB"},
		{999_994, "999.99 kB"},
		{999_995, "1.00 MB"},
		{960_197_124_096, "960.20 GB"},
		{1_920_383_410_176, "1.92 TB"},
		{15_360_000_000_000, "15.36 TB"},
		{math.MaxUint64, "18.45 EB"},
	}.check(t, "Bytes", Bytes)
}

func TestFormatDuration(t *testing.T) {
	formats[time.Duration]{
		{0, "—"},
		{-time.Second, "—"},
		{120 * time.Millisecond, "0.1 s"},
		{42300 * time.Millisecond, "42.3 s"},
		{59940 * time.Millisecond, "59.9 s"},
		{59960 * time.Millisecond, "1 min 00 s"},
		{834 * time.Second, "13 min 54 s"},
		{time.Hour - time.Second, "59 min 59 s"},
		{time.Hour - 400*time.Millisecond, "1 h 00 min"},
		{2*time.Hour + 5*time.Minute + 20*time.Second, "2 h 05 min"},
		{30 * time.Hour, "30 h 00 min"},
	}.check(t, "Duration", func(d time.Duration) string { return Duration(int64(d)) })
}

func TestFormatShare(t *testing.T) {
	formats[float64]{
		{100, "all"},
		{99.95, "all"},
		{99.9, "100 %"},
		{4.4, "4 %"},
		{1, "1 %"},
		{0.35, "0.35 %"},
		{0.004, "0.004 %"},
		{0, "0 %"},
	}.check(t, "Share", Share)
}

func TestBinaryBytesAndBeyond64Bits(t *testing.T) {
	tests := []struct{ got, want string }{
		{BinaryBytes(512), "512 B"},
		{BinaryBytes(1 << 30), "1.00 GiB"},
		{BinaryBytes(1536 << 20), "1.50 GiB"},
		{BinaryBytes(1<<20 - 1), "1.00 MiB"},
		{BytesOf(512_000), "512.00 kB"},
		{BytesOf(0), "0 B"},
		{BytesOf(3.4e26), "340.00 YB"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestShortForms(t *testing.T) {
	tests := []struct{ got, want string }{
		{ShortCount(1_250_000), "1.25M"},
		{ShortCount(0), "0"},
		{ShortLatency(1500), "1.5 µs"},
		{ShortBandwidth(13.4e9), "13.4 GB/s"},
		{ShortBytes(2e12), "2 TB"},
		{Significant(1_973_400, CountUnits), "1.97M"},
		{Significant(13_293.7e6, BandwidthUnits), "13.3 GB/s"},
		{Significant(13_293.7e6, BinaryBandwidthUnits), "12.4 GiB/s"},
		{Significant(1.5*(1<<20), BinaryBandwidthUnits), "1.50 MiB/s"},
		{Significant(999.6, CountUnits), "1000"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestUpperFirst(t *testing.T) {
	formats[string]{
		{"", ""},
		{"all", "All"},
		{"5 %", "5 %"},
		{"drive", "Drive"},
		{"Already", "Already"},
		{"émission", "Émission"},
	}.check(t, "UpperFirst", UpperFirst)
}

func TestCounted(t *testing.T) {
	for n, want := range map[int]string{0: "0 steps", 1: "1 step", 3: "3 steps", 1251: "1,251 steps"} {
		if got := Counted(n, "step"); got != want {
			t.Errorf("Counted(%d): %q, want %q", n, got, want)
		}
	}
}
