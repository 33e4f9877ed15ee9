package engine

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// Spec-sheet acceptance: every figure of a drive's spec is compared with
// the measured point whose conditions come closest to the figure's (same
// I/O pattern; then the same block size; the same drive state; the
// nearest number of outstanding I/Os; the best figure), under the accept
// block's tolerance. Each way the point's conditions differ from the
// spec's is said in plain words, and a figure missed under other
// conditions is a warning rather than a failure: not like with like.

// candidate is a measured point acceptance may compare with.
type candidate struct {
	rec *results.Record
	w   results.Workload
	// state is "steady" for the final round of a steady-state search that
	// reached steady state, "unsteady" for one that did not, "" otherwise.
	state string
	// writtenBy names the last step that wrote to the drive before this
	// one since the drive was last purged; "" when none did.
	writtenBy string
	total     *metrics.DirStats
}

// runAcceptance compares a drive's measurements with its spec.
func (r *runner) runAcceptance(n *plan.Node, rec *results.Record) {
	a := n.Accept
	cands := r.acceptCandidates(n)
	for _, e := range r.targets[n.Drive].drive.Spec {
		if len(a.Entries) > 0 && !slices.Contains(a.Entries, e.Name) {
			continue
		}
		for _, metric := range figureOrder(e.Values) {
			row := acceptRow(a, e, metric, cands, n.Drive)
			rec.Acceptance = append(rec.Acceptance, row)
			if row.Verdict != results.VerdictSkip {
				rec.Verdicts = append(rec.Verdicts, results.Verdict{Check: a.Name, Drive: n.Drive, Subject: row.Spec + " " + row.Metric, Status: row.Verdict, Message: rowMessage(row)})
			}
		}
	}
}

// figureOrder lists an entry's figures: the measured ones in a fixed
// order, then the others by name.
func figureOrder(values map[string]float64) []string {
	rank := func(k string) int {
		switch k {
		case "iops":
			return 0
		case "bw":
			return 1
		case "lat_us":
			return 2
		}
		if _, ok := plan.LatencyPercentile(k); ok {
			return 3
		}
		return 4
	}
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if ri, rj := rank(keys[i]), rank(keys[j]); ri != rj {
			return ri < rj
		}
		return keys[i] < keys[j]
	})
	return keys
}

// rowMessage is a row as a verdict's message.
func rowMessage(row results.AcceptanceRow) string {
	msg := fmt.Sprintf("%s %s: %s", row.Spec, row.Metric, row.Reason)
	if len(row.Conditions) > 0 {
		msg += " [" + strings.Join(row.Conditions, "; ") + "]"
	}
	return msg
}

// acceptCandidates lists the points measured on n's drive before n that
// the accept block may compare with: plain points, the averages of
// repeated ones, the points of adaptive searches, the final round of
// steady-state searches, and not the rate-limited points of curves.
func (r *runner) acceptCandidates(n *plan.Node) []candidate {
	final := r.finalRounds(n.Drive)
	var out []candidate
	writtenBy := ""
	for _, g := range r.graph.Nodes {
		if g == n {
			break
		}
		if g.Drive != n.Drive {
			continue
		}
		rec := r.record(g.ID)
		if rec == nil || rec.Status != results.StatusOK {
			continue
		}
		for _, p := range r.pointsOf(g, rec, final) {
			if len(n.Accept.Profiles) == 0 || slices.Contains(n.Accept.Profiles, g.Source) {
				p.writtenBy = writtenBy
				out = append(out, p)
			}
		}
		writtenBy = r.writer(g, rec, writtenBy)
	}
	return out
}

// writer is the last step that wrote to the drive after g ran.
func (r *runner) writer(g *plan.Node, rec *results.Record, before string) string {
	switch {
	case g.PurgeMethod != "":
		return ""
	case g.Exec != nil || g.Workload != nil && g.Workload.Writes():
		return g.Name
	case g.Kind == plan.KindAdaptive:
		for _, id := range rec.Points {
			if p := r.record(id); p != nil && p.Result != nil && p.Result.Write != nil {
				before = p.Name
			}
		}
	}
	return before
}

// pointsOf returns the candidates a node's record gives.
func (r *runner) pointsOf(g *plan.Node, rec *results.Record, final map[string]finalRound) []candidate {
	switch {
	case g.Kind == plan.KindAggregate:
		if first := r.record(g.DependsOn[0]); first != nil {
			return r.candidateOf(rec, first.Workload, "")
		}
	case g.Kind == plan.KindAdaptive:
		var out []candidate
		for _, id := range rec.Points {
			if p := r.record(id); p != nil && p.Status == results.StatusOK {
				out = append(out, r.candidateOf(p, p.Workload, "")...)
			}
		}
		return out
	case g.Kind != plan.KindProfile || rec.Workload == nil || rec.Workload.RateLimited():
	case g.SteadyState != nil:
		if f := final[g.Group]; f.round == g.Round {
			return r.candidateOf(rec, rec.Workload, f.state)
		}
	case g.Group == "" || g.Round == 0:
		return r.candidateOf(rec, rec.Workload, "")
	}
	return nil
}

func (r *runner) candidateOf(rec *results.Record, w *results.Workload, state string) []candidate {
	if w == nil || rec.Result == nil {
		return nil
	}
	total := judging.TotalStats(rec.Result)
	if total == nil {
		return nil
	}
	return []candidate{{rec: rec, w: *w, state: state, total: total}}
}

// finalRound is the last round a steady-state search ran and whether it
// reached steady state.
type finalRound struct {
	round int
	state string
}

// finalRounds finds, for each steady-state search on a drive, its last
// round and its outcome.
func (r *runner) finalRounds(drive string) map[string]finalRound {
	out := map[string]finalRound{}
	for _, g := range r.graph.Nodes {
		if g.Drive != drive || g.SteadyState == nil {
			continue
		}
		rec := r.record(g.ID)
		if rec == nil || rec.Status == results.StatusSkipped {
			continue
		}
		f := out[g.Group]
		f.round = max(f.round, g.Round)
		if rec.SteadyState != nil {
			f.state = "unsteady"
			if rec.SteadyState.Reached {
				f.state = "steady"
			}
		}
		out[g.Group] = f
	}
	return out
}

// figure is how a spec key is measured: its unit, which way is better,
// and how to read it from a point.
type figure struct {
	unit   string
	higher bool
	read   func(*metrics.DirStats) float64
}

// figureOf returns how to measure a spec key; ok is false for a figure
// drivebench does not measure (endurance, power).
func figureOf(key string) (figure, bool) {
	switch key {
	case "iops":
		return figure{"IOPS", true, func(d *metrics.DirStats) float64 { return d.IOPS }}, true
	case "bw":
		return figure{"B/s", true, func(d *metrics.DirStats) float64 { return d.BW }}, true
	case "lat_us":
		return figure{"µs", false, func(d *metrics.DirStats) float64 { return d.Lat.Mean / 1e3 }}, true
	}
	if p, ok := plan.LatencyPercentile(key); ok {
		return figure{"µs", false, func(d *metrics.DirStats) float64 { return float64(d.Quantile(p)) / 1e3 }}, true
	}
	return figure{}, false
}

// acceptRow compares one figure of a spec entry with the best-matching
// candidate.
func acceptRow(a *plan.Accept, e *plan.SpecEntry, metric string, cands []candidate, drive string) results.AcceptanceRow {
	row := results.AcceptanceRow{Spec: e.Name, Metric: metric, Claimed: e.Values[metric], TolerancePct: a.TolerancePct}
	f, measurable := figureOf(metric)
	if !measurable {
		return skipRow(row, fmt.Sprintf("drivebench does not measure %s; check it by other means", metric))
	}
	row.Unit, row.Better = f.unit, "lower"
	if f.higher {
		row.Better = "higher"
	}
	switch {
	case e.RW == "":
		return skipRow(row, "the spec entry states no rw, so no step can be matched with it; add the pattern it was measured with, such as rw = \"randread\"")
	case e.PCIeGen != 0 && a.PCIeGen != 0 && e.PCIeGen != a.PCIeGen:
		return skipRow(row, fmt.Sprintf("the figure is for a PCIe Gen %d link, and the drive under test is on Gen %d", e.PCIeGen, a.PCIeGen))
	case row.Claimed <= 0:
		return skipRow(row, fmt.Sprintf("the spec claims %s %s, which no measurement can be compared with", plan.FormatNumber(row.Claimed), f.unit))
	}
	same := slices.DeleteFunc(slices.Clone(cands), func(c candidate) bool { return c.w.RW != e.RW })
	if len(same) == 0 {
		row.Verdict = results.VerdictWarn
		row.Reason = fmt.Sprintf("not measured: no profile of this plan ran rw = %s on drive %s; add one to check this figure", e.RW, drive)
		return row
	}
	best := bestCandidate(e, f, same)
	row.StepID, row.Step = best.rec.StepID, best.rec.Name
	var differs bool
	row.Conditions, differs = conditions(a, e, f, best, same)
	judge(&row, f, f.read(best.total), differs)
	return row
}

func skipRow(row results.AcceptanceRow, reason string) results.AcceptanceRow {
	row.Verdict, row.Reason = results.VerdictSkip, reason
	return row
}

// judge sets the measured figure, the ratio and the verdict: a figure
// missed under conditions that differ from the spec's is a warning.
func judge(row *results.AcceptanceRow, f figure, measured float64, differs bool) {
	ratio := measured / row.Claimed
	row.Measured, row.Ratio = &measured, &ratio
	tol := row.TolerancePct / 100
	met := f.higher && measured >= row.Claimed*(1-tol) || !f.higher && measured <= row.Claimed*(1+tol)
	shown := fmt.Sprintf("%s measured against %s claimed (%.1f%%)", showFigure(measured, f.unit), showFigure(row.Claimed, f.unit), ratio*100)
	short := "short"
	if !f.higher {
		short = "over"
	}
	tolerance := strings.TrimSuffix(plan.FormatNumber(row.TolerancePct), ".0") + "%"
	switch {
	case met:
		row.Verdict, row.Reason = results.VerdictPass, shown+": within the "+tolerance+" tolerance"
	case differs:
		row.Verdict = results.VerdictWarn
		row.Reason = fmt.Sprintf("%s: more than %s %s, but under other conditions than the spec's, so not like with like", shown, tolerance, short)
	default:
		row.Verdict = results.VerdictFail
		row.Reason = fmt.Sprintf("%s: more than %s %s, under the spec's own conditions", shown, tolerance, short)
	}
}

// showFigure writes a figure in its unit: "812,345 IOPS", "6,123 MB/s",
// "81.2 µs".
func showFigure(v float64, unit string) string {
	switch unit {
	case "IOPS":
		return format.Count(v) + " IOPS"
	case "B/s":
		return format.Count(v/1e6) + " MB/s"
	}
	return fmt.Sprintf("%.1f %s", v, unit)
}

// fit ranks a candidate against a spec entry: lower is better, compared
// field by field.
type fit struct {
	bs, state int
	depth     float64
	pair      int
	figure    float64
}

func (a fit) compare(b fit) int {
	return cmp.Or(cmp.Compare(a.bs, b.bs), cmp.Compare(a.state, b.state), cmp.Compare(a.depth, b.depth),
		cmp.Compare(a.pair, b.pair), cmp.Compare(a.figure, b.figure))
}

// bestCandidate picks the candidate whose conditions come closest to the
// entry's, and of equals the one with the best figure.
func bestCandidate(e *plan.SpecEntry, f figure, cands []candidate) candidate {
	rank := func(c candidate) fit {
		k := fit{figure: f.read(c.total)}
		if f.higher {
			k.figure = -k.figure
		}
		if e.BS != 0 && (c.w.BS != e.BS || len(c.w.BSSplit) > 0) {
			k.bs = 1
		}
		if e.State != "" && stateOf(c) != e.State {
			k.state = 1
		}
		if specDepthStated(e) {
			k.depth = math.Abs(math.Log2(float64(outstanding(c.w.IODepth, c.w.NumJobs)) / float64(specOutstanding(e))))
			if e.IODepth != 0 && e.IODepth != c.w.IODepth || e.NumJobs != 0 && e.NumJobs != c.w.NumJobs {
				k.pair = 1
			}
		}
		return k
	}
	return slices.MinFunc(cands, func(a, b candidate) int { return rank(a).compare(rank(b)) })
}

// stateOf is the drive state a candidate was measured in, as a spec says
// it: "steady", or "fresh" when nothing wrote to the drive before it.
func stateOf(c candidate) string {
	switch {
	case c.state == "steady":
		return "steady"
	case c.writtenBy == "":
		return "fresh"
	}
	return ""
}

func specDepthStated(e *plan.SpecEntry) bool { return e.IODepth > 0 || e.NumJobs > 0 }

func outstanding(qd, jobs int) int { return max(qd, 1) * max(jobs, 1) }

func specOutstanding(e *plan.SpecEntry) int { return outstanding(e.IODepth, e.NumJobs) }

// condition is one remark on a comparison's conditions; differs is set
// when it makes the comparison not like with like, as opposed to noting
// what the spec leaves unstated.
type condition struct {
	text    string
	differs bool
}

// conditions lists how the chosen point's conditions differ from the
// entry's, or what the entry leaves unstated, in plain words, and
// whether any of them differs.
func conditions(a *plan.Accept, e *plan.SpecEntry, f figure, c candidate, same []candidate) ([]string, bool) {
	var texts []string
	differs := false
	for _, cond := range []condition{bsCondition(e, c), depthCondition(e, f, c, same), stateCondition(e, c), linkCondition(a, e)} {
		if cond.text != "" {
			texts = append(texts, cond.text)
			differs = differs || cond.differs
		}
	}
	return texts, differs
}

// linkCondition notes a figure for a link whose generation the accept
// block does not state.
func linkCondition(a *plan.Accept, e *plan.SpecEntry) condition {
	if e.PCIeGen == 0 || a.PCIeGen != 0 {
		return condition{}
	}
	return condition{fmt.Sprintf("the spec is for a PCIe Gen %d link; the link of the drive under test is not stated (set pcie_gen in the accept block)", e.PCIeGen), true}
}

// sizeText names a workload's transfer size.
func sizeText(w results.Workload) string {
	if len(w.BSSplit) > 0 {
		return "a mix of transfer sizes"
	}
	return plan.FormatSize(w.BS)
}

func bsCondition(e *plan.SpecEntry, c candidate) condition {
	switch {
	case e.BS == 0:
		return condition{"the spec does not state a block size, so its own conditions are unknown; measured at " + sizeText(c.w), true}
	case c.w.BS != e.BS || len(c.w.BSSplit) > 0:
		return condition{fmt.Sprintf("spec at %s blocks, measured at %s: no step ran rw = %s at %s",
			plan.FormatSize(e.BS), sizeText(c.w), e.RW, plan.FormatSize(e.BS)), true}
	}
	return condition{}
}

// depthText writes a queue depth and job count: "QD32 x 4 jobs".
func depthText(qd, jobs int) string {
	if jobs == 0 {
		return fmt.Sprintf("QD%d", qd)
	}
	unit := "jobs"
	if jobs == 1 {
		unit = "job"
	}
	return fmt.Sprintf("QD%d x %d %s", qd, jobs, unit)
}

func depthCondition(e *plan.SpecEntry, f figure, c candidate, same []candidate) condition {
	measured := depthText(c.w.IODepth, c.w.NumJobs)
	deepest := slices.MaxFunc(same, func(a, b candidate) int {
		return cmp.Compare(outstanding(a.w.IODepth, a.w.NumJobs), outstanding(b.w.IODepth, b.w.NumJobs))
	})
	maxOut := outstanding(deepest.w.IODepth, deepest.w.NumJobs)
	out := outstanding(c.w.IODepth, c.w.NumJobs)
	if !specDepthStated(e) {
		// One rule for an unstated condition: the spec's own conditions
		// are unknown, so a miss is never "under the spec's conditions";
		// the same case always warns, with this reason.
		s := "the spec does not state a queue depth, so its own conditions are unknown; compared with the best point, " + measured
		if f.higher && out == maxOut && hasShallower(same, maxOut) {
			s += ", the deepest this plan measured, so the drive may reach more beyond it"
		}
		return condition{s, true}
	}
	spec := fmt.Sprintf("spec at %s (%s)", depthText(max(e.IODepth, 1), e.NumJobs), outstandingText(specOutstanding(e)))
	switch {
	case (e.IODepth == 0 || e.IODepth == c.w.IODepth) && (e.NumJobs == 0 || e.NumJobs == c.w.NumJobs):
		return condition{}
	case specOutstanding(e) > maxOut:
		return condition{fmt.Sprintf("%s, beyond this plan's deepest point, %s (%d)", spec, depthText(deepest.w.IODepth, deepest.w.NumJobs), maxOut), true}
	case specOutstanding(e) == out:
		return condition{fmt.Sprintf("%s; measured at %s (%d)", spec, measured, out), true}
	}
	return condition{fmt.Sprintf("%s; the closest measured is %s (%d)", spec, measured, out), true}
}

// outstandingText says how many I/Os are outstanding: "128 outstanding
// I/Os".
func outstandingText(n int) string {
	if n == 1 {
		return "1 outstanding I/O"
	}
	return fmt.Sprintf("%d outstanding I/Os", n)
}

// hasShallower reports whether any candidate has fewer outstanding I/Os.
func hasShallower(cands []candidate, than int) bool {
	return slices.ContainsFunc(cands, func(c candidate) bool { return outstanding(c.w.IODepth, c.w.NumJobs) < than })
}

func stateCondition(e *plan.SpecEntry, c candidate) condition {
	switch {
	case e.State == "steady" && c.state == "steady":
		return condition{}
	case e.State == "steady" && c.state == "unsteady":
		return condition{"spec in steady state; this profile's steady-state search ended without reaching it", true}
	case e.State == "steady":
		return condition{"spec in steady state; this step ran without a steady-state search (a steady_state block in its profile)", true}
	case e.State == "fresh" && c.writtenBy != "":
		return condition{fmt.Sprintf("spec fresh out of the box; the drive had been written before this step (by %s)", c.writtenBy), true}
	}
	return condition{}
}
