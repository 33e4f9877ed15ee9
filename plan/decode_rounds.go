package plan

import (
	"fmt"
	"slices"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// rateCurveBlockSchema is the body of a profile's rate_curve block.
var rateCurveBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "percents", Required: true},
		{Name: "stop"},
		{Name: "max_ramp"},
		{Name: "max_runtime"},
	},
}

// repeatBlockSchema is the body of a profile's repeat block.
var repeatBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "rounds", Required: true},
		{Name: "keep"},
		{Name: "use"},
	},
}

// steadyStateBlockSchema is the body of a profile's steady_state block.
var steadyStateBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "metric"},
		{Name: "window"},
		{Name: "max_rounds"},
		{Name: "excursion_pct"},
		{Name: "slope_pct"},
		{Name: "track"},
		{Name: "hook"},
	},
}

// adaptiveBlockSchema is the body of a profile's adaptive block.
var adaptiveBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "script", Required: true},
		{Name: "function", Required: true},
		{Name: "args"},
		{Name: "max_points"},
	},
}

// defaultAdaptivePoints bounds an adaptive sweep that sets no max_points.
const defaultAdaptivePoints = 20

// Values and limits of the blocks that turn a point into several steps.
var (
	aggregateUses = []string{"all", "last", "best"}
)

const (
	maxRatePct = 1000
	maxRounds  = 1000
)

// roundsBlocks are the blocks that turn each point into several steps;
// a profile may have one of them.
var roundsBlocks = []string{"rate_curve", "repeat", "steady_state"}

// decodeRounds decodes the profile's rate_curve, repeat or steady_state
// block, and reports a profile that would expand into too many steps.
func (l *loader) decodeRounds(p *Profile, blocks map[string]hcl.Blocks, attrs hcl.Attributes) {
	var first *hcl.Block
	for _, kind := range roundsBlocks {
		for _, b := range blocks[kind] {
			if first != nil {
				l.blockError(b, "Conflicting Repetition", fmt.Sprintf(
					"Profile %q already has a %s block (at %s), and a profile can have one of rate_curve, repeat and steady_state. Split the profile in two.", p.Name, first.Type, first.DefRange))
				continue
			}
			first = b
			switch kind {
			case "rate_curve":
				p.RateCurve = l.decodeRateCurve(b, attrs)
			case "repeat":
				p.Repeat = l.decodeRepeat(b)
			case "steady_state":
				p.SteadyState = l.decodeSteadyState(b, p)
			}
		}
	}
	if n := stepsPerPoint(p) * p.pointCount(); n > maxSweepPoints && first != nil {
		l.blockError(first, "Profile Too Large", fmt.Sprintf(
			"Profile %q expands into %d steps per drive, more than %d. Sweep fewer values or use fewer rounds.", p.Name, n, maxSweepPoints))
	}
}

// stepsPerPoint is how many steps one sweep point of a profile becomes.
func stepsPerPoint(p *Profile) int {
	switch {
	case p.RateCurve != nil:
		return 1 + len(p.RateCurve.Percents)
	case p.Repeat != nil:
		return p.Repeat.Rounds + 1
	case p.SteadyState != nil:
		return p.SteadyState.MaxRounds
	case p.Adaptive != nil:
		return p.Adaptive.MaxPoints
	}
	return 1
}

// decodeAdaptive decodes the profile's adaptive block, which picks the
// profile's points one by one and so replaces its sweep and rounds.
func (l *loader) decodeAdaptive(p *Profile, blocks map[string]hcl.Blocks) {
	list := blocks["adaptive"]
	if len(list) == 0 {
		return
	}
	for _, extra := range list[1:] {
		l.blockError(extra, "Duplicate Adaptive Block", fmt.Sprintf("Profile %q already has an adaptive block; remove this one.", p.Name))
	}
	block := list[0]
	for _, other := range append([]string{"sweep"}, roundsBlocks...) {
		if len(blocks[other]) > 0 {
			l.blockError(block, "Adaptive Sweep With Fixed Points", fmt.Sprintf(
				"Profile %q has an adaptive block, whose hook picks every point, and a %s block (at %s). Remove one of the two, or split the profile.",
				p.Name, other, blocks[other][0].DefRange))
			return
		}
	}
	content, diags := l.content(block.Body, adaptiveBlockSchema)
	l.diags = append(l.diags, diags...)
	a := &Adaptive{MaxPoints: defaultAdaptivePoints, Hook: l.hookBlock(block, content.Attributes)}
	l.countAttr(content.Attributes["max_points"], &a.MaxPoints, maxSweepPoints)
	if a.Hook != nil {
		p.Adaptive = a
	}
}

// decodeRateCurve decodes a rate curve: increasing percentages of the
// measured maximum, and an optional stop condition.
func (l *loader) decodeRateCurve(block *hcl.Block, profileAttrs hcl.Attributes) *RateCurve {
	content, diags := l.content(block.Body, rateCurveBlockSchema)
	l.diags = append(l.diags, diags...)
	for _, name := range []string{"rate_iops", "rate_bw"} {
		if attr := profileAttrs[name]; attr != nil {
			l.errorAt(attrSite(attr), "Rate Set On A Rate Curve", fmt.Sprintf(
				"The rate_curve sets each step's rate from the measured maximum, so %s cannot also be set. Remove one of the two.", name))
		}
	}
	c := &RateCurve{Stop: l.stopAttr(content.Attributes["stop"])}
	l.durationAttr(content.Attributes["max_ramp"], &c.MaxRamp)
	l.durationAttr(content.Attributes["max_runtime"], &c.MaxRuntime)
	attr := content.Attributes["percents"]
	vals, sites, ok := l.listValues(attr)
	if !ok {
		return c
	}
	if len(vals) == 0 {
		l.errorAt(attrSite(attr), "Empty Rate Curve", "percents = [] gives a curve of no points. List percentages of the maximum, such as range_pct(10, 100, 10).")
	}
	for i, v := range vals {
		f, ok := l.percentValue(v, sites[i])
		if !ok {
			return c
		}
		pct, _ := f.Float64()
		switch {
		case pct <= 0 || pct > maxRatePct:
			l.errorAt(sites[i], "Value Out Of Range", fmt.Sprintf("%s = %g: a percentage of the maximum must be more than 0 and at most %d.", sites[i].name, pct, maxRatePct))
			return c
		case len(c.Percents) > 0 && pct <= c.Percents[len(c.Percents)-1]:
			l.errorAt(sites[i], "Percents Not Increasing", fmt.Sprintf(
				"%s = %g does not follow %g: a curve's percentages increase, so that its stop condition can end it.", sites[i].name, pct, c.Percents[len(c.Percents)-1]))
			return c
		}
		c.Percents = append(c.Percents, pct)
	}
	return c
}

// stopAttr decodes stop = { stat = "p99", above = "2ms" }.
func (l *loader) stopAttr(attr *hcl.Attribute) *StopCondition {
	v, ok := l.objectValue(attr, stopExample)
	if !ok {
		return nil
	}
	sites := objectItemSites(attr)
	stop := &StopCondition{}
	valid := true
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		if !l.stopItem(stop, k.AsString(), ev, sites(k.AsString())) {
			valid = false
		}
	}
	if !valid {
		return nil
	}
	if stop.Stat == "" || stop.LimitNs == 0 {
		l.errorAt(attrSite(attr), "Incomplete Stop Condition", "stop needs both stat (a latency figure: one of "+quotedList(figure.Keys(figure.Stop))+") and above (a latency), as in "+stopExample+".")
		return nil
	}
	return stop
}

// stopExample shows a stop condition in diagnostics.
const stopExample = `{ stat = "p99", above = "2ms" }`

// stopItem decodes one key of a stop condition.
func (l *loader) stopItem(stop *StopCondition, key string, v cty.Value, s itemSites) bool {
	switch key {
	case "stat":
		str, ok := l.stringValue(v, s.value)
		if !ok {
			return false
		}
		if f, ok := l.figureNamed(str, figure.Stop, s.value, "Unknown Latency Statistic"); ok {
			stop.Stat = f.Name
			return true
		}
	case "above":
		d, ok := l.durationValue(v, s.value)
		if ok && d > 0 {
			stop.LimitNs = uint64(d)
			return true
		}
		if ok {
			l.errorAt(s.value, "Value Out Of Range", "stop.above must be a latency of more than zero, such as \"2ms\".")
		}
	default:
		l.errorAt(s.key, "Unknown Stop Key", fmt.Sprintf("stop has a key %q; it has stat and above, as in %s.%s", key, stopExample, didYouMean(key, []string{"stat", "above"})))
	}
	return false
}

// decodeRepeat decodes a repeat block: how many rounds, and which of
// them are averaged.
func (l *loader) decodeRepeat(block *hcl.Block) *Repeat {
	content, diags := l.content(block.Body, repeatBlockSchema)
	l.diags = append(l.diags, diags...)
	attrs := content.Attributes
	r := &Repeat{Rounds: 1, Aggregate: workload.Aggregate{Use: "all"}}
	l.countAttr(attrs["rounds"], &r.Rounds, maxRounds)
	r.Aggregate.Keep = r.Rounds
	if l.stringAttr(attrs["use"], &r.Aggregate.Use) && !l.oneOf(r.Aggregate.Use, aggregateUses, attrSite(attrs["use"]), "Unknown Aggregate") {
		r.Aggregate.Use = "all"
	}
	attr := attrs["keep"]
	if attr == nil {
		return r
	}
	if r.Aggregate.Use == "all" {
		l.errorAt(attrSite(attr), "Keep Without A Choice", "use = \"all\" averages every round; keep applies to use = \"last\" or \"best\". Set use, or remove keep.")
		return r
	}
	if v, ok := l.value(attr); ok {
		if n, ok := l.intValue(v, attrSite(attr), 1, int64(r.Rounds)); ok {
			r.Aggregate.Keep = int(n)
		}
	}
	return r
}

// decodeSteadyState decodes a steady_state block, with SNIA's defaults.
func (l *loader) decodeSteadyState(block *hcl.Block, p *Profile) *SteadyState {
	content, diags := l.content(block.Body, steadyStateBlockSchema)
	l.diags = append(l.diags, diags...)
	attrs := content.Attributes
	ss := &SteadyState{Metric: "iops", Window: 5, MaxRounds: 25, ExcursionPct: 20, SlopePct: 10}
	var metric string
	if l.stringAttr(attrs["metric"], &metric) {
		if f, ok := l.figureNamed(metric, figure.Steady, attrSite(attrs["metric"]), "Unknown Metric"); ok {
			ss.Metric = f.Name
		}
	}
	l.countAttr(attrs["max_rounds"], &ss.MaxRounds, maxRounds)
	if v, ok := l.value(attrs["window"]); ok {
		if n, ok := l.intValue(v, attrSite(attrs["window"]), 2, int64(max(ss.MaxRounds, 2))); ok {
			ss.Window = int(n)
		}
	} else if ss.Window > ss.MaxRounds {
		ss.Window = ss.MaxRounds
	}
	l.pctFloatAttr(attrs["excursion_pct"], &ss.ExcursionPct)
	l.pctFloatAttr(attrs["slope_pct"], &ss.SlopePct)
	ss.Track = l.trackAttr(block, attrs["track"], p)
	if attr := attrs["hook"]; attr != nil {
		ss.Hook = l.hookAttr(attr, `{ script = "steady.star", function = "flat" }`)
		l.checkSNIACriteriaUnused(attrs)
	}
	return ss
}

// sniaCriteria are the steady_state attributes of SNIA's rule, which a
// hook replaces.
var sniaCriteria = []string{"window", "excursion_pct", "slope_pct"}

// checkSNIACriteriaUnused reports SNIA's criteria beside a hook, which
// would ignore them.
func (l *loader) checkSNIACriteriaUnused(attrs hcl.Attributes) {
	for _, name := range sniaCriteria {
		if attr := attrs[name]; attr != nil {
			l.errorAt(attrSite(attr), "SNIA Criterion With A Hook", fmt.Sprintf(
				"%s belongs to SNIA's rule, and this steady_state block has a hook that decides instead. Remove %s, or pass it to the hook in its args.", name, name))
		}
	}
}

// pctFloatAttr decodes a percentage more than 0 and at most 100.
func (l *loader) pctFloatAttr(attr *hcl.Attribute, dst *float64) {
	v, ok := l.value(attr)
	if !ok {
		return
	}
	if f, ok := l.percentValue(v, attrSite(attr)); ok {
		pct, _ := f.Float64()
		if pct <= 0 || pct > 100 {
			l.errorAt(attrSite(attr), "Value Out Of Range", fmt.Sprintf("%s is a percentage: more than 0 and at most 100.", attr.Name))
			return
		}
		*dst = pct
	}
}

// trackAttr decodes the sweep point whose metric decides steady state:
// one value for each swept parameter that has several.
func (l *loader) trackAttr(block *hcl.Block, attr *hcl.Attribute, p *Profile) []workload.Param {
	v, given := l.objectValue(attr, `{ bs = "4KiB", read_pct = 0 }`)
	var track []workload.Param
	if given {
		track = l.trackParams(attr, v, p)
	}
	for _, axis := range p.Sweep {
		if len(axis.Values) > 1 && !slices.ContainsFunc(track, func(t workload.Param) bool { return t.Name == axis.Param }) && (attr == nil || track != nil) {
			s := site{subject: block.DefRange, context: block.DefRange}
			if attr != nil {
				s = attrSite(attr)
			}
			l.errorAt(s, "Missing Tracked Point", fmt.Sprintf(
				"Profile %q sweeps %s, so steady_state needs track = { %s = ... } to say which point's metric decides that the drive is steady, such as the SNIA IOPS test's { bs = \"4KiB\", read_pct = 0 }.",
				p.Name, axis.Param, axis.Param))
			return nil
		}
	}
	return track
}

// trackParams decodes the keys of track, in sweep order.
func (l *loader) trackParams(attr *hcl.Attribute, v cty.Value, p *Profile) []workload.Param {
	sites := objectItemSites(attr)
	var swept []string
	for _, axis := range p.Sweep {
		swept = append(swept, axis.Param)
	}
	byName := map[string]any{}
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		key := k.AsString()
		s := sites(key)
		axis := slices.IndexFunc(p.Sweep, func(a SweepAxis) bool { return a.Param == key })
		if axis < 0 {
			l.errorAt(s.key, "Tracked Parameter Not Swept", fmt.Sprintf(
				"track names %s, which profile %q does not sweep; name the swept parameters (%s).%s", key, p.Name, quotedList(swept), didYouMean(key, swept)))
			return nil
		}
		x, ok := l.sweepValue(key, ev, s.value)
		if !ok {
			return nil
		}
		if !slices.Contains(p.Sweep[axis].Values, x) {
			l.errorAt(s.value, "Tracked Point Not Swept", fmt.Sprintf(
				"track.%s = %s is not one of the swept values of %s.", key, workload.Param{Name: key, Value: x}.ValueText(), key))
			return nil
		}
		byName[key] = x
	}
	var track []workload.Param
	for _, name := range swept {
		if x, ok := byName[name]; ok {
			track = append(track, workload.Param{Name: name, Value: x})
		}
	}
	return track
}
