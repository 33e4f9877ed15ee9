package script

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/drivebench/drivebench/internal/testenv"
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

// The file a caller names may be missing or outside the plan folder, and an
// argument may have no Starlark value: errors that name the file and no
// line. Errors in hook files are cases in testdata/cases.
func TestCallErrors(t *testing.T) {
	tests := []struct {
		name, file, function string
		arg                  any
		msg                  string // regular expression for Error.Msg
	}{
		{"missing file", "nowhere.star", "f", nil,
			`^no such file \(looked for .*testdata/nowhere.star\)$`},
		{"file outside root", "../runtime.go", "f", nil,
			`^outside the plan folder .*testdata; hooks may only use files inside it$`},
		{"absolute file outside root", "/etc/hostname", "f", nil,
			`outside the plan folder`},
		{"unconvertible argument", "bridge.star", "echo", Struct{"a": []any{map[string]any{"x": make(chan int)}}},
			`^argument 1 of echo: a\[0\]\["x"\]: cannot pass a Go chan int to a hook$`},
	}
	r := New("testdata", Limits{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := r.Call(context.Background(), tt.file, tt.function, tt.arg)
			wantError(t, err, tt.file+": ", tt.msg)
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
		testenv.Require(t, "symbolic links", "%v", err)
	}
}
