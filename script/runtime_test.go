package script

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestCallResult(t *testing.T) {
	r := New("testdata", Limits{})
	got, prints, err := r.Call(context.Background(), "load/main.star", "p99_us", Struct{"p99_ns": 2500})
	if err != nil {
		t.Fatal(err)
	}
	if got != 2.5 || len(prints) != 0 {
		t.Errorf("got %v and prints %q, want 2.5 and none", got, prints)
	}
}

func TestCallAcceptsAbsolutePathInsideRoot(t *testing.T) {
	abs, err := filepath.Abs("testdata/load/main.star")
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := New("testdata", Limits{}).Call(context.Background(), abs, "p99_us", Struct{"p99_ns": 1000})
	if err != nil || got != 1.0 {
		t.Fatalf("got %v, %v; want 1.0", got, err)
	}
}

// Each case names the place of the expected error as file@marker (see
// marked) or as a literal prefix of Error().
func TestCallErrors(t *testing.T) {
	tests := []struct {
		name, file, function string
		arg                  any
		at                   string // file@marker, or the literal start of Error()
		msg                  string // regular expression for Error.Msg
		backtrace            string // substring of Error.Backtrace
	}{
		{"runtime error", "errors.star", "divide", Struct{"a": 1, "b": 0},
			"errors.star@divide", `^floored division by zero$`, "in divide"},
		{"error in a called function", "errors.star", "outer", nil,
			"errors.star@inner", `key "missing" not in dict`, "in outer\n  errors.star:11:14: in inner"},
		{"recursion", "errors.star", "recurse", 1,
			"errors.star@recurse", `called recursively`, "in recurse"},
		{"wrong number of arguments", "errors.star", "two_args", 1,
			"errors.star:", `two_args missing 1 argument \(b\)`, ""},
		{"not a function", "errors.star", "not_a_function", nil,
			"errors.star: ", `not_a_function is not a function but a value of type int; it defines: append_to_input, `, ""},
		{"missing function", "errors.star", "p99", nil,
			"errors.star: ", `^no function "p99" in this file; it defines: append_to_input, assign_field, divide, inner, loops_forever, outer, recurse, set_in_input, slow_but_finite, two_args$`, ""},
		{"no functions at all", "load/shared.star", "f", nil,
			"load/shared.star: ", `it defines no functions$`, ""},
		{"syntax error", "syntax_error.star", "fine", nil,
			"syntax_error.star@syntax", `got newline, want primary expression`, ""},
		{"undefined names, all listed", "undefined.star", "uses_undefined", nil,
			"undefined.star@undefined", `^undefined: lenght \(and also at 5:12: undefined: open\)$`, ""},
		{"missing file", "nowhere.star", "f", nil,
			"nowhere.star: ", `^no such file \(looked for .*testdata/nowhere.star\)$`, ""},
		{"file outside root", "../runtime.go", "f", nil,
			"../runtime.go: ", `^outside the plan folder .*testdata; hooks may only use files inside it$`, ""},
		{"absolute file outside root", "/etc/hostname", "f", nil,
			"/etc/hostname: ", `outside the plan folder`, ""},
		{"load from the file's folder", "load/missing.star", "f", nil,
			"load/missing.star@missing", `cannot load nowhere.star: no such file \(looked for .*testdata/load/nowhere.star\)`, "load/missing.star:1:1: in <toplevel>"},
		{"load escaping root", "load/escape.star", "f", nil,
			"load/escape.star@escape", `cannot load ../../runtime.go: outside the plan folder`, ""},
		{"load of an absolute path outside root", "load/absolute.star", "f", nil,
			"load/absolute.star@absolute", `cannot load /etc/hostname: outside the plan folder`, ""},
		{"load cycle", "load/cycle_a.star", "a", nil,
			"load/cycle_b.star@cycle", `load cycle: load/cycle_a.star -> load/cycle_b.star -> load/cycle_a.star`, "load/cycle_a.star:1:1: in <toplevel>"},
		{"error in a loaded file", "load/broken_lib.star", "f", nil,
			"load/lib/divides_by_zero.star@divides_by_zero", `^floored division by zero$`, "load/broken_lib.star:1:1: in <toplevel>"},
		{"loaded name missing", "load/wrong_name.star", "f", nil,
			"load/wrong_name.star@wrong_name", `name NS_PER_MS not found in module shared.star \(did you mean NS_PER_US\?\)`, ""},
		{"list in input is frozen", "errors.star", "append_to_input", Struct{"points": []any{1}},
			"errors.star@append_to_input", `cannot append to frozen list`, ""},
		{"dict in input is frozen", "errors.star", "set_in_input", Struct{"args": map[string]any{"limit": 5}},
			"errors.star@set_in_input", `cannot insert into frozen hash table`, ""},
		{"struct fields are read-only", "errors.star", "assign_field", Struct{"check": "c"},
			"errors.star@assign_field", `can't assign to .check field of struct`, ""},
		{"unconvertible argument", "bridge.star", "echo", Struct{"a": []any{map[string]any{"x": make(chan int)}}},
			"bridge.star: ", `^argument 1 of echo: a\[0\]\["x"\]: cannot pass a Go chan int to a hook$`, ""},
		{"unconvertible result", "bridge.star", "returns_function", nil,
			"bridge.star:15:1: ", `returns_function returned a value drivebench cannot use: a value of type function cannot be converted`, ""},
	}
	r := New("testdata", Limits{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := r.Call(context.Background(), tt.file, tt.function, tt.arg)
			prefix := tt.at
			if file, marker, ok := strings.Cut(tt.at, "@"); ok {
				prefix = marked(t, file, marker)
			}
			e := wantError(t, err, prefix, tt.msg)
			if !strings.Contains(e.Backtrace, tt.backtrace) {
				t.Errorf("backtrace %q does not contain %q", e.Backtrace, tt.backtrace)
			}
		})
	}
}

// The limits are set so that only the one under test can be hit, however
// slow the machine: the tests assert which limit stopped the hook, not when
// or on which line of the loop.
func TestLimits(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name     string
		ctx      context.Context
		function string
		limits   Limits
		cause    error
		at       string
		msg      string
	}{
		{"steps stop an endless loop", context.Background(), "loops_forever",
			Limits{MaxSteps: 10_000, Timeout: time.Hour}, ErrStepLimit,
			"errors.star:", `^hook stopped: it exceeded the step limit of 10000 Starlark steps; .* raise the step limit`},
		{"the clock stops a slow loop", context.Background(), "slow_but_finite",
			Limits{MaxSteps: 1 << 62, Timeout: 20 * time.Millisecond}, ErrTimeout,
			"errors.star:", `^hook stopped: it ran longer than the time limit of 20ms; .* raise the time limit`},
		{"a canceled context stops the hook before it starts", canceled, "loops_forever",
			Limits{MaxSteps: 1 << 62, Timeout: time.Hour}, context.Canceled,
			"errors.star: ", `^hook not run: context canceled$`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := New("testdata", tt.limits).Call(tt.ctx, "errors.star", tt.function, nil)
			if !errors.Is(err, tt.cause) {
				t.Fatalf("got %v, want an error caused by %v", err, tt.cause)
			}
			wantError(t, err, tt.at, tt.msg)
		})
	}
}

func TestContextDeadlineStopsRunningHook(t *testing.T) {
	r := New("testdata", Limits{MaxSteps: 1 << 62, Timeout: time.Hour})
	defer r.Close()
	if err := r.HasFunction("errors.star", "slow_but_finite"); err != nil { // the worker is up
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, _, err := r.Call(ctx, "errors.star", "slow_but_finite", nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want a context.DeadlineExceeded error", err)
	}
	e := wantError(t, err, "errors.star:", `^hook stopped: context deadline exceeded$`)
	if e.Line == 0 || e.Backtrace == "" {
		t.Errorf("error has no line or backtrace: %+v", e)
	}
}

func TestLimitsInLoadedTopLevelCode(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "main.star", "load(\"spin.star\", \"X\")\n\ndef f():\n    return X\n")
	writeFile(t, root, "spin.star", "X = 0\nwhile True:\n    pass\n")
	_, _, err := New(root, Limits{MaxSteps: 1000, Timeout: time.Hour}).Call(context.Background(), "main.star", "f")
	if !errors.Is(err, ErrStepLimit) {
		t.Fatalf("got %v, want ErrStepLimit", err)
	}
	wantError(t, err, "spin.star:", `step limit of 1000`)
}

func TestPrintsAreCaptured(t *testing.T) {
	r := New("testdata", Limits{})
	point := Struct{"name": "iodepth=1"}
	_, first, err := r.Check(context.Background(), "print.star", "talk", point)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"loading print.star", "judging iodepth=1", "done"}
	if !reflect.DeepEqual(first, want) {
		t.Errorf("first call printed %q, want %q", first, want)
	}
	// Top-level code ran with the first call only.
	_, second, err := r.Check(context.Background(), "print.star", "talk", point)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(second, want[1:]) {
		t.Errorf("second call printed %q, want %q", second, want[1:])
	}
}

func TestPrintsSurviveErrors(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "p.star", "def f():\n    print(\"before\")\n    fail(\"after\")\n")
	_, prints, err := New(root, Limits{}).Call(context.Background(), "p.star", "f")
	wantError(t, err, "p.star:3:", `^fail: after$`)
	if !reflect.DeepEqual(prints, []string{"before"}) {
		t.Errorf("prints = %q, want [before]", prints)
	}
}

func TestSymlinks(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "plan")
	writeFile(t, dir, "secret.star", "X = 1\n")
	writeFile(t, root, "shared.star", "X = 2\n")
	writeFile(t, root, "escape.star", "load(\"out.star\", \"X\")\n\ndef f():\n    return X\n")
	writeFile(t, root, "inside.star", "load(\"in.star\", \"X\")\n\ndef f():\n    return X\n")
	symlink(t, filepath.Join(dir, "secret.star"), filepath.Join(root, "out.star"))
	symlink(t, filepath.Join(root, "shared.star"), filepath.Join(root, "in.star"))
	symlink(t, root, filepath.Join(dir, "plan-link"))

	r := New(root, Limits{})
	_, _, err := r.Call(context.Background(), "escape.star", "f")
	wantError(t, err, "escape.star:1:1: ", `^cannot load out.star: a symbolic link to .*secret.star, outside the plan folder`)
	_, _, err = r.Call(context.Background(), "out.star", "f")
	wantError(t, err, "out.star: ", `^a symbolic link to .*secret.star, outside the plan folder`)

	got, _, err := r.Call(context.Background(), "inside.star", "f")
	if err != nil || got != int64(2) {
		t.Errorf("link inside the root: got %v, %v; want 2", got, err)
	}
	got, _, err = New(filepath.Join(dir, "plan-link"), Limits{}).Call(context.Background(), "inside.star", "f")
	if err != nil || got != int64(2) {
		t.Errorf("root reached through a link: got %v, %v; want 2", got, err)
	}
}

func TestHasFunction(t *testing.T) {
	r := New("testdata", Limits{})
	if err := r.HasFunction("checks.star", "over_limit"); err != nil {
		t.Errorf("over_limit: %v", err)
	}
	wantError(t, r.HasFunction("checks.star", "under_limit"), "checks.star: ", `^no function "under_limit" in this file; it defines: all_pass, `)
	wantError(t, r.HasFunction("syntax_error.star", "fine"), marked(t, "syntax_error.star", "syntax"), `got newline`)
	wantError(t, r.HasFunction("load/cycle_a.star", "a"), marked(t, "load/cycle_b.star", "cycle"), `load cycle`)
}

func TestConcurrentCalls(t *testing.T) {
	r := New("testdata", Limits{})
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			got, _, err := r.Call(context.Background(), "load/main.star", "p99_us", Struct{"p99_ns": i * 1000})
			if err == nil && got != float64(i) {
				err = errors.New("wrong result")
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("call %d: %v", i, err)
		}
	}
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot make symbolic links here: %v", err)
	}
}
