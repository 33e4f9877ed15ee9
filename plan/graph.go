package plan

import (
	"fmt"
	"strings"
	"time"

	"github.com/drivebench/drivebench/workload"
)

// assumedBytesPerSecond is the speed at which Estimate expects a byte-count
// step (a precondition pass, a profile with io_size) to run before
// anything has been measured: 1 GB/s, a round figure between a SATA SSD
// (about 0.5 GB/s) and an NVMe drive (3 to 7 GB/s). It only sizes the
// overview shown before a run starts.
const assumedBytesPerSecond = 1e9

// add sets the node's ID from its identity and appends it.
func (g *Graph) add(n *Node, id nodeIdentity) *Node {
	n.ID = id.hash()
	g.Nodes = append(g.Nodes, n)
	return n
}

// addOnDrive adds a node of drive d.
func (g *Graph) addOnDrive(n *Node, d *Drive) *Node {
	return g.add(n, identityOf(n, d))
}

// Node returns the node with the given ID, or nil.
func (g *Graph) Node(id string) *Node {
	for _, n := range g.Nodes {
		if n.ID == id {
			return n
		}
	}
	return nil
}

// Estimate is the expected duration of the whole graph. Each drive runs
// its steps one at a time; drives take turns, so the estimate is the sum
// of all node estimates, unless the graph is Parallel, when it is the
// largest per-drive sum. Steps of unknown duration count as zero, and so
// do rounds and curve points that may be skipped: the estimate is an
// upper bound for those.
func (g *Graph) Estimate() time.Duration {
	perDrive := map[string]time.Duration{}
	var longest, total time.Duration
	for _, n := range g.Nodes {
		perDrive[n.Drive] += n.Estimate
		longest = max(longest, perDrive[n.Drive])
		total += n.Estimate
	}
	if g.Parallel {
		return longest
	}
	return total
}

// estimate is the expected duration of a workload on a drive: a replay's
// own (workload.Replay.Estimate); runtime and
// ramp for a timed run; for a byte-count run, the bytes at
// assumedBytesPerSecond when the number of bytes is known (io_size, or a
// region of known size); the shorter of the two when both bound the run;
// otherwise zero.
func estimate(w *workload.Workload, d *Drive) time.Duration {
	if w.Replay != nil {
		return w.Replay.Estimate()
	}
	bytes := w.Bytes
	switch {
	case w.BytesPct > 0:
		bytes = int64(float64(regionBytes(w, d)) * w.BytesPct / 100)
	case bytes == 0 && w.Runtime == 0:
		bytes = regionBytes(w, d) * int64(max(w.Loops, 1))
	}
	transfer := time.Duration(float64(bytes) / assumedBytesPerSecond * float64(time.Second))
	switch {
	case w.Runtime > 0 && bytes > 0:
		return w.Ramp + min(w.Runtime, transfer)
	case w.Runtime > 0:
		return w.Runtime + w.Ramp
	case bytes > 0:
		return w.Ramp + transfer
	}
	return 0
}

// regionBytes is the size of a workload's region in bytes, 0 when the
// drive's capacity is not known.
func regionBytes(w *workload.Workload, d *Drive) int64 {
	switch {
	case w.Size > 0:
		return w.Size
	case d.Size == 0:
		return 0
	case w.SizePct > 0:
		return int64(float64(d.Size) * w.SizePct / 100)
	}
	return d.Size - w.Offset
}

// DOT renders the graph in Graphviz's language, one cluster per drive:
// `drivebench plan --dot | dot -Tsvg`.
func (g *Graph) DOT() string {
	var b strings.Builder
	b.WriteString("digraph plan {\n\trankdir=LR;\n\tnode [shape=box, fontname=\"Helvetica\"];\n")
	for i, drive := range g.drives() {
		fmt.Fprintf(&b, "\tsubgraph cluster_%d {\n\t\tlabel=%s;\n", i, dotQuote(drive))
		for _, n := range g.Nodes {
			if n.Drive == drive {
				fmt.Fprintf(&b, "\t\t%s [label=%s];\n", dotQuote(n.ID), dotQuote(dotLabel(n)))
			}
		}
		b.WriteString("\t}\n")
	}
	for _, n := range g.Nodes {
		if n.Drive == "" {
			fmt.Fprintf(&b, "\t%s [label=%s, shape=note];\n", dotQuote(n.ID), dotQuote(n.Name))
		}
	}
	for _, n := range g.Nodes {
		for _, dep := range n.DependsOn {
			fmt.Fprintf(&b, "\t%s -> %s;\n", dotQuote(dep), dotQuote(n.ID))
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// drives lists the graph's drives in order of first appearance.
func (g *Graph) drives() []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range g.Nodes {
		if n.Drive != "" && !seen[n.Drive] {
			seen[n.Drive] = true
			out = append(out, n.Drive)
		}
	}
	return out
}

// dotLabel is a node's label inside its drive's cluster: its name without
// the drive, and its kind.
func dotLabel(n *Node) string {
	return string(n.Kind) + "\n" + strings.TrimPrefix(n.Name, n.Drive+" / ")
}

// dotQuote quotes s as a DOT string.
func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
