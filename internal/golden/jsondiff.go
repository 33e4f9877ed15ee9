package golden

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
)

// JSONDiff names the first field, in document order, where the JSON
// documents got and want differ, and how.
func JSONDiff(got, want []byte) string {
	g, errG := decodeOrdered(got)
	w, errW := decodeOrdered(want)
	if err := errors.Join(errG, errW); err != nil {
		return "not comparable as JSON: " + err.Error()
	}
	return cmp.Or(diffJSON("", g, w), "the same values laid out differently")
}

// jsonMember is a member of a JSON object decoded in order.
type jsonMember struct {
	key   string
	value any
}

// decodeOrdered decodes a JSON document keeping the order of objects'
// members ([]jsonMember) and numbers as written (json.Number).
func decodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return decodeValue(dec)
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		obj := []jsonMember{}
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			obj = append(obj, jsonMember{key.(string), v})
		}
		_, err = dec.Token()
		return obj, err
	case json.Delim('['):
		arr := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err = dec.Token()
		return arr, err
	}
	return tok, nil
}

// diffJSON says where got, found at path, first differs from want; ""
// when they are equal.
func diffJSON(path string, got, want any) string {
	switch g := got.(type) {
	case []jsonMember:
		if w, ok := want.([]jsonMember); ok {
			return diffObjects(path, g, w)
		}
	case []any:
		if w, ok := want.([]any); ok {
			return diffArrays(path, g, w)
		}
	default:
		if got == want { // scalars, of comparable types
			return ""
		}
	}
	return fmt.Sprintf("field %s is %s, the golden has %s", cmp.Or(path, "(the document)"), jsonShort(got), jsonShort(want))
}

func diffObjects(path string, got, want []jsonMember) string {
	for i := range min(len(got), len(want)) {
		g, w := fieldPath(path, got[i].key), fieldPath(path, want[i].key)
		if g != w {
			return fmt.Sprintf("field %s where the golden has %s", g, w)
		}
		if d := diffJSON(g, got[i].value, want[i].value); d != "" {
			return d
		}
	}
	switch {
	case len(got) > len(want):
		return fmt.Sprintf("field %s is new", fieldPath(path, got[len(want)].key))
	case len(got) < len(want):
		return fmt.Sprintf("field %s is gone", fieldPath(path, want[len(got)].key))
	}
	return ""
}

func diffArrays(path string, got, want []any) string {
	for i := range min(len(got), len(want)) {
		if d := diffJSON(fmt.Sprintf("%s[%d]", path, i), got[i], want[i]); d != "" {
			return d
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("field %s has %d elements, the golden %d", cmp.Or(path, "(the document)"), len(got), len(want))
	}
	return ""
}

func fieldPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// jsonShort writes a decoded JSON value for a message: a scalar as
// written, an object or array by its size.
func jsonShort(v any) string {
	switch v := v.(type) {
	case []jsonMember:
		return fmt.Sprintf("an object of %d fields", len(v))
	case []any:
		return fmt.Sprintf("an array of %d elements", len(v))
	case string:
		return fmt.Sprintf("%.80q", v)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}
