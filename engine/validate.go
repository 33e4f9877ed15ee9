package engine

import (
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/script"
	"github.com/hashicorp/hcl/v2"
)

// Validation is a plan loaded and checked, with everything found.
type Validation struct {
	Plan    *plan.Plan
	Graph   *plan.Graph
	Sources *plan.Sources
	Diags   hcl.Diagnostics
}

// Validate is what "validate" means, the same for validate, plan and run:
// the plan loads (every mistake in the language, at its place), expands
// to its graph, reads nothing it never wrote unless it says so, every
// hook defines the function the plan names, every step's engine can
// run its workload, and no drive it writes to is a device or file the run
// would refuse (ValidateTargets). With opts.Unset, variables without a value are
// unknown: what depends on them is not checked, and the engines are not
// asked, since they look at the drives those variables usually give.
// Plan and Graph are nil when the plan has errors that stop the checks.
func Validate(path string, opts plan.LoadOptions) Validation {
	if opts.Engines == nil {
		opts.Engines = Engines()
	}
	p, src, diags := plan.Load(path, opts)
	v := Validation{Sources: src, Diags: diags}
	if diags.HasErrors() {
		return v
	}
	v.Plan, v.Graph = p, plan.Expand(p)
	v.Diags = append(v.Diags, plan.LintReads(p, v.Graph)...)
	v.Diags = append(v.Diags, ValidateHooks(p, script.Limits{})...)
	if len(p.Unset) == 0 {
		v.Diags = append(v.Diags, ValidateEngines(p, v.Graph)...)
		v.Diags = append(v.Diags, ValidateTargets(p, v.Graph)...)
	}
	return v
}

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
	read := map[string]bool{}
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
		rng := h.rng
		if err := rt.CheckFunction(h.script, h.function, h.params, h.withArgs); err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid " + h.what + " hook",
				Detail:   err.Error() + "\nFix the script or point the " + h.what + "'s script and function at a function the file defines.",
				Subject:  &rng,
			})
			continue
		}
		diags = append(diags, oldFigureNames(rt, h.script, &rng, read, root)...)
	}
	return diags
}

// oldFigureNames warns of the figures a hook file reads by their old
// names (script.Runtime.OldFigureNames), once per file: read holds the
// files already read.
func oldFigureNames(rt *script.Runtime, file string, rng *hcl.Range, read map[string]bool, root string) hcl.Diagnostics {
	if read[root+"\x00"+file] {
		return nil
	}
	read[root+"\x00"+file] = true
	var diags hcl.Diagnostics
	for _, note := range rt.OldFigureNames(file) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Deprecated Figure Name", Detail: note + ".", Subject: rng})
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
