package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// sweptParams are the parameters a sweep can vary (workload.Options
// marks them), each a list of values or a key of its explicit points.
var sweptParams = workload.Names(workload.Swept)

// sweepBlockSchema is the body of a profile's sweep block: the parameters
// that can be swept, each a list of values, and points, a list of explicit
// combinations of them.
var sweepBlockSchema = &hcl.BodySchema{Attributes: sweepAttributes()}

// sweepAttributes are the schema entries of a sweep block.
func sweepAttributes() []hcl.AttributeSchema {
	var out []hcl.AttributeSchema
	for _, name := range sweptParams {
		out = append(out, hcl.AttributeSchema{Name: name})
	}
	return append(out, hcl.AttributeSchema{Name: "points"})
}

// decodeSweepBlocks decodes the profile's sweep block, of which there may
// be at most one, into p.Sweep (and p.Points when it lists explicit
// points). It returns the swept parameters by name, each with the
// attribute that sweeps it, for checks that point at them.
func (l *loader) decodeSweepBlocks(p *Profile, blocks hcl.Blocks) hcl.Attributes {
	if len(blocks) == 0 {
		return nil
	}
	for _, extra := range blocks[1:] {
		l.blockError(extra, "Duplicate Sweep Block", fmt.Sprintf(
			"Profile %q already has a sweep block. Put all swept parameters in the first one and remove this one.", p.Name))
	}
	content, diags := l.content(blocks[0].Body, sweepBlockSchema)
	l.diags = append(l.diags, diags...)
	swept := hcl.Attributes{}
	points := [][]workload.Param{nil}
	explicit := false
	for _, attr := range attributesInOrder(content.Attributes) {
		var factor [][]workload.Param
		if attr.Name == "points" {
			factor = l.decodeSweepPoints(p, attr, content.Attributes, swept)
			p.ListedPoints, explicit = factor, true
		} else {
			factor = l.sweepAxisPoints(p, attr)
			swept[attr.Name] = attr
		}
		if len(factor) > 0 {
			points = crossPoints(points, factor)
		}
		if len(points) > maxSweepPoints {
			l.blockError(blocks[0], "Sweep Too Large", fmt.Sprintf(
				"The sweep of profile %q has more than %d points. Sweep fewer values, or split it into several profiles.", p.Name, maxSweepPoints))
			p.Sweep, explicit = nil, false
			break
		}
	}
	if explicit {
		p.Points = points
	}
	return swept
}

// sweepAxisPoints decodes one swept parameter into an axis of p.Sweep
// and returns its values as one-parameter points.
func (l *loader) sweepAxisPoints(p *Profile, attr *hcl.Attribute) [][]workload.Param {
	axis, ok := l.decodeSweepAxis(attr)
	if !ok {
		return nil
	}
	p.Sweep = append(p.Sweep, axis)
	factor := make([][]workload.Param, len(axis.Values))
	for i, v := range axis.Values {
		factor[i] = []workload.Param{{Name: axis.Param, Value: v}}
	}
	return factor
}

// crossPoints returns every point of a followed by every point of b, the
// points of a varying slowest.
func crossPoints(a, b [][]workload.Param) [][]workload.Param {
	out := make([][]workload.Param, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, append(slices.Clip(x), y...))
		}
	}
	return out
}

// decodeSweepPoints decodes points = [{ numjobs = 1, iodepth = 1 }, ...]:
// explicit combinations of swept parameters, such as the (workers, queue
// depth) pairs of a latency ladder, which a cartesian product cannot
// write. Every point names the same parameters; each parameter gets an
// axis in p.Sweep with the values the points give it, in order of first
// use, so that the rest of the plan sees what is swept.
func (l *loader) decodeSweepPoints(p *Profile, attr *hcl.Attribute, attrs, swept hcl.Attributes) [][]workload.Param {
	vals, sites, ok := l.listValues(attr)
	if !ok {
		return nil
	}
	if len(vals) == 0 {
		l.errorAt(attrSite(attr), "Empty Sweep", "sweep points = [] gives no points. List at least one, such as { numjobs = 1, iodepth = 1 }, or remove points.")
		return nil
	}
	var names []string
	var out [][]workload.Param
	seen := map[string]bool{}
	valid := true
	for i, v := range vals {
		pt, ok := l.sweepPoint(attr, i, v, sites[i], attrs)
		for _, prm := range pt {
			swept[prm.Name] = attr
		}
		if !ok {
			valid = false
			continue
		}
		keys := paramNames(pt)
		if names == nil {
			names = keys
		} else if !slices.Equal(sortedCopy(keys), sortedCopy(names)) {
			l.errorAt(sites[i], "Inconsistent Sweep Points", fmt.Sprintf(
				"points[%d] sets %s, and the points before it set %s; every point must set the same parameters, so that charts can compare them.",
				i, strings.Join(keys, ", "), strings.Join(names, ", ")))
			valid = false
			continue
		}
		pt = orderParams(pt, names)
		text := workload.Point(pt).String()
		if seen[text] {
			l.errorAt(sites[i], "Duplicate Sweep Value", fmt.Sprintf("points[%d] (%s) is listed twice; each point runs once. Remove one.", i, text))
			valid = false
			continue
		}
		seen[text] = true
		out = append(out, pt)
	}
	if !valid {
		return nil
	}
	for _, name := range names {
		axis := SweepAxis{Param: name}
		for _, pt := range out {
			for _, prm := range pt {
				if prm.Name == name && !slices.Contains(axis.Values, prm.Value) {
					axis.Values = append(axis.Values, prm.Value)
				}
			}
		}
		p.Sweep = append(p.Sweep, axis)
	}
	return out
}

// sweepPoint decodes one explicit point: an object whose keys are swept
// parameters, none of which the sweep also lists on its own.
func (l *loader) sweepPoint(attr *hcl.Attribute, i int, v cty.Value, s site, attrs hcl.Attributes) ([]workload.Param, bool) {
	if !v.Type().IsObjectType() && !v.Type().IsMapType() {
		l.errorAt(s, "Incorrect Value Type", fmt.Sprintf("points[%d] must be an object, such as { numjobs = 1, iodepth = 1 }; got %s.", i, v.Type().FriendlyName()))
		return nil, false
	}
	itemSite := pointItemSites(attr, i, s)
	var pt []workload.Param
	ok := true
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		key := k.AsString()
		ks := itemSite(key)
		switch {
		case !slices.Contains(sweptParams, key):
			l.errorAt(ks, "Unsupported Sweep Parameter", fmt.Sprintf(
				"points[%d].%s cannot be swept; a point sets %s.%s", i, key, quotedList(sweptParams), didYouMean(key, sweptParams)))
			ok = false
			continue
		case attrs[key] != nil:
			l.errorAt(ks, "Parameter Both Set And Swept", fmt.Sprintf(
				"%s is swept as a list (at %s) and in points; sweep it in one place.", key, attrs[key].Range))
			ok = false
			continue
		}
		x, valid := l.sweepValue(key, ev, ks)
		ok = ok && valid
		pt = append(pt, workload.Param{Name: key, Value: x})
	}
	if ok && len(pt) == 0 {
		l.errorAt(s, "Empty Sweep", fmt.Sprintf("points[%d] = {} sets no parameter; give each point the parameters it sweeps, such as { numjobs = 1, iodepth = 1 }.", i))
		return nil, false
	}
	return pt, ok
}

// pointItemSites finds, for a key of the i-th point, where it is written;
// the keys of a written-out point come back in the order written.
func pointItemSites(attr *hcl.Attribute, i int, whole site) func(key string) site {
	byKey := map[string]site{}
	if tuple, ok := attr.Expr.(*hclsyntax.TupleConsExpr); ok && i < len(tuple.Exprs) {
		if obj, ok := tuple.Exprs[i].(*hclsyntax.ObjectConsExpr); ok {
			for _, item := range obj.Items {
				kv, diags := item.KeyExpr.Value(nil)
				if diags.HasErrors() || kv.Type() != cty.String || kv.IsNull() {
					continue
				}
				key := kv.AsString()
				byKey[key] = site{name: fmt.Sprintf("points[%d].%s", i, key), subject: item.ValueExpr.Range(), context: attr.Range}
			}
		}
	}
	return func(key string) site {
		if s, ok := byKey[key]; ok {
			return s
		}
		s := whole
		s.name = fmt.Sprintf("points[%d].%s", i, key)
		return s
	}
}

// orderParams puts a point's parameters in the order of names.
func orderParams(pt []workload.Param, names []string) []workload.Param {
	out := make([]workload.Param, 0, len(pt))
	for _, name := range names {
		for _, p := range pt {
			if p.Name == name {
				out = append(out, p)
			}
		}
	}
	return out
}

// paramNames lists a point's parameter names, in canonical sweep order:
// the order of sweptParams, reading as "workers, then queue depth".
func paramNames(pt []workload.Param) []string {
	names := make([]string, 0, len(pt))
	for _, p := range pt {
		names = append(names, p.Name)
	}
	slices.SortStableFunc(names, func(a, b string) int {
		return slices.Index(pointOrder, a) - slices.Index(pointOrder, b)
	})
	return names
}

// pointOrder is the order of an explicit point's parameters in step names:
// the order of workload.Options (the pattern, then the size), except that
// workers come before queue depth, as a latency ladder reads ("numjobs=4,
// iodepth=32"). Node IDs hash a point's parameters in this order, so it
// cannot change without changing the IDs of every explicit point.
var pointOrder = workersFirst(sweptParams)

// workersFirst returns names with numjobs moved before iodepth.
func workersFirst(names []string) []string {
	out := slices.Clone(names)
	i, j := slices.Index(out, "iodepth"), slices.Index(out, "numjobs")
	if i >= 0 && j > i {
		out = slices.Insert(slices.Delete(out, j, j+1), i, "numjobs")
	}
	return out
}

// sortedCopy returns a sorted copy of names.
func sortedCopy(names []string) []string {
	s := slices.Clone(names)
	slices.Sort(s)
	return s
}

// pointCount is the number of points a profile's sweep gives.
func (p *Profile) pointCount() int {
	if p.Points != nil {
		return len(p.Points)
	}
	n := 1
	for _, a := range p.Sweep {
		n *= len(a.Values)
	}
	return n
}

// SweepPoints returns the profile's sweep points in run order: its
// explicit points, or else the cartesian product of its axes, the first
// axis varying slowest. Without a sweep there is one point with no
// parameters.
func (p *Profile) SweepPoints() [][]workload.Param {
	if p.Points != nil {
		return p.Points
	}
	points := [][]workload.Param{nil}
	for _, axis := range p.Sweep {
		var factor [][]workload.Param
		for _, v := range axis.Values {
			factor = append(factor, []workload.Param{{Name: axis.Param, Value: v}})
		}
		points = crossPoints(points, factor)
	}
	return points
}

// decodeSweepAxis decodes one swept parameter: a non-empty list of
// distinct values.
func (l *loader) decodeSweepAxis(attr *hcl.Attribute) (SweepAxis, bool) {
	axis := SweepAxis{Param: attr.Name}
	vals, sites, ok := l.listValues(attr)
	if !ok {
		return axis, false
	}
	if len(vals) == 0 {
		l.errorAt(attrSite(attr), "Empty Sweep", fmt.Sprintf(
			"sweep %s = [] gives no points. List at least one value, or remove %s from the sweep.", attr.Name, attr.Name))
		return axis, false
	}
	for i, v := range vals {
		x, valid := l.sweepValue(attr.Name, v, sites[i])
		if valid && slices.Contains(axis.Values, x) {
			l.errorAt(sites[i], "Duplicate Sweep Value", fmt.Sprintf(
				"%v is listed twice in the sweep of %s; each point runs once. Remove one.", x, attr.Name))
			valid = false
		}
		ok = ok && valid
		axis.Values = append(axis.Values, x)
	}
	return axis, ok
}

// sweepValue decodes one value of a swept parameter by its row of
// workload.Options: int64 for counts, shares and sizes, string for rw.
func (l *loader) sweepValue(param string, v cty.Value, s site) (any, bool) {
	return l.paramValue(workload.Lookup(param), v, s)
}
