package metrics

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

func TestBucketIndexRoundTrip(t *testing.T) {
	for i := range NumBuckets {
		v := BucketValue(i)
		if got := BucketIndex(v); got != i {
			t.Fatalf("BucketIndex(BucketValue(%d)=%d) = %d", i, v, got)
		}
	}
}

func TestBucketIndexMonotonic(t *testing.T) {
	prev := 0
	for v := uint64(0); v < 1<<22; v += 7 {
		i := BucketIndex(v)
		if i < prev {
			t.Fatalf("BucketIndex(%d) = %d, below %d for a smaller value", v, i, prev)
		}
		prev = i
	}
	if got := BucketIndex(math.MaxUint64); got != NumBuckets-1 {
		t.Fatalf("huge value in bucket %d, want the last one", got)
	}
}

func TestBucketWidthUnderTwoPercent(t *testing.T) {
	for _, v := range []uint64{128, 1000, 4096, 77_777, 1_000_000, 123_456_789} {
		rep := BucketValue(BucketIndex(v))
		if err := math.Abs(float64(rep)-float64(v)) / float64(v); err > 0.016 {
			t.Errorf("value %d represented as %d: error %.4f", v, rep, err)
		}
	}
}

// exactPercentile is the nearest-rank percentile of sorted samples.
func exactPercentile(sorted []uint64, p float64) uint64 {
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[max(rank-1, 0)]
}

func TestPercentilesAgainstExactSort(t *testing.T) {
	cases := []struct {
		name string
		draw func(r *rand.Rand) uint64
	}{
		{"uniform 50us-5ms", func(r *rand.Rand) uint64 { return 50_000 + r.Uint64N(4_950_000) }},
		{"lognormal around 300us", func(r *rand.Rand) uint64 { return uint64(math.Exp(r.NormFloat64()*0.6 + math.Log(300_000))) }},
		{"exponential 80us", func(r *rand.Rand) uint64 { return uint64(r.ExpFloat64()*80_000) + 200 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			var h Histogram
			samples := make([]uint64, 200_000)
			for i := range samples {
				samples[i] = tc.draw(r)
				h.Record(samples[i])
			}
			slices.Sort(samples)
			for _, p := range DefaultPercentiles {
				want, got := exactPercentile(samples, p), h.Percentile(p)
				if rel := math.Abs(float64(got)-float64(want)) / float64(want); rel > 0.01 {
					t.Errorf("p%v = %d, exact %d (%.2f%% off)", p, got, want, rel*100)
				}
			}
			if h.Min() != samples[0] || h.Max() != samples[len(samples)-1] {
				t.Errorf("min/max %d/%d, want %d/%d", h.Min(), h.Max(), samples[0], samples[len(samples)-1])
			}
		})
	}
}

func TestMeanAndStddevExact(t *testing.T) {
	var h Histogram
	for _, v := range []uint64{2, 4, 4, 4, 5, 5, 7, 9} {
		h.Record(v)
	}
	if h.Mean() != 5 {
		t.Errorf("mean %v, want 5", h.Mean())
	}
	if want := math.Sqrt(32.0 / 7); math.Abs(h.Stddev()-want) > 1e-12 {
		t.Errorf("stddev %v, want %v", h.Stddev(), want)
	}
}

func TestMergeEqualsRecordingTogether(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var a, b, all Histogram
	for i := range 50_000 {
		v := r.Uint64N(10_000_000)
		all.Record(v)
		if i%3 == 0 {
			a.Record(v)
		} else {
			b.Record(v)
		}
	}
	a.Merge(&b)
	if a.counts != all.counts || a.n != all.n || a.sum != all.sum || a.min != all.min || a.max != all.max {
		t.Fatal("merged histogram differs from one recorded with every sample")
	}
	if math.Abs(a.Stddev()-all.Stddev()) > 1e-6*all.Stddev() {
		t.Fatalf("merged stddev %v, want %v", a.Stddev(), all.Stddev())
	}
}

func TestJSONRoundTrip(t *testing.T) {
	var h Histogram
	for _, v := range []uint64{0, 1, 127, 128, 5000, 1 << 30} {
		h.Record(v)
	}
	b, err := json.Marshal(&h)
	if err != nil {
		t.Fatal(err)
	}
	var back Histogram
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back != h {
		t.Fatalf("round trip changed the histogram: %s", b)
	}
}

func TestUnmarshalRejectsDamage(t *testing.T) {
	for _, in := range []string{
		`{"n":3,"bins":{"100":2}}`,
		`{"n":1,"bins":{"x":1}}`,
		`{"n":1,"bins":[1]}`,
	} {
		var h Histogram
		if err := json.Unmarshal([]byte(in), &h); err == nil {
			t.Errorf("%s: accepted", in)
		}
	}
}

// TestFioBinsGiveFioPercentiles imports the clat_ns.bins of a real fio 3.33
// json+ run and expects exactly the percentiles fio printed from them.
func TestFioBinsGiveFioPercentiles(t *testing.T) {
	raw, err := os.ReadFile("testdata/fio-3.33-json-plus.json")
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Jobs []struct {
			Read struct {
				ClatNs struct {
					N          uint64            `json:"N"`
					Percentile map[string]uint64 `json:"percentile"`
					Bins       map[string]uint64 `json:"bins"`
				} `json:"clat_ns"`
			} `json:"read"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	clat := out.Jobs[0].Read.ClatNs
	var h Histogram
	for k, c := range clat.Bins {
		v, err := strconv.ParseUint(k, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		if BucketValue(BucketIndex(v)) != v {
			t.Fatalf("fio bin %d is not one of our bucket values", v)
		}
		h.AddBucket(v, c)
	}
	if h.Count() != clat.N {
		t.Fatalf("imported %d samples, fio counted %d", h.Count(), clat.N)
	}
	for k, want := range clat.Percentile {
		p, _ := strconv.ParseFloat(k, 64)
		if got := h.Percentile(p); got != want {
			t.Errorf("p%s = %d, fio printed %d", k, got, want)
		}
	}
}

// TestPercentilesWithinMinAndMax: a bucket's middle can lie beyond the
// largest sample or below the smallest, and a percentile is then that
// sample: 59.80 ms falls in the bucket whose middle is 60.03 ms.
func TestPercentilesWithinMinAndMax(t *testing.T) {
	tests := []struct {
		name    string
		samples map[uint64]int
		exact   [2]uint64 // min and max set afterwards (fio's), when not zero
		p       float64
		want    uint64
	}{
		{"p99.99 above max", map[uint64]int{1000: 9990, 59_800_000: 10}, [2]uint64{}, 99.99, 59_800_000},
		{"p100 above max", map[uint64]int{1000: 9990, 59_800_000: 10}, [2]uint64{}, 100, 59_800_000},
		{"p50 below min", map[uint64]int{1_015_000: 100}, [2]uint64{}, 50, 1_015_000},
		{"inside the range, the bucket", map[uint64]int{1000: 50, 1_016_000: 50, 2_000_000: 1}, [2]uint64{}, 99, 1_019_904},
		{"fio's exact max", map[uint64]int{1000: 9990, 59_800_000: 10}, [2]uint64{900, 59_900_000}, 99.99, 59_900_000},
	}
	for _, tt := range tests {
		var h Histogram
		for v, n := range tt.samples {
			for range n {
				h.Record(v)
			}
		}
		if tt.exact != [2]uint64{} {
			h.SetExact(tt.exact[0], tt.exact[1], h.Mean(), h.Stddev())
		}
		if got := h.Percentile(tt.p); got != tt.want {
			t.Errorf("%s: p%g = %d, want %d", tt.name, tt.p, got, tt.want)
		}
		s := h.Summary([]float64{tt.p})
		if got := s.Percentiles[0].Ns; got < s.Min || got > s.Max {
			t.Errorf("%s: summary p%g = %d outside [%d, %d]", tt.name, tt.p, got, s.Min, s.Max)
		}
	}
}

// TestStoredPercentilesReadClamped: a record written before percentiles
// were clamped reads with none beyond its max.
func TestStoredPercentilesReadClamped(t *testing.T) {
	var d DirStats
	stored := `{"ios":10000,"bytes":0,"iops":0,"bw_bytes":0,"lat_ns":{"min":900,"max":59800000,"mean":7000,"stddev":1,
		"percentiles":[{"p":50,"ns":880},{"p":99,"ns":1000},{"p":99.99,"ns":60030976}]}}`
	if err := json.Unmarshal([]byte(stored), &d); err != nil {
		t.Fatal(err)
	}
	want := []Percentile{{50, 900}, {99, 1000}, {99.99, 59_800_000}}
	if !reflect.DeepEqual(d.Lat.Percentiles, want) {
		t.Errorf("percentiles read %v, want %v", d.Lat.Percentiles, want)
	}
	if got := d.Quantile(99.99); got != 59_800_000 {
		t.Errorf("p99.99 %d, want the max", got)
	}
}

func BenchmarkRecord(b *testing.B) {
	var h Histogram
	r := rand.New(rand.NewPCG(5, 6))
	vals := make([]uint64, 4096)
	for i := range vals {
		vals[i] = r.Uint64N(5_000_000)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.Record(vals[i&4095])
	}
}

func FuzzHistogramJSON(f *testing.F) {
	f.Add([]byte(`{"n":2,"min":5,"max":9,"sum":14,"sum_sq":106,"bins":{"5":1,"9":1}}`))
	f.Add([]byte(`{"n":0,"bins":{}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var h Histogram
		if err := json.Unmarshal(b, &h); err != nil {
			return
		}
		h.Percentiles(DefaultPercentiles)
		if _, err := json.Marshal(&h); err != nil {
			t.Fatal(err)
		}
	})
}

func TestSetExactRoundTrip(t *testing.T) {
	var h Histogram
	for _, v := range []uint64{100, 200, 300, 400} {
		h.AddBucket(v, 1)
	}
	h.SetExact(90, 410, 250, 129.0994)
	if h.Min() != 90 || h.Max() != 410 || h.Mean() != 250 || math.Abs(h.Stddev()-129.0994) > 1e-6 {
		t.Errorf("after SetExact: min %d max %d mean %v stddev %v", h.Min(), h.Max(), h.Mean(), h.Stddev())
	}
}
