package plan

import (
	"fmt"

	"github.com/drivebench/drivebench/figure"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// An expectation compares numbers in the unit the figure registry gives
// each figure in its place: seconds, bytes per second, µs, a share from
// 0 to 1. A figure compared with a string ("30s", "2GB/s") or a share
// with a percentage (au >= 90) never holds as meant, so such a
// comparison is refused when the plan is loaded, with the number to
// write instead.

// checkUnits reports each comparison of a result figure with a value
// written in another unit than the figure's; false when there is one.
func (l *loader) checkUnits(expr hcl.Expression) bool {
	ok := true
	syn, isSyntax := expr.(hclsyntax.Expression)
	if !isSyntax {
		return true
	}
	hclsyntax.VisitAll(syn, func(n hclsyntax.Node) hcl.Diagnostics {
		op, isOp := n.(*hclsyntax.BinaryOpExpr)
		if !isOp || !isComparison(op.Op) {
			return nil
		}
		for _, pair := range [][2]hclsyntax.Expression{{op.LHS, op.RHS}, {op.RHS, op.LHS}} {
			if !l.checkUnit(pair[0], pair[1]) {
				ok = false
			}
		}
		return nil
	})
	return ok
}

func isComparison(op *hclsyntax.Operation) bool {
	switch op {
	case hclsyntax.OpGreaterThan, hclsyntax.OpGreaterThanOrEqual, hclsyntax.OpLessThan, hclsyntax.OpLessThanOrEqual,
		hclsyntax.OpEqual, hclsyntax.OpNotEqual:
		return true
	}
	return false
}

// checkUnit checks one side of a comparison, ref, a result figure,
// against the literal value it is compared with.
func (l *loader) checkUnit(ref, other hclsyntax.Expression) bool {
	t, isRef := ref.(*hclsyntax.ScopeTraversalExpr)
	if !isRef || t.Traversal.RootName() != "result" {
		return true
	}
	f, place := resultFigure(stepNames(t.Traversal))
	if f == nil {
		return true
	}
	name := traversalText(t.Traversal)
	s := site{name: name, subject: other.Range(), context: hcl.RangeOver(ref.Range(), other.Range())}
	if tmpl, isTmpl := other.(*hclsyntax.TemplateExpr); isTmpl && tmpl.IsStringLiteral() {
		v, _ := tmpl.Value(nil)
		if _, err := cty.ParseNumberVal(v.AsString()); err == nil {
			return true
		}
		l.errorAt(s, "Wrong Unit", fmt.Sprintf("%s is a number, %s; %q is a string. %s", name, unitWords(f, place), v.AsString(), unitAdvice(f, place)))
		return false
	}
	lit, isLit := other.(*hclsyntax.LiteralValueExpr)
	if !isLit || f.Unit != figure.Share || lit.Val.Type() != cty.Number {
		return true
	}
	if v, _ := lit.Val.AsBigFloat().Float64(); v > 1 {
		l.errorAt(s, "Wrong Unit", fmt.Sprintf("%s is %s; %s is more than all of it, so the comparison never holds as meant. Write %s for %s%%.",
			name, unitWords(f, place), FormatNumber(v), FormatNumber(v/100), FormatNumber(v)))
		return false
	}
	return true
}

// resultFigure finds the registry's figure that the names after result
// name, and the place that names it; nil for what is not a figure
// (result.read.ios, result.metrics["x"]).
func resultFigure(names []string) (*figure.Figure, figure.Place) {
	if len(names) < 2 {
		return nil, 0
	}
	key, place := names[1], figure.Place(0)
	switch names[0] {
	case "read", "write", "total":
		place = figure.Expect
	case "dataloader":
		place = figure.Dataloader
	case "replay":
		place = figure.Replay
	case "files":
		place = figure.Files
	case "checkpoint":
		if len(names) < 3 {
			return nil, 0
		}
		key, place = names[2], figure.Checkpoint
	default:
		return nil, 0
	}
	f, _ := figure.Resolve(place, key)
	return f, place
}

// unitWords names a figure's unit in place p for people.
func unitWords(f *figure.Figure, p figure.Place) string {
	switch {
	case f.UnitIn(p) == "µs":
		return "in µs"
	case f.Unit == figure.Seconds:
		return "in seconds"
	case f.Unit == figure.BytesPerSec:
		return "in bytes per second"
	case f.Unit == figure.Share:
		return "a share from 0 to 1"
	case f.Unit == figure.PerSecond:
		return "in I/Os per second"
	}
	return "in " + string(f.Unit)
}

// unitAdvice says how to write a value in a figure's unit.
func unitAdvice(f *figure.Figure, p figure.Place) string {
	switch {
	case f.UnitIn(p) == "µs":
		return "Write the number of µs, such as 500 for half a millisecond."
	case f.Unit == figure.Seconds:
		return `Write the number of seconds, such as 30, or parse_duration("30s").`
	case f.Unit == figure.BytesPerSec:
		return `Write the number of bytes per second, such as 2e9 or gb(2) for 2 GB/s, or parse_size("2GB").`
	case f.Unit == figure.Share:
		return "Write the share, such as 0.9 for 90 %."
	case f.Unit == figure.PerSecond:
		return "Write the number of I/Os per second, such as 100000."
	}
	return "Write the number, such as 1000."
}
