package workload

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/format"
)

// Param is one coordinate of a sweep point: a parameter's name and its
// value (int64 for counts, sizes and shares, string for choices, float64
// for rates). Points of imported or repeated steps also carry
// coordinates that are no workload parameter ("file", "round").
type Param struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// UnmarshalJSON reads a parameter back as the plan wrote it: a whole
// number (a queue depth, a size in bytes) as an int64, not a float64, so
// that hooks and reports given a record read from disk see 4096, as do
// those given it during the run.
func (p *Param) UnmarshalJSON(b []byte) error {
	var raw struct {
		Name  string          `json:"name"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	p.Name = raw.Name
	dec := json.NewDecoder(bytes.NewReader(raw.Value))
	dec.UseNumber()
	var v any
	if len(raw.Value) > 0 {
		if err := dec.Decode(&v); err != nil {
			return err
		}
	}
	if n, ok := v.(json.Number); ok {
		if i, err := n.Int64(); err == nil {
			v = i
		} else if v, err = n.Float64(); err != nil {
			return err
		}
	}
	p.Value = v
	return nil
}

// ValueText writes the value for people: a transfer size in binary units
// as fio and spec sheets write it ("4KiB", "1536B"), a number in full
// ("1000000"), anything else as it is.
func (p Param) ValueText() string {
	if o := Lookup(p.Name); o != nil && o.Kind == Size {
		if n, ok := wholeNumber(p.Value); ok && n > 0 {
			return format.BlockSize(n)
		}
	}
	return valueKey(p.Value)
}

// String writes the parameter for people: "bs=4KiB".
func (p Param) String() string { return p.Name + "=" + p.ValueText() }

// Point is a sweep point: its parameters in the order the plan names
// them. A step without a sweep has an empty point.
type Point []Param

// String writes the point for people, as step names and report tables
// show it: "bs=4KiB, iodepth=4"; "" for an empty point.
func (pt Point) String() string {
	parts := make([]string, len(pt))
	for i, p := range pt {
		parts[i] = p.String()
	}
	return strings.Join(parts, ", ")
}

// Key is the point's canonical machine form, the same for a point read
// from a record as for one made during the run: "bs=4096,iodepth=4". The
// catalog stores it and matches points across runs by it.
func (pt Point) Key() string {
	parts := make([]string, len(pt))
	for i, p := range pt {
		parts[i] = p.Name + "=" + valueKey(p.Value)
	}
	return strings.Join(parts, ",")
}

// KeyPair writes one name=value pair of a point, as people type it, the
// way Key writes it: a size in the plan's units is read ("bs=4KiB" is
// "bs=4096"). A pair it cannot read is returned as it is.
func KeyPair(pair string) string {
	name, value, ok := strings.Cut(strings.TrimSpace(pair), "=")
	if o := Lookup(name); ok && o != nil && o.Kind == Size {
		if n, err := ParseSize(value); err == nil {
			return name + "=" + strconv.FormatInt(n, 10)
		}
	}
	return strings.TrimSpace(pair)
}

// Get returns the value of the named parameter and whether the point has
// it.
func (pt Point) Get(name string) (any, bool) {
	for _, p := range pt {
		if p.Name == name {
			return p.Value, true
		}
	}
	return nil, false
}

// valueKey writes a value the same way whatever its Go type: a number in
// full without exponent, so that 1e6 as a float64 during the run and
// 1000000 as an int64 read back from a record agree.
func valueKey(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// wholeNumber reads a whole number from a point's value.
func wholeNumber(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int:
		return int64(x), true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<62 {
			return int64(x), true
		}
	}
	return 0, false
}
