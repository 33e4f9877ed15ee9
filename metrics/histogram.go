package metrics

import (
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strconv"
)

// The bucket layout is fio's (stat.h): values below 128 ns have a bucket
// each; above, every power of two is split into 64 buckets, so a bucket is
// never wider than 1/64 of its value (under 1.6 % error). 29 groups reach
// about 17 s; larger values land in the last bucket, as in fio. The names
// are fio's FIO_IO_U_PLAT_BITS, _VAL and _GROUP_NR (plat: completion
// latency).
const (
	platBits   = 6
	platVal    = 1 << platBits
	platGroups = 29
	NumBuckets = platGroups * platVal
	exactLimit = platVal << 1
	lastBucket = NumBuckets - 1
)

// Histogram is a log-linear latency histogram in nanoseconds. The zero
// value is empty and ready to use. It is not safe for concurrent use: each
// worker records into its own and the results are merged.
type Histogram struct {
	counts [NumBuckets]uint64
	n      uint64
	min    uint64
	max    uint64
	sum    uint64
	sumSq  float64
}

// BucketIndex returns the bucket a latency of ns nanoseconds falls in.
func BucketIndex(ns uint64) int {
	if ns < exactLimit {
		return int(ns)
	}
	msb := 63 - bits.LeadingZeros64(ns)
	errorBits := msb - platBits
	base := (errorBits + 1) << platBits
	offset := int((ns >> uint(errorBits)) & (platVal - 1))
	return min(base+offset, lastBucket)
}

// BucketValue returns the value that represents bucket i: the middle of its
// range, computed as fio does, so that fio's json+ bin keys and our bucket
// indexes convert both ways exactly.
func BucketValue(i int) uint64 {
	if i < exactLimit {
		return uint64(i)
	}
	errorBits := uint(i>>platBits) - 1
	base := uint64(1) << (errorBits + platBits)
	k := uint64(i % platVal)
	return base + uint64((float64(k)+0.5)*float64(uint64(1)<<errorBits))
}

// Record adds one latency sample.
func (h *Histogram) Record(ns uint64) {
	h.counts[BucketIndex(ns)]++
	if h.n == 0 || ns < h.min {
		h.min = ns
	}
	if ns > h.max {
		h.max = ns
	}
	h.n++
	h.sum += ns
	f := float64(ns)
	h.sumSq += f * f
}

// AddBucket adds count samples to the bucket that holds valueNs, keeping
// the exact summary only approximately (at the bucket's value). It is how
// fio's json+ bins are imported; use SetExact afterwards when the exact
// min, max, mean and stddev are known.
func (h *Histogram) AddBucket(valueNs, count uint64) {
	if count == 0 {
		return
	}
	i := BucketIndex(valueNs)
	v := BucketValue(i)
	h.counts[i] += count
	if h.n == 0 || v < h.min {
		h.min = v
	}
	if v > h.max {
		h.max = v
	}
	h.n += count
	h.sum += v * count
	h.sumSq += float64(v) * float64(v) * float64(count)
}

// SetExact replaces the summary statistics with exact figures computed
// elsewhere (fio's own min, max, mean and stddev), keeping the buckets.
func (h *Histogram) SetExact(minNs, maxNs uint64, mean, stddev float64) {
	h.min, h.max = minNs, maxNs
	n := float64(h.n)
	h.sum = uint64(math.Round(mean * n))
	// Stddev is the sample standard deviation (n - 1), as fio prints it.
	h.sumSq = stddev*stddev*max(n-1, 0) + mean*mean*n
}

// Merge adds every sample of o to h.
func (h *Histogram) Merge(o *Histogram) {
	if o == nil || o.n == 0 {
		return
	}
	for i, c := range o.counts {
		h.counts[i] += c
	}
	if h.n == 0 || o.min < h.min {
		h.min = o.min
	}
	h.max = max(h.max, o.max)
	h.n += o.n
	h.sum += o.sum
	h.sumSq += o.sumSq
}

// Reset empties the histogram.
func (h *Histogram) Reset() { *h = Histogram{} }

// Count is the number of samples.
func (h *Histogram) Count() uint64 { return h.n }

// Min is the smallest sample, 0 when empty.
func (h *Histogram) Min() uint64 { return h.min }

// Max is the largest sample, 0 when empty.
func (h *Histogram) Max() uint64 { return h.max }

// Mean is the exact mean of the samples, 0 when empty.
func (h *Histogram) Mean() float64 {
	if h.n == 0 {
		return 0
	}
	return float64(h.sum) / float64(h.n)
}

// Stddev is the sample standard deviation, as fio reports it.
func (h *Histogram) Stddev() float64 {
	if h.n < 2 {
		return 0
	}
	n := float64(h.n)
	mean := float64(h.sum) / n
	variance := (h.sumSq - n*mean*mean) / (n - 1)
	if variance <= 0 {
		return 0
	}
	return math.Sqrt(variance)
}

// Percentile returns the latency below which p percent of the samples
// fall, read from the buckets as fio reads its own: the value of the
// first bucket where the running count reaches p % of the total. A
// bucket's value is the middle of its range, which can lie beyond the
// largest sample (a p99.99 of 60.03 ms with a max of 59.80 ms) or below
// the smallest; the value is then that sample, since no I/O took longer
// (or less).
func (h *Histogram) Percentile(p float64) uint64 {
	return h.Percentiles([]float64{p})[0]
}

// Percentiles returns the values for ps, which must be in ascending order,
// in one pass over the buckets.
func (h *Histogram) Percentiles(ps []float64) []uint64 {
	out := make([]uint64, len(ps))
	if h.n == 0 || len(ps) == 0 {
		return out
	}
	total := float64(h.n)
	var running uint64
	j := 0
	for i := 0; i < NumBuckets && j < len(ps); i++ {
		running += h.counts[i]
		for j < len(ps) && float64(running) >= ps[j]/100*total {
			out[j] = h.within(BucketValue(i))
			j++
		}
	}
	for ; j < len(ps); j++ {
		out[j] = h.within(BucketValue(lastBucket))
	}
	return out
}

// within is v brought within the smallest and largest sample.
func (h *Histogram) within(v uint64) uint64 {
	return min(max(v, h.min), h.max)
}

// Summary digests the histogram with the given percentiles (Percentiles).
func (h *Histogram) Summary(ps []float64) LatencySummary {
	vals := h.Percentiles(ps)
	pcts := make([]Percentile, len(ps))
	for i, p := range ps {
		pcts[i] = Percentile{P: p, Ns: vals[i]}
	}
	return LatencySummary{Min: h.min, Max: h.max, Mean: h.Mean(), Stddev: h.Stddev(), Percentiles: pcts}
}

// Buckets calls fn for every non-empty bucket in ascending order.
func (h *Histogram) Buckets(fn func(valueNs, count uint64)) {
	for i, c := range h.counts {
		if c != 0 {
			fn(BucketValue(i), c)
		}
	}
}

// histogramJSON is the stored form: exact summary figures plus the
// non-empty buckets keyed by their value in ns, as fio's json+ "bins".
type histogramJSON struct {
	N     uint64            `json:"n"`
	Min   uint64            `json:"min"`
	Max   uint64            `json:"max"`
	Sum   uint64            `json:"sum"`
	SumSq float64           `json:"sum_sq"`
	Bins  map[string]uint64 `json:"bins"`
}

// MarshalJSON writes the non-empty buckets only.
func (h *Histogram) MarshalJSON() ([]byte, error) {
	j := histogramJSON{N: h.n, Min: h.min, Max: h.max, Sum: h.sum, SumSq: h.sumSq, Bins: map[string]uint64{}}
	h.Buckets(func(v, c uint64) { j.Bins[strconv.FormatUint(v, 10)] = c })
	return json.Marshal(j)
}

// UnmarshalJSON reads the stored form and checks that the bucket counts
// add up to n, so a damaged record is noticed rather than misreported.
func (h *Histogram) UnmarshalJSON(b []byte) error {
	var j histogramJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	var hist Histogram
	keys := make([]string, 0, len(j.Bins))
	for k := range j.Bins {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var total uint64
	for _, k := range keys {
		v, err := strconv.ParseUint(k, 10, 64)
		if err != nil {
			return fmt.Errorf("histogram bin %q: not a latency in ns", k)
		}
		hist.counts[BucketIndex(v)] += j.Bins[k]
		total += j.Bins[k]
	}
	if total != j.N {
		return fmt.Errorf("histogram bins hold %d samples but n is %d", total, j.N)
	}
	hist.n, hist.min, hist.max, hist.sum, hist.sumSq = j.N, j.Min, j.Max, j.Sum, j.SumSq
	*h = hist
	return nil
}
