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

// TestOldFigureNames finds where a hook reads a figure by its old name,
// at its place, with the name to write, and nothing in a hook that uses
// the registry's names.
func TestOldFigureNames(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root+"/checks", "old.star", `def check(run):
    p = run.points[0]
    if p.read.lat_ns.p["99"] > 1000 and p.read.lat_ns.mean > 10:
        return verdict.fail(str(p.read.lat_ns.p["99.5"]))
    lat = p.read.lat_ns
    worst = max([s.mean_lat_ns for s in p.series] + [s.mean_ns for s in p.series])
    return verdict.pass_("%d" % p.read.p99_ns)

def summary(report):
    return [{"title": "t", "text": str(report["steps"][0]["series"][0]["mean_lat_ns"])}]
`)
	notes := New(root, Limits{}).OldFigureNames("checks/old.star")
	want := []string{
		`checks/old.star:3:15: lat_ns.p["99"] is the old name of the p99 latency: write .p99_ns`,
		`checks/old.star:3:48: lat_ns.mean is the old name of the mean latency: write .mean_ns`,
		`checks/old.star:6:20: mean_lat_ns is the old name of the mean latency in a step's series: write .mean_ns`,
		`checks/old.star:10:72: mean_lat_ns is the old name of the mean latency in a step's series: write ["mean_ns"]`,
	}
	if len(notes) != len(want) {
		t.Fatalf("notes %q, want %q", notes, want)
	}
	for i := range want {
		if !strings.HasPrefix(notes[i], want[i]) {
			t.Errorf("note %d = %q, want it to start %q", i, notes[i], want[i])
		}
	}
	if notes := New(root, Limits{}).OldFigureNames("checks/missing.star"); notes != nil {
		t.Errorf("a missing file gives notes %q", notes)
	}
}
