package metrics

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// histogramBinaryVersion is the first byte of the binary form; a reader
// refuses any other.
const histogramBinaryVersion = 1

// MarshalBinary writes the histogram compactly, for stores that keep
// millions of them (the catalog): a version byte, then unsigned varints
// n, min, max and sum, sum_sq as 8 little-endian bytes of a float64, the
// number of non-empty buckets, and for each one in ascending order the
// distance of its index from the previous one's (from -1 for the first)
// and its count. Bucket indexes are those of BucketIndex, so the form
// converts to and from the JSON one exactly.
func (h *Histogram) MarshalBinary() ([]byte, error) {
	buf := make([]byte, 0, 64)
	buf = append(buf, histogramBinaryVersion)
	buf = binary.AppendUvarint(buf, h.n)
	buf = binary.AppendUvarint(buf, h.min)
	buf = binary.AppendUvarint(buf, h.max)
	buf = binary.AppendUvarint(buf, h.sum)
	buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(h.sumSq))
	nonEmpty := 0
	for _, c := range h.counts {
		if c != 0 {
			nonEmpty++
		}
	}
	buf = binary.AppendUvarint(buf, uint64(nonEmpty))
	prev := -1
	for i, c := range h.counts {
		if c != 0 {
			buf = binary.AppendUvarint(buf, uint64(i-prev))
			buf = binary.AppendUvarint(buf, c)
			prev = i
		}
	}
	return buf, nil
}

// UnmarshalBinary reads the form MarshalBinary writes and checks that the
// bucket counts add up to n and the sum of squares is a finite number.
// It decodes in place, so that one histogram can take many in turn
// without a copy of its buckets each time; on an error h is left empty.
func (h *Histogram) UnmarshalBinary(data []byte) error {
	h.Reset()
	if err := h.decodeBinary(data); err != nil {
		h.Reset()
		return err
	}
	return nil
}

func (h *Histogram) decodeBinary(data []byte) error {
	if len(data) == 0 || data[0] != histogramBinaryVersion {
		return errors.New("histogram: not a version 1 binary histogram")
	}
	r := &uvarintReader{data: data[1:]}
	h.n, h.min, h.max, h.sum = r.next(), r.next(), r.next(), r.next()
	h.sumSq = math.Float64frombits(r.fixed64())
	if math.IsNaN(h.sumSq) || math.IsInf(h.sumSq, 0) || h.sumSq < 0 {
		return errors.New("histogram: the sum of squares is not a finite, non-negative number")
	}
	nonEmpty := r.next()
	idx := -1
	var total uint64
	for k := uint64(0); k < nonEmpty && r.err == nil; k++ {
		step, count := r.next(), r.next()
		if step == 0 || step > NumBuckets || idx+int(step) >= NumBuckets {
			return errors.New("histogram: bucket index out of range")
		}
		idx += int(step)
		h.counts[idx] = count
		total += count
	}
	if r.err != nil {
		return r.err
	}
	if len(r.data) != 0 {
		return errors.New("histogram: trailing bytes after the buckets")
	}
	if total != h.n {
		return fmt.Errorf("histogram buckets hold %d samples but n is %d", total, h.n)
	}
	return nil
}

// uvarintReader reads varints until the first error, which it keeps.
type uvarintReader struct {
	data []byte
	err  error
}

func (r *uvarintReader) next() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.data)
	if n <= 0 {
		r.err = errors.New("histogram: truncated binary histogram")
		return 0
	}
	r.data = r.data[n:]
	return v
}

func (r *uvarintReader) fixed64() uint64 {
	if r.err != nil {
		return 0
	}
	if len(r.data) < 8 {
		r.err = errors.New("histogram: truncated binary histogram")
		return 0
	}
	v := binary.LittleEndian.Uint64(r.data)
	r.data = r.data[8:]
	return v
}
