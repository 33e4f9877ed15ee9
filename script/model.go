package script

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// Model wraps a Go value, such as the report's model, that a hook reads
// as its JSON document lays it out, without encoding it: a struct is a
// dict of its fields under their JSON names (a "-" field and an empty
// omitempty one are left out, an embedded struct's fields join its
// parent's), a time is its RFC 3339 text, a nil pointer, slice or map is
// None, and a whole number that fits in 64 bits is an int, so that the
// hook sees what the file holds. A value with a JSON form of its own
// (MarshalJSON) other than a time cannot be passed.
func Model(v any) any { return model{reflect.ValueOf(v)} }

// model is a value passed through Model; the converters ask it for its
// plain value one level at a time.
type model struct{ rv reflect.Value }

var (
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
)

// plain is the value one level down, as the package's converters take
// it: nil, bool, int64, float64, string, []any or map[string]any, whose
// elements are models in turn.
func (m model) plain() (any, error) {
	rv := m.rv
	if !rv.IsValid() {
		return nil, nil
	}
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil, nil
		}
		return model{rv.Elem()}.plain()
	}
	if rv.Type().Implements(textMarshaler) {
		text, err := rv.Interface().(encoding.TextMarshaler).MarshalText()
		return string(text), err
	}
	if rv.Type().Implements(jsonMarshaler) || reflect.PointerTo(rv.Type()).Implements(jsonMarshaler) {
		return nil, fmt.Errorf("cannot pass a Go %s, which has a JSON form of its own, to a hook", rv.Type())
	}
	switch rv.Kind() {
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if u := rv.Uint(); u <= math.MaxInt64 {
			return int64(u), nil
		}
		return float64(rv.Uint()), nil
	case reflect.Float32, reflect.Float64:
		return wholeAsInt(rv.Float()), nil
	case reflect.String:
		return rv.String(), nil
	case reflect.Slice, reflect.Array:
		return modelList(rv), nil
	case reflect.Map:
		return modelDict(rv)
	case reflect.Struct:
		fields := map[string]any{}
		modelFields(rv, fields)
		return fields, nil
	}
	return nil, fmt.Errorf("cannot pass a Go %s to a hook", rv.Type())
}

// wholeAsInt is f as an int when it is whole and fits in 64 bits, as a
// JSON reader that prefers ints reads it back.
func wholeAsInt(f float64) any {
	if f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64 {
		return int64(f)
	}
	return f
}

func modelList(rv reflect.Value) any {
	if rv.Kind() == reflect.Slice && rv.IsNil() {
		return nil
	}
	list := make([]any, rv.Len())
	for i := range list {
		list[i] = model{rv.Index(i)}
	}
	return list
}

func modelDict(rv reflect.Value) (any, error) {
	if rv.IsNil() {
		return nil, nil
	}
	dict := make(map[string]any, rv.Len())
	for it := rv.MapRange(); it.Next(); {
		k := it.Key()
		var key string
		switch k.Kind() {
		case reflect.String:
			key = k.String()
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			key = strconv.FormatInt(k.Int(), 10)
		default:
			return nil, fmt.Errorf("cannot pass a Go %s, a map keyed by %s, to a hook", rv.Type(), k.Type())
		}
		dict[key] = model{it.Value()}
	}
	return dict, nil
}

// modelFields adds a struct's fields to fields under their JSON names;
// an embedded struct's fields come after its parent's own, which win a
// clash of names.
func modelFields(rv reflect.Value, fields map[string]any) {
	t := rv.Type()
	var embedded []reflect.Value
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" && opts == "":
			continue
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			embedded = append(embedded, rv.Field(i))
			continue
		case !f.IsExported():
			continue
		}
		v := rv.Field(i)
		if strings.Contains(","+opts+",", ",omitempty,") && emptyValue(v) {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = model{v}
	}
	for _, e := range embedded {
		inner := map[string]any{}
		modelFields(e, inner)
		for k, v := range inner {
			if _, taken := fields[k]; !taken {
				fields[k] = v
			}
		}
	}
}

// emptyValue is encoding/json's test for omitempty.
func emptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
