package script

import (
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// ErrStepLimit is the cause (see [errors.Is]) of an [*Error] for a hook that
// ran more Starlark steps than [Limits.MaxSteps].
var ErrStepLimit = errors.New("step limit exceeded")

// ErrTimeout is the cause of an [*Error] for a hook that ran longer than
// [Limits.Timeout].
var ErrTimeout = errors.New("time limit exceeded")

// Error is an error in or about a hook file, positioned in that file.
//
// Error() reads "checks/latency.star:12:5: message"; without a known line it
// reads "checks/latency.star: message".
type Error struct {
	// File is the hook file's path relative to the plan folder, with forward
	// slashes, or the path as given when it lies outside the folder.
	File string
	// Line and Col are 1-based; 0 when the error has no place in the file
	// (a missing file, say).
	Line, Col int
	// Msg says what went wrong and, where it can, what to do about it.
	Msg string
	// Backtrace is the Starlark call stack at a runtime error, innermost
	// call last, or "" for errors found before the hook ran.
	Backtrace string
	// Err is the underlying cause: ErrStepLimit, ErrTimeout, a context
	// error, or the Starlark error the Error was made from. It may be nil.
	Err error
}

// Error returns the position and the message.
func (e *Error) Error() string {
	if e.File == "" {
		return e.Msg
	}
	return e.Place() + ": " + e.Msg
}

// Place is where the error is: "file:line:col", "file:line" or "file".
func (e *Error) Place() string {
	switch {
	case e.Line == 0:
		return e.File
	case e.Col == 0:
		return fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	return fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Col)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// errorAt returns an Error at pos with the message msg.
func errorAt(pos syntax.Position, msg string, cause error) *Error {
	return &Error{
		File: pos.Filename(),
		Line: int(pos.Line),
		Col:  int(pos.Col),
		Msg:  msg,
		Err:  cause,
	}
}

// positioned converts an error from the Starlark interpreter into an Error
// at the innermost place it can find: a load() wraps the error of the module
// it loads, and the user needs to see the place in that module.
func positioned(err error) *Error {
	var found *Error
	outerBacktrace := ""
	for e := err; e != nil; e = errors.Unwrap(e) {
		switch x := e.(type) {
		case *Error:
			inner := *x
			if inner.Backtrace == "" {
				inner.Backtrace = outerBacktrace
			}
			return &inner
		case *starlark.EvalError:
			found = fromEvalError(x)
			if outerBacktrace == "" {
				outerBacktrace = found.Backtrace
			}
		case syntax.Error:
			found = errorAt(x.Pos, x.Msg, x)
		case resolve.ErrorList:
			found = fromResolveErrors(x)
		}
	}
	if found == nil {
		found = &Error{Msg: err.Error(), Err: err}
	}
	return found
}

// fromEvalError positions a runtime error at the innermost frame that is in
// a .star file; an error raised by a built-in belongs to the line calling it.
func fromEvalError(e *starlark.EvalError) *Error {
	out := &Error{Msg: e.Msg, Backtrace: e.Backtrace(), Err: e}
	for i := len(e.CallStack) - 1; i >= 0; i-- {
		pos := e.CallStack[i].Pos
		if pos.Filename() != "<builtin>" {
			out.File, out.Line, out.Col = pos.Filename(), int(pos.Line), int(pos.Col)
			break
		}
	}
	return out
}

// fromResolveErrors positions the first of a file's name-resolution errors
// and lists the others in the message, so that one run shows them all.
func fromResolveErrors(list resolve.ErrorList) *Error {
	out := errorAt(list[0].Pos, list[0].Msg, list)
	if len(list) > 1 {
		more := make([]string, 0, len(list)-1)
		for _, e := range list[1:] {
			more = append(more, fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg))
		}
		out.Msg += fmt.Sprintf(" (and also at %s)", strings.Join(more, "; "))
	}
	return out
}
