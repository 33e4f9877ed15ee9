package plan

import "time"

// NodeKind says what a Graph node does.
type NodeKind string

// The kinds of node.
const (
	KindPrecondition NodeKind = "precondition"
	KindProfile      NodeKind = "profile"
	KindCheck        NodeKind = "check"
	KindReport       NodeKind = "report"
)

// Param is one coordinate of a sweep point, such as iodepth=4.
type Param struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
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
	Pass   int     `json:"pass,omitempty"`
	Passes int     `json:"passes,omitempty"`
	Point  []Param `json:"point,omitempty"`
	// Workload is set for precondition and profile nodes.
	Workload *Workload `json:"workload,omitempty"`
	// Check is set for check nodes.
	Check *Check `json:"-"`
	// DependsOn lists the IDs of the nodes that must finish first.
	DependsOn []string `json:"depends_on,omitempty"`
	// Estimate is the expected duration; zero when unknown (a byte-count
	// run on a drive of unknown speed).
	Estimate time.Duration `json:"estimate_ns"`
}

// Graph is the DAG of a plan's steps. Nodes are in a valid execution order:
// on each drive, plan order; every node after its dependencies.
type Graph struct {
	Nodes []*Node `json:"nodes"`
}
