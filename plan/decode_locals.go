package plan

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// localsEval evaluates a scope's local values in dependency order.
type localsEval struct {
	attrs  map[string]*hcl.Attribute
	values map[string]cty.Value
	// visiting holds the locals being evaluated, to find cycles.
	visiting map[string]bool
	// path is the chain of locals being evaluated, for the cycle message.
	path []string
}

// decodeLocals decodes the scope's locals blocks and makes local.<name>
// available to its expressions. A local value may refer to variables and
// to other local values, in any order, but not to itself through others.
func (l *loader) decodeLocals(blocks hcl.Blocks) {
	ev := &localsEval{attrs: map[string]*hcl.Attribute{}, values: map[string]cty.Value{}, visiting: map[string]bool{}}
	var order []*hcl.Attribute
	for _, b := range blocks {
		attrs, diags := b.Body.JustAttributes()
		l.diags = append(l.diags, diags...)
		for _, attr := range attributesInOrder(attrs) {
			if first, dup := ev.attrs[attr.Name]; dup {
				l.errorAt(site{subject: attr.NameRange, context: attr.Range}, "Duplicate Local Value",
					fmt.Sprintf("local.%s is already defined at %s. Rename one of them.", attr.Name, first.NameRange))
				continue
			}
			ev.attrs[attr.Name] = attr
			l.sc.locals[attr.Name] = true
			order = append(order, attr)
		}
	}
	for _, attr := range order {
		l.evalLocal(ev, attr.Name)
	}
	l.sc.ctx.Variables["local"] = cty.ObjectVal(ev.values)
}

// evalLocal evaluates one local value after the ones it refers to. A
// value that cannot be evaluated becomes unknown, so that its uses are not
// reported again.
func (l *loader) evalLocal(ev *localsEval, name string) cty.Value {
	if v, done := ev.values[name]; done {
		return v
	}
	attr := ev.attrs[name]
	if ev.visiting[name] {
		l.errorAt(attrSite(attr), "Cycle In Local Values", fmt.Sprintf(
			"local.%s refers to itself through %s. Break the cycle by computing one of them from variables only.",
			name, strings.Join(append(ev.path, name), " -> ")))
		ev.values[name] = cty.DynamicVal
		return cty.DynamicVal
	}
	ev.visiting[name] = true
	ev.path = append(ev.path, name)
	for _, t := range attr.Expr.Variables() {
		if dep, ok := localName(t); ok && ev.attrs[dep] != nil {
			l.evalLocal(ev, dep)
		}
	}
	ev.path = ev.path[:len(ev.path)-1]
	ev.visiting[name] = false
	v := cty.DynamicVal
	if _, cycled := ev.values[name]; !cycled && l.checkReferences(attr.Expr) {
		l.sc.ctx.Variables["local"] = cty.ObjectVal(ev.values)
		value, diags := attr.Expr.Value(l.sc.ctx)
		l.diags = append(l.diags, diags...)
		if !diags.HasErrors() {
			v = value
		}
	}
	if _, cycled := ev.values[name]; !cycled {
		ev.values[name] = v
	}
	return ev.values[name]
}

// localName returns the name a local.<name> traversal refers to.
func localName(t hcl.Traversal) (string, bool) {
	if t.RootName() != "local" || len(t) < 2 {
		return "", false
	}
	step, ok := t[1].(hcl.TraverseAttr)
	return step.Name, ok
}
