package script

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
)

// The values and errors that cross between drivebench and its hook worker
// (see worker.go). A value keeps its Go kind exactly (an int stays an int,
// a Struct a struct), and a Func stays in drivebench: the worker gets a
// handle and calls back through the pipe.

// wireValue is one Go value as the package documentation lists them.
type wireValue struct {
	Kind   wireKind
	Bool   bool
	Int    int64
	Uint   uint64
	Float  float64
	String string
	// List holds a list's items; Fields a map's or struct's entries in
	// name order.
	List   []wireValue
	Fields []wireField
	// Func is the handle of a Func, an index into the call's functions.
	Func int
}

type wireField struct {
	Name  string
	Value wireValue
}

type wireKind uint8

const (
	wireNone wireKind = iota
	wireBool
	wireInt
	wireUint
	wireFloat
	wireString
	wireList
	wireMap
	wireStruct
	wireFunc
)

// encoder turns Go values into wire values, keeping the Funcs it meets so
// that the worker's calls of them can be answered.
type encoder struct {
	funcs []Func
}

func (e *encoder) encode(v any, path string, depth int) (wireValue, error) {
	if depth > maxDepth {
		return wireValue{}, fmt.Errorf("%s%w", at(path), errTooDeep)
	}
	switch x := v.(type) {
	case nil:
		return wireValue{}, nil
	case Struct:
		fields, err := e.fields(reflect.ValueOf(map[string]any(x)), path, depth, true)
		return wireValue{Kind: wireStruct, Fields: fields}, err
	case Func:
		if x == nil {
			return wireValue{}, nil
		}
		e.funcs = append(e.funcs, x)
		return wireValue{Kind: wireFunc, Func: len(e.funcs) - 1}, nil
	case model:
		p, err := x.plain()
		if err != nil {
			return wireValue{}, fmt.Errorf("%s%w", at(path), err)
		}
		return e.encode(p, path, depth)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		return wireValue{Kind: wireBool, Bool: rv.Bool()}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return wireValue{Kind: wireInt, Int: rv.Int()}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return wireValue{Kind: wireUint, Uint: rv.Uint()}, nil
	case reflect.Float32, reflect.Float64:
		return wireValue{Kind: wireFloat, Float: rv.Float()}, nil
	case reflect.String:
		return wireValue{Kind: wireString, String: rv.String()}, nil
	case reflect.Slice, reflect.Array:
		list := make([]wireValue, rv.Len())
		for i := range list {
			var err error
			if list[i], err = e.encode(rv.Index(i).Interface(), fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
				return wireValue{}, err
			}
		}
		return wireValue{Kind: wireList, List: list}, nil
	case reflect.Map:
		if rv.IsNil() {
			return wireValue{}, nil
		}
		if rv.Type().Key().Kind() == reflect.String {
			fields, err := e.fields(rv, path, depth, false)
			return wireValue{Kind: wireMap, Fields: fields}, err
		}
	}
	return wireValue{}, fmt.Errorf("%scannot pass a Go %T to a hook", at(path), v)
}

// fields encodes a map with string keys, in key order.
func (e *encoder) fields(rv reflect.Value, path string, depth int, isStruct bool) ([]wireField, error) {
	keys := rv.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int {
		switch {
		case a.String() < b.String():
			return -1
		case a.String() > b.String():
			return 1
		}
		return 0
	})
	fields := make([]wireField, len(keys))
	for i, k := range keys {
		name := k.String()
		sub := fmt.Sprintf("%s[%q]", path, name)
		if isStruct {
			sub = path + "." + name
		}
		v, err := e.encode(rv.MapIndex(k).Interface(), sub, depth+1)
		if err != nil {
			return nil, err
		}
		fields[i] = wireField{Name: name, Value: v}
	}
	return fields, nil
}

// decode turns a wire value back into the Go value it was made from, with
// call standing in for each Func.
func (w wireValue) decode(call func(handle int) Func) any {
	switch w.Kind {
	case wireBool:
		return w.Bool
	case wireInt:
		return w.Int
	case wireUint:
		return w.Uint
	case wireFloat:
		return w.Float
	case wireString:
		return w.String
	case wireList:
		list := make([]any, len(w.List))
		for i, item := range w.List {
			list[i] = item.decode(call)
		}
		return list
	case wireMap, wireStruct:
		m := make(map[string]any, len(w.Fields))
		for _, f := range w.Fields {
			m[f.Name] = f.Value.decode(call)
		}
		if w.Kind == wireStruct {
			return Struct(m)
		}
		return m
	case wireFunc:
		if call == nil {
			return nil
		}
		return call(w.Func)
	}
	return nil
}

// encodeResult encodes a value a hook returned (no Funcs in it).
func encodeResult(v any) wireValue {
	var e encoder
	w, _ := e.encode(v, "", 0)
	return w
}

// wireError is an [*Error] as it crosses the pipe; its cause is named.
type wireError struct {
	File      string
	Line, Col int
	Msg       string
	Backtrace string
	Cause     string
}

// Causes that survive the crossing, so errors.Is works on either side.
var wireCauses = map[string]error{
	"steps":    ErrStepLimit,
	"time":     ErrTimeout,
	"memory":   ErrMemoryLimit,
	"canceled": context.Canceled,
	"deadline": context.DeadlineExceeded,
}

func toWireError(err error) *wireError {
	if err == nil {
		return nil
	}
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Msg: err.Error(), Err: err}
	}
	w := &wireError{File: e.File, Line: e.Line, Col: e.Col, Msg: e.Msg, Backtrace: e.Backtrace}
	for _, name := range slices.Sorted(maps.Keys(wireCauses)) {
		if errors.Is(e.Err, wireCauses[name]) {
			w.Cause = name
		}
	}
	return w
}

func (w *wireError) err() error {
	if w == nil {
		return nil
	}
	return &Error{File: w.File, Line: w.Line, Col: w.Col, Msg: w.Msg, Backtrace: w.Backtrace, Err: wireCauses[w.Cause]}
}
