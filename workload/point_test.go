package workload

import (
	"encoding/json"
	"testing"
)

func TestPointText(t *testing.T) {
	tests := []struct {
		name     string
		pt       Point
		str, key string
	}{
		{"empty", nil, "", ""},
		{"counts", Point{{"numjobs", int64(4)}, {"iodepth", int64(32)}}, "numjobs=4, iodepth=32", "numjobs=4,iodepth=32"},
		// one size formatter: exact, as fio and spec sheets write it
		{"odd size", Point{{"bs", int64(1536)}}, "bs=1536B", "bs=1536"},
		{"binary size", Point{{"bs", int64(64 << 10)}, {"rw", "randread"}}, "bs=64KiB, rw=randread", "bs=65536,rw=randread"},
		{"size read from a report", Point{{"bs", 4096.0}}, "bs=4KiB", "bs=4096"},
		{"rate in full", Point{{"rate_iops", 1.5e6}}, "rate_iops=1500000", "rate_iops=1500000"},
		{"not a parameter", Point{{"file", "out.json"}, {"report", int64(2)}}, "file=out.json, report=2", "file=out.json,report=2"},
	}
	for _, tt := range tests {
		if got := tt.pt.String(); got != tt.str {
			t.Errorf("%s: String() = %q, want %q", tt.name, got, tt.str)
		}
		if got := tt.pt.Key(); got != tt.key {
			t.Errorf("%s: Key() = %q, want %q", tt.name, got, tt.key)
		}
	}
}

// TestPointKeyRoundTrip checks that a point read back from a record has
// the key it had when the run made it.
func TestPointKeyRoundTrip(t *testing.T) {
	made := Point{{"bs", int64(4096)}, {"rate_iops", 2e6}, {"rw", "randrw"}, {"read_pct", int64(70)}}
	raw, err := json.Marshal(made)
	if err != nil {
		t.Fatal(err)
	}
	var read Point
	if err := json.Unmarshal(raw, &read); err != nil {
		t.Fatal(err)
	}
	if made.Key() != read.Key() || made.String() != read.String() {
		t.Errorf("read back %q (%q), made %q (%q)", read.Key(), read.String(), made.Key(), made.String())
	}
	if _, isInt := read[0].Value.(int64); !isInt {
		t.Errorf("bs read back as %T, want int64", read[0].Value)
	}
}

func TestKeyPair(t *testing.T) {
	for pair, want := range map[string]string{
		"bs=4KiB":     "bs=4096",
		" bs=1536 ":   "bs=1536",
		"bs=4k":       "bs=4096",
		"iodepth=32":  "iodepth=32",
		"bs=lots":     "bs=lots",
		"file=a.json": "file=a.json",
		"round":       "round",
	} {
		if got := KeyPair(pair); got != want {
			t.Errorf("KeyPair(%q) = %q, want %q", pair, got, want)
		}
	}
}
