package engine

import (
	"context"
	"fmt"

	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// A stepKind runs the nodes of one plan.NodeKind. runNode does what every
// step shares (resuming, the drive's state, holding the device, judging
// expectations, writing the record) and leaves the step's own work to
// its kind, so that a new kind of step is its own file plus one line in
// stepKinds.
type stepKind interface {
	// run does the step's work, filling in rec: a step that fails sets
	// rec's status and error. The error return is for what stops the
	// whole run (a record that cannot be saved).
	run(ctx context.Context, r *runner, i int, n *plan.Node, rec *results.Record) error
	// reusable reports whether a complete record of the kind's step from
	// an earlier run in the same folder stands when the run resumes: not
	// for judgements, which see every record anew, nor for exec steps,
	// which may set up what later steps need (a database server).
	reusable() bool
}

// A stepReuser is a step kind with more to do than judge again when its
// record from an earlier run is kept (an adaptive step reads back its
// points).
type stepReuser interface {
	reused(r *runner, i int, n *plan.Node, old *results.Record) error
}

// stepKinds holds the kind of every node the engine runs. The report node
// is not among them: it makes no record, and the caller writes the
// reports once Run has returned.
var stepKinds = map[plan.NodeKind]stepKind{
	plan.KindPrecondition: workloadStep{},
	plan.KindProfile:      workloadStep{},
	plan.KindCheck:        checkStep{},
	plan.KindAggregate:    aggregateStep{},
	plan.KindExec:         execStep{},
	plan.KindAdaptive:     adaptiveStep{},
	plan.KindAcceptance:   acceptanceStep{},
	plan.KindCheckpoint:   checkpointStep{},
}

// checkStepKinds confirms, before the run touches anything, that the
// engine runs every node of g.
func checkStepKinds(g *plan.Graph) error {
	for _, n := range g.Nodes {
		if _, ok := stepKinds[n.Kind]; !ok && n.Kind != plan.KindReport {
			return fmt.Errorf("step %s is of kind %q, which the engine cannot run: no step kind of that name is registered in stepKinds (engine/stepkind.go)", n.Name, n.Kind)
		}
	}
	return nil
}
