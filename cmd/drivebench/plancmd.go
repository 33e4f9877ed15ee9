package main

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/script"
	"github.com/hashicorp/hcl/v2"
)

// planFlags are the flags every command that reads a plan takes.
type planFlags struct {
	vars     varFlags
	varFiles listFlag
}

func (pf *planFlags) register(fs *flagSet) {
	pf.vars = varFlags{}
	fs.Var(pf.vars, "var", "set a plan variable: -var name=value (repeatable)")
	fs.Var(&pf.varFiles, "var-file", "read plan variables from an HCL or .json file (repeatable); DRIVEBENCH_VAR_<name> in the environment works too")
}

// loadPlan loads, validates and expands a plan, printing every diagnostic.
// ok is false when the plan has errors.
func loadPlan(path string, pf *planFlags, io stdio) (*plan.Plan, *plan.Graph, bool) {
	p, src, diags := plan.Load(path, plan.LoadOptions{Vars: pf.vars, VarFiles: pf.varFiles, Env: io.getenv})
	var g *plan.Graph
	if !diags.HasErrors() {
		g = plan.Expand(p)
		diags = append(diags, engine.ValidateHooks(p, script.Limits{})...)
		diags = append(diags, engine.ValidateEngines(p, g)...)
	}
	if len(diags) > 0 {
		src.WriteDiagnostics(io.err, diags, 100, false)
	}
	if diags.HasErrors() {
		fmt.Fprintf(io.err, "%s: %s\n", path, countErrors(diags))
		return nil, nil, false
	}
	return p, g, true
}

// planArg parses a command's flags and its one plan argument, and loads
// the plan; done is true when the command must stop with code.
func planArg(fs *flagSet, pf *planFlags, args []string, io stdio) (*plan.Plan, *plan.Graph, int, bool) {
	if code, done := parseFlags(fs, args); done {
		return nil, nil, code, true
	}
	path, ok := onePositional(fs, "plan file")
	if !ok {
		return nil, nil, exitUsage, true
	}
	p, g, ok := loadPlan(path, pf, io)
	if !ok {
		return nil, nil, exitUsage, true
	}
	return p, g, exitOK, false
}

func countErrors(diags hcl.Diagnostics) string {
	n := len(diags.Errs())
	if n == 1 {
		return "1 error; nothing was run"
	}
	return fmt.Sprintf("%d errors; nothing was run", n)
}

func cmdValidate(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("validate", "PLAN", "Check a plan: syntax, types, units, references and hooks. Every problem is reported at once.", io)
	var pf planFlags
	pf.register(fs)
	p, g, code, done := planArg(fs, &pf, args, io)
	if done {
		return code
	}
	fmt.Fprintf(io.out, "%s is valid: %d drives, %d steps.\n", p.File, len(p.Drives), len(g.Nodes))
	return exitOK
}

func cmdPlan(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("plan", "PLAN", "List the steps a plan expands to, in order, with estimated durations.", io)
	var pf planFlags
	pf.register(fs)
	asJSON := fs.Bool("json", false, "print the graph as JSON")
	asDOT := fs.Bool("dot", false, "print the graph in Graphviz DOT")
	_, g, code, done := planArg(fs, &pf, args, io)
	if done {
		return code
	}
	switch {
	case *asJSON:
		enc := json.NewEncoder(io.out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(g); err != nil {
			fmt.Fprintln(io.err, "drivebench plan:", err)
			return exitUsage
		}
	case *asDOT:
		fmt.Fprint(io.out, g.DOT())
	default:
		printSteps(io, g)
	}
	return exitOK
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
			est = plan.FormatDuration(n.Estimate.Round(time.Second))
			total += n.Estimate
		case n.Workload != nil:
			est = "unknown"
			unknown++
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", i+1, n.ID, n.Kind, n.Name, est)
	}
	tw.Flush()
	fmt.Fprintf(io.out, "\n%d steps, estimated %s", len(g.Nodes), plan.FormatDuration(total.Round(time.Second)))
	if unknown > 0 {
		fmt.Fprintf(io.out, " plus %d steps of unknown length", unknown)
	}
	fmt.Fprintln(io.out, ".")
}
