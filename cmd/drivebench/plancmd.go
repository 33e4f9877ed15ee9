package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
)

// planFlags are the flags every command that reads a plan takes.
type planFlags struct {
	vars     varFlags
	varFiles listFlag
	// env holds the plan variables the environment set as the plan
	// loaded, by name, for the manifest; recordedEnv, when set, replaces
	// the environment: a results folder's plan loaded again sees the
	// values its run saw.
	env         map[string]string
	recordedEnv map[string]string
}

// lookupEnv is the environment a plan loads with: getenv, noting in
// pf.env each DRIVEBENCH_VAR_<name> it gives, or the recorded values.
func (pf *planFlags) lookupEnv(getenv func(string) string) func(string) string {
	if pf.recordedEnv != nil {
		pf.env = pf.recordedEnv
		return recordedEnv(pf.recordedEnv)
	}
	pf.env = map[string]string{}
	return func(name string) string {
		v := getenv(name)
		if varName, ok := strings.CutPrefix(name, plan.EnvPrefix); ok && v != "" {
			pf.env[varName] = v
		}
		return v
	}
}

// recordedEnv is an environment that holds only the plan variables a
// results folder's manifest recorded, by name.
func recordedEnv(vars map[string]string) func(string) string {
	return func(name string) string {
		if varName, ok := strings.CutPrefix(name, plan.EnvPrefix); ok {
			return vars[varName]
		}
		return ""
	}
}

func (pf *planFlags) register(fs *flagSet) {
	pf.vars = varFlags{}
	fs.Var(pf.vars, "var", "set a plan variable: -var name=value (repeatable)")
	fs.Var(&pf.varFiles, "var-file", "read plan variables from an HCL or .json file (repeatable); DRIVEBENCH_VAR_<name> in the environment works too")
}

// checked is a plan loaded and checked, with everything found.
type checked struct {
	path  string
	plan  *plan.Plan
	graph *plan.Graph
	src   *plan.Sources
	diags hcl.Diagnostics
}

// checkPlan loads, validates and expands a plan (engine.Validate). With
// unset, variables without a value are unknown instead of an error
// (validate, plan): what needs their values is not checked, and the plan
// cannot be run.
func checkPlan(path string, pf *planFlags, io stdio, unset bool) checked {
	v := engine.Validate(path, plan.LoadOptions{Vars: pf.vars, VarFiles: pf.varFiles, Env: pf.lookupEnv(io.getenv), Unset: unset})
	return checked{path: path, plan: v.Plan, graph: v.Graph, src: v.Sources, diags: v.Diags}
}

// loadPlan loads, validates and expands a plan, printing every diagnostic.
// ok is false when the plan has errors.
func loadPlan(path string, pf *planFlags, io stdio) (*plan.Plan, *plan.Graph, bool) {
	c := checkPlan(path, pf, io, false)
	if !c.report(io) {
		return nil, nil, false
	}
	return c.plan, c.graph, true
}

// report prints the diagnostics; false when there are errors.
func (c checked) report(io stdio) bool {
	if len(c.diags) > 0 {
		c.src.WriteDiagnostics(io.err, c.diags, 100, false)
	}
	if c.diags.HasErrors() {
		fmt.Fprintf(io.err, "%s: %s\n", c.path, countErrors(c.diags))
		return false
	}
	return true
}

func countErrors(diags hcl.Diagnostics) string {
	n := len(diags.Errs())
	if n == 1 {
		return "1 error; nothing was run"
	}
	return fmt.Sprintf("%d errors; nothing was run", n)
}

func cmdPlan(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("plan", "PLAN", "List the steps a plan expands to, in order, with estimated durations.\n"+
		"Variables without a value are unknown: the steps are listed, and what depends on them is not final.", io)
	var pf planFlags
	pf.register(fs)
	asJSON := fs.Bool("json", false, "print the graph as JSON (format_version "+plan.GraphJSONVersion+", nodes); with errors, the diagnostics as JSON (as validate -json)")
	asDOT := fs.Bool("dot", false, "print the graph in Graphviz DOT")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	path, ok := onePositional(fs, "plan file")
	if !ok {
		return exitUsage
	}
	c := checkPlan(path, &pf, io, true)
	if *asJSON && c.diags.HasErrors() {
		writeValidationJSON(io, []checked{c})
		return exitUsage
	}
	if !c.report(io) {
		return exitUsage
	}
	g := c.graph
	switch {
	case *asJSON:
		enc := json.NewEncoder(io.out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(graphJSON{FormatVersion: plan.GraphJSONVersion, Graph: g}); err != nil {
			fmt.Fprintln(io.err, "drivebench plan:", err)
			return exitUsage
		}
	case *asDOT:
		fmt.Fprint(io.out, g.DOT())
	default:
		printSteps(io, g)
		if len(c.plan.Unset) > 0 {
			fmt.Fprintf(io.out, "Not known until set with -var: %s; what depends on them (targets, sizes, estimates) is not final.\n", strings.Join(c.plan.Unset, ", "))
		}
	}
	return exitOK
}

// graphJSON is plan -json's output: the graph with the version of its
// form, as validate -json and run -json give theirs.
type graphJSON struct {
	FormatVersion string `json:"format_version"`
	*plan.Graph
}

func printSteps(io stdio, g *plan.Graph) {
	tw := tabwriter.NewWriter(io.out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tID\tKIND\tSTEP\tESTIMATE")
	var total time.Duration
	unknown := 0
	for i, n := range g.Nodes {
		est := "-"
		switch {
		case n.Estimate > 0:
			est = workload.FormatDuration(n.Estimate.Round(time.Second))
			total += n.Estimate
		case n.Workload != nil:
			est = "unknown"
			unknown++
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", i+1, n.ID, n.Kind, n.Name, est)
	}
	tw.Flush()
	fmt.Fprintf(io.out, "\n%d steps, estimated %s", len(g.Nodes), workload.FormatDuration(total.Round(time.Second)))
	if unknown > 0 {
		fmt.Fprintf(io.out, " plus %d steps of unknown length", unknown)
	}
	fmt.Fprintln(io.out, ".")
}
