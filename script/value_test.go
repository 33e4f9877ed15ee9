package script

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
	"testing"
)

type namedInt int
type namedString string

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want any
	}{
		{"nil", nil, nil},
		{"bool", true, true},
		{"int", 42, int64(42)},
		{"int8", int8(-8), int64(-8)},
		{"uint16", uint16(16), int64(16)},
		{"uint64 that fits", uint64(1 << 62), int64(1 << 62)},
		{"named int", namedInt(7), int64(7)},
		{"int64 extremes", []int64{math.MinInt64, math.MaxInt64}, []any{int64(math.MinInt64), int64(math.MaxInt64)}},
		{"float32", float32(0.5), 0.5},
		{"float64", 812.3, 812.3},
		{"infinity", math.Inf(1), math.Inf(1)},
		{"string", "µs", "µs"},
		{"named string", namedString("rw"), "rw"},
		{"typed slice", []float64{1, 2.5}, []any{1.0, 2.5}},
		{"array", [2]string{"a", "b"}, []any{"a", "b"}},
		{"nil slice", []any(nil), []any{}},
		{"map", map[string]any{"b": 1, "a": []any{"x"}}, map[string]any{"a": []any{"x"}, "b": int64(1)}},
		{"typed map", map[string]float64{"iops": 1e6}, map[string]any{"iops": 1e6}},
		{"struct", Struct{"iops": 1.5, "lat": Struct{"p": map[string]any{"99": 812}}},
			map[string]any{"iops": 1.5, "lat": map[string]any{"p": map[string]any{"99": int64(812)}}}},
	}
	r := New("testdata", Limits{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := r.Call(context.Background(), "bridge.star", "echo", tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestStarlarkTypes(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{nil, "NoneType"},
		{uint8(1), "int"},
		{float32(1), "float"},
		{[]int{1}, "list"},
		{map[string]int{}, "dict"},
		{Struct{}, "struct"},
		{Func(func(...float64) (float64, error) { return 0, nil }), "builtin_function_or_method"},
		{Func(nil), "NoneType"},
	}
	r := New("testdata", Limits{})
	for _, tt := range tests {
		got, _, err := r.Call(context.Background(), "bridge.star", "type_of", tt.in)
		if err != nil || got != tt.want {
			t.Errorf("type(%T) = %v, %v; want %s", tt.in, got, err, tt.want)
		}
	}
}

func TestDictKeysAreSorted(t *testing.T) {
	v, err := toStarlark(map[string]int{"c": 3, "a": 1, "b": 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != `{"a": 1, "b": 2, "c": 3}` {
		t.Errorf("got %s, want the keys in order", got)
	}
}

func TestConversionErrors(t *testing.T) {
	cyclic := []any{nil}
	cyclic[0] = cyclic
	tests := []struct {
		name string
		in   any
		msg  string
	}{
		{"channel", make(chan int), `^cannot pass a Go chan int to a hook$`},
		{"pointer in a struct", Struct{"read": &struct{}{}}, `^read: cannot pass a Go \*struct \{\} to a hook$`},
		{"int keys", map[int]string{1: "a"}, `^cannot pass a Go map\[int\]string to a hook$`},
		{"cyclic", cyclic, `nested more than 100 levels deep \(does it contain itself\?\)$`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := toStarlark(tt.in)
			if err == nil || !regexp.MustCompile(tt.msg).MatchString(err.Error()) {
				t.Errorf("got %v, want an error matching %q", err, tt.msg)
			}
		})
	}
}

func TestPredeclaredModules(t *testing.T) {
	r := New("testdata", Limits{})
	got, _, err := r.Call(context.Background(), "bridge.star", "uses_math_and_json", 16)
	if err != nil || got != `{"root":4.0}` {
		t.Errorf("got %v, %v", got, err)
	}
	got, _, err = r.Call(context.Background(), "bridge.star", "makes_struct", 2)
	if want := map[string]any{"value": int64(2), "doubled": int64(4)}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
}

// quantileOf is a latency histogram reduced to its samples, enough to test
// that a hook reaches Go through a Func.
func quantileOf(samples ...float64) Func {
	sort.Float64s(samples)
	return func(args ...float64) (float64, error) {
		if len(args) != 1 {
			return 0, fmt.Errorf("want 1 argument (the percentile), got %d", len(args))
		}
		q := args[0]
		if q < 0 || q > 100 {
			return 0, fmt.Errorf("percentile %g is outside [0, 100]", q)
		}
		rank := int(math.Ceil(q/100*float64(len(samples)))) - 1
		return samples[max(rank, 0)], nil
	}
}

func TestQuantileFunc(t *testing.T) {
	read := Struct{"quantile": quantileOf(100, 200, 300, 400, 500, 600, 700, 800, 900, 1000)}
	r := New("testdata", Limits{})
	for _, tt := range []struct {
		q    any
		want float64
	}{{50, 500}, {99.0, 1000}, {0, 100}, {10.5, 200}} {
		got, _, err := r.Call(context.Background(), "bridge.star", "call_quantile", read, tt.q)
		if err != nil || got != tt.want {
			t.Errorf("quantile(%v) = %v, %v; want %v", tt.q, got, err, tt.want)
		}
	}
	_, _, err := r.Call(context.Background(), "bridge.star", "call_quantile", read, 101)
	wantError(t, err, "bridge.star:7:", `^quantile: percentile 101 is outside \[0, 100\]$`)
	_, _, err = r.Call(context.Background(), "bridge.star", "call_quantile", read, "p99")
	wantError(t, err, "bridge.star:7:", `^quantile: argument 1 has type string, want a number$`)

	point := Struct{"name": "iodepth=4", "read": Struct{"ios": 10, "quantile": read["quantile"]}}
	got, _, err := r.Call(context.Background(), "bridge.star", "describe_point", point)
	if want := "iodepth=4: 10 reads, p99 1000.0 ns"; err != nil || got != want {
		t.Errorf("got %v, %v; want %q", got, err, want)
	}
}

// FuzzRoundTrip passes JSON-like values (integers kept as int64) through
// Starlark and back, and through the hook worker's wire format and back,
// and wants them unchanged.
func FuzzRoundTrip(f *testing.F) {
	for _, seed := range []string{
		`null`, `true`, `-3`, `9223372036854775807`, `1.5e300`, `"µs"`,
		`[1, 2.5, "x", null, [true]]`,
		`{"read": {"iops": 1e6, "lat_ns": {"p": {"99": 812300, "99.9": 1.2e6}}}, "points": []}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, ok := decodeJSON(data)
		if !ok {
			return
		}
		sv, err := toStarlark(in)
		if errors.Is(err, errTooDeep) {
			return
		}
		if err != nil {
			t.Fatalf("toStarlark(%#v): %v", in, err)
		}
		out, err := fromStarlark(sv)
		if err != nil {
			t.Fatalf("fromStarlark(%s): %v", sv, err)
		}
		if !reflect.DeepEqual(in, out) {
			t.Fatalf("round trip changed the value:\n in  %#v\n out %#v", in, out)
		}
		if wired := wireRoundTrip(t, in); !reflect.DeepEqual(in, wired) {
			t.Fatalf("the wire changed the value:\n in  %#v\n out %#v", in, wired)
		}
	})
}

// wireRoundTrip sends v through the worker's encoding, as gob, and back.
func wireRoundTrip(t *testing.T, v any) any {
	t.Helper()
	var e encoder
	w, err := e.encode(v, "", 0)
	if err != nil {
		t.Fatalf("encode %#v: %v", v, err)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(w); err != nil {
		t.Fatal(err)
	}
	var back wireValue
	if err := gob.NewDecoder(&buf).Decode(&back); err != nil {
		t.Fatal(err)
	}
	return back.decode(nil)
}

// decodeJSON decodes data as one JSON value with integers as int64 and
// other numbers as float64.
func decodeJSON(data []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	return normalizeNumbers(v)
}

func normalizeNumbers(v any) (any, bool) {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i, true
		}
		f, err := x.Float64()
		return f, err == nil
	case []any:
		for i := range x {
			var ok bool
			if x[i], ok = normalizeNumbers(x[i]); !ok {
				return nil, false
			}
		}
	case map[string]any:
		for k := range x {
			var ok bool
			if x[k], ok = normalizeNumbers(x[k]); !ok {
				return nil, false
			}
		}
	}
	return v, true
}
