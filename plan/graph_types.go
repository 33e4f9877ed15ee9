package plan

import (
	"slices"
	"time"

	"github.com/drivebench/drivebench/workload"
)

// NodeKind says what a Graph node does.
type NodeKind string

// The kinds of node.
const (
	KindPrecondition NodeKind = "precondition"
	KindProfile      NodeKind = "profile"
	KindCheck        NodeKind = "check"
	KindReport       NodeKind = "report"
	// KindAggregate combines the rounds of a repeated step into one result.
	KindAggregate NodeKind = "aggregate"
	// KindExec runs an exec step's command.
	KindExec NodeKind = "exec"
	// KindAdaptive stands for an adaptive profile's points, which its hook
	// picks while the step runs; each point measured is a profile node
	// made by AdaptivePoint.
	KindAdaptive NodeKind = "adaptive"
	// KindAcceptance compares a drive's measurements with its spec, after
	// every profile of the drive.
	KindAcceptance NodeKind = "acceptance"
	// KindCheckpoint sums up a checkpoint's passes, each a write and a
	// read-back node (profile nodes on a file set), which it depends on:
	// seconds per pass of the slowest rank, bandwidth of the lowest rank
	// and of all.
	KindCheckpoint NodeKind = "checkpoint"
)

// NodeKinds lists every kind of node, so that the engine can confirm it
// runs each (engine/stepkind.go); a new kind is added here and above.
func NodeKinds() []NodeKind {
	return []NodeKind{KindPrecondition, KindProfile, KindCheck, KindReport, KindAggregate, KindExec, KindAdaptive, KindAcceptance, KindCheckpoint}
}

// StopCondition ends a rate curve early: once a point's latency statistic
// exceeds the limit, the curve's remaining points are skipped.
type StopCondition struct {
	// Stat is the canonical name of a latency figure of the figure
	// registry's place figure.Stop, "mean" or "p99" (completion latency
	// over all directions).
	Stat    string `json:"stat"`
	LimitNs uint64 `json:"limit_ns"`
}

// Node is one step of the expanded plan.
type Node struct {
	// ID is derived from the node's content alone (kind, drive, source,
	// point, workload), so the same plan always gives the same IDs and a
	// changed step gets a new one.
	ID   string   `json:"id"`
	Kind NodeKind `json:"kind"`
	// Name is for people: "scratch / 4k-random-read / iodepth=4".
	Name string `json:"name"`
	// Drive is empty for the report node.
	Drive string `json:"drive,omitempty"`
	// Source is the name of the precondition, profile or check.
	Source string `json:"source,omitempty"`
	// Pass is the 1-based pass of a precondition, of Passes.
	Pass   int            `json:"pass,omitempty"`
	Passes int            `json:"passes,omitempty"`
	Point  workload.Point `json:"point,omitempty"`
	// Workload is set for precondition and profile nodes.
	Workload *workload.Workload `json:"workload,omitempty"`
	// Check is set for check nodes.
	Check *Check `json:"-"`
	// Group names the set a node belongs to: the points of one rate curve
	// or the rounds of one repeated step.
	Group string `json:"group,omitempty"`
	// Stop, on the points of a rate curve, ends the curve early.
	Stop *StopCondition `json:"stop,omitempty"`
	// Round is the 1-based round of a repeated step, of Rounds.
	Round  int `json:"round,omitempty"`
	Rounds int `json:"rounds,omitempty"`
	// Aggregate is set on aggregate nodes, which depend on their rounds.
	Aggregate *workload.Aggregate `json:"aggregate,omitempty"`
	// SteadyState is set on the rounds of a profile run to steady state:
	// all of the profile's nodes on a drive share one Group, Round counts
	// whole sweeps, and once the tracked point's metric is steady the
	// remaining rounds are skipped.
	SteadyState *SteadyState `json:"steady_state,omitempty"`
	// PurgeMethod is set on a purge precondition, which has no Workload:
	// the drive is erased with this method instead.
	PurgeMethod string `json:"purge_method,omitempty"`
	// Before names the profile a precondition run prepares, when the
	// precondition runs right before that profile rather than at the start.
	Before string `json:"before,omitempty"`
	// Exec is set on exec nodes, Adaptive on adaptive nodes, Accept on
	// acceptance nodes.
	Exec     *Exec     `json:"exec,omitempty"`
	Adaptive *Adaptive `json:"adaptive,omitempty"`
	Accept   *Accept   `json:"accept,omitempty"`
	// Dataloader is set on a dataloader step, a profile node whose
	// Workload is a dataloader's: its AU target is judged with its
	// expectations.
	Dataloader *Dataloader `json:"dataloader,omitempty"`
	// Checkpoint is set on the nodes of a checkpoint: its passes' write
	// and read-back nodes and its summary node.
	Checkpoint *CheckpointPass `json:"checkpoint,omitempty"`
	// Expect are the conditions the node's result must meet: on the
	// points of a profile, the averages of a repeated one (not its
	// rounds), the rounds of a steady-state one, an adaptive node (for each
	// of its points) and an exec node.
	Expect []*Expectation `json:"expect,omitempty"`
	// Parent is set on the points of an adaptive node: its ID.
	Parent string `json:"parent,omitempty"`
	// DependsOn lists the IDs of the nodes that must finish first.
	DependsOn []string `json:"depends_on,omitempty"`
	// Pause is the idle time before the step runs: the profile's pause,
	// on each of its steps on a drive after the first. The estimate
	// includes it.
	Pause time.Duration `json:"pause_ns,omitempty"`
	// Estimate is the expected duration; zero when unknown (a byte-count
	// run on a drive of unknown speed).
	Estimate time.Duration `json:"estimate_ns"`
}

// GraphJSONVersion is the version of the graph's JSON form (plan -json):
// a new field keeps it, a renamed or removed one changes it.
const GraphJSONVersion = "1.0"

// Graph is the DAG of a plan's steps. Nodes are in a valid execution order:
// on each drive, plan order; every node after its dependencies.
type Graph struct {
	Nodes []*Node `json:"nodes"`
	// Parallel says that steps of different drives may run at the same
	// time (the testbed's parallel); otherwise drives take turns.
	Parallel bool `json:"parallel,omitempty"`
}

// TracksSteadyState reports whether n is a round whose metric decides
// steady state: a node of a steady-state profile at the tracked point.
func (n *Node) TracksSteadyState() bool {
	if n.SteadyState == nil {
		return false
	}
	for _, want := range n.SteadyState.Track {
		if !slices.ContainsFunc(n.Point, func(p workload.Param) bool { return p.Name == want.Name && p.Value == want.Value }) {
			return false
		}
	}
	return true
}
