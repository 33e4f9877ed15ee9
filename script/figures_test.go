package script

import (
	"strings"
	"testing"
)

// TestFmtModule: hooks write figures as the reports' tables do.
func TestFmtModule(t *testing.T) {
	for _, tt := range []struct{ expr, want string }{
		{`fmt.latency(1695700)`, "1.70 ms"},
		{`fmt.latency(812.3, unit = "us")`, "812.3 µs"},
		{`fmt.latency(850)`, "850 ns"},
		{`fmt.latency(999960)`, "1.00 ms"},
		{`fmt.duration(42.34, unit = "s")`, "42.3 s"},
		{`fmt.duration(834 * 1000000000)`, "13 min 54 s"},
		{`fmt.bandwidth(8668140000)`, "8,668.1 MB/s"},
		{`fmt.bandwidth(8668140000, units = "MiB/s")`, "8,266.6 MiB/s"},
		{`fmt.count(41229.6)`, "41,230"},
		{`fmt.bytes(1920383410176)`, "1.92 TB"},
		{`fmt.block_size(4096)`, "4KiB"},
		{`fmt.grouped(8668.14, 1)`, "8,668.1"},
	} {
		v, err := evalExpr(tt.expr)
		if err != nil || v != tt.want {
			t.Errorf("%s = %v (%v), want %q", tt.expr, v, err, tt.want)
		}
	}
	for _, tt := range []struct{ expr, want string }{
		{`fmt.latency("1 ms")`, `fmt.latency: got string, want a number`},
		{`fmt.latency(1, unit = "min")`, `fmt.latency: unit "min": give "ns", "us", "ms" or "s"`},
		{`fmt.bandwidth(1, units = "GB/s")`, `fmt.bandwidth: units "GB/s": give "MB/s" or "MiB/s", as the report block's units`},
		{`fmt.count(True)`, `fmt.count: got bool, want a number`},
	} {
		if _, err := evalExpr(tt.expr); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.expr, err, tt.want)
		}
	}
}
