package metrics

import (
	"math/rand/v2"
	"testing"
)

func TestBinaryRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 1000} {
		var h Histogram
		for range n {
			h.Record(uint64(r.ExpFloat64()*90_000) + 300)
		}
		data, err := h.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var back Histogram
		if err := back.UnmarshalBinary(data); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if back != h {
			t.Errorf("n=%d: the histogram changed in the round trip", n)
		}
	}
}

func TestUnmarshalBinaryRejectsDamage(t *testing.T) {
	var h Histogram
	for _, v := range []uint64{500, 7000, 7000, 90_000} {
		h.Record(v)
	}
	good, _ := h.MarshalBinary()
	cases := map[string][]byte{
		"empty":     nil,
		"version":   append([]byte{9}, good[1:]...),
		"truncated": good[:len(good)-1],
		"trailing":  append(append([]byte(nil), good...), 0),
		"count":     append(append([]byte(nil), good[:len(good)-1]...), good[len(good)-1]+1),
		"nan":       []byte("\x010000000000\xff\x7f\x020\x0000"),
	}
	for name, data := range cases {
		var back Histogram
		if err := back.UnmarshalBinary(data); err == nil {
			t.Errorf("%s: damaged histogram accepted", name)
		}
	}
}

func FuzzHistogramBinary(f *testing.F) {
	var h Histogram
	h.Record(1234)
	h.Record(99_999)
	good, _ := h.MarshalBinary()
	f.Add(good)
	f.Fuzz(func(t *testing.T, data []byte) {
		var h Histogram
		if h.UnmarshalBinary(data) != nil {
			return
		}
		again, _ := h.MarshalBinary()
		var back Histogram
		if err := back.UnmarshalBinary(again); err != nil || back != h {
			t.Fatalf("a histogram that decoded does not round-trip: %v", err)
		}
	})
}
