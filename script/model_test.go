package script

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

type modelInner struct {
	Shared string `json:"shared"`
	Deep   int    `json:"deep"`
}

type modelOuter struct {
	modelInner
	Shared   string            `json:"shared"`
	Name     string            `json:"name"`
	Skipped  string            `json:"-"`
	Empty    string            `json:"empty,omitempty"`
	Kept     []int             `json:"kept,omitempty"`
	NilList  []string          `json:"nil_list"`
	NilMap   map[string]int    `json:"nil_map"`
	NilPtr   *modelInner       `json:"nil_ptr"`
	Whole    float64           `json:"whole"`
	Half     float64           `json:"half"`
	Big      uint64            `json:"big"`
	At       time.Time         `json:"at"`
	Value    any               `json:"value"`
	Counts   map[string]uint64 `json:"counts"`
	Untagged int
	private  int
}

// TestModelIsTheJSONLayout: a value passed through Model reaches the hook
// as encoding/json would write it and a reader that keeps whole numbers
// as ints would read it back.
func TestModelIsTheJSONLayout(t *testing.T) {
	at := time.Date(2026, 12, 3, 13, 0, 0, 5, time.UTC)
	in := &modelOuter{
		modelInner: modelInner{Shared: "inner", Deep: 2}, Shared: "outer", Name: "n", Skipped: "x",
		Kept: []int{1}, Whole: 3, Half: 2.5, Big: 1 << 63, At: at, Value: 4.0,
		Counts: map[string]uint64{"a": 1}, Untagged: 7, private: 9,
	}
	got := wireRoundTrip(t, Model(in))
	want := map[string]any{
		"shared": "outer", "deep": int64(2), "name": "n", "kept": []any{int64(1)},
		"nil_list": nil, "nil_map": nil, "nil_ptr": nil, "whole": int64(3), "half": 2.5,
		"big": float64(1 << 63), "at": "2026-12-03T13:00:00.000000005Z", "value": int64(4),
		"counts": map[string]any{"a": int64(1)}, "Untagged": int64(7),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
}

// TestModelRefusesOtherJSONForms: a value with a JSON form of its own
// cannot be laid out from its fields, and the error says where it is.
func TestModelRefusesOtherJSONForms(t *testing.T) {
	var e encoder
	_, err := e.encode(Model(map[string]any{"h": ownJSON{}}), "", 0)
	if err == nil || !strings.Contains(err.Error(), `["h"]: cannot pass a Go script.ownJSON, which has a JSON form of its own`) {
		t.Errorf("error %v", err)
	}
}

type ownJSON struct{}

func (ownJSON) MarshalJSON() ([]byte, error) { return []byte(`"x"`), nil }
