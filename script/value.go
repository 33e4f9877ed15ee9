package script

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// Struct is a Go value that a hook sees as a Starlark struct, so that it
// writes p.read.iops rather than p["read"]["iops"]. Fields keep their Go
// values, converted like any other.
type Struct map[string]any

// Func is a Go function that a hook can call with numeric arguments, such as
// quantile(99.0) over a latency histogram that stays in Go. An error it
// returns stops the hook at the call.
type Func func(args ...float64) (float64, error)

// maxDepth bounds the nesting of converted values, in both directions, so
// that a value that contains itself is an error rather than a stack overflow.
const maxDepth = 100

var errTooDeep = fmt.Errorf("value nested more than %d levels deep (does it contain itself?)", maxDepth)

// toStarlark converts a Go value for a hook, as the package documentation
// describes, and freezes it.
func toStarlark(v any) (starlark.Value, error) {
	sv, err := goToStarlark(v, "", "", 0)
	if err != nil {
		return nil, err
	}
	sv.Freeze()
	return sv, nil
}

// goToStarlark converts v, found at path (for messages) under the field or
// key name (for builtin names).
func goToStarlark(v any, path, name string, depth int) (starlark.Value, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%s%w", at(path), errTooDeep)
	}
	switch x := v.(type) {
	case nil:
		return starlark.None, nil
	case Struct:
		return structToStarlark(x, path, depth)
	case Func:
		if x == nil {
			return starlark.None, nil
		}
		return funcToStarlark(x, name), nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		return starlark.Bool(rv.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return starlark.MakeInt64(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return starlark.MakeUint64(rv.Uint()), nil
	case reflect.Float32, reflect.Float64:
		return starlark.Float(rv.Float()), nil
	case reflect.String:
		return starlark.String(rv.String()), nil
	case reflect.Slice, reflect.Array:
		return listToStarlark(rv, path, depth)
	case reflect.Map:
		if rv.Type().Key().Kind() == reflect.String {
			return dictToStarlark(rv, path, depth)
		}
	}
	return nil, fmt.Errorf("%scannot pass a Go %T to a hook", at(path), v)
}

func listToStarlark(rv reflect.Value, path string, depth int) (starlark.Value, error) {
	elems := make([]starlark.Value, rv.Len())
	for i := range elems {
		var err error
		elems[i], err = goToStarlark(rv.Index(i).Interface(), fmt.Sprintf("%s[%d]", path, i), "", depth+1)
		if err != nil {
			return nil, err
		}
	}
	return starlark.NewList(elems), nil
}

func dictToStarlark(rv reflect.Value, path string, depth int) (starlark.Value, error) {
	keys := rv.MapKeys()
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	d := starlark.NewDict(len(keys))
	for _, k := range keys {
		key := k.String()
		v, err := goToStarlark(rv.MapIndex(k).Interface(), fmt.Sprintf("%s[%q]", path, key), key, depth+1)
		if err != nil {
			return nil, err
		}
		if err := d.SetKey(starlark.String(key), v); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func structToStarlark(s Struct, path string, depth int) (starlark.Value, error) {
	fields := make(starlark.StringDict, len(s))
	for _, name := range slices.Sorted(maps.Keys(s)) {
		sv, err := goToStarlark(s[name], path+"."+name, name, depth+1)
		if err != nil {
			return nil, err
		}
		fields[name] = sv
	}
	return starlarkstruct.FromStringDict(starlarkstruct.Default, fields), nil
}

// funcToStarlark makes f callable from Starlark as name(x, ...), where each
// argument is an int or a float.
func funcToStarlark(f Func, name string) starlark.Value {
	if name == "" {
		name = "function"
	}
	return starlark.NewBuiltin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(kwargs) > 0 {
			return nil, fmt.Errorf("%s: unexpected keyword argument %s; pass numbers by position", b.Name(), kwargs[0][0])
		}
		xs := make([]float64, len(args))
		for i, a := range args {
			x, ok := starlark.AsFloat(a)
			if !ok {
				return nil, fmt.Errorf("%s: argument %d has type %s, want a number", b.Name(), i+1, a.Type())
			}
			xs[i] = x
		}
		y, err := f(xs...)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", b.Name(), err)
		}
		return starlark.Float(y), nil
	})
}

// at prefixes a message with the place of a value, if it has one.
func at(path string) string {
	if path == "" {
		return ""
	}
	return strings.TrimPrefix(path, ".") + ": "
}

// fromStarlark converts a hook's result to Go, as the package documentation
// describes.
func fromStarlark(v starlark.Value) (any, error) {
	return starlarkToGo(v, "", 0)
}

func starlarkToGo(v starlark.Value, path string, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%s%w", at(path), errTooDeep)
	}
	switch x := v.(type) {
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(x), nil
	case starlark.Int:
		i, ok := x.Int64()
		if !ok {
			return nil, fmt.Errorf("%sint %s does not fit in 64 bits", at(path), x)
		}
		return i, nil
	case starlark.Float:
		return float64(x), nil
	case starlark.String:
		return string(x), nil
	case *starlark.List:
		return sequenceToGo(x, path, depth)
	case starlark.Tuple:
		return sequenceToGo(x, path, depth)
	case *starlark.Dict:
		return dictToGo(x, path, depth)
	case *starlarkstruct.Struct:
		return structToGo(x, path, depth)
	}
	return nil, fmt.Errorf("%sa value of type %s cannot be converted (use None, bool, int, float, string, list, tuple, dict or struct)",
		at(path), v.Type())
}

func sequenceToGo(seq starlark.Indexable, path string, depth int) (any, error) {
	out := make([]any, seq.Len())
	for i := range out {
		var err error
		out[i], err = starlarkToGo(seq.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1)
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func dictToGo(d *starlark.Dict, path string, depth int) (any, error) {
	out := make(map[string]any, d.Len())
	for _, item := range d.Items() {
		key, ok := item[0].(starlark.String)
		if !ok {
			return nil, fmt.Errorf("%sdict key %s has type %s; only string keys can be converted",
				at(path), item[0], item[0].Type())
		}
		v, err := starlarkToGo(item[1], fmt.Sprintf("%s[%q]", path, string(key)), depth+1)
		if err != nil {
			return nil, err
		}
		out[string(key)] = v
	}
	return out, nil
}

func structToGo(s *starlarkstruct.Struct, path string, depth int) (any, error) {
	out := make(map[string]any, s.Len())
	for name, v := range s.Entries() {
		gv, err := starlarkToGo(v, path+"."+name, depth+1)
		if err != nil {
			return nil, err
		}
		out[name] = gv
	}
	return out, nil
}
