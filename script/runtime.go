package script

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.starlark.net/lib/json"
	"go.starlark.net/lib/math"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"
)

// Default limits, used where a Limits field is zero.
const (
	DefaultMaxSteps uint64 = 10_000_000
	DefaultTimeout         = 5 * time.Second
	DefaultMemory   int64  = 512 << 20
)

// Limits bound one call of a hook, including the top-level code of the files
// it loads for the first time. Zero fields take the defaults.
type Limits struct {
	// MaxSteps is the most Starlark execution steps a call may take; a step
	// is roughly one bytecode instruction. Default DefaultMaxSteps.
	MaxSteps uint64
	// Timeout is the most wall-clock time a call may take. Default
	// DefaultTimeout.
	Timeout time.Duration
	// Memory is the most memory, in bytes, the hooks of a Runtime may hold
	// at once. Default DefaultMemory.
	Memory int64
}

func (l Limits) withDefaults() Limits {
	if l.MaxSteps == 0 {
		l.MaxSteps = DefaultMaxSteps
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	if l.Memory <= 0 {
		l.Memory = DefaultMemory
	}
	return l
}

// Runtime runs the hooks of one plan. It caches each file's frozen globals,
// so a file's top-level code runs once however often its functions are
// called. It is safe for concurrent use.
type Runtime struct {
	// Root is the plan's folder: hook files and everything they load must
	// lie inside it, and errors name files relative to it.
	Root string
	// Limits bound every call.
	Limits Limits

	mu      sync.Mutex
	modules map[string]starlark.StringDict // by real path
	// inWorker is set in the hook worker, which runs the calls itself;
	// everywhere else calls go to the worker (see worker.go).
	inWorker bool
	worker   worker
}

// New returns a Runtime for the plan folder root.
func New(root string, limits Limits) *Runtime {
	return &Runtime{Root: root, Limits: limits}
}

// Close stops the Runtime's hook worker, which would otherwise stop after
// a short idle time. A later call starts a new one.
func (r *Runtime) Close() {
	r.worker.close()
}

// remote runs c in the hook worker with args by position and hookArgs as
// the keyword argument args. The result is nil when the call did not
// complete; otherwise the error is the call's own.
func (r *Runtime) remote(ctx context.Context, c *callRequest, hookArgs map[string]any, args ...any) (*callResult, error) {
	var e encoder
	for i, a := range args {
		w, err := e.encode(a, "", 0)
		if err != nil {
			return nil, &Error{File: c.File, Msg: fmt.Sprintf("argument %d of %s: %v", i+1, c.Function, err), Err: err}
		}
		c.Args = append(c.Args, w)
	}
	if hookArgs != nil {
		w, err := e.encode(hookArgs, "", 0)
		if err != nil {
			return nil, &Error{File: c.File, Msg: fmt.Sprintf("argument args of %s: %v", c.Function, err), Err: err}
		}
		c.HookArgs = &w
	}
	limits := r.Limits.withDefaults()
	c.Root, c.MaxSteps, c.Timeout = r.Root, limits.MaxSteps, limits.Timeout
	res, err := r.worker.do(ctx, c, limits.Memory, e.funcs)
	if err != nil {
		return nil, err
	}
	return res, res.Err.err()
}

// Call loads file (a path relative to Root, or an absolute path inside it),
// calls its function with args as positional arguments, and returns the
// result converted to Go (see Values in the package documentation), with the
// lines the hook print()ed. The prints are returned even with an error. Any
// error is an [*Error]; when a limit or ctx stopped the hook, its cause
// ([errors.Is]) is ErrStepLimit, ErrTimeout or the context's error.
func (r *Runtime) Call(ctx context.Context, file, function string, args ...any) (result any, prints []string, err error) {
	if !r.inWorker {
		res, err := r.remote(ctx, &callRequest{Op: opCall, File: file, Function: function}, nil, args...)
		if res == nil {
			return nil, nil, err
		}
		if err != nil {
			return nil, res.Prints, err
		}
		return res.Value.decode(nil), res.Prints, nil
	}
	s, err := r.newSession(ctx, file)
	if err != nil {
		return nil, nil, err
	}
	defer s.stop()
	v, fn, err := s.call(function, args, nil)
	if err != nil {
		return nil, s.prints, err
	}
	result, err = fromStarlark(v)
	if err != nil {
		return nil, s.prints, errorAt(functionPos(fn, s.main.name),
			fmt.Sprintf("%s returned a value drivebench cannot use: %v", function, err), err)
	}
	return result, s.prints, nil
}

// HasFunction returns nil if file defines function, and otherwise an
// [*Error]: a syntax or load error positioned in the file, or a list of the
// functions the file does define. It runs the file's top-level code (within
// the limits) if no call has yet.
func (r *Runtime) HasFunction(file, function string) error {
	if !r.inWorker {
		_, err := r.remote(context.Background(), &callRequest{Op: opHas, File: file, Function: function}, nil)
		return err
	}
	s, err := r.newSession(context.Background(), file)
	if err != nil {
		return err
	}
	defer s.stop()
	_, err = s.function(function)
	return err
}

// session is one call into Starlark: one thread, its limits and what it
// printed.
type session struct {
	rt     *Runtime
	root   root
	main   hookPath
	limits Limits
	thread *starlark.Thread
	prints []string
	// loading is the chain of files being loaded, outermost first.
	loading []hookPath
	// env is what the main file sees besides the Starlark universe:
	// predeclared for hooks, more for hook tests. Files it loads always
	// see predeclared.
	env starlark.StringDict
	// limit is the first limit that stopped the thread, if any.
	limit     atomic.Pointer[error]
	stopTimer func() bool
	stopCtx   func() bool
}

// newSession resolves file and starts the clock of a call.
func (r *Runtime) newSession(ctx context.Context, file string) (*session, error) {
	root, err := resolveRoot(r.Root)
	if err != nil {
		return nil, &Error{File: file, Msg: err.Error(), Err: err}
	}
	main, err := root.resolve(file, root.abs)
	if err != nil {
		return nil, &Error{File: file, Msg: err.Error(), Err: err}
	}
	if err := ctx.Err(); err != nil {
		return nil, &Error{File: main.name, Msg: "hook not run: " + err.Error(), Err: err}
	}
	s := &session{rt: r, root: root, main: main, limits: r.Limits.withDefaults(), env: predeclared}
	s.thread = &starlark.Thread{
		Name:       main.name,
		Print:      s.print,
		Load:       s.loadFrom,
		OnMaxSteps: func(*starlark.Thread) { s.stopFor(ErrStepLimit) },
	}
	s.thread.SetMaxExecutionSteps(s.limits.MaxSteps)
	s.stopTimer = time.AfterFunc(s.limits.Timeout, func() { s.stopFor(ErrTimeout) }).Stop
	s.stopCtx = context.AfterFunc(ctx, func() { s.stopFor(context.Cause(ctx)) })
	return s, nil
}

// print keeps a line the hook printed, within MaxPrints lines of
// MaxMessageBytes each.
func (s *session) print(_ *starlark.Thread, msg string) {
	switch {
	case len(s.prints) < MaxPrints:
		s.prints = append(s.prints, capText(msg, "a printed line"))
	case len(s.prints) == MaxPrints:
		s.prints = append(s.prints, fmt.Sprintf("… [further print() output cut: a hook may print at most %d lines]", MaxPrints))
	}
}

// stopFor cancels the thread because of cause; the first cause sticks.
func (s *session) stopFor(cause error) {
	s.limit.CompareAndSwap(nil, &cause)
	s.thread.Cancel(cause.Error())
}

// stop releases the session's timers.
func (s *session) stop() {
	s.stopTimer()
	s.stopCtx()
}

// call runs function from the session's file with args by position and
// kwargs by name (in name order).
func (s *session) call(function string, args []any, kwargs map[string]any) (starlark.Value, starlark.Callable, error) {
	fn, err := s.function(function)
	if err != nil {
		return nil, nil, err
	}
	in := make(starlark.Tuple, len(args))
	for i, a := range args {
		if in[i], err = toStarlark(a); err != nil {
			return nil, fn, &Error{File: s.main.name,
				Msg: fmt.Sprintf("argument %d of %s: %v", i+1, function, err), Err: err}
		}
	}
	var named []starlark.Tuple
	for _, name := range slices.Sorted(maps.Keys(kwargs)) {
		v, err := toStarlark(kwargs[name])
		if err != nil {
			return nil, fn, &Error{File: s.main.name,
				Msg: fmt.Sprintf("argument %s of %s: %v", name, function, err), Err: err}
		}
		named = append(named, starlark.Tuple{starlark.String(name), v})
	}
	v, err := starlark.Call(s.thread, fn, in, named)
	if err != nil {
		return nil, fn, s.wrap(err)
	}
	return v, fn, nil
}

// function loads the session's file and looks function up in it.
func (s *session) function(function string) (starlark.Callable, error) {
	globals, err := s.load(s.main)
	if err != nil {
		return nil, s.wrap(err)
	}
	v, ok := globals[function]
	if !ok {
		return nil, &Error{File: s.main.name, Msg: fmt.Sprintf("no function %q in this file; %s",
			function, describeFunctions(globals))}
	}
	fn, ok := v.(starlark.Callable)
	if !ok {
		return nil, &Error{File: s.main.name, Msg: fmt.Sprintf("%s is not a function but a value of type %s; %s",
			function, v.Type(), describeFunctions(globals))}
	}
	return fn, nil
}

// describeFunctions lists the functions among a file's globals.
func describeFunctions(globals starlark.StringDict) string {
	var names []string
	for name, v := range globals {
		if _, ok := v.(starlark.Callable); ok {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "it defines no functions"
	}
	sort.Strings(names)
	return "it defines: " + strings.Join(names, ", ")
}

// wrap turns any error from the interpreter into an *Error, saying which
// limit stopped the hook if one did.
func (s *session) wrap(err error) *Error {
	e := positioned(err)
	if cause := s.limit.Load(); cause != nil && strings.HasPrefix(e.Msg, canceledPrefix) {
		e.Err = *cause
		e.Msg = s.limitMessage(*cause)
	}
	if e.File == "" {
		e.File = s.main.name
	}
	return e
}

// canceledPrefix starts the message of the interpreter's error for a thread
// that was canceled, as the limits cancel it.
const canceledPrefix = "Starlark computation cancelled: "

// limitMessage says which limit stopped a hook and what to do about it.
func (s *session) limitMessage(cause error) string {
	switch cause {
	case ErrStepLimit:
		return fmt.Sprintf("hook stopped: it exceeded the step limit of %d Starlark steps; "+
			"look for a loop that never ends, or raise the step limit if the hook needs more work",
			s.limits.MaxSteps)
	case ErrTimeout:
		return fmt.Sprintf("hook stopped: it ran longer than the time limit of %s; "+
			"look for a loop that never ends, or raise the time limit if the hook is slow but correct",
			s.limits.Timeout)
	}
	return "hook stopped: " + cause.Error()
}

// functionPos is where fn is defined, or the file when fn has no position.
func functionPos(fn starlark.Callable, file string) syntax.Position {
	if f, ok := fn.(*starlark.Function); ok {
		return f.Position()
	}
	return syntax.MakePosition(&file, 0, 0)
}

// fileOptions is the hook dialect; see the package documentation.
var fileOptions = &syntax.FileOptions{
	Set:             true,
	While:           true,
	TopLevelControl: true,
	GlobalReassign:  false,
	Recursion:       false,
}

// predeclared are the names every hook file sees besides the Starlark
// universe (print, len, fail, ...).
var predeclared = func() starlark.StringDict {
	d := starlark.StringDict{
		"verdict": starlark.NewBuiltin("verdict", makeVerdict),
		"struct":  starlark.NewBuiltin("struct", starlarkstruct.Make),
		"math":    math.Module,
		"json":    json.Module,
		"fixed":   starlark.NewBuiltin("fixed", fixed),
		"fmt":     fmtModule,
	}
	d.Freeze()
	return d
}()
