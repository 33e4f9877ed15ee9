package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/drivebench/drivebench/workload"
)

// Expand turns a plan into its graph of steps. It is a pure function of
// the plan: the same plan gives the same nodes with the same IDs.
//
// Each drive gets, in plan order, one node per pass of each precondition
// that runs at the start, then the nodes of each profile, each node
// depending on the one before it (a drive runs one step at a time, and
// each step finds the drive in the state the previous one left it). A
// profile's nodes are its preconditions' passes, when it names any, then
// one node per sweep point, or several per point for a rate curve, a
// repeat or a steady-state profile (see the language reference). After a
// profile's nodes come the nodes of the checks that judge it, each
// depending on all of that profile's nodes on the drive. Drives do not
// depend on each other. The last node writes the report and depends on
// every other node.
func Expand(p *Plan) *Graph {
	g := &Graph{Parallel: p.Testbed != nil && p.Testbed.Parallel}
	x := &expander{plan: p, preconditions: map[string]*Precondition{}, atStart: map[string]bool{}}
	for _, pc := range p.Preconditions {
		x.preconditions[pc.Name] = pc
		x.atStart[pc.Name] = true
	}
	for _, pr := range p.Profiles {
		for _, name := range pr.Preconditions {
			x.atStart[name] = false
		}
	}
	for _, d := range p.Drives {
		x.expandDrive(&chain{g: g, d: d})
	}
	report := reportNode(g)
	id := identityOf(report, nil)
	id.Formats = p.Report.Formats
	g.add(report, id)
	return g
}

// expander holds what expanding every drive needs.
type expander struct {
	plan          *Plan
	preconditions map[string]*Precondition
	// atStart holds the preconditions that no profile names: they run
	// once, at the start.
	atStart map[string]bool
}

// chain adds the steps of one drive, each after the one before.
type chain struct {
	g *Graph
	d *Drive
	// last is the ID of the last step added.
	last string
}

// add appends a step after the last one.
func (c *chain) add(n *Node) *Node {
	if c.last != "" {
		n.DependsOn = []string{c.last}
	}
	c.g.addOnDrive(n, c.d)
	c.last = n.ID
	return n
}

// expandDrive adds the nodes of one drive.
func (x *expander) expandDrive(c *chain) {
	d := c.d
	for _, pc := range x.plan.Preconditions {
		if x.atStart[pc.Name] && appliesTo(pc.Drives, d.Name) {
			addPrecondition(c, pc, "")
		}
	}
	var measured []string
	for _, pr := range x.plan.Profiles {
		if !appliesTo(pr.Drives, d.Name) {
			continue
		}
		for _, name := range pr.Preconditions {
			if pc := x.preconditions[name]; appliesTo(pc.Drives, d.Name) {
				addPrecondition(c, pc, pr.Name)
			}
		}
		ids := expandProfile(c, pr)
		if pr.Exec == nil {
			measured = append(measured, ids...)
		}
		for _, ch := range x.plan.Checks {
			if ch.Profile == pr.Name && appliesTo(ch.Drives, d.Name) {
				c.g.addOnDrive(checkNode(d, ch, ids), d)
			}
		}
	}
	for _, a := range x.plan.Accepts {
		if accepts(a, d) {
			c.g.addOnDrive(acceptanceNode(d, a, measured), d)
		}
	}
}

// accepts reports whether an accept block judges drive d: the drives it
// lists, or else every drive with a spec.
func accepts(a *Accept, d *Drive) bool {
	if len(a.Drives) > 0 {
		return slices.Contains(a.Drives, d.Name)
	}
	return len(d.Spec) > 0
}

// acceptanceNode compares a drive's measurements with its spec, after
// all of them.
func acceptanceNode(d *Drive, a *Accept, measured []string) *Node {
	return &Node{
		Kind:      KindAcceptance,
		Name:      d.Name + " / " + a.Name,
		Drive:     d.Name,
		Source:    a.Name,
		Accept:    a,
		DependsOn: slices.Clone(measured),
	}
}

// appliesTo reports whether a step restricted to drives runs on drive.
func appliesTo(drives []string, drive string) bool {
	return len(drives) == 0 || slices.Contains(drives, drive)
}

// addPrecondition adds the passes of a precondition; before names the
// profile it prepares, "" at the start.
func addPrecondition(c *chain, pc *Precondition, before string) {
	for pass := 1; pass <= pc.Passes; pass++ {
		c.add(preconditionNode(c.d, pc, pass, before))
	}
}

// preconditionNode is one pass of a precondition on a drive.
func preconditionNode(d *Drive, pc *Precondition, pass int, before string) *Node {
	name := d.Name + " / " + pc.Name
	if pc.Passes > 1 {
		name += fmt.Sprintf(" pass %d/%d", pass, pc.Passes)
	}
	if before != "" {
		name += " (before " + before + ")"
	}
	n := &Node{
		Kind:   KindPrecondition,
		Name:   name,
		Drive:  d.Name,
		Source: pc.Name,
		Pass:   pass,
		Passes: pc.Passes,
		Before: before,
	}
	if pc.Pattern == "purge" {
		n.PurgeMethod = pc.Method
		return n
	}
	w := pc.Workload
	w.Engine = d.engineOrDefault()
	n.Workload = &w
	n.Estimate = estimate(&w, d)
	return n
}

// expandProfile adds the nodes of a profile on a drive and returns their
// IDs.
func expandProfile(c *chain, pr *Profile) []string {
	switch {
	case pr.Exec != nil:
		return []string{c.add(execNode(c.d, pr)).ID}
	case pr.Adaptive != nil:
		return []string{c.add(adaptiveNode(c.d, pr)).ID}
	case pr.Dataloader != nil:
		return []string{c.add(dataloaderNode(c.d, pr)).ID}
	case pr.Checkpoint != nil:
		return addCheckpoint(c, pr)
	}
	ids := expandPoints(c, pr)
	if pr.Pause > 0 {
		addPauses(c.g, ids[1:], pr.Pause)
	}
	return ids
}

// addPauses makes each of the nodes that does I/O wait first.
func addPauses(g *Graph, ids []string, pause time.Duration) {
	for _, n := range g.Nodes {
		if n.Workload != nil && slices.Contains(ids, n.ID) {
			n.Pause = pause
			n.Estimate += pause
		}
	}
}

// expandPoints adds the nodes of each sweep point of a profile on a drive
// and returns their IDs.
func expandPoints(c *chain, pr *Profile) []string {
	var ids []string
	points := pr.SweepPoints()
	if ss := pr.SteadyState; ss != nil {
		group := c.d.Name + " / " + pr.Name
		for round := 1; round <= ss.MaxRounds; round++ {
			for _, pt := range points {
				n := profileNode(c.d, pr, pt)
				n.Name = roundName(group, round, ss.MaxRounds, pt)
				n.Group, n.Round, n.Rounds, n.SteadyState = group, round, ss.MaxRounds, ss
				ids = append(ids, c.add(n).ID)
			}
		}
		return ids
	}
	for _, pt := range points {
		switch {
		case pr.Repeat != nil:
			ids = append(ids, addRepeat(c, pr, pt)...)
		case pr.RateCurve != nil:
			ids = append(ids, addRateCurve(c, pr, pt)...)
		default:
			ids = append(ids, c.add(profileNode(c.d, pr, pt)).ID)
		}
	}
	return ids
}

// roundName names a round of a steady-state profile:
// "nvme0 / iops / round 3/25 / bs=4KiB, read_pct=65".
func roundName(group string, round, rounds int, point []workload.Param) string {
	name := fmt.Sprintf("%s / round %d/%d", group, round, rounds)
	if len(point) > 0 {
		name += " / " + workload.Point(point).String()
	}
	return name
}

// addRepeat adds the rounds of one point of a repeated profile and the
// node that averages them, and returns their IDs.
func addRepeat(c *chain, pr *Profile, pt []workload.Param) []string {
	r := pr.Repeat
	group := profileNode(c.d, pr, pt).Name
	var rounds []string
	for round := 1; round <= r.Rounds; round++ {
		n := profileNode(c.d, pr, pt)
		n.Name = fmt.Sprintf("%s / round %d/%d", group, round, r.Rounds)
		n.Group, n.Round, n.Rounds = group, round, r.Rounds
		n.Expect = nil
		rounds = append(rounds, c.add(n).ID)
	}
	agg := r.Aggregate
	n := &Node{
		Kind:      KindAggregate,
		Name:      group + " / " + agg.Describe(r.Rounds),
		Drive:     c.d.Name,
		Source:    pr.Name,
		Point:     pt,
		Group:     group,
		Rounds:    r.Rounds,
		Aggregate: &agg,
		Expect:    pr.Expect,
		DependsOn: slices.Clone(rounds),
	}
	c.g.addOnDrive(n, c.d)
	return append(rounds, n.ID)
}

// addRateCurve adds the points of one rate curve: the uncontrolled
// maximum, then one node per percentage of it, and returns their IDs.
func addRateCurve(c *chain, pr *Profile, pt []workload.Param) []string {
	curve := pr.RateCurve
	base := profileNode(c.d, pr, pt)
	*base.Workload = curve.MaxWorkload(*base.Workload)
	base.Estimate = estimate(base.Workload, c.d)
	group := base.Name
	base.Name += " / max"
	base.Group = group
	ids := []string{c.add(base).ID}
	for _, pct := range curve.Percents {
		n := profileNode(c.d, pr, pt)
		n.Workload.RatePct, n.Workload.RateBase = pct, base.ID
		n.Name = fmt.Sprintf("%s / rate %s%%", group, strconv.FormatFloat(pct, 'f', -1, 64))
		n.Group, n.Stop = group, curve.Stop
		ids = append(ids, c.add(n).ID)
	}
	return ids
}

// profileNode is one sweep point of a profile on a drive.
func profileNode(d *Drive, pr *Profile, point []workload.Param) *Node {
	w := pr.Workload.Clone()
	for _, p := range point {
		applyParam(&w, p)
	}
	normalizeReadPct(&w)
	normalizeSeqPct(&w)
	if w.Engine == "" {
		w.Engine = d.engineOrDefault()
	}
	name := d.Name + " / " + pr.Name
	if len(point) > 0 {
		name += " / " + workload.Point(point).String()
	}
	return &Node{
		Kind:     KindProfile,
		Name:     name,
		Drive:    d.Name,
		Source:   pr.Name,
		Point:    point,
		Workload: &w,
		Expect:   pr.Expect,
		Estimate: estimate(&w, d),
	}
}

// execNode runs an exec step on a drive. Its duration is unknown.
func execNode(d *Drive, pr *Profile) *Node {
	return &Node{
		Kind:   KindExec,
		Name:   d.Name + " / " + pr.Name,
		Drive:  d.Name,
		Source: pr.Name,
		Exec:   pr.Exec,
		Expect: pr.Expect,
	}
}

// dataloaderNode runs a dataloader step on a drive, on the built-in
// engine whatever the drive's (fio has no accelerator to wait for). Its
// estimate is its compute time: what it takes when storage keeps up.
func dataloaderNode(d *Drive, pr *Profile) *Node {
	w := pr.Workload
	w.Engine = workload.DefaultEngine
	batches := w.Files * w.SamplesPerFile / max(w.BatchSize, 1)
	return &Node{
		Kind:       KindProfile,
		Name:       d.Name + " / " + pr.Name,
		Drive:      d.Name,
		Source:     pr.Name,
		Workload:   &w,
		Expect:     pr.Expect,
		Dataloader: pr.Dataloader,
		Estimate:   time.Duration(w.Epochs*batches) * w.ComputeTime,
	}
}

// addCheckpoint adds a checkpoint's passes, each its write node and its
// read-back node, one after the other, and the summary node that depends
// on them all, and returns their IDs. A resumed run reruns the passes
// whose nodes are not done: the files of a written pass are kept until
// the run completes, for its read-back.
func addCheckpoint(c *chain, pr *Profile) []string {
	ck := pr.Checkpoint
	group := c.d.Name + " / " + pr.Name
	var ids []string
	for pass := 1; pass <= ck.Passes; pass++ {
		write := pr.Workload.Clone()
		phases := []workload.Workload{write}
		if ck.ReadBack {
			phases = append(phases, ck.readWorkload(write))
		}
		for _, w := range phases {
			phase := CheckpointWrite
			if w.RW == "read" {
				phase = CheckpointRead
			}
			n := &Node{Kind: KindProfile, Name: fmt.Sprintf("%s / pass %d/%d %s", group, pass, ck.Passes, phase),
				Drive: c.d.Name, Source: pr.Name, Workload: &w,
				Checkpoint: &CheckpointPass{Pass: pass, Passes: ck.Passes, Phase: phase}}
			ids = append(ids, c.add(n).ID)
		}
	}
	n := &Node{Kind: KindCheckpoint, Name: group, Drive: c.d.Name, Source: pr.Name, Expect: pr.Expect,
		Checkpoint: &CheckpointPass{Passes: ck.Passes}, DependsOn: slices.Clone(ids)}
	c.g.addOnDrive(n, c.d)
	return append(ids, n.ID)
}

// adaptiveNode stands for the points of an adaptive profile on a drive;
// its workload is the profile's, which each point changes. Its estimate
// counts every point it may run.
func adaptiveNode(d *Drive, pr *Profile) *Node {
	n := profileNode(d, pr, nil)
	n.Kind, n.Adaptive = KindAdaptive, pr.Adaptive
	n.Estimate *= time.Duration(pr.Adaptive.MaxPoints)
	return n
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
		return workload.DefaultEngine
	}
	return d.Engine
}

// applyParam sets one parameter of a point in a workload.
func applyParam(w *workload.Workload, p workload.Param) {
	workload.Lookup(p.Name).Set(w, p.Value)
}

// nodeIdentity is the content a node's ID is derived from. It leaves out
// what does not change what the node does (its name, its estimate, the
// pause before it) and,
// except for the report and aggregates, its dependencies: a changed profile changes the
// IDs of its own nodes only, while the report, which covers everything,
// changes with any node.
type nodeIdentity struct {
	Kind        NodeKind            `json:"kind"`
	Drive       *driveIdentity      `json:"drive,omitempty"`
	Source      string              `json:"source,omitempty"`
	Pass        int                 `json:"pass,omitempty"`
	Passes      int                 `json:"passes,omitempty"`
	Point       []workload.Param    `json:"point,omitempty"`
	Workload    *workload.Workload  `json:"workload,omitempty"`
	Check       *checkIdentity      `json:"check,omitempty"`
	Formats     []string            `json:"formats,omitempty"`
	DependsOn   []string            `json:"depends_on,omitempty"`
	Round       int                 `json:"round,omitempty"`
	Rounds      int                 `json:"rounds,omitempty"`
	Aggregate   *workload.Aggregate `json:"aggregate,omitempty"`
	PurgeMethod string              `json:"purge_method,omitempty"`
	Before      string              `json:"before,omitempty"`
	Exec        *Exec               `json:"exec,omitempty"`
	Adaptive    *Adaptive           `json:"adaptive,omitempty"`
	Accept      *Accept             `json:"accept,omitempty"`
	Checkpoint  *CheckpointPass     `json:"checkpoint,omitempty"`
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
// report). A rate curve's stop condition and a steady state's criteria
// are left out: they decide whether a step runs, not what it does.
func identityOf(n *Node, d *Drive) nodeIdentity {
	id := nodeIdentity{
		Kind: n.Kind, Source: n.Source, Pass: n.Pass, Passes: n.Passes,
		Point: n.Point, Workload: n.Workload, Round: n.Round, Rounds: n.Rounds,
		Aggregate: n.Aggregate, PurgeMethod: n.PurgeMethod, Before: n.Before,
		Exec: n.Exec, Adaptive: n.Adaptive, Accept: n.Accept, Checkpoint: n.Checkpoint,
	}
	if d != nil {
		id.Drive = &driveIdentity{Name: d.Name, Path: d.Path, Size: d.Size}
	}
	if c := n.Check; c != nil {
		id.Check = &checkIdentity{ScriptName: c.ScriptName, ScriptHash: c.ScriptHash, Function: c.Function, Profile: c.Profile, Args: c.Args}
	}
	if n.Kind == KindReport || n.Kind == KindAggregate || n.Kind == KindCheckpoint {
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
