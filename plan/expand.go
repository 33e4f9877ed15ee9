package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Expand turns a plan into its graph of steps. It is a pure function of
// the plan: the same plan gives the same nodes with the same IDs.
//
// Each drive gets, in plan order, one node per precondition pass, then one
// node per profile sweep point, each depending on the one before it (a
// drive runs one step at a time, and each step finds the drive in the
// state the previous one left it). After a profile's nodes come the nodes
// of the checks that judge it, each depending on all of that profile's
// nodes on the drive. Drives do not depend on each other. The last node
// writes the report and depends on every other node.
func Expand(p *Plan) *Graph {
	g := &Graph{}
	for _, d := range p.Drives {
		expandDrive(p, d, g)
	}
	report := reportNode(g)
	id := identityOf(report, nil)
	id.Formats = p.Report.Formats
	g.add(report, id)
	return g
}

// expandDrive adds the nodes of one drive.
func expandDrive(p *Plan, d *Drive, g *Graph) {
	var prev []string
	for _, pc := range p.Preconditions {
		if !appliesTo(pc.Drives, d.Name) {
			continue
		}
		for pass := 1; pass <= pc.Passes; pass++ {
			n := g.addOnDrive(preconditionNode(d, pc, pass, prev), d)
			prev = []string{n.ID}
		}
	}
	for _, pr := range p.Profiles {
		if !appliesTo(pr.Drives, d.Name) {
			continue
		}
		var ids []string
		for _, point := range sweepPoints(pr.Sweep) {
			n := g.addOnDrive(profileNode(d, pr, point, prev), d)
			prev = []string{n.ID}
			ids = append(ids, n.ID)
		}
		for _, c := range p.Checks {
			if c.Profile == pr.Name && appliesTo(c.Drives, d.Name) {
				g.addOnDrive(checkNode(d, c, ids), d)
			}
		}
	}
}

// appliesTo reports whether a step restricted to drives runs on drive.
func appliesTo(drives []string, drive string) bool {
	return len(drives) == 0 || slices.Contains(drives, drive)
}

// sweepPoints returns the cartesian product of the axes, the first axis
// varying slowest. Without axes there is one point with no parameters.
func sweepPoints(axes []SweepAxis) [][]Param {
	points := [][]Param{nil}
	for _, axis := range axes {
		next := make([][]Param, 0, len(points)*len(axis.Values))
		for _, pt := range points {
			for _, v := range axis.Values {
				next = append(next, append(slices.Clip(pt), Param{Name: axis.Param, Value: v}))
			}
		}
		points = next
	}
	return points
}

// preconditionNode is one pass of a precondition on a drive.
func preconditionNode(d *Drive, pc *Precondition, pass int, deps []string) *Node {
	w := pc.Workload
	w.Engine = d.engineOrDefault()
	name := d.Name + " / " + pc.Name
	if pc.Passes > 1 {
		name += fmt.Sprintf(" pass %d/%d", pass, pc.Passes)
	}
	return &Node{
		Kind:      KindPrecondition,
		Name:      name,
		Drive:     d.Name,
		Source:    pc.Name,
		Pass:      pass,
		Passes:    pc.Passes,
		Workload:  &w,
		DependsOn: deps,
		Estimate:  estimate(&w, d),
	}
}

// profileNode is one sweep point of a profile on a drive.
func profileNode(d *Drive, pr *Profile, point []Param, deps []string) *Node {
	w := pr.Workload
	for _, p := range point {
		applyParam(&w, p)
	}
	normalizeReadPct(&w)
	if w.Engine == "" {
		w.Engine = d.engineOrDefault()
	}
	name := d.Name + " / " + pr.Name
	if len(point) > 0 {
		name += " / " + formatPoint(point)
	}
	return &Node{
		Kind:      KindProfile,
		Name:      name,
		Drive:     d.Name,
		Source:    pr.Name,
		Point:     point,
		Workload:  &w,
		DependsOn: deps,
		Estimate:  estimate(&w, d),
	}
}

// checkNode is a check on a drive, judging the nodes of its profile.
func checkNode(d *Drive, c *Check, profileNodes []string) *Node {
	return &Node{
		Kind:      KindCheck,
		Name:      d.Name + " / " + c.Name,
		Drive:     d.Name,
		Source:    c.Name,
		Check:     c,
		DependsOn: slices.Clone(profileNodes),
	}
}

// reportNode writes the reports after every other node.
func reportNode(g *Graph) *Node {
	deps := make([]string, len(g.Nodes))
	for i, n := range g.Nodes {
		deps[i] = n.ID
	}
	return &Node{Kind: KindReport, Name: "report", DependsOn: deps}
}

// engineOrDefault is the drive's engine, or the default one.
func (d *Drive) engineOrDefault() string {
	if d.Engine == "" {
		return defaultEngine
	}
	return d.Engine
}

// applyParam sets one swept parameter of a workload.
func applyParam(w *Workload, p Param) {
	switch v := p.Value.(type) {
	case string:
		if p.Name == "rw" {
			w.RW = v
		}
	case int64:
		switch p.Name {
		case "iodepth":
			w.IODepth = int(v)
		case "numjobs":
			w.NumJobs = int(v)
		case "read_pct":
			w.ReadPct = int(v)
		case "bs":
			w.BS = v
		}
	}
}

// formatPoint prints a sweep point for people: "iodepth=4, bs=64KiB".
func formatPoint(point []Param) string {
	parts := make([]string, len(point))
	for i, p := range point {
		parts[i] = p.Name + "=" + formatParamValue(p)
	}
	return strings.Join(parts, ", ")
}

// formatParamValue prints a parameter value in the unit a plan uses.
func formatParamValue(p Param) string {
	if n, ok := p.Value.(int64); ok && p.Name == "bs" {
		return FormatSize(n)
	}
	return fmt.Sprint(p.Value)
}

// nodeIdentity is the content a node's ID is derived from. It leaves out
// what does not change what the node does (its name, its estimate) and,
// except for the report, its dependencies: a changed profile changes the
// IDs of its own nodes only, while the report, which covers everything,
// changes with any node.
type nodeIdentity struct {
	Kind      NodeKind       `json:"kind"`
	Drive     *driveIdentity `json:"drive,omitempty"`
	Source    string         `json:"source,omitempty"`
	Pass      int            `json:"pass,omitempty"`
	Passes    int            `json:"passes,omitempty"`
	Point     []Param        `json:"point,omitempty"`
	Workload  *Workload      `json:"workload,omitempty"`
	Check     *checkIdentity `json:"check,omitempty"`
	Formats   []string       `json:"formats,omitempty"`
	DependsOn []string       `json:"depends_on,omitempty"`
}

// driveIdentity is what identifies the target of a step.
type driveIdentity struct {
	Name string `json:"name"`
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// checkIdentity is what identifies a check: its fields and its script's
// content, but not the script's absolute path.
type checkIdentity struct {
	ScriptName string         `json:"script_name"`
	ScriptHash string         `json:"script_sha256"`
	Function   string         `json:"function"`
	Profile    string         `json:"profile"`
	Args       map[string]any `json:"args"`
}

// identityOf collects the identity of a node on drive d (nil for the
// report).
func identityOf(n *Node, d *Drive) nodeIdentity {
	id := nodeIdentity{
		Kind: n.Kind, Source: n.Source, Pass: n.Pass, Passes: n.Passes,
		Point: n.Point, Workload: n.Workload,
	}
	if d != nil {
		id.Drive = &driveIdentity{Name: d.Name, Path: d.Path, Size: d.Size}
	}
	if c := n.Check; c != nil {
		id.Check = &checkIdentity{ScriptName: c.ScriptName, ScriptHash: c.ScriptHash, Function: c.Function, Profile: c.Profile, Args: c.Args}
	}
	if n.Kind == KindReport {
		id.DependsOn = n.DependsOn
	}
	return id
}

// hash is the node ID for an identity: the first 12 hex digits of the
// SHA-256 of its canonical JSON form (encoding/json writes struct fields
// in declaration order and map keys sorted).
func (id nodeIdentity) hash() string {
	raw, err := json.Marshal(id)
	if err != nil {
		// Every value in an identity comes from decoded HCL (check
		// arguments are plain JSON data), so it always encodes; failing
		// here is a bug in this package.
		panic(fmt.Sprintf("plan: encoding a node identity: %v", err))
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])[:12]
}
