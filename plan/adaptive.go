package plan

import (
	"fmt"
	"math"
	"slices"

	"github.com/drivebench/drivebench/workload"
)

// adaptiveParams are the parameters an adaptive sweep may set
// (workload.Options marks them), in the order a point lists them.
var adaptiveParams = workload.Names(func(o *workload.Option) bool { return o.Adaptive })

// maxRateIOPS bounds the rate an adaptive sweep may ask for.
const maxRateIOPS = 1e9

// AdaptivePoint is the node of one point an adaptive node's hook asked
// for: its workload with params applied, named after them, with an ID
// derived from the adaptive node's and the point's, so that the same
// request measured again (a resumed run) finds its record.
//
// params come from the hook: counts as int64 (or a float64 that is
// whole), bs as a number of bytes or a size string, rw as a string. An
// error says which parameter is wrong and what it may be.
func (n *Node) AdaptivePoint(params map[string]any) (*Node, error) {
	if n.Kind != KindAdaptive || n.Workload == nil {
		return nil, fmt.Errorf("node %s is not an adaptive node", n.Name)
	}
	var point []workload.Param
	for _, name := range sortedKeys(params) {
		if !slices.Contains(adaptiveParams, name) {
			return nil, fmt.Errorf("%s is not a parameter a point can set; use %s%s",
				name, quotedList(adaptiveParams), didYouMean(name, adaptiveParams))
		}
	}
	for _, name := range adaptiveParams {
		v, ok := params[name]
		if !ok {
			continue
		}
		x, err := adaptiveValue(name, v)
		if err != nil {
			return nil, err
		}
		point = append(point, workload.Param{Name: name, Value: x})
	}
	w := n.Workload.Clone()
	for _, p := range point {
		applyParam(&w, p)
	}
	normalizeReadPct(&w)
	normalizeSeqPct(&w)
	child := &Node{
		Kind:     KindProfile,
		Name:     n.Name + " / " + workload.Point(point).String(),
		Drive:    n.Drive,
		Source:   n.Source,
		Point:    point,
		Workload: &w,
		Expect:   n.Expect,
		Parent:   n.ID,
	}
	child.ID = nodeIdentity{Kind: KindProfile, Source: n.Source, Point: point, Workload: &w, DependsOn: []string{n.ID}}.hash()
	return child, nil
}

// adaptiveValue checks one parameter value from a hook by its row of
// workload.Options, with the limits a sweep has.
func adaptiveValue(name string, v any) (any, error) {
	o := workload.Lookup(name)
	switch o.Kind {
	case workload.Choice:
		s, ok := v.(string)
		if !ok || !slices.Contains(o.Values, s) {
			return nil, fmt.Errorf("%s = %v: use one of %s", name, v, quotedList(o.Values))
		}
		return s, nil
	case workload.Size:
		if s, ok := v.(string); ok {
			n, err := workload.ParseSize(s)
			if err != nil || n <= 0 {
				return nil, fmt.Errorf("%s = %q is not a size such as \"4KiB\"", name, s)
			}
			return n, nil
		}
		return wholeNumber(name, v, 1, math.MaxInt64)
	case workload.Percent:
		if s, ok := v.(string); ok { // "70%", as in a plan
			p, err := workload.ParsePercent(s)
			if err != nil {
				return nil, fmt.Errorf("%s = %q: must be a whole number from %d to %d or a percentage such as \"70%%\"", name, s, o.Min, o.Max)
			}
			return wholeNumber(name, p, o.Min, o.Max)
		}
		return wholeNumber(name, v, o.Min, o.Max)
	case workload.Rate:
		return rate(v)
	}
	return wholeNumber(name, v, o.Min, o.Max)
}

// rate reads an I/O rate: a number more than 0, stored as float64 so
// that the same rate always gives the same point.
func rate(v any) (float64, error) {
	var f float64
	switch x := v.(type) {
	case int64:
		f = float64(x)
	case float64:
		f = x
	default:
		return 0, fmt.Errorf("rate_iops = %q: must be a number of I/Os per second", fmt.Sprint(v))
	}
	if !(f > 0 && f <= maxRateIOPS) {
		return 0, fmt.Errorf("rate_iops = %g: must be more than 0 and at most %g I/Os per second", f, maxRateIOPS)
	}
	return f, nil
}

// wholeNumber reads an int64, or a float64 that is whole, from lo to hi.
func wholeNumber(name string, v any, lo, hi int64) (int64, error) {
	var n int64
	switch x := v.(type) {
	case int64:
		n = x
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
			return 0, fmt.Errorf("%s = %g: must be a whole number from %d to %d", name, x, lo, hi)
		}
		n = int64(x)
	default:
		return 0, fmt.Errorf("%s = %q: must be a whole number from %d to %d", name, fmt.Sprint(v), lo, hi)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%s = %d: must be a whole number from %d to %d", name, n, lo, hi)
	}
	return n, nil
}
