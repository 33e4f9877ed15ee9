package script

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/results"
	"go.starlark.net/lib/json"
	"go.starlark.net/starlark"
)

func TestSteadyState(t *testing.T) {
	rounds := func(values ...float64) []any {
		out := make([]any, len(values))
		for i, v := range values {
			out[i] = Point{Status: "ok"}.Round(i+1, v)
		}
		return out
	}
	tests := []struct {
		function string
		rounds   []any
		args     map[string]any
		want     SteadyDecision
	}{
		{"steady_bool", rounds(1, 2), nil, SteadyDecision{}},
		{"steady_bool", rounds(1, 2, 3), nil, SteadyDecision{Steady: true}},
		{"steady_pair", rounds(5, 5), nil, SteadyDecision{true, "last two rounds equal"}},
		{"steady_dict", rounds(5, 6, 7), nil, SteadyDecision{true, "round 3"}},
		{"steady_with_args", rounds(1, 2), map[string]any{"rounds": 2}, SteadyDecision{Steady: true}},
	}
	r := New("testdata", Limits{})
	for _, tt := range tests {
		got, _, err := r.SteadyState(context.Background(), "hooks.star", tt.function, tt.rounds, tt.args)
		if err != nil || got != tt.want {
			t.Errorf("%s: got %+v, %v; want %+v", tt.function, got, err, tt.want)
		}
	}
}

func TestNextPoint(t *testing.T) {
	r := New("testdata", Limits{})
	var history []any
	var depths []int64
	for range 10 {
		params, _, err := r.NextPoint(context.Background(), "hooks.star", "double_depth", history, nil)
		if err != nil {
			t.Fatal(err)
		}
		if params == nil {
			break
		}
		depths = append(depths, params["iodepth"].(int64))
		history = append(history, Point{Params: params, Status: "ok"}.Value())
	}
	if !reflect.DeepEqual(depths, []int64{1, 2, 4, 8}) {
		t.Errorf("depths %v, want 1, 2, 4, 8 and then None", depths)
	}
}

func TestParse(t *testing.T) {
	got, _, err := New("testdata", Limits{}).Parse(context.Background(), "hooks.star", "parse_kv", "tps = 411.5\nnoise\nqps=8230\n", "", 0, nil)
	want := map[string]float64{"tps": 411.5, "qps": 8230, "exit": 0}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
}

func TestSummary(t *testing.T) {
	r := New("testdata", Limits{})
	got, _, err := r.Summary(context.Background(), "hooks.star", "summary_one", map[string]any{"plan": "p"}, nil)
	if err != nil || !reflect.DeepEqual(got, []results.SummarySection{{Title: "Plan", Text: "plan p"}}) {
		t.Errorf("one section: %+v, %v", got, err)
	}
	got, _, err = r.Summary(context.Background(), "hooks.star", "summary_full", map[string]any{}, nil)
	want := []results.SummarySection{
		{Title: "Table", Table: &results.SummaryTable{Columns: []string{"a", "b"}, Rows: [][]string{{"1", "2.5"}, {"x", ""}}}},
		{Title: "Chart", Chart: &results.SummaryChart{XLabel: "qd", Series: []results.SummarySeries{{Name: "p99", Points: [][2]float64{{1, 80}, {2, 95.5}}}}}},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("table and chart: %+v, %v", got, err)
	}
}

// Each hook result of the wrong shape is reported at the function's def
// line, saying what was returned and what is expected.
func TestHookResultErrors(t *testing.T) {
	r := New("testdata", Limits{})
	ctx := context.Background()
	call := map[string]func(fn string) error{
		"steady": func(fn string) error { _, _, err := r.SteadyState(ctx, "hooks.star", fn, []any{}, nil); return err },
		"next":   func(fn string) error { _, _, err := r.NextPoint(ctx, "hooks.star", fn, []any{}, nil); return err },
		"parse":  func(fn string) error { _, _, err := r.Parse(ctx, "hooks.star", fn, "", "", 0, nil); return err },
		"summary": func(fn string) error {
			_, _, err := r.Summary(ctx, "hooks.star", fn, map[string]any{}, nil)
			return err
		},
	}
	tests := []struct{ kind, function, msg string }{
		{"steady", "steady_returns_int", `^steady_returns_int returned a value of type int, 1; a steady_state hook must return True or False`},
		{"steady", "steady_dict_extra", `returned a dict with the key "why" \(only "steady" and "message" are allowed\)`},
		{"next", "next_empty", `returned an empty dict \(return None to stop\); next_point must return a dict`},
		{"next", "next_list", `returned a value of type list, \[1\]; next_point must return`},
		{"next", "next_bool", `returned a dict whose iodepth is a value of type bool, True, not a number or a string`},
		{"parse", "parse_string_value", `returned a dict whose tps is a value of type string, "fast", not a number; parse must return`},
		{"parse", "parse_bad_name", `returned a dict with the key "p95 ms", not a metric name`},
		{"parse", "parse_nan", `returned a dict whose x is NaN, not a finite number`},
		{"summary", "summary_no_title", `returned a section without a title string; a summary hook must return`},
		{"summary", "summary_short_row", `returned a list whose item at index 1 is a section "T" whose table is a dict whose row 0 does not have one cell for each of the 2 columns`},
		{"summary", "summary_empty", `returned a section "Nothing" with no text, table or chart`},
	}
	for _, tt := range tests {
		t.Run(tt.function, func(t *testing.T) {
			wantError(t, call[tt.kind](tt.function), marked(t, "hooks.star", tt.function), tt.msg)
		})
	}
}

func TestCheckFunction(t *testing.T) {
	tests := []struct {
		function string
		params   []string
		withArgs bool
		msg      string // regular expression; "" for no error
	}{
		{"one", []string{"history"}, false, ""},
		{"optional_second", []string{"history"}, false, ""},
		{"with_args", []string{"history"}, true, ""},
		{"kwonly_args", []string{"history"}, true, ""},
		{"with_kwargs", []string{"history"}, true, ""},
		{"varargs", []string{"stdout", "stderr", "exit_code"}, false, ""},
		{"one", []string{"stdout", "stderr", "exit_code"}, false,
			`^one takes 1 positional parameter \(a\), not 3; drivebench calls it as one\(stdout, stderr, exit_code\), so define it as def one\(stdout, stderr, exit_code\):$`},
		{"two", []string{"history"}, false, `needs a value for its parameter b, which drivebench does not pass`},
		{"one", []string{"history"}, true, `has no parameter args, but the plan gives the hook args; drivebench calls it as one\(history, args=...\), so define it as def one\(history, args\):`},
		{"with_args", []string{"history"}, false, `needs a value for its parameter args`},
		{"args_first", []string{"history"}, true, `takes args by position`},
		{"missing", []string{"history"}, false, `^no function "missing" in this file`},
	}
	r := New("testdata", Limits{})
	for _, tt := range tests {
		err := r.CheckFunction("hooks.star", tt.function, tt.params, tt.withArgs)
		if tt.msg == "" {
			if err != nil {
				t.Errorf("%s%v: %v", tt.function, tt.params, err)
			}
			continue
		}
		wantError(t, err, "hooks.star:", tt.msg)
	}
}

// FuzzHookResults feeds every reader of hook results values of any shape,
// decoded from JSON: none may panic, and each either accepts the value or
// says what is wrong with it.
func FuzzHookResults(f *testing.F) {
	for _, seed := range []string{
		`{"tps": 1, "latency_avg_ms": 2.5}`, `[{"title": "t", "text": "x"}]`,
		`{"title": "T", "table": {"columns": ["a"], "rows": [[1], [2, 3]]}}`,
		`{"title": "c", "chart": {"series": [{"name": "s", "points": [[1, 2], [3]]}]}}`,
		`[true, "steady"]`, `{"steady": false}`, `null`, `{"iodepth": 8, "bs": "4KiB"}`, `[{"status": "pass", "message": "m"}]`,
	} {
		f.Add(seed)
	}
	decode := json.Module.Members["decode"]
	f.Fuzz(func(t *testing.T, text string) {
		v, err := starlark.Call(&starlark.Thread{}, decode, starlark.Tuple{starlark.String(text)}, nil)
		if err != nil {
			return
		}
		readers := map[string]func() string{
			"parse":    func() string { _, p := parsedMetrics(v); return p },
			"summary":  func() string { _, p := summarySections(v); return p },
			"next":     func() string { _, p := nextParams(v); return p },
			"steady":   func() string { _, p := steadyDecision(v); return p },
			"verdicts": func() string { _, p := verdictsOf(v); return p },
		}
		for name, read := range readers {
			if p := read(); p != "" && strings.TrimSpace(p) == "" {
				t.Errorf("%s: a blank problem for %s", name, text)
			}
		}
	})
}
