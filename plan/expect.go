package plan

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/figure"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Expectation is one condition every measured point of a profile must
// meet, written as an HCL expression over the point's result, the drive's
// spec and the plan's variables and local values:
//
//	result.read.iops >= 0.9 * spec.rand_read_4k.iops
//
// Like a k6 threshold it is checked against the schema of what it refers
// to when the plan is loaded, and evaluated after each point is measured.
type Expectation struct {
	// Text is the expression as written, on one line.
	Text string
	// Where is its place, "plan.hcl:12:5", relative to the plan's folder.
	Where string
	Range hcl.Range
	expr  hcl.Expression
	// ctx holds the variables, local values and each of the expression's
	// scope.
	ctx *hcl.EvalContext
}

// MarshalJSON shows an expectation as its text.
func (e *Expectation) MarshalJSON() ([]byte, error) { return json.Marshal(e.Text) }

// Measured is what an expectation sees of one measured point, as
// result.<...>.
type Measured struct {
	// Read, Write and Total (both directions together) are nil when the
	// step did no such I/O.
	Read, Write, Total *DirMeasure
	// Metrics are the named figures of an exec step.
	Metrics  map[string]float64
	RuntimeS float64
	// Dataloader maps each of DataloaderStats to its value on a
	// dataloader step; nil on others.
	Dataloader map[string]float64
	// Replay maps each of ReplayStats to its value on a trace replay; nil
	// on others.
	Replay map[string]float64
	// Files maps each of FileSetStats to its value on a step on a file
	// set; nil on others.
	Files map[string]float64
	// Checkpoint maps each phase of one checkpoint pass ("write",
	// "read") to its figures, each of CheckpointStats; nil on other
	// steps, and a phase is absent when its step did not complete.
	Checkpoint map[string]map[string]float64
}

// DataloaderStats are the figures of result.dataloader, as the figure
// registry names them there (figure.Dataloader): the accelerator
// utilisation (0 to 1), samples per second, and the batch waits in µs.
var DataloaderStats = figure.Keys(figure.Dataloader)

// ReplayStats are the figures of result.replay, as the figure registry
// names them there (figure.Replay): the issue lag's mean, p50, p99 and
// maximum, in µs.
var ReplayStats = figure.Keys(figure.Replay)

// FileSetStats are the figures of result.files, as the figure registry
// names them there (figure.Files): the slowest job's seconds, the lowest
// job's and the aggregate bandwidth, and the p99 of each file operation
// in µs.
var FileSetStats = figure.Keys(figure.Files)

// CheckpointStats are the figures of each phase of result.checkpoint
// (write, read), as the figure registry names them there
// (figure.Checkpoint): a pass's slowest rank's seconds, the lowest
// rank's and the aggregate bandwidth in bytes per second.
var CheckpointStats = figure.Keys(figure.Checkpoint)

// checkpointPhases are the phases of result.checkpoint.
var checkpointPhases = []string{CheckpointWrite, CheckpointRead}

// DirMeasure is one direction's statistics, as result.read.<...>.
type DirMeasure struct {
	IOs, Bytes uint64
	// Figures holds the figures an expectation names, by their names
	// there in the figure registry (figure.Expect): iops, bw in bytes per
	// second, and the latencies in µs (p99_us).
	Figures map[string]float64
}

// OldLatency is the deprecated result.<direction>.lat: each latency
// statistic by its old name (p999_us), from the figure it names.
func (d *DirMeasure) OldLatency() map[string]float64 {
	lat := make(map[string]float64, len(oldLatency))
	for old, key := range oldLatency {
		lat[old] = d.Figures[key]
	}
	return lat
}

// The result's schema: each direction has the figures the figure
// registry gives expectations (expectFigures), the counts ios and bytes,
// and lat, the deprecated object of latency statistics under their old
// names (oldLatency maps each to its figure's name).
var (
	expectFigures   = figure.Keys(figure.Expect)
	oldLatency      = oldLatencyStats()
	directionFields = append(slices.Clone(expectFigures), "ios", "bytes", "lat")
	resultFields    = []string{"read", "write", "total", "metrics", "runtime_s", "dataloader", "replay", "files", "checkpoint"}
	directionType   = func() cty.Type {
		attrs := map[string]cty.Type{"ios": cty.Number, "bytes": cty.Number, "lat": latencyType}
		for _, k := range expectFigures {
			attrs[k] = cty.Number
		}
		return cty.Object(attrs)
	}()
	latencyType = func() cty.Type {
		attrs := map[string]cty.Type{}
		for s := range oldLatency {
			attrs[s] = cty.Number
		}
		return cty.Object(attrs)
	}()
	dataloaderType = numbersType(DataloaderStats)
	replayType     = numbersType(ReplayStats)
	filesType      = numbersType(FileSetStats)
	phaseType      = numbersType(CheckpointStats)
	checkpointType = cty.Object(map[string]cty.Type{CheckpointWrite: phaseType, CheckpointRead: phaseType})
	resultType     = cty.Object(map[string]cty.Type{
		"read": directionType, "write": directionType, "total": directionType,
		"metrics": cty.Map(cty.Number), "runtime_s": cty.Number, "dataloader": dataloaderType, "replay": replayType, "files": filesType,
		"checkpoint": checkpointType,
	})
)

// numbersType is an object of a number for each of names.
func numbersType(names []string) cty.Type {
	attrs := map[string]cty.Type{}
	for _, s := range names {
		attrs[s] = cty.Number
	}
	return cty.Object(attrs)
}

// oldLatencyStats maps the statistics of the deprecated
// result.<direction>.lat (p99_us) to the names of their figures.
func oldLatencyStats() map[string]string {
	out := map[string]string{}
	for _, f := range figure.In(figure.Expect) {
		for _, old := range f.Old[figure.Expect] {
			if stat, ok := strings.CutPrefix(old, "lat."); ok {
				out[stat] = f.Key(figure.Expect)
			}
		}
	}
	return out
}

// Judgement is an expectation's outcome on one point.
type Judgement struct {
	Holds bool
	// Values shows what the expression refers to, such as
	// "result.read.iops = 812345", so a verdict says why.
	Values []string
}

// Eval evaluates the expectation on one point of a drive with the given
// spec. The error says what cannot be judged: a direction without I/O, a
// metric the step did not produce.
func (e *Expectation) Eval(m Measured, spec []*SpecEntry) (Judgement, error) {
	if err := missingValues(e.expr, m); err != nil {
		return Judgement{}, err
	}
	ctx := e.ctx.NewChild()
	ctx.Variables = map[string]cty.Value{"result": measuredValue(m), "spec": specValue(spec)}
	v, diags := e.expr.Value(ctx)
	if diags.HasErrors() {
		return Judgement{}, diagsError(diags)
	}
	b, err := convert.Convert(v, cty.Bool)
	if err != nil || b.IsNull() || !b.IsKnown() {
		return Judgement{}, fmt.Errorf("the expectation is %s, not true or false", v.GoString())
	}
	return Judgement{Holds: b.True(), Values: referencedValues(e.expr, ctx)}, nil
}

// diagsError turns evaluation problems into one error.
func diagsError(diags hcl.Diagnostics) error {
	var parts []string
	for _, d := range diags.Errs() {
		var hd *hcl.Diagnostic
		if errors.As(d, &hd) {
			parts = append(parts, strings.TrimSuffix(hd.Summary+": "+hd.Detail, "."))
		} else {
			parts = append(parts, d.Error())
		}
	}
	return errors.New(strings.Join(parts, "; "))
}

// missingValues reports references to what the point lacks.
func missingValues(expr hcl.Expression, m Measured) error {
	dirs := map[string]*DirMeasure{"read": m.Read, "write": m.Write, "total": m.Total}
	for _, t := range expr.Variables() {
		names := stepNames(t)
		if t.RootName() != "result" || len(names) == 0 {
			continue
		}
		if d, isDir := dirs[names[0]]; isDir && d == nil {
			return fmt.Errorf("result.%s is not set: the step did no %s", names[0], directionNoun(names[0]))
		}
		if names[0] == "dataloader" && m.Dataloader == nil {
			return errors.New("result.dataloader is not set: the step is not a dataloader")
		}
		if names[0] == "files" && m.Files == nil {
			return errors.New("result.files is not set: the step ran on no file set, or has no figures of it")
		}
		if names[0] == "checkpoint" && len(names) > 1 && m.Checkpoint[names[1]] == nil {
			return fmt.Errorf("result.checkpoint.%s is not set: the pass's %s step did not complete", names[1], names[1])
		}
		if names[0] == "metrics" && len(names) > 1 {
			if _, ok := m.Metrics[names[1]]; !ok {
				return fmt.Errorf("result.metrics has no %q; the step's metrics are %s", names[1], metricList(m.Metrics))
			}
		}
	}
	return nil
}

func directionNoun(dir string) string {
	switch dir {
	case "read":
		return "reads"
	case "write":
		return "writes"
	}
	return "I/O"
}

func metricList(metrics map[string]float64) string {
	if len(metrics) == 0 {
		return "none"
	}
	names := make([]string, 0, len(metrics))
	for k := range metrics {
		names = append(names, k)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// stepNames returns the names of a traversal's steps after its root, up
// to the first step that is not a name or a string key.
func stepNames(t hcl.Traversal) []string {
	var names []string
	for _, step := range t[1:] {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			names = append(names, s.Name)
		case hcl.TraverseIndex:
			if s.Key.Type() != cty.String || !s.Key.IsKnown() || s.Key.IsNull() {
				return names
			}
			names = append(names, s.Key.AsString())
		default:
			return names
		}
	}
	return names
}

// measuredValue is result for one point; a direction without I/O is
// null.
func measuredValue(m Measured) cty.Value {
	metrics := map[string]cty.Value{}
	for k, v := range m.Metrics {
		metrics[k] = cty.NumberFloatVal(v)
	}
	metricsVal := cty.MapValEmpty(cty.Number)
	if len(metrics) > 0 {
		metricsVal = cty.MapVal(metrics)
	}
	return cty.ObjectVal(map[string]cty.Value{
		"read": directionValue(m.Read), "write": directionValue(m.Write), "total": directionValue(m.Total),
		"metrics": metricsVal, "runtime_s": cty.NumberFloatVal(m.RuntimeS),
		"dataloader": numbersValue(m.Dataloader, DataloaderStats, dataloaderType), "replay": numbersValue(m.Replay, ReplayStats, replayType),
		"files": numbersValue(m.Files, FileSetStats, filesType), "checkpoint": checkpointValue(m.Checkpoint),
	})
}

// checkpointValue is result.checkpoint of one pass: each phase's
// figures, a phase that did not complete null; null on other steps.
func checkpointValue(phases map[string]map[string]float64) cty.Value {
	if phases == nil {
		return cty.NullVal(checkpointType)
	}
	attrs := map[string]cty.Value{}
	for _, ph := range checkpointPhases {
		attrs[ph] = cty.NullVal(phaseType)
		if phases[ph] != nil {
			attrs[ph] = numbersValue(phases[ph], CheckpointStats, phaseType)
		}
	}
	return cty.ObjectVal(attrs)
}

// numbersValue is result.dataloader or result.replay, the figures names
// of typ; null on a step that is not one.
func numbersValue(figures map[string]float64, names []string, typ cty.Type) cty.Value {
	if figures == nil {
		return cty.NullVal(typ)
	}
	attrs := map[string]cty.Value{}
	for _, s := range names {
		attrs[s] = cty.NumberFloatVal(figures[s])
	}
	return cty.ObjectVal(attrs)
}

func directionValue(d *DirMeasure) cty.Value {
	if d == nil {
		return cty.NullVal(directionType)
	}
	lat := map[string]cty.Value{}
	for s, v := range d.OldLatency() {
		lat[s] = cty.NumberFloatVal(v)
	}
	attrs := map[string]cty.Value{"ios": cty.NumberUIntVal(d.IOs), "bytes": cty.NumberUIntVal(d.Bytes), "lat": cty.ObjectVal(lat)}
	for _, k := range expectFigures {
		attrs[k] = cty.NumberFloatVal(d.Figures[k])
	}
	return cty.ObjectVal(attrs)
}

// specValue is spec for a drive: each entry's figures and the conditions
// it states.
func specValue(spec []*SpecEntry) cty.Value {
	entries := map[string]cty.Value{}
	for _, e := range spec {
		entries[e.Name] = cty.ObjectVal(specEntryAttrs(e))
	}
	return cty.ObjectVal(entries)
}

// specEntryAttrs are the keys of one entry.
func specEntryAttrs(e *SpecEntry) map[string]cty.Value {
	attrs := map[string]cty.Value{}
	for k, v := range e.Values {
		attrs[k] = cty.NumberFloatVal(v)
	}
	for k, v := range map[string]int64{"bs": e.BS, "iodepth": int64(e.IODepth), "numjobs": int64(e.NumJobs), "pcie_gen": int64(e.PCIeGen)} {
		if v != 0 {
			attrs[k] = cty.NumberIntVal(v)
		}
	}
	for k, v := range map[string]string{"rw": e.RW, "state": e.State} {
		if v != "" {
			attrs[k] = cty.StringVal(v)
		}
	}
	return attrs
}

// referencedValues shows each distinct number the expression refers to:
// the result's and the spec sheet's figures, and the variables and local
// values a limit is written with, so that a verdict on
// "result.read.p99_us < var.limit_us" says the limit as well as the
// figure.
func referencedValues(expr hcl.Expression, ctx *hcl.EvalContext) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range expr.Variables() {
		if !slices.Contains([]string{"result", "spec", "var", "local"}, t.RootName()) {
			continue
		}
		text := traversalText(t)
		v, diags := t.TraverseAbs(ctx)
		if seen[text] || diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.Number {
			continue
		}
		seen[text] = true
		f, _ := v.AsBigFloat().Float64()
		out = append(out, text+" = "+FormatNumber(f))
	}
	return out
}

// traversalText writes a traversal as a plan would: result.read.iops,
// result.metrics["p95"].
func traversalText(t hcl.Traversal) string {
	var b strings.Builder
	b.WriteString(t.RootName())
	for _, step := range t[1:] {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			if s.Key.Type() == cty.String {
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			} else {
				b.WriteString("[" + s.Key.GoString() + "]")
			}
		}
	}
	return b.String()
}

// FormatNumber shows a measured or claimed figure for people: whole
// numbers and numbers of 1000 or more to the unit, others to four
// significant digits.
func FormatNumber(f float64) string {
	if (f == math.Trunc(f) || math.Abs(f) >= 1000) && math.Abs(f) < 1e15 {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	return strconv.FormatFloat(f, 'g', 4, 64)
}
