package plan

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// decodeExpect decodes a profile's or exec step's expect attribute: one
// condition, or a list of them written out. Each is checked against the
// schema of what it refers to on every drive the profile runs on, so a
// misspelt statistic or a spec entry a drive lacks is reported now.
func (l *loader) decodeExpect(p *Profile, attr *hcl.Attribute, drives []string) []*Expectation {
	exprs := []hcl.Expression{attr.Expr}
	if tuple, ok := attr.Expr.(*hclsyntax.TupleConsExpr); ok {
		exprs = exprs[:0]
		for _, e := range tuple.Exprs {
			exprs = append(exprs, e)
		}
		if len(exprs) == 0 {
			l.errorAt(attrSite(attr), "Empty Expectation List",
				"expect = [] expects nothing. List conditions, such as [result.read.iops >= 100000], or remove expect.")
		}
	}
	var out []*Expectation
	for _, expr := range exprs {
		if e := l.decodeExpectation(p, expr, attr, drives); e != nil {
			out = append(out, e)
		}
	}
	return out
}

// decodeExpectation checks one condition's references and types.
func (l *loader) decodeExpectation(p *Profile, expr hcl.Expression, attr *hcl.Attribute, drives []string) *Expectation {
	ok := true
	for _, t := range expr.Variables() {
		switch t.RootName() {
		case "result":
			ok = l.checkResultRef(t, p) && ok
		case "spec":
			ok = l.checkSpecRef(t, drives) && ok
		case "var", "local", "each":
			ok = l.checkReference(t) && ok
		default:
			l.referenceError(t, "Unknown Reference", fmt.Sprintf(
				"There is nothing named %q here; an expectation can refer to result.<...> (the measured point), spec.<entry>.<figure> (the drive's spec), var.<name>, local.<name> and, in a block with for_each, each.key and each.value.", t.RootName()))
			ok = false
		}
	}
	if !ok || !l.checkUnits(expr) {
		return nil
	}
	for _, name := range drives {
		if d := l.drives[name]; d != nil && !l.typeCheckExpectation(expr, attr, d) {
			return nil
		}
	}
	rng := expr.Range()
	return &Expectation{Text: l.sourceText(rng), Where: l.where(rng), Range: rng, expr: expr, ctx: l.sc.ctx}
}

// typeCheckExpectation evaluates a condition with an unknown result of
// the result's type and the drive's spec: type errors show now, and the
// value must be a bool.
func (l *loader) typeCheckExpectation(expr hcl.Expression, attr *hcl.Attribute, d *Drive) bool {
	ctx := l.sc.ctx.NewChild()
	ctx.Variables = map[string]cty.Value{"result": cty.UnknownVal(resultType), "spec": specValue(d.Spec)}
	v, diags := expr.Value(ctx)
	l.diags = append(l.diags, diags...)
	if diags.HasErrors() {
		return false
	}
	if v.Type() != cty.Bool && v.Type() != cty.DynamicPseudoType {
		l.errorAt(site{name: attr.Name, subject: expr.Range(), context: attr.Range}, "Expectation Is Not A Condition", fmt.Sprintf(
			"An expectation must be true or false, such as result.read.iops >= 100000; this one is a %s.", v.Type().FriendlyName()))
		return false
	}
	return true
}

// checkResultRef checks a reference to result.<...> against the result's
// schema and what the profile measures.
func (l *loader) checkResultRef(t hcl.Traversal, p *Profile) bool {
	names := stepNames(t)
	if len(names) == 0 {
		return true
	}
	s := site{name: traversalText(t), subject: t.SourceRange(), context: t.SourceRange()}
	field := names[0]
	switch {
	case p.Checkpoint != nil || field == "checkpoint":
		return l.checkCheckpointRef(s, names, p)
	case !slices.Contains(resultFields, field):
		l.errorAt(s, "Unknown Result Field", fmt.Sprintf("result has %s; %q is not one of them.%s",
			quotedList(resultFields), field, didYouMean(field, resultFields)))
		return false
	case field == "runtime_s":
		return true
	case field == "dataloader":
		return l.checkDataloaderRef(s, names, p)
	case field == "replay":
		return l.checkReplayRef(s, names, p)
	case field == "files":
		return l.checkFilesRef(s, names, p)
	case field == "metrics" && p.Exec == nil:
		l.errorAt(s, "Metrics Of A Profile", fmt.Sprintf(
			"result.metrics holds what an exec step's parse hook returns; profile %q measures I/O, so judge result.read, result.write or result.total.", p.Name))
		return false
	case field == "metrics":
		return true
	case p.Exec != nil:
		l.errorAt(s, "I/O Statistics Of An Exec Step", fmt.Sprintf(
			"Exec step %q runs a command, so its result has metrics and runtime_s, not %s. Judge result.metrics.<name>, a figure its parse hook returns.", p.Name, field))
		return false
	}
	return l.checkDirectionRef(s, names, p)
}

// checkDataloaderRef checks result.dataloader and the figure after it.
func (l *loader) checkDataloaderRef(s site, names []string, p *Profile) bool {
	if p.Dataloader == nil {
		l.errorAt(s, "Dataloader Figure Of Another Step", fmt.Sprintf(
			"result.dataloader holds what a dataloader step's accelerator saw; %q is not a dataloader block, so judge its I/O with result.read, result.write or result.total.", p.Name))
		return false
	}
	if len(names) > 1 && !slices.Contains(DataloaderStats, names[1]) {
		l.errorAt(s, "Unknown Dataloader Figure", fmt.Sprintf("result.dataloader has %s (au from 0 to 1, batch waits in µs); %q is not one of them.%s",
			quotedList(DataloaderStats), names[1], didYouMean(names[1], DataloaderStats)))
		return false
	}
	return true
}

// checkCheckpointRef checks a reference of a checkpoint's expectation,
// which judges result.checkpoint.<phase>.<figure> of each pass, and
// result.checkpoint of any other step.
func (l *loader) checkCheckpointRef(s site, names []string, p *Profile) bool {
	switch {
	case p.Checkpoint == nil:
		l.errorAt(s, "Checkpoint Figure Of Another Step", fmt.Sprintf(
			"result.checkpoint holds a checkpoint's passes; %q is not a checkpoint block, so judge its I/O with result.read, result.write or result.total.", p.Name))
		return false
	case names[0] != "checkpoint":
		l.errorAt(s, "Unknown Checkpoint Figure", fmt.Sprintf(
			"A checkpoint's expectations judge each pass's phases: result.checkpoint.write.<figure> and result.checkpoint.read.<figure>, where the figure is one of %s (seconds, bandwidths in bytes per second); %s is not one of them.",
			quotedList(CheckpointStats), s.name))
		return false
	case len(names) > 1 && !slices.Contains(checkpointPhases, names[1]):
		l.errorAt(s, "Unknown Checkpoint Phase", fmt.Sprintf("result.checkpoint has %s, a pass's write and its read-back; %q is not one of them.%s",
			quotedList(checkpointPhases), names[1], didYouMean(names[1], checkpointPhases)))
		return false
	case len(names) > 1 && names[1] == CheckpointRead && !p.Checkpoint.ReadBack:
		l.errorAt(s, "Checkpoint Reads Nothing Back", fmt.Sprintf(
			"Checkpoint %q has read_back = false, so result.checkpoint.read is never set. Judge result.checkpoint.write, or remove read_back = false.", p.Name))
		return false
	case len(names) > 2 && !slices.Contains(CheckpointStats, names[2]):
		l.errorAt(s, "Unknown Checkpoint Figure", fmt.Sprintf("result.checkpoint.%s has %s (seconds, bandwidths in bytes per second); %q is not one of them.%s",
			names[1], quotedList(CheckpointStats), names[2], didYouMean(names[2], CheckpointStats)))
		return false
	}
	return true
}

// checkFilesRef checks result.files and the figure after it.
func (l *loader) checkFilesRef(s site, names []string, p *Profile) bool {
	if !p.Workload.IsFileSet() {
		l.errorAt(s, "File-Set Figure Of Another Step", fmt.Sprintf(
			"result.files holds what a step on a file set measured besides its I/O; profile %q runs on no file set (files), so judge its I/O with result.read, result.write or result.total.", p.Name))
		return false
	}
	if len(names) > 1 && !slices.Contains(FileSetStats, names[1]) {
		l.errorAt(s, "Unknown File-Set Figure", fmt.Sprintf("result.files has %s (seconds, bandwidths in bytes per second, latencies in µs); %q is not one of them.%s",
			quotedList(FileSetStats), names[1], didYouMean(names[1], FileSetStats)))
		return false
	}
	return true
}

// checkReplayRef checks result.replay and the figure after it.
func (l *loader) checkReplayRef(s site, names []string, p *Profile) bool {
	if p.Workload.Replay == nil {
		l.errorAt(s, "Replay Figure Of Another Step", fmt.Sprintf(
			"result.replay holds the issue lag of a trace replay; profile %q replays no trace, so judge its I/O with result.read, result.write or result.total.", p.Name))
		return false
	}
	if len(names) > 1 && !slices.Contains(ReplayStats, names[1]) {
		l.errorAt(s, "Unknown Replay Figure", fmt.Sprintf("result.replay has %s (lags in µs); %q is not one of them.%s",
			quotedList(ReplayStats), names[1], didYouMean(names[1], ReplayStats)))
		return false
	}
	return true
}

// checkDirectionRef checks result.read, .write or .total and the
// statistic after it.
func (l *loader) checkDirectionRef(s site, names []string, p *Profile) bool {
	dir := names[0]
	if p.Adaptive == nil && (dir == "read" && !profileReads(p) || dir == "write" && !profileWrites(p)) {
		other := map[string]string{"read": "write", "write": "read"}[dir]
		l.errorAt(s, "Direction Never Measured", fmt.Sprintf(
			"Profile %q does no %ss (it runs %s), so result.%s is never set. Judge result.%s or result.total.",
			p.Name, dir, quotedList(profileModes(p)), dir, other))
		return false
	}
	if len(names) < 2 {
		return true
	}
	stat := names[1]
	if !slices.Contains(directionFields, stat) {
		l.errorAt(s, "Unknown Statistic", fmt.Sprintf("result.%s has %s (bw in bytes/s); %q is not one of them.%s",
			dir, quotedList(directionFields), stat, didYouMean(stat, directionFields)))
		return false
	}
	if stat == "lat" && len(names) > 2 {
		return l.checkOldLatencyRef(s, dir, names[2])
	}
	return true
}

// checkOldLatencyRef checks result.<dir>.lat.<stat>, the old name of a
// latency figure: it still works, with a warning that names the figure
// registry's name (result.read.p99_us).
func (l *loader) checkOldLatencyRef(s site, dir, stat string) bool {
	f, _ := figure.Resolve(figure.Expect, "lat."+stat)
	if f == nil {
		stats := slices.Sorted(maps.Keys(oldLatency))
		l.errorAt(s, "Unknown Latency Statistic", fmt.Sprintf("result.%s.lat has %s, in µs; %q is not one of them. Write the figure itself, as result.%s.p99_us: result.%s has %s.%s",
			dir, quotedList(stats), stat, dir, dir, quotedList(expectFigures), didYouMean(stat, stats)))
		return false
	}
	l.warnAt(s, "Deprecated Figure Name", fmt.Sprintf(
		"%s is the old name of the %s: write result.%s.%s, its name in the figure registry (drivebench help figures); result.%s.lat will stop working in a later release.",
		s.name, f.Title, dir, f.Key(figure.Expect), dir))
	return true
}

// profileReads reports whether any point of a profile reads.
func profileReads(p *Profile) bool {
	if p.Workload.Replay != nil {
		return true // a trace's reads are counted when it runs
	}
	maxRead := p.Workload.ReadPct
	for _, axis := range p.Sweep {
		if axis.Param != "read_pct" {
			continue
		}
		for _, v := range axis.Values {
			if n, _ := v.(int64); int(n) > maxRead {
				maxRead = int(n)
			}
		}
	}
	for _, rw := range profileModes(p) {
		if rw == "read" || rw == "randread" || workload.IsMix(rw) && maxRead > 0 {
			return true
		}
	}
	return false
}

// checkSpecRef checks a reference to spec.<entry>.<key> against the spec
// of every drive the profile runs on.
func (l *loader) checkSpecRef(t hcl.Traversal, drives []string) bool {
	names := stepNames(t)
	if len(names) == 0 {
		return true
	}
	s := site{name: traversalText(t), subject: t.SourceRange(), context: t.SourceRange()}
	for _, name := range drives {
		d := l.drives[name]
		if d == nil {
			continue
		}
		i := slices.IndexFunc(d.Spec, func(e *SpecEntry) bool { return e.Name == names[0] })
		if i < 0 {
			l.errorAt(s, "Reference To Undefined Spec Entry", fmt.Sprintf(
				"Drive %q has no spec entry %q; an expectation compares with the spec of every drive its profile runs on.%s",
				name, names[0], didYouMean(names[0], specNames(d.Spec))))
			return false
		}
		if len(names) < 2 {
			continue
		}
		keys := sortedKeys(specEntryAttrs(d.Spec[i]))
		if !slices.Contains(keys, names[1]) {
			l.errorAt(s, "Spec Entry Lacks The Figure", fmt.Sprintf(
				"Spec entry %q of drive %q has no %s; it has %s.%s", names[0], name, names[1], quotedList(keys), didYouMean(names[1], keys)))
			return false
		}
	}
	return true
}

func specNames(spec []*SpecEntry) []string {
	names := make([]string, len(spec))
	for i, e := range spec {
		names[i] = e.Name
	}
	sort.Strings(names)
	return names
}

// sourceText is the source of a range on one line, its whitespace
// collapsed.
func (l *loader) sourceText(rng hcl.Range) string {
	f := l.sources.Files[rng.Filename]
	if f == nil || rng.End.Byte > len(f.Bytes) {
		return ""
	}
	return strings.Join(strings.Fields(string(f.Bytes[rng.Start.Byte:rng.End.Byte])), " ")
}

// where names a place for verdicts: "plan.hcl:12:5", relative to the
// plan's folder.
func (l *loader) where(rng hcl.Range) string {
	file := rng.Filename
	if rel, err := filepath.Rel(l.rootDir, file); err == nil && !strings.HasPrefix(rel, "..") {
		file = filepath.ToSlash(rel)
	}
	return fmt.Sprintf("%s:%d:%d", file, rng.Start.Line, rng.Start.Column)
}
