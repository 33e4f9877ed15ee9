package engine

import (
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/script"
	"github.com/hashicorp/hcl/v2"
)

// ValidateHooks loads every check's script and confirms it defines the
// function the plan names, so a typo in a hook is found before the drive
// is touched rather than after hours of measurement.
func ValidateHooks(p *plan.Plan, limits script.Limits) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, c := range p.Checks {
		rt := script.New(hookRoot(p.Dir, c.Script), limits)
		if err := rt.HasFunction(c.Script, c.Function); err != nil {
			rng := c.Range
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid check hook",
				Detail:   err.Error() + "\nFix the script or point the check's script and function attributes at a function the file defines.",
				Subject:  &rng,
			})
		}
	}
	return diags
}
