package script

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// hooktestModule is the hooktest module of test files; read() reaches
// files inside root only.
func hooktestModule(r root) starlark.Value {
	return module("hooktest", map[string]builtinFunc{
		"point":      testPoint,
		"run":        testRun,
		"rounds":     testRounds,
		"verdicts":   testVerdicts,
		"metrics":    testMetrics,
		"next_point": testNextPoint,
		"steady":     testSteady,
		"sections":   testSections,
		"read":       r.testRead,
	})
}

// testPoint builds a point as the engine passes it: point(params, read,
// write, metrics, status, name, series). read and write are dicts with
// lat_us (the I/Os' latencies in µs), and optionally iops, bw_bytes and
// bytes.
func testPoint(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var params, read, write, metrics *starlark.Dict
	var series *starlark.List
	status, name := "ok", ""
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "params?", &params, "read?", &read, "write?", &write,
		"metrics?", &metrics, "status?", &status, "name?", &name, "series?", &series); err != nil {
		return nil, err
	}
	p := Point{Status: status, Name: name}
	var err error
	if p.Params, err = plainDict(params); err != nil {
		return nil, fmt.Errorf("%s: params: %v", b.Name(), err)
	}
	if p.Name == "" {
		p.Name = paramsName(p.Params)
	}
	if p.Read, err = testDirection(read); err != nil {
		return nil, fmt.Errorf("%s: read: %v", b.Name(), err)
	}
	if p.Write, err = testDirection(write); err != nil {
		return nil, fmt.Errorf("%s: write: %v", b.Name(), err)
	}
	if p.Metrics, err = numberDict(metrics); err != nil {
		return nil, fmt.Errorf("%s: metrics: %v", b.Name(), err)
	}
	if p.Series, err = testSeries(series); err != nil {
		return nil, fmt.Errorf("%s: series: %v", b.Name(), err)
	}
	return toStarlark(p.Value())
}

// paramsName names a point by its parameters in name order, as
// "iodepth=4,numjobs=2".
func paramsName(params map[string]any) string {
	parts := make([]string, 0, len(params))
	for _, k := range sortedKeys(params) {
		parts = append(parts, fmt.Sprintf("%s=%v", k, params[k]))
	}
	return strings.Join(parts, ",")
}

// plainDict converts an optional dict to Go.
func plainDict(d *starlark.Dict) (map[string]any, error) {
	if d == nil {
		return map[string]any{}, nil
	}
	g, err := fromStarlark(d)
	if err != nil {
		return nil, err
	}
	return g.(map[string]any), nil
}

// numberDict converts an optional dict of numbers.
func numberDict(d *starlark.Dict) (map[string]float64, error) {
	out := map[string]float64{}
	if d == nil {
		return out, nil
	}
	for _, item := range d.Items() {
		key, ok := starlark.AsString(item[0])
		f, isNum := number(item[1])
		if !ok || !isNum {
			return nil, fmt.Errorf("%s = %s: want a name and a number", item[0], item[1])
		}
		out[key] = f
	}
	return out, nil
}

// testDirection builds a direction from sample latencies in µs; the
// percentiles and quantile are exact over the samples.
func testDirection(d *starlark.Dict) (*Direction, error) {
	if d == nil {
		return nil, nil
	}
	fields := map[string]starlark.Value{}
	for _, item := range d.Items() {
		key, _ := starlark.AsString(item[0])
		if !contains([]string{"lat_us", "iops", "bw_bytes", "bytes"}, key) {
			return nil, fmt.Errorf("unknown key %s (it has lat_us, iops, bw_bytes and bytes)", item[0])
		}
		fields[key] = item[1]
	}
	list, ok := fields["lat_us"].(*starlark.List)
	if !ok || list.Len() == 0 {
		return nil, fmt.Errorf("lat_us must be a non-empty list of the I/Os' latencies in µs")
	}
	samples := make([]float64, list.Len())
	for i := range samples {
		us, ok := number(list.Index(i))
		if !ok || us < 0 {
			return nil, fmt.Errorf("lat_us[%d] = %s is not a latency", i, list.Index(i))
		}
		samples[i] = us * 1000
	}
	dir := directionOf(samples)
	dir.Stats.IOPS, _ = optionalNumber(fields["iops"])
	dir.Stats.BW, _ = optionalNumber(fields["bw_bytes"])
	bytes, _ := optionalNumber(fields["bytes"])
	dir.Stats.Bytes = uint64(bytes)
	return dir, nil
}

func optionalNumber(v starlark.Value) (float64, bool) {
	if v == nil {
		return 0, false
	}
	return number(v)
}

// directionOf summarises latencies in ns exactly: percentiles by nearest
// rank over the sorted samples.
func directionOf(samples []float64) *Direction {
	sorted := append([]float64(nil), samples...)
	sort.Float64s(sorted)
	var sum, sq float64
	for _, s := range sorted {
		sum += s
	}
	mean := sum / float64(len(sorted))
	for _, s := range sorted {
		sq += (s - mean) * (s - mean)
	}
	quantile := func(q float64) float64 {
		rank := int(q / 100 * float64(len(sorted)))
		if float64(rank) < q/100*float64(len(sorted)) {
			rank++
		}
		return sorted[min(max(rank, 1), len(sorted))-1]
	}
	lat := metrics.LatencySummary{Min: uint64(sorted[0]), Max: uint64(sorted[len(sorted)-1]), Mean: mean, Stddev: math.Sqrt(sq / float64(len(sorted)))}
	for _, p := range []float64{50, 90, 95, 99, 99.9, 99.99} {
		lat.Percentiles = append(lat.Percentiles, metrics.Percentile{P: p, Ns: uint64(quantile(p))})
	}
	d := &Direction{Stats: &metrics.DirStats{IOs: uint64(len(sorted)), Lat: lat}, Quantile: quantile}
	return d
}

// testSeries converts a list of sample dicts.
func testSeries(l *starlark.List) ([]metrics.Sample, error) {
	if l == nil {
		return nil, nil
	}
	out := make([]metrics.Sample, l.Len())
	for i := range out {
		d, ok := l.Index(i).(*starlark.Dict)
		if !ok {
			return nil, fmt.Errorf("item %d is not a dict", i)
		}
		m, err := numberDict(d)
		if err != nil {
			return nil, fmt.Errorf("item %d: %v", i, err)
		}
		if out[i], err = testSample(m); err != nil {
			return nil, fmt.Errorf("item %d: %v", i, err)
		}
	}
	return out, nil
}

// testSample reads one interval from a dict of the names a hook sees
// (IntervalFields): each figure is renamed to its name in a record's
// series (figure.Interval), metrics.Sample's JSON, and the dict is read
// as that JSON; a whole number is rounded.
func testSample(m map[string]float64) (metrics.Sample, error) {
	var s metrics.Sample
	known := IntervalFields(&s)
	named := map[string]float64{}
	for k, v := range m {
		zero, ok := known[k]
		if !ok {
			return s, fmt.Errorf("%q is not a field of an interval: use %s", k, strings.Join(slices.Sorted(maps.Keys(known)), ", "))
		}
		if _, isFloat := zero.(float64); !isFloat {
			v = math.Round(v)
		}
		if f, _ := figure.Resolve(figure.Hook, k); f != nil && f.In&figure.Interval != 0 {
			k = f.Key(figure.Interval)
		}
		named[k] = v
	}
	data, err := json.Marshal(named)
	if err == nil {
		err = json.Unmarshal(data, &s)
	}
	return s, err
}

// testRun builds a check's input: run(points, args, drive, check,
// profile, vars). drive is a dict of name, path, size, spec, facts and
// smart.
func testRun(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var points *starlark.List
	var hookArgs, drive, vars *starlark.Dict
	check, profile := "check", "profile"
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "points?", &points, "args?", &hookArgs, "drive?", &drive,
		"check?", &check, "profile?", &profile, "vars?", &vars); err != nil {
		return nil, err
	}
	d, err := testDrive(drive)
	if err != nil {
		return nil, fmt.Errorf("%s: drive: %v", b.Name(), err)
	}
	a, err := plainDict(hookArgs)
	if err != nil {
		return nil, fmt.Errorf("%s: args: %v", b.Name(), err)
	}
	v, err := plainDict(vars)
	if err != nil {
		return nil, fmt.Errorf("%s: vars: %v", b.Name(), err)
	}
	shape, err := toStarlark(CheckInput(check, profile, d, a, v, nil))
	if err != nil {
		return nil, err
	}
	fields := starlark.StringDict{}
	shape.(*starlarkstruct.Struct).ToStringDict(fields)
	if points != nil {
		fields["points"] = points
	}
	run := starlarkstruct.FromStringDict(starlarkstruct.Default, fields)
	run.Freeze()
	return run, nil
}

// testDrive reads a drive dict, with defaults for what it leaves out.
func testDrive(d *starlark.Dict) (Drive, error) {
	out := Drive{Name: "drive", Spec: map[string]map[string]any{}}
	m, err := plainDict(d)
	if err != nil {
		return out, err
	}
	for _, k := range sortedKeys(m) {
		var ok bool
		switch k {
		case "name":
			out.Name, ok = m[k].(string)
		case "path":
			out.Path, ok = m[k].(string)
		case "size":
			out.Size, ok = m[k].(int64)
		case "spec":
			out.Spec, ok = specOf(m[k])
		case "facts":
			out.Facts, ok = factsOf(m[k])
		case "smart":
			out.Health, ok = m[k], true
		}
		if !ok {
			return out, fmt.Errorf("%s = %v: the keys are name, path, size (int), spec (a dict of dicts), facts (a dict of strings) and smart", k, m[k])
		}
	}
	return out, nil
}

func specOf(v any) (map[string]map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	out := map[string]map[string]any{}
	for k, e := range m {
		if out[k], ok = e.(map[string]any); !ok {
			return nil, false
		}
	}
	return out, true
}

func factsOf(v any) (map[string]string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	out := map[string]string{}
	for k, f := range m {
		if out[k], ok = f.(string); !ok {
			return nil, false
		}
	}
	return out, true
}

// testRounds builds the rounds a steady_state hook receives from the
// tracked figures in order.
func testRounds(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var values *starlark.List
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "values", &values); err != nil {
		return nil, err
	}
	rounds := make([]any, values.Len())
	for i := range rounds {
		f, ok := number(values.Index(i))
		if !ok {
			return nil, fmt.Errorf("%s: values[%d] = %s is not a number", b.Name(), i, values.Index(i))
		}
		rounds[i] = Point{Status: "ok"}.Round(i+1, f)
	}
	return toStarlark(rounds)
}

// callHook calls fn with args and, when hookArgs is not None, args=.
func callHook(thread *starlark.Thread, fn starlark.Callable, args starlark.Tuple, hookArgs starlark.Value) (starlark.Value, error) {
	var kwargs []starlark.Tuple
	if hookArgs != nil && hookArgs != starlark.None {
		kwargs = []starlark.Tuple{{starlark.String("args"), hookArgs}}
	}
	return starlark.Call(thread, fn, args, kwargs)
}

// shapeError reports a hook result of the wrong shape as the engine does.
func shapeError(b *starlark.Builtin, what string, fn starlark.Callable, problem, help string) error {
	return fmt.Errorf("%s: %s%s returned %s; %s", b.Name(), what, fn.Name(), problem, help)
}

// testVerdicts calls a check and returns its verdicts: verdicts(fn, run).
func testVerdicts(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fn starlark.Callable
	var run starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fn", &fn, "run", &run); err != nil {
		return nil, err
	}
	v, err := starlark.Call(thread, fn, starlark.Tuple{run}, nil)
	if err != nil {
		return nil, err
	}
	verdicts, problem := verdictsOf(v)
	if problem != "" {
		return nil, shapeError(b, "check ", fn, problem, verdictHelp)
	}
	out := make([]starlark.Value, len(verdicts))
	for i, vd := range verdicts {
		vv := verdictValue(vd)
		out[i] = &vv
	}
	return starlark.NewList(out), nil
}

// testMetrics calls a parse hook: metrics(fn, stdout, stderr, exit_code,
// args).
func testMetrics(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fn starlark.Callable
	var stdout, stderr string
	exitCode := 0
	var hookArgs starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fn", &fn, "stdout", &stdout, "stderr?", &stderr,
		"exit_code?", &exitCode, "args?", &hookArgs); err != nil {
		return nil, err
	}
	v, err := callHook(thread, fn, starlark.Tuple{starlark.String(stdout), starlark.String(stderr), starlark.MakeInt(exitCode)}, hookArgs)
	if err != nil {
		return nil, err
	}
	metrics, problem := parsedMetrics(v)
	if problem != "" {
		return nil, shapeError(b, "", fn, problem, parseHelp)
	}
	d := starlark.NewDict(len(metrics))
	for _, k := range sortedFloatKeys(metrics) {
		_ = d.SetKey(starlark.String(k), starlark.Float(metrics[k]))
	}
	return d, nil
}

func sortedFloatKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// testNextPoint calls an adaptive sweep: next_point(fn, history, args).
func testNextPoint(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fn starlark.Callable
	var history, hookArgs starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fn", &fn, "history", &history, "args?", &hookArgs); err != nil {
		return nil, err
	}
	v, err := callHook(thread, fn, starlark.Tuple{history}, hookArgs)
	if err != nil {
		return nil, err
	}
	params, problem := nextParams(v)
	if problem != "" {
		return nil, shapeError(b, "", fn, problem, nextPointHelp)
	}
	if params == nil {
		return starlark.None, nil
	}
	return toStarlark(params)
}

// testSteady calls a steady-state rule: steady(fn, rounds, args) returns
// (steady, message).
func testSteady(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fn starlark.Callable
	var rounds, hookArgs starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fn", &fn, "rounds", &rounds, "args?", &hookArgs); err != nil {
		return nil, err
	}
	v, err := callHook(thread, fn, starlark.Tuple{rounds}, hookArgs)
	if err != nil {
		return nil, err
	}
	d, problem := steadyDecision(v)
	if problem != "" {
		return nil, shapeError(b, "", fn, problem, steadyHelp)
	}
	return starlark.Tuple{starlark.Bool(d.Steady), starlark.String(d.Message)}, nil
}

// testSections calls a summary hook: sections(fn, report, args) returns
// its sections as dicts, as the engine stores them.
func testSections(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fn starlark.Callable
	var report, hookArgs starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fn", &fn, "report", &report, "args?", &hookArgs); err != nil {
		return nil, err
	}
	v, err := callHook(thread, fn, starlark.Tuple{report}, hookArgs)
	if err != nil {
		return nil, err
	}
	sections, problem := summarySections(v)
	if problem != "" {
		return nil, shapeError(b, "", fn, problem, summaryHelp)
	}
	out := make([]any, len(sections))
	for i, s := range sections {
		out[i] = plainSection(s)
	}
	return toStarlark(out)
}

// plain is a section as plain values, under the keys a hook writes.
func plainSection(s results.SummarySection) map[string]any {
	m := map[string]any{"title": s.Title, "text": s.Text}
	if t := s.Table; t != nil {
		m["table"] = map[string]any{"columns": t.Columns, "rows": t.Rows}
	}
	if c := s.Chart; c != nil {
		series := make([]any, len(c.Series))
		for i, sr := range c.Series {
			series[i] = map[string]any{"name": sr.Name, "points": sr.Points}
		}
		m["chart"] = map[string]any{"title": c.Title, "x_label": c.XLabel, "y_label": c.YLabel, "series": series}
	}
	return m
}

// maxFixture bounds the fixture files a test reads.
const maxFixture = 64 << 20

// testRead reads a fixture file, relative to the calling file's folder
// and inside the plan folder: read(path).
func (r root) testRead(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var path string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "path", &path); err != nil {
		return nil, err
	}
	caller := thread.CallFrame(1).Pos.Filename()
	p, err := r.resolve(path, filepath.Dir(filepath.Join(r.abs, filepath.FromSlash(caller))))
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %v", b.Name(), path, err)
	}
	info, err := os.Stat(p.real)
	if err == nil && info.Size() > maxFixture {
		err = fmt.Errorf("larger than %d MiB", maxFixture>>20)
	}
	var data []byte
	if err == nil {
		data, err = os.ReadFile(p.real)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %v", b.Name(), path, unwrapPathError(err))
	}
	return starlark.String(data), nil
}
