package script

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"
)

// CheckFunction confirms that file defines function and that drivebench
// can call it as it will: with one positional argument for each of params
// (the names the hook documentation gives them) and, when withArgs is
// set, the keyword argument args. It returns an [*Error] at the function's
// definition that shows the def line to write when the parameters do not
// fit, so that a plan's mistake is found when it is validated rather than
// after hours of measurement. Functions implemented in Go are not checked.
func (r *Runtime) CheckFunction(file, function string, params []string, withArgs bool) error {
	if !r.inWorker {
		_, err := r.remote(context.Background(), &callRequest{Op: opSignature, File: file, Function: function,
			Params: params, WithArgs: withArgs}, nil)
		return err
	}
	s, err := r.newSession(context.Background(), file)
	if err != nil {
		return err
	}
	defer s.stop()
	fn, err := s.function(function)
	if err != nil {
		return err
	}
	f, ok := fn.(*starlark.Function)
	if !ok {
		return nil
	}
	if problem := paramProblem(f, params, withArgs); problem != "" {
		want := strings.Join(params, ", ")
		if withArgs {
			want += ", args"
		}
		return errorAt(f.Position(), fmt.Sprintf("%s %s; drivebench calls it as %s(%s), so define it as def %s(%s):",
			function, problem, function, callText(params, withArgs), function, want), nil)
	}
	return nil
}

// callText shows how drivebench calls a hook: "history, args=...".
func callText(params []string, withArgs bool) string {
	text := strings.Join(params, ", ")
	if withArgs {
		if text != "" {
			text += ", "
		}
		text += "args=..."
	}
	return text
}

// paramProblem says why f cannot be called with len(params) positional
// arguments and, if withArgs, the keyword args; "" when it can.
func paramProblem(f *starlark.Function, params []string, withArgs bool) string {
	named := f.NumParams()
	if f.HasVarargs() {
		named--
	}
	if f.HasKwargs() {
		named--
	}
	regular := named - f.NumKwonlyParams()
	names := make([]string, named)
	for i := range names {
		names[i], _ = f.Param(i)
	}
	switch {
	case regular < len(params) && !f.HasVarargs():
		noun := "parameters"
		if regular == 1 {
			noun = "parameter"
		}
		return fmt.Sprintf("takes %d positional %s (%s), not %d", regular, noun, strings.Join(names[:regular], ", "), len(params))
	case withArgs && slices.Contains(names[:min(len(params), regular)], "args"):
		return "takes args by position, where drivebench passes another value"
	case withArgs && !slices.Contains(names, "args") && !f.HasKwargs():
		return "has no parameter args, but the plan gives the hook args"
	}
	for i, name := range names {
		filled := (i < regular && i < len(params)) || (withArgs && name == "args")
		if !filled && f.ParamDefault(i) == nil {
			return fmt.Sprintf("needs a value for its parameter %s, which drivebench does not pass", name)
		}
	}
	return ""
}
