package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/plan"
)

func cmdValidate(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("validate", "PLAN | FOLDER",
		"Check a plan: syntax, types, units, references and hooks. Every problem is reported at once.\n"+
			"Variables without a value are unknown, as in terraform validate: their types are checked, what needs their\n"+
			"values is checked by run. A folder checks every plan under it (files that other plans include or use as\n"+
			"modules, and *.vars.hcl files, are checked as part of those plans).\n"+
			"Exit codes: 0 valid, 2 a plan has errors.", io)
	var pf planFlags
	pf.register(fs)
	asJSON := fs.Bool("json", false, "print the diagnostics as JSON (format_version "+plan.DiagnosticJSONVersion+", the shape of terraform validate -json)")
	args, code, done := parseInterspersed(fs, args)
	if done {
		return code
	}
	if len(args) != 1 {
		fmt.Fprintf(io.err, "drivebench validate: expected one plan file or folder, got %d arguments\n\n", len(args))
		fs.printUsage()
		return exitUsage
	}
	files, err := planFiles(args[0])
	if err != nil {
		fmt.Fprintln(io.err, "drivebench validate:", err)
		return exitUsage
	}
	var all []checked
	for _, f := range files {
		all = append(all, checkPlan(f, &pf, io, true))
	}
	all = dropUsedFiles(all)
	failed := slices.ContainsFunc(all, func(c checked) bool { return c.diags.HasErrors() })
	if *asJSON {
		writeValidationJSON(io, all)
	} else {
		for _, c := range all {
			if c.report(io) {
				printValid(io, c)
			}
		}
	}
	if failed {
		return exitUsage
	}
	return exitOK
}

func printValid(io stdio, c checked) {
	fmt.Fprintf(io.out, "%s is valid: %d drives, %d steps.", c.path, len(c.plan.Drives), len(c.graph.Nodes))
	if len(c.plan.Unset) > 0 {
		fmt.Fprintf(io.out, " Not checked until set: what depends on var.%s.", strings.Join(c.plan.Unset, ", var."))
	}
	fmt.Fprintln(io.out)
}

// planFiles lists the plan files to check: the file given, or every *.hcl
// under the folder given except variable files.
func planFiles(path string) ([]string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{path}, nil
	}
	all, err := hclFiles([]string{path})
	if err != nil {
		return nil, err
	}
	var files []string
	for _, f := range all {
		if !strings.HasSuffix(f, ".vars.hcl") {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s holds no plan files (*.hcl)", path)
	}
	return files, nil
}

// dropUsedFiles drops, when a folder was checked, the files that another
// plan read as an include or a module: they are checked as part of it,
// and alone they are not plans.
func dropUsedFiles(all []checked) []checked {
	if len(all) < 2 {
		return all
	}
	used := map[string]bool{}
	for _, c := range all {
		self, _ := filepath.Abs(c.path)
		for name := range c.src.Files {
			if abs, err := filepath.Abs(name); err == nil && abs != self {
				used[abs] = true
			}
		}
	}
	var kept []checked
	for _, c := range all {
		if abs, _ := filepath.Abs(c.path); !used[abs] {
			kept = append(kept, c)
		}
	}
	return kept
}

// validationJSON is validate -json's output.
type validationJSON struct {
	FormatVersion string                `json:"format_version"`
	Valid         bool                  `json:"valid"`
	ErrorCount    int                   `json:"error_count"`
	WarningCount  int                   `json:"warning_count"`
	Diagnostics   []plan.JSONDiagnostic `json:"diagnostics"`
	// Plans has one entry per plan file checked.
	Plans []planValidity `json:"plans"`
}

type planValidity struct {
	File  string `json:"file"`
	Valid bool   `json:"valid"`
	// Steps is the number of steps the plan expands to, when it is valid.
	Steps int `json:"steps,omitempty"`
	// Unset names the variables without a value, whose uses were checked
	// by type only.
	Unset []string `json:"unset,omitempty"`
}

func writeValidationJSON(io stdio, all []checked) {
	out := validationJSON{FormatVersion: plan.DiagnosticJSONVersion, Valid: true, Diagnostics: []plan.JSONDiagnostic{}, Plans: []planValidity{}}
	for _, c := range all {
		jd := c.src.JSONDiagnostics(c.diags)
		out.Diagnostics = append(out.Diagnostics, jd...)
		pv := planValidity{File: c.path, Valid: !c.diags.HasErrors()}
		if pv.Valid {
			pv.Steps = len(c.graph.Nodes)
			pv.Unset = c.plan.Unset
		}
		out.Valid = out.Valid && pv.Valid
		out.Plans = append(out.Plans, pv)
		for _, d := range jd {
			if d.Severity == "error" {
				out.ErrorCount++
			} else {
				out.WarningCount++
			}
		}
	}
	enc := json.NewEncoder(io.out)
	enc.SetIndent("", "  ")
	enc.Encode(out)
}
