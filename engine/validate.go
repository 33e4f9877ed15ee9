package engine

import (
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/script"
	"github.com/hashicorp/hcl/v2"
)

// hookCall is one hook of a plan and how the engine calls it.
type hookCall struct {
	what     string
	script   string
	function string
	// params are the positional arguments the engine passes, by the names
	// the hook documentation gives them; withArgs is set when the plan
	// gives the hook args, passed as the keyword argument args.
	params   []string
	withArgs bool
	rng      hcl.Range
}

// ValidateHooks loads every hook's script (checks, steady-state rules,
// adaptive sweeps, parsers and the report summary) and confirms it
// defines the function the plan names with parameters the engine can
// pass, so a mistake in a hook is found before the drive is touched
// rather than after hours of measurement.
func ValidateHooks(p *plan.Plan, limits script.Limits) hcl.Diagnostics {
	var diags hcl.Diagnostics
	runtimes := map[string]*script.Runtime{} // one per sandbox root, so each file runs once
	defer func() {
		for _, rt := range runtimes {
			rt.Close()
		}
	}()
	if limits.Memory == 0 {
		limits.Memory = p.HookMemory
	}
	for _, h := range hookCalls(p) {
		root := hookRoot(p.Dir, h.script)
		rt, ok := runtimes[root]
		if !ok {
			rt = script.New(root, limits)
			runtimes[root] = rt
		}
		if err := rt.CheckFunction(h.script, h.function, h.params, h.withArgs); err != nil {
			rng := h.rng
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid " + h.what + " hook",
				Detail:   err.Error() + "\nFix the script or point the " + h.what + "'s script and function at a function the file defines.",
				Subject:  &rng,
			})
		}
	}
	return diags
}

// hookCalls lists the plan's hooks.
func hookCalls(p *plan.Plan) []hookCall {
	var calls []hookCall
	add := func(what string, h *plan.Hook, params ...string) {
		if h != nil {
			calls = append(calls, hookCall{what, h.Script, h.Function, params, h.Args != nil, h.Range})
		}
	}
	for _, c := range p.Checks {
		calls = append(calls, hookCall{"check", c.Script, c.Function, []string{"run"}, false, c.Range})
	}
	for _, pr := range p.Profiles {
		if pr.Adaptive != nil {
			add("adaptive", pr.Adaptive.Hook, "history")
		}
		if pr.SteadyState != nil {
			add("steady_state", pr.SteadyState.Hook, "rounds")
		}
		if pr.Exec != nil {
			add("parse", pr.Exec.Parse, "stdout", "stderr", "exit_code")
		}
	}
	add("summary", p.Report.Summary, "report")
	return calls
}
