package engine

import (
	"path/filepath"

	"github.com/drivebench/drivebench/engine/driver"
	_ "github.com/drivebench/drivebench/engine/fio"    // registers the engine "fio"
	_ "github.com/drivebench/drivebench/engine/native" // registers the engine "native"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
	"github.com/hashicorp/hcl/v2"
)

// defaultDrivers are the engines every run has: every engine package this
// package links registers itself (engine/driver.Register), the built-in
// one and fio, on this machine or on the testbed's fio servers.
func defaultDrivers(p *plan.Plan) map[string]driver.Driver {
	var s driver.Setup
	if p.Testbed != nil {
		s.Hosts = p.Testbed.Hosts
	}
	return driver.Open(s)
}

// Engines lists the engines a plan may name: those that registered
// themselves. plan.Load checks engine attributes against it
// (plan.LoadOptions.Engines).
func Engines() []string { return driver.Names() }

// stepDriver returns the driver of a step's engine, told which step it
// runs when it wants to know (driver.StepDriver).
func (r *runner) stepDriver(n *plan.Node, engine string) (driver.Driver, bool) {
	d, ok := r.opt.Drivers[engine]
	if sd, wants := d.(driver.StepDriver); wants {
		d = sd.ForStep(driver.Step{ID: n.ID, Dir: filepath.Join(r.opt.Dir, results.StepsDir)})
	}
	return d, ok
}

// ValidateEngines reports, before anything runs, every step whose engine
// cannot express its workload (driver.Checker), at the block that defines
// it.
func ValidateEngines(p *plan.Plan, g *plan.Graph) hcl.Diagnostics {
	drivers := defaultDrivers(p)
	ranges := map[string]hcl.Range{}
	for _, pc := range p.Preconditions {
		ranges[pc.Name] = pc.Range
	}
	for _, pr := range p.Profiles {
		ranges[pr.Name] = pr.Range
	}
	var diags hcl.Diagnostics
	reported := map[string]bool{}
	for _, n := range g.Nodes {
		if n.Workload == nil || reported[n.Source] {
			continue
		}
		c, checks := drivers[engineName(n.Workload)].(driver.Checker)
		if !checks {
			continue
		}
		if err := c.Check(*n.Workload); err != nil {
			reported[n.Source] = true
			rng := ranges[n.Source]
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Not Expressible In " + engineName(n.Workload),
				Detail:   err.Error() + "\nUse engine = \"native\" for this step, or drop the feature.",
				Subject:  &rng,
			})
		}
	}
	return diags
}
