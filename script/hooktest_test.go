package script

import (
	"context"
	"errors"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/metrics"
)

func TestFindTests(t *testing.T) {
	files, err := FindTests("testdata/hooktests")
	if err != nil || !slices.Equal(files, []string{"broken_test.star", "lib_test.star"}) {
		t.Errorf("FindTests = %v, %v", files, err)
	}
}

func TestRunTests(t *testing.T) {
	r := New("testdata/hooktests", Limits{MaxSteps: 100_000, Timeout: time.Hour})
	results, err := r.RunTests(context.Background(), "lib_test.star", nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, res := range results {
		names = append(names, res.Test)
	}
	want := []string{"test_verdicts", "test_metrics_from_fixture", "test_failing_assertion", "test_fails_helper", "test_loops"}
	if !slices.Equal(names, want) {
		t.Fatalf("ran %v, want %v in the order defined", names, want)
	}
	for _, res := range results {
		switch res.Test {
		case "test_failing_assertion":
			wantError(t, res.Err, marked(t, "hooktests/lib_test.star", "failing")[len("hooktests/"):],
				`^assert.eq: arithmetic: got 2, want 3$`)
		case "test_loops":
			if !errors.Is(res.Err, ErrStepLimit) {
				t.Errorf("test_loops: %v, want the step limit", res.Err)
			}
		default:
			if res.Err != nil {
				t.Errorf("%s: %v", res.Test, res.Err)
			}
		}
	}
}

func TestRunTestsFilterAndBrokenFile(t *testing.T) {
	r := New("testdata/hooktests", Limits{})
	results, err := r.RunTests(context.Background(), "lib_test.star", regexp.MustCompile("metrics"))
	if err != nil || len(results) != 1 || results[0].Test != "test_metrics_from_fixture" || results[0].Err != nil {
		t.Errorf("filtered run: %+v, %v", results, err)
	}
	_, err = r.RunTests(context.Background(), "broken_test.star", nil)
	wantError(t, err, "broken_test.star:1:", `got ':', want '\)'`)
}

// The builders make the values the engine passes, with the same fields:
// a direction's are its counts, lat_ns, quantile and the figures the
// figure registry gives hooks.
func TestHooktestShapesMatchTheEngine(t *testing.T) {
	fields := append(figure.Keys(figure.Hook), "bytes", "ios", "lat_ns", "quantile")
	slices.Sort(fields)
	directionFields := `["` + strings.Join(fields, `", "`) + `"]`
	intervalFields := slices.Sorted(maps.Keys(IntervalFields(&metrics.Sample{})))
	root := t.TempDir()
	writeFile(t, root, "shape_test.star", `
def test_point_fields():
    p = hooktest.point(params = {"iodepth": 4}, read = {"lat_us": [100, 200, 300, 400], "iops": 10})
    assert.eq(sorted(dir(p)), ["metrics", "name", "params", "read", "series", "status", "write"])
    assert.eq(sorted(dir(p.read)), `+directionFields+`)
    assert.eq(p.name, "iodepth=4")
    assert.eq(p.read.ios, 4)
    assert.eq(p.read.quantile(50), 200000.0)
    assert.eq(p.read.quantile(99), 400000.0)
    assert.eq(p.read.lat_ns.p["99.9"], 400000)
    assert.eq(p.read.p99_9_ns, 400000)
    assert.eq(p.read.p50_ns, 200000)
    assert.eq(p.read.mean_ns, 250000.0)
    assert.eq(p.read.min_ns, p.read.lat_ns.min)
    assert.eq(p.write, None)

def test_run_fields():
    run = hooktest.run(drive = {"name": "nvme0", "spec": {"r": {"iops": 5}}})
    assert.eq(sorted(dir(run)), ["args", "check", "drive", "points", "profile", "vars"])
    assert.eq(sorted(dir(run.drive)), ["facts", "name", "path", "size", "smart", "spec"])
    assert.eq(run.drive.spec["r"]["iops"], 5)

def test_rounds():
    rs = hooktest.rounds([10, 12])
    assert.eq([(r.round, r.value) for r in rs], [(1, 10.0), (2, 12.0)])

def test_series_fields():
    p = hooktest.point(series = [{"t": 1, "write_iops": 500, "p99_ns": 120000.4, "mean_ns": 80000.5, "p99_99_ns": 900000, "bytes_written": 4096}])
    s = p.series[0]
    assert.eq(sorted(dir(s)), `+`["`+strings.Join(intervalFields, `", "`)+`"]`+`)
    assert.eq((s.t, s.write_iops, s.read_iops, s.p99_ns, s.mean_ns, s.p99_99_ns, s.p50_ns, s.bytes_written), (1.0, 500.0, 0.0, 120000, 80000.5, 900000, 0, 4096))
    assert.eq(s.mean_lat_ns, s.mean_ns)
    old = hooktest.point(series = [{"mean_lat_ns": 70000}]).series[0]
    assert.eq((old.mean_ns, old.mean_lat_ns), (70000.0, 70000.0))

def test_bad_builder_input():
    assert.fails(lambda: hooktest.point(read = {"lat": [1]}), "unknown key \"lat\"")
    assert.fails(lambda: hooktest.point(series = [{"lat_p99_us": 1}]), "item 0: \"lat_p99_us\" is not a field of an interval: use bw_bytes, bytes_written, mean_lat_ns, mean_ns, p50_ns,")
`)
	results, err := New(root, Limits{}).RunTests(context.Background(), "shape_test.star", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range results {
		if res.Err != nil {
			t.Errorf("%s: %v", res.Test, res.Err)
		}
	}
	engine := CheckInput("c", "p", Drive{}, nil, nil, []Point{{Read: &Direction{}, Series: []metrics.Sample{{T: 1}}}})
	for _, key := range []string{"args", "check", "drive", "points", "profile", "vars"} {
		if _, ok := engine[key]; !ok {
			t.Errorf("CheckInput lacks %s", key)
		}
	}
	point := engine["points"].([]any)[0].(Struct)
	read := point["read"].(Struct)
	if want := len(figure.Keys(figure.Hook)) + 4; len(point) != 7 || len(read) != want {
		t.Errorf("engine point has %d fields and read %d; the hook test checks 7 and %d", len(point), len(read), want)
	}
	if got := slices.Sorted(maps.Keys(point["series"].([]any)[0].(Struct))); !slices.Equal(got, intervalFields) {
		t.Errorf("engine series interval has %v; the hook test checks %v", got, intervalFields)
	}
}

func TestHooktestRead(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root+"/sub", "read_test.star", `
def test_escape():
    hooktest.read("../../outside.txt")
`)
	results, err := New(root, Limits{}).RunTests(context.Background(), "sub/read_test.star", nil)
	if err != nil || len(results) != 1 {
		t.Fatalf("%v, %v", results, err)
	}
	if results[0].Err == nil || !strings.Contains(results[0].Err.Error(), "outside the plan folder") {
		t.Errorf("read outside the root: %v", results[0].Err)
	}
}
