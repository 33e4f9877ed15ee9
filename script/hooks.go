package script

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/results"
	"go.starlark.net/starlark"
)

// The hooks besides checks. Each is called with the values its
// documentation names, by position, and with the keyword argument args
// when the plan gives the hook args (nil passes none). Each checks what
// the hook returns and reports a value of the wrong shape as an [*Error]
// at the function's definition, saying what the hook must return.

// SteadyDecision is a steady_state hook's judgement of the rounds so far.
type SteadyDecision struct {
	Steady bool
	// Message says why, for the report; it may be empty.
	Message string
}

const steadyHelp = `a steady_state hook must return True or False, a tuple (steady, message), ` +
	`or a dict {"steady": ..., "message": ...}`

// SteadyState calls steady_state(rounds), a plan's own rule for deciding
// that a drive is steady, with the rounds measured so far.
func (r *Runtime) SteadyState(ctx context.Context, file, function string, rounds any, args map[string]any) (SteadyDecision, []string, error) {
	if !r.inWorker {
		res, err := r.remote(ctx, &callRequest{Op: opSteady, File: file, Function: function}, args, rounds)
		if res == nil {
			return SteadyDecision{}, nil, err
		}
		return res.Steady, res.Prints, err
	}
	var d SteadyDecision
	prints, err := r.invoke(ctx, file, function, []any{rounds}, args, steadyHelp, func(v starlark.Value) (problem string) {
		d, problem = steadyDecision(v)
		return problem
	})
	return d, prints, err
}

// steadyDecision reads a steady_state hook's result.
func steadyDecision(v starlark.Value) (SteadyDecision, string) {
	switch x := v.(type) {
	case starlark.Bool:
		return SteadyDecision{Steady: bool(x)}, ""
	case starlark.Tuple:
		return steadyPair(x)
	case *starlark.List:
		return steadyPair(starlark.Tuple(listItems(x)))
	case *starlark.Dict:
		return steadyDict(x)
	}
	return SteadyDecision{}, describe(v)
}

func listItems(l *starlark.List) []starlark.Value {
	items := make([]starlark.Value, l.Len())
	for i := range items {
		items[i] = l.Index(i)
	}
	return items
}

// steadyPair reads (steady, message).
func steadyPair(t starlark.Tuple) (SteadyDecision, string) {
	if len(t) != 2 {
		return SteadyDecision{}, fmt.Sprintf("a sequence of %d items, not 2", len(t))
	}
	steady, ok := t[0].(starlark.Bool)
	if !ok {
		return SteadyDecision{}, "a pair whose first item is " + describe(t[0]) + ", not True or False"
	}
	msg, ok := starlark.AsString(t[1])
	if !ok {
		return SteadyDecision{}, "a pair whose second item is " + describe(t[1]) + ", not a string"
	}
	return SteadyDecision{Steady: bool(steady), Message: msg}, ""
}

// steadyDict reads {"steady": ..., "message": ...}.
func steadyDict(d *starlark.Dict) (SteadyDecision, string) {
	var out SteadyDecision
	seen := false
	for _, item := range d.Items() {
		key, _ := starlark.AsString(item[0])
		switch key {
		case "steady":
			b, ok := item[1].(starlark.Bool)
			if !ok {
				return out, "a dict whose steady is " + describe(item[1]) + ", not True or False"
			}
			out.Steady, seen = bool(b), true
		case "message":
			m, ok := starlark.AsString(item[1])
			if !ok {
				return out, "a dict whose message is " + describe(item[1]) + ", not a string"
			}
			out.Message = m
		default:
			return out, fmt.Sprintf(`a dict with the key %s (only "steady" and "message" are allowed)`, item[0])
		}
	}
	if !seen {
		return out, `a dict without "steady"`
	}
	return out, ""
}

const nextPointHelp = `next_point must return a dict of the next point's parameters, such as {"iodepth": 8}, ` +
	`or None to stop`

// NextPoint calls next_point(history), an adaptive sweep, with the points
// measured so far. It returns the next point's parameters (int64, float64
// or string values by name), or nil when the hook returned None to stop.
func (r *Runtime) NextPoint(ctx context.Context, file, function string, history any, args map[string]any) (map[string]any, []string, error) {
	if !r.inWorker {
		res, err := r.remote(ctx, &callRequest{Op: opNext, File: file, Function: function}, args, history)
		if res == nil {
			return nil, nil, err
		}
		next, _ := res.Value.decode(nil).(map[string]any)
		return next, res.Prints, err
	}
	var params map[string]any
	prints, err := r.invoke(ctx, file, function, []any{history}, args, nextPointHelp, func(v starlark.Value) (problem string) {
		params, problem = nextParams(v)
		return problem
	})
	return params, prints, err
}

// nextParams reads a next_point hook's result.
func nextParams(v starlark.Value) (map[string]any, string) {
	if v == starlark.None {
		return nil, ""
	}
	d, ok := v.(*starlark.Dict)
	if !ok {
		return nil, describe(v)
	}
	if d.Len() == 0 {
		return nil, "an empty dict (return None to stop)"
	}
	out := map[string]any{}
	for _, item := range d.Items() {
		key, ok := item[0].(starlark.String)
		if !ok {
			return nil, fmt.Sprintf("a dict with the key %s, not a parameter name", item[0])
		}
		switch x := item[1].(type) {
		case starlark.Int:
			n, ok := x.Int64()
			if !ok {
				return nil, fmt.Sprintf("a dict whose %s, %s, does not fit in 64 bits", string(key), x)
			}
			out[string(key)] = n
		case starlark.Float:
			out[string(key)] = float64(x)
		case starlark.String:
			out[string(key)] = string(x)
		default:
			return nil, fmt.Sprintf("a dict whose %s is %s, not a number or a string", string(key), describe(item[1]))
		}
	}
	return out, ""
}

const parseHelp = `parse must return a dict of metric names to numbers, such as {"tps": 411.4, "latency_avg_ms": 19.4}`

// metricName is what a metric's name looks like: something a plan can
// write as result.metrics.<name>.
var metricName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Parse calls parse(stdout, stderr, exit_code), which turns an external
// command's output into named metrics.
func (r *Runtime) Parse(ctx context.Context, file, function, stdout, stderr string, exitCode int, args map[string]any) (map[string]float64, []string, error) {
	if !r.inWorker {
		res, err := r.remote(ctx, &callRequest{Op: opParse, File: file, Function: function,
			Stdout: stdout, Stderr: stderr, ExitCode: exitCode}, args)
		if res == nil {
			return nil, nil, err
		}
		return res.Metrics, res.Prints, err
	}
	var metrics map[string]float64
	prints, err := r.invoke(ctx, file, function, []any{stdout, stderr, exitCode}, args, parseHelp, func(v starlark.Value) (problem string) {
		metrics, problem = parsedMetrics(v)
		return problem
	})
	return metrics, prints, err
}

// parsedMetrics reads a parse hook's result.
func parsedMetrics(v starlark.Value) (map[string]float64, string) {
	d, ok := v.(*starlark.Dict)
	if !ok {
		return nil, describe(v)
	}
	out := make(map[string]float64, d.Len())
	for _, item := range d.Items() {
		key, ok := starlark.AsString(item[0])
		if !ok || !metricName.MatchString(key) {
			return nil, fmt.Sprintf("a dict with the key %s, not a metric name (letters, digits and _, as in latency_p95_ms)", item[0])
		}
		f, ok := number(item[1])
		if !ok {
			return nil, fmt.Sprintf("a dict whose %s is %s, not a number", key, describe(item[1]))
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Sprintf("a dict whose %s is %g, not a finite number", key, f)
		}
		out[key] = f
	}
	return out, ""
}

// number reads an int or a float, but not a bool.
func number(v starlark.Value) (float64, bool) {
	switch x := v.(type) {
	case starlark.Int, starlark.Float:
		return starlark.AsFloat(x)
	}
	return 0, false
}

// A summary hook's sections are results.SummarySection values: the hook
// returns the format summary.json stores, with nothing to copy between.

const summaryHelp = `a summary hook must return a section {"title": ..., "text": ...}, with an optional ` +
	`"table" {"columns": [...], "rows": [[...], ...]} and "chart" {"series": [{"name": ..., "points": [[x, y], ...]}]}, ` +
	`or a list of sections`

// Summary calls summary(report), which adds sections to the report of a
// run; report is the run described as plain values.
func (r *Runtime) Summary(ctx context.Context, file, function string, report any, args map[string]any) ([]results.SummarySection, []string, error) {
	if !r.inWorker {
		res, err := r.remote(ctx, &callRequest{Op: opSummary, File: file, Function: function}, args, report)
		if res == nil {
			return nil, nil, err
		}
		return res.Sections, res.Prints, err
	}
	var sections []results.SummarySection
	prints, err := r.invoke(ctx, file, function, []any{report}, args, summaryHelp, func(v starlark.Value) (problem string) {
		sections, problem = summarySections(v)
		return problem
	})
	return sections, prints, err
}

// summarySections reads a summary hook's result: one section or a list.
func summarySections(v starlark.Value) ([]results.SummarySection, string) {
	g, err := fromStarlark(v)
	if err != nil {
		return nil, err.Error()
	}
	items, isList := g.([]any)
	if !isList {
		if _, isDict := g.(map[string]any); !isDict {
			return nil, describe(v)
		}
		items = []any{g}
	}
	sections := make([]results.SummarySection, 0, len(items))
	for i, item := range items {
		s, problem := section(item)
		if problem != "" {
			if isList {
				problem = fmt.Sprintf("a list whose item at index %d is %s", i, problem)
			}
			return nil, problem
		}
		sections = append(sections, s)
	}
	return sections, ""
}

// fields checks that m has only the allowed keys.
func fields(m map[string]any, what string, allowed ...string) string {
	for _, k := range sortedKeys(m) {
		if !contains(allowed, k) {
			return fmt.Sprintf("%s with the key %q (allowed: %s)", what, k, strings.Join(allowed, ", "))
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// section reads one section dict.
func section(v any) (results.SummarySection, string) {
	m, ok := v.(map[string]any)
	if !ok {
		return results.SummarySection{}, fmt.Sprintf("a %s, not a section dict", goTypeName(v))
	}
	if p := fields(m, "a section", "title", "text", "table", "chart"); p != "" {
		return results.SummarySection{}, p
	}
	var s results.SummarySection
	var ok1, ok2 bool
	s.Title, ok1 = m["title"].(string)
	s.Text, ok2 = m["text"].(string)
	switch {
	case !ok1 || s.Title == "":
		return s, "a section without a title string"
	case m["text"] != nil && !ok2:
		return s, fmt.Sprintf("a section %q whose text is a %s, not a string", s.Title, goTypeName(m["text"]))
	}
	var problem string
	if m["table"] != nil {
		if s.Table, problem = table(m["table"]); problem != "" {
			return s, fmt.Sprintf("a section %q whose table is %s", s.Title, problem)
		}
	}
	if m["chart"] != nil {
		if s.Chart, problem = chart(m["chart"]); problem != "" {
			return s, fmt.Sprintf("a section %q whose chart is %s", s.Title, problem)
		}
	}
	if s.Text == "" && s.Table == nil && s.Chart == nil {
		return s, fmt.Sprintf("a section %q with no text, table or chart", s.Title)
	}
	return s, ""
}

// table reads {"columns": [...], "rows": [[...], ...]}.
func table(v any) (*results.SummaryTable, string) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, "a " + goTypeName(v) + ", not a dict"
	}
	if p := fields(m, "a dict", "columns", "rows"); p != "" {
		return nil, p
	}
	cols, ok := m["columns"].([]any)
	if !ok || len(cols) == 0 {
		return nil, "a dict without a list of columns"
	}
	t := &results.SummaryTable{}
	for _, c := range cols {
		t.Columns = append(t.Columns, cell(c))
	}
	rows, _ := m["rows"].([]any)
	for i, r := range rows {
		cells, ok := r.([]any)
		if !ok || len(cells) != len(cols) {
			return nil, fmt.Sprintf("a dict whose row %d does not have one cell for each of the %d columns", i, len(cols))
		}
		row := make([]string, len(cells))
		for j, c := range cells {
			row[j] = cell(c)
		}
		t.Rows = append(t.Rows, row)
	}
	return t, ""
}

// cell shows a table cell's value as text.
func cell(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// chart reads {"title", "x_label", "y_label", "series": [...]}.
func chart(v any) (*results.SummaryChart, string) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, "a " + goTypeName(v) + ", not a dict"
	}
	if p := fields(m, "a dict", "title", "x_label", "y_label", "series"); p != "" {
		return nil, p
	}
	c := &results.SummaryChart{}
	c.Title, _ = m["title"].(string)
	c.XLabel, _ = m["x_label"].(string)
	c.YLabel, _ = m["y_label"].(string)
	list, ok := m["series"].([]any)
	if !ok || len(list) == 0 {
		return nil, "a dict without a list of series"
	}
	for i, item := range list {
		s, problem := series(item)
		if problem != "" {
			return nil, fmt.Sprintf("a dict whose series %d is %s", i, problem)
		}
		c.Series = append(c.Series, s)
	}
	return c, ""
}

// series reads {"name": ..., "points": [[x, y], ...]}.
func series(v any) (results.SummarySeries, string) {
	m, ok := v.(map[string]any)
	if !ok {
		return results.SummarySeries{}, "a " + goTypeName(v) + ", not a dict"
	}
	if p := fields(m, "a dict", "name", "points"); p != "" {
		return results.SummarySeries{}, p
	}
	s := results.SummarySeries{}
	s.Name, _ = m["name"].(string)
	points, ok := m["points"].([]any)
	if !ok {
		return s, "a dict without a list of points"
	}
	for i, p := range points {
		xy, ok := p.([]any)
		if !ok || len(xy) != 2 {
			return s, fmt.Sprintf("a dict whose point %d is not a pair [x, y]", i)
		}
		x, okx := goNumber(xy[0])
		y, oky := goNumber(xy[1])
		if !okx || !oky {
			return s, fmt.Sprintf("a dict whose point %d is not a pair of numbers", i)
		}
		s.Points = append(s.Points, [2]float64{x, y})
	}
	return s, ""
}

// goNumber reads a converted int or float.
func goNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	}
	return 0, false
}

// goTypeName names the Starlark type of a converted value.
func goTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "None"
	case bool:
		return "bool"
	case int64:
		return "int"
	case float64:
		return "float"
	case string:
		return "string"
	case []any:
		return "list"
	}
	return "dict"
}

// invoke calls a hook with args by position and hookArgs as the keyword
// argument args (when not nil), and hands its result to read, which says
// what is wrong with it or returns "".
func (r *Runtime) invoke(ctx context.Context, file, function string, args []any, hookArgs map[string]any,
	help string, read func(starlark.Value) string) ([]string, error) {
	s, err := r.newSession(ctx, file)
	if err != nil {
		return nil, err
	}
	defer s.stop()
	var kwargs map[string]any
	if hookArgs != nil {
		kwargs = map[string]any{"args": hookArgs}
	}
	v, fn, err := s.call(function, args, kwargs)
	if err != nil {
		return s.prints, err
	}
	if problem := read(v); problem != "" {
		return s.prints, errorAt(functionPos(fn, s.main.name), fmt.Sprintf("%s returned %s; %s", function, problem, help), nil)
	}
	return s.prints, nil
}
