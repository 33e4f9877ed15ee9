package script

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
)

// Hook tests: a plan's hooks are small programs, and their authors test
// them the way they test any other code, with files named *_test.star
// next to them. A test file load()s the hooks it tests and defines
// functions whose names start with test_; each is called with no
// arguments, under the same limits as a hook, and passes unless it fails.
// Besides what hooks see, a test file sees two modules:
//
//   - assert: eq, ne, true, near, contains and fails, which stop the test
//     with a message at the line that called them;
//   - hooktest: builders for the values drivebench passes to hooks (point,
//     run, rounds), runners that call a hook and check its result exactly
//     as the engine does (verdicts, metrics, next_point, steady,
//     sections), and read, which reads a fixture file inside the plan
//     folder, such as a captured tool output.

// TestSuffix ends the name of a hook test file.
const TestSuffix = "_test.star"

// TestResult is the outcome of one test function.
type TestResult struct {
	// File is the test file, relative to the plan folder; Test the
	// function's name.
	File, Test string
	// Err is nil when the test passed, and otherwise an [*Error] at the
	// line that failed.
	Err      error
	Prints   []string
	Duration time.Duration
}

// FindTests lists the hook test files under dir, relative to it, in
// name order. Folders whose names start with "." are skipped.
func FindTests(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && path != dir && strings.HasPrefix(e.Name(), ".") {
			return filepath.SkipDir
		}
		if !e.IsDir() && strings.HasSuffix(e.Name(), TestSuffix) {
			rel, _ := filepath.Rel(dir, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// RunTests runs the test functions of one test file (relative to Root)
// in the order they are defined, those whose names match filter (every
// test when nil). The error is for a file that cannot be loaded: missing,
// outside the plan folder, or with a syntax error.
func (r *Runtime) RunTests(ctx context.Context, file string, filter *regexp.Regexp) ([]TestResult, error) {
	if !r.inWorker {
		c := &callRequest{Op: opTests, File: file}
		if filter != nil {
			c.Filter = filter.String()
		}
		res, err := r.remote(ctx, c, nil)
		if res == nil {
			return nil, err
		}
		tests := make([]TestResult, len(res.Tests))
		for i, t := range res.Tests {
			tests[i] = TestResult{File: t.File, Test: t.Test, Err: t.Err.err(), Prints: t.Prints, Duration: t.Duration}
		}
		return tests, err
	}
	env, err := r.testEnv()
	if err != nil {
		return nil, err
	}
	s, err := r.newSession(ctx, file)
	if err != nil {
		return nil, err
	}
	s.env = env
	globals, err := s.load(s.main)
	s.stop()
	if err != nil {
		return nil, s.wrap(err)
	}
	var results []TestResult
	for _, name := range testFunctions(globals) {
		if filter != nil && !filter.MatchString(name) {
			continue
		}
		results = append(results, r.runTest(ctx, file, name, env))
	}
	return results, nil
}

// testFunctions lists a file's test_ functions in the order defined.
func testFunctions(globals starlark.StringDict) []string {
	var fns []*starlark.Function
	for name, v := range globals {
		if f, ok := v.(*starlark.Function); ok && strings.HasPrefix(name, "test_") && f.Name() == name {
			fns = append(fns, f)
		}
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Position().Line < fns[j].Position().Line })
	names := make([]string, len(fns))
	for i, f := range fns {
		names[i] = f.Name()
	}
	return names
}

// runTest calls one test function in a session of its own, so that each
// test has the whole step and time budget of a hook call.
func (r *Runtime) runTest(ctx context.Context, file, name string, env starlark.StringDict) TestResult {
	start := time.Now()
	s, err := r.newSession(ctx, file)
	if err != nil {
		return TestResult{File: file, Test: name, Err: err}
	}
	defer s.stop()
	s.env = env
	_, _, err = s.call(name, nil, nil)
	res := TestResult{File: s.main.name, Test: name, Prints: s.prints, Duration: time.Since(start)}
	if err != nil {
		res.Err = err
	}
	return res
}

// testEnv is what test files see: the hooks' names, assert and hooktest.
func (r *Runtime) testEnv() (starlark.StringDict, error) {
	root, err := resolveRoot(r.Root)
	if err != nil {
		return nil, &Error{Msg: err.Error(), Err: err}
	}
	env := starlark.StringDict{
		"assert":   assertModule,
		"hooktest": hooktestModule(root),
	}
	for k, v := range predeclared {
		env[k] = v
	}
	env.Freeze()
	return env, nil
}

var assertModule = module("assert", map[string]builtinFunc{
	"eq":       assertEq,
	"ne":       assertNe,
	"true":     assertTrue,
	"near":     assertNear,
	"contains": assertContains,
	"fails":    assertFails,
})

type builtinFunc = func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)

// module makes a struct of built-in functions, named module.function.
func module(name string, fns map[string]builtinFunc) starlark.Value {
	members := starlark.StringDict{}
	for fn, impl := range fns {
		members[fn] = starlark.NewBuiltin(name+"."+fn, impl)
	}
	m := starlarkstruct.FromStringDict(starlark.String(name), members)
	m.Freeze()
	return m
}

// failure is an assertion's error, with the caller's message when given.
func failure(b *starlark.Builtin, msg string, format string, args ...any) error {
	text := fmt.Sprintf(format, args...)
	if msg != "" {
		text = msg + ": " + text
	}
	return fmt.Errorf("%s: %s", b.Name(), text)
}

func assertEq(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var got, want starlark.Value
	var msg string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "got", &got, "want", &want, "msg?", &msg); err != nil {
		return nil, err
	}
	if eq, err := starlark.Equal(got, want); err != nil || !eq {
		return nil, failure(b, msg, "got %s, want %s", got, want)
	}
	return starlark.None, nil
}

func assertNe(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var got, unwanted starlark.Value
	var msg string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "got", &got, "unwanted", &unwanted, "msg?", &msg); err != nil {
		return nil, err
	}
	if eq, err := starlark.Equal(got, unwanted); err == nil && eq {
		return nil, failure(b, msg, "got %s, which it must not be", got)
	}
	return starlark.None, nil
}

func assertTrue(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var cond starlark.Value
	var msg string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "cond", &cond, "msg?", &msg); err != nil {
		return nil, err
	}
	if !cond.Truth() {
		return nil, failure(b, msg, "%s is not true", cond)
	}
	return starlark.None, nil
}

func assertNear(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var got, want starlark.Value
	rel := starlark.Float(1e-9)
	var msg string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "got", &got, "want", &want, "rel?", &rel, "msg?", &msg); err != nil {
		return nil, err
	}
	g, ok1 := number(got)
	w, ok2 := number(want)
	if !ok1 || !ok2 {
		return nil, failure(b, msg, "compares numbers; got %s and %s", got.Type(), want.Type())
	}
	if math.Abs(g-w) > float64(rel)*math.Max(math.Abs(w), math.Abs(g)) {
		return nil, failure(b, msg, "got %g, want %g within %g%%", g, w, float64(rel)*100)
	}
	return starlark.None, nil
}

func assertContains(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var container, item starlark.Value
	var msg string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "container", &container, "item", &item, "msg?", &msg); err != nil {
		return nil, err
	}
	found, err := starlark.Binary(syntax.IN, item, container)
	if err != nil {
		return nil, err
	}
	if !found.Truth() {
		return nil, failure(b, msg, "%s does not contain %s", container, item)
	}
	return starlark.None, nil
}

// assertFails calls fn with no arguments and passes when it fails with
// an error matching pattern; it returns the error's message.
func assertFails(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var fn starlark.Callable
	var pattern string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "fn", &fn, "pattern", &pattern); err != nil {
		return nil, err
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("%s: pattern %q: %v", b.Name(), pattern, err)
	}
	_, err = starlark.Call(thread, fn, nil, nil)
	var ev *starlark.EvalError
	switch {
	case err == nil:
		return nil, failure(b, "", "%s did not fail", fn.Name())
	case errors.As(err, &ev) && strings.HasPrefix(ev.Msg, canceledPrefix):
		return nil, err // a limit stopped the test, not the function under test
	}
	msg := err.Error()
	if errors.As(err, &ev) {
		msg = ev.Msg
	}
	if !re.MatchString(msg) {
		return nil, failure(b, "", "%s failed with %q, which does not match %q", fn.Name(), msg, pattern)
	}
	return starlark.String(msg), nil
}
