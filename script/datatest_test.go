package script

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
)

// TestCases runs the hook files of testdata/cases, which keep each expected
// error beside the line that causes it, as go.starlark.net's own tests do:
//
//   - A file is a series of chunks separated by lines "---". Each chunk is a
//     plan folder of its own, run once.
//   - A chunk's text is a hook file named as the data file (checks.star). A
//     line "-- lib/units.star --" starts another file of the folder, for
//     load(). Every file keeps the data file's line numbers.
//   - One line of the chunk, such as #: check("over", struct(value = 7)),
//     says what to run: one of the calls of caseRunner, made as the engine
//     or validate makes it, with its arguments written as Starlark values.
//   - A comment ### "regexp" (a Go string literal, `raw` or "quoted") expects
//     the run to fail at this line of this file with a message matching the
//     regexp; on the #: line it expects an error that names the file and no
//     line. A chunk with none must succeed.
//   - A comment ### backtrace expects this line in the error's backtrace.
func TestCases(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "cases", "*.star"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata/cases/*.star: %v", err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			chunks, err := readChunks(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range chunks {
				t.Run(strconv.Itoa(c.line), func(t *testing.T) {
					for _, problem := range c.run(t.TempDir()) {
						t.Error(problem)
					}
				})
			}
		})
	}
}

// TestCasesCanFail: the driver reports each way a chunk can go wrong, at
// the line that says what was expected.
func TestCasesCanFail(t *testing.T) {
	data := filepath.Join(t.TempDir(), "wrong.star")
	writeFile(t, filepath.Dir(data), "wrong.star", `#: call("f")
def f():
    return 1  ### "expected, but it runs"
---
#: call("f")
def f():  ### "division"
    return 1 // 0
---
#: call("f")
def f():
    return 1 // 0  ### "^modulo by zero$"
---
#: call("f")
def f():
    x = 1  ### backtrace
    return x // 0  ### "division"
---
#: call("f")  ### "division"
def f():
    return 1 // 0
---
#: call("f")
load("lib.star", "g")

def f():
    return g()  ### "division"
-- lib.star --
def g():
    return 1 // 0
---
#: call("f")
def f():
    return 1 // 0
`)
	chunks, err := readChunks(data)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`wrong.star:3: want an error matching "expected, but it runs", got none`,
		`wrong.star:6: want the error at wrong.star:6, got it at wrong.star:7:`,
		`wrong.star:11: error message "floored division by zero" does not match "^modulo by zero$"`,
		`wrong.star:15: the backtrace does not pass through wrong.star:15:`,
		`wrong.star:18: want the error at wrong.star, got it at wrong.star:20:`,
		`wrong.star:26: want the error at wrong.star:26, got it at lib.star:29:`,
		`wrong.star:31: the chunk should succeed, got wrong.star:33:`,
	}
	if len(chunks) != len(want) {
		t.Fatalf("%d chunks, want %d", len(chunks), len(want))
	}
	for i, c := range chunks {
		problems := strings.Join(c.run(t.TempDir()), "\n")
		if !strings.Contains(problems, want[i]) {
			t.Errorf("chunk %d: problems\n%s\nwant one containing\n%s", i+1, problems, want[i])
		}
	}
}

// caseChunk is one chunk of a data file: a plan folder, what to run in it
// and what should come of it.
type caseChunk struct {
	data  string // the data file, for messages
	line  int    // the chunk's first line
	files []caseFile
	// call is the text after "#:", at callLine.
	call     string
	callLine int
	// want is the expected error, nil for none, at wantFile:wantLine;
	// wantAt is its line in the data file.
	want     *regexp.Regexp
	wantFile string
	wantLine int
	wantAt   int
	frames   []caseFrame
}

// caseFile is one file of a chunk's plan folder; the main file is first.
type caseFile struct {
	name  string
	first int // the data file's line number of its first line
	lines []string
}

// caseFrame is a line the error's backtrace must pass through.
type caseFrame struct {
	at    int    // its line in the data file
	place string // "file:line:", as the backtrace names it
}

var caseFileLine = regexp.MustCompile(`^-- (\S+) --$`)

// readChunks splits a data file into its chunks and reads their
// expectations.
func readChunks(path string) ([]*caseChunk, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var chunks []*caseChunk
	var c *caseChunk
	for i, line := range strings.Split(strings.TrimSuffix(string(src), "\n"), "\n") {
		n := i + 1
		if line == "---" {
			c = nil
			continue
		}
		if c == nil {
			c = &caseChunk{data: path, line: n, files: []caseFile{{name: filepath.Base(path), first: n}}}
			chunks = append(chunks, c)
		}
		if m := caseFileLine.FindStringSubmatch(line); m != nil {
			c.files = append(c.files, caseFile{name: m[1], first: n + 1})
			continue
		}
		f := &c.files[len(c.files)-1]
		f.lines = append(f.lines, line)
		code, expect, found := strings.Cut(line, "###")
		if call, ok := strings.CutPrefix(strings.TrimSpace(code), "#:"); ok {
			if c.call != "" {
				return nil, fmt.Errorf("%s:%d: a second #: line in the chunk of line %d", path, n, c.line)
			}
			c.call, c.callLine = strings.TrimSpace(call), n
		}
		if !found {
			continue
		}
		expect = strings.TrimSpace(expect)
		if expect == "backtrace" {
			c.frames = append(c.frames, caseFrame{n, fmt.Sprintf("%s:%d:", f.name, n)})
			continue
		}
		pattern, err := strconv.Unquote(expect)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: ### takes a quoted regexp or the word backtrace, not %s", path, n, expect)
		}
		rx, err := regexp.Compile(pattern)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if c.want != nil {
			return nil, fmt.Errorf("%s:%d: a second expected error in the chunk of line %d; a run fails once", path, n, c.line)
		}
		c.want, c.wantFile, c.wantLine, c.wantAt = rx, f.name, n, n
		if n == c.callLine {
			c.wantLine = 0
		}
	}
	for _, c := range chunks {
		if c.call == "" {
			return nil, fmt.Errorf("%s:%d: the chunk has no #: line saying what to run", path, c.line)
		}
		if c.want == nil && len(c.frames) > 0 {
			return nil, fmt.Errorf("%s:%d: ### backtrace in a chunk that expects no error", path, c.frames[0].at)
		}
	}
	return chunks, nil
}

// run writes the chunk's files into the folder root, makes its call
// there and returns what did not come out as expected.
func (c *caseChunk) run(root string) []string {
	for _, f := range c.files {
		path := filepath.Join(root, filepath.FromSlash(f.name))
		text := strings.Repeat("\n", f.first-1) + strings.Join(f.lines, "\n") + "\n"
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return []string{err.Error()}
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return []string{err.Error()}
		}
	}
	call, err := caseRunner(c.call)
	if err != nil {
		return []string{fmt.Sprintf("%s:%d: %v", c.data, c.callLine, err)}
	}
	r := New(root, Limits{})
	defer r.Close()
	return c.compare(call(context.Background(), r, c.files[0].name))
}

// compare says how err differs from what the chunk expects.
func (c *caseChunk) compare(err error) []string {
	if c.want == nil {
		if err != nil {
			return []string{fmt.Sprintf("%s:%d: the chunk should succeed, got %v", c.data, c.line, err)}
		}
		return nil
	}
	at := fmt.Sprintf("%s:%d", c.data, c.wantAt)
	if err == nil {
		return []string{fmt.Sprintf("%s: want an error matching %q, got none", at, c.want)}
	}
	e, ok := err.(*Error)
	if !ok {
		return []string{fmt.Sprintf("%s: want a *script.Error, got %v (%T)", at, err, err)}
	}
	var problems []string
	if want := (&Error{File: c.wantFile, Line: c.wantLine}).Place(); e.File != c.wantFile || e.Line != c.wantLine {
		problems = append(problems, fmt.Sprintf("%s: want the error at %s, got it at %s", at, want, e))
	}
	if !c.want.MatchString(e.Msg) {
		problems = append(problems, fmt.Sprintf("%s: error message %q does not match %q", at, e.Msg, c.want))
	}
	for _, f := range c.frames {
		if !strings.Contains(e.Backtrace, f.place) {
			problems = append(problems, fmt.Sprintf("%s:%d: the backtrace does not pass through %s:\n%s", c.data, f.at, f.place, e.Backtrace))
		}
	}
	return problems
}

// caseCall runs a chunk's call in r, on its main file.
type caseCall func(ctx context.Context, r *Runtime, file string) error

// caseRunner evaluates the text of a #: line, one of
//
//	call(function, *args)
//	check(function, input = None)
//	steady_state(function, rounds = [], args = None)
//	next_point(function, history = [], args = None)
//	parse(function, stdout = "", stderr = "", exit_code = 0, args = None)
//	summary(function, report = {}, args = None)
//	check_function(function, params, args = False)  # as validate does
//	has_function(function)
//
// where a struct(...) becomes a Struct and args are the hook's args.
func caseRunner(src string) (caseCall, error) {
	var call caseCall
	env := starlark.StringDict{"struct": starlark.NewBuiltin("struct", starlarkstruct.Make)}
	define := func(name string, unpack func(args starlark.Tuple, kwargs []starlark.Tuple) (caseCall, error)) {
		env[name] = starlark.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var err error
			call, err = unpack(args, kwargs)
			return starlark.None, err
		})
	}
	define("call", func(args starlark.Tuple, kwargs []starlark.Tuple) (caseCall, error) {
		if len(args) == 0 || len(kwargs) > 0 {
			return nil, fmt.Errorf("call takes the function's name and its arguments, by position")
		}
		fn, ok := starlark.AsString(args[0])
		if !ok {
			return nil, fmt.Errorf("call: the function's name is a string, not %s", args[0].Type())
		}
		in, err := goValue(args[1:])
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, r *Runtime, file string) error {
			_, _, err := r.Call(ctx, file, fn, in.([]any)...)
			return err
		}, nil
	})
	define("check", func(args starlark.Tuple, kwargs []starlark.Tuple) (caseCall, error) {
		var fn string
		var input starlark.Value = starlark.None
		if err := starlark.UnpackArgs("check", args, kwargs, "function", &fn, "input?", &input); err != nil {
			return nil, err
		}
		in, err := goValue(input)
		return func(ctx context.Context, r *Runtime, file string) error {
			_, _, err := r.Check(ctx, file, fn, in)
			return err
		}, err
	})
	hook := func(name, param string, value starlark.Value, do func(ctx context.Context, r *Runtime, file, fn string, in any, hookArgs map[string]any) error) {
		define(name, func(args starlark.Tuple, kwargs []starlark.Tuple) (caseCall, error) {
			var fn string
			var hookArgs starlark.Value = starlark.None
			if err := starlark.UnpackArgs(name, args, kwargs, "function", &fn, param+"?", &value, "args?", &hookArgs); err != nil {
				return nil, err
			}
			in, err := goValue(value)
			if err != nil {
				return nil, err
			}
			m, err := argsValue(hookArgs)
			return func(ctx context.Context, r *Runtime, file string) error { return do(ctx, r, file, fn, in, m) }, err
		})
	}
	hook("steady_state", "rounds", starlark.NewList(nil), func(ctx context.Context, r *Runtime, file, fn string, in any, args map[string]any) error {
		_, _, err := r.SteadyState(ctx, file, fn, in, args)
		return err
	})
	hook("next_point", "history", starlark.NewList(nil), func(ctx context.Context, r *Runtime, file, fn string, in any, args map[string]any) error {
		_, _, err := r.NextPoint(ctx, file, fn, in, args)
		return err
	})
	hook("summary", "report", starlark.NewDict(0), func(ctx context.Context, r *Runtime, file, fn string, in any, args map[string]any) error {
		_, _, err := r.Summary(ctx, file, fn, in, args)
		return err
	})
	define("parse", func(args starlark.Tuple, kwargs []starlark.Tuple) (caseCall, error) {
		var fn, stdout, stderr string
		var exitCode int
		var hookArgs starlark.Value = starlark.None
		if err := starlark.UnpackArgs("parse", args, kwargs, "function", &fn, "stdout?", &stdout, "stderr?", &stderr,
			"exit_code?", &exitCode, "args?", &hookArgs); err != nil {
			return nil, err
		}
		m, err := argsValue(hookArgs)
		return func(ctx context.Context, r *Runtime, file string) error {
			_, _, err := r.Parse(ctx, file, fn, stdout, stderr, exitCode, m)
			return err
		}, err
	})
	define("check_function", func(args starlark.Tuple, kwargs []starlark.Tuple) (caseCall, error) {
		var fn string
		var params *starlark.List
		var withArgs bool
		if err := starlark.UnpackArgs("check_function", args, kwargs, "function", &fn, "params", &params, "args?", &withArgs); err != nil {
			return nil, err
		}
		names := make([]string, params.Len())
		for i := range names {
			var ok bool
			if names[i], ok = starlark.AsString(params.Index(i)); !ok {
				return nil, fmt.Errorf("check_function: params must be strings")
			}
		}
		return func(_ context.Context, r *Runtime, file string) error {
			return r.CheckFunction(file, fn, names, withArgs)
		}, nil
	})
	define("has_function", func(args starlark.Tuple, kwargs []starlark.Tuple) (caseCall, error) {
		var fn string
		if err := starlark.UnpackArgs("has_function", args, kwargs, "function", &fn); err != nil {
			return nil, err
		}
		return func(_ context.Context, r *Runtime, file string) error { return r.HasFunction(file, fn) }, nil
	})
	if _, err := starlark.EvalOptions(&syntax.FileOptions{}, &starlark.Thread{}, "#:", src, env); err != nil {
		return nil, err
	}
	if call == nil {
		return nil, fmt.Errorf("%s does not say what to run", src)
	}
	return call, nil
}

// argsValue is the args of a hook: None for none, or a dict.
func argsValue(v starlark.Value) (map[string]any, error) {
	if v == starlark.None {
		return nil, nil
	}
	if _, ok := v.(*starlark.Dict); !ok {
		return nil, fmt.Errorf("args is a dict or None, not %s", v.Type())
	}
	m, err := goValue(v)
	if err != nil {
		return nil, err
	}
	return m.(map[string]any), nil
}

// goValue is v as a Go caller passes it to a hook: a struct becomes a
// Struct, whose fields the hook reads as attributes.
func goValue(v starlark.Value) (any, error) {
	switch x := v.(type) {
	case *starlarkstruct.Struct:
		s := Struct{}
		for _, name := range x.AttrNames() {
			field, _ := x.Attr(name)
			var err error
			if s[name], err = goValue(field); err != nil {
				return nil, err
			}
		}
		return s, nil
	case starlark.Tuple, *starlark.List:
		seq := x.(starlark.Indexable)
		out := make([]any, seq.Len())
		for i := range out {
			var err error
			if out[i], err = goValue(seq.Index(i)); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *starlark.Dict:
		out := make(map[string]any, x.Len())
		for _, item := range x.Items() {
			key, ok := starlark.AsString(item[0])
			if !ok {
				return nil, fmt.Errorf("dict key %s is not a string", item[0])
			}
			var err error
			if out[key], err = goValue(item[1]); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return fromStarlark(v)
}
