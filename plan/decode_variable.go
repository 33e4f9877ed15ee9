package plan

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// variableBlockSchema is the body of a variable block.
var variableBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "default"},
		{Name: "description"},
		{Name: "type"},
	},
}

// variableDecl is a declared variable before its value is settled.
type variableDecl struct {
	name string
	// def is the default, cty.NilVal when there is none; typ is the
	// declared type, cty.NilType when there is none.
	def   cty.Value
	typ   cty.Type
	block *hcl.Block
}

// decodeVariables decodes the variable blocks, settles each variable's
// value from its default and the -var values, and sets up the evaluation
// context of every other expression. It returns the values as Go data.
func (l *loader) decodeVariables(blocks hcl.Blocks, flags map[string]string) map[string]any {
	l.ctx = &hcl.EvalContext{Functions: planFunctions()}
	var decls []*variableDecl
	for _, b := range blocks {
		if d := l.decodeVariableBlock(b); d != nil {
			decls = append(decls, d)
			l.vars[d.name] = d
		}
	}
	l.reportUndeclaredFlags(flags)
	values := map[string]cty.Value{}
	out := map[string]any{}
	for _, d := range decls {
		v, ok := l.variableValue(d, flags)
		if !ok {
			values[d.name] = cty.DynamicVal
			continue
		}
		values[d.name] = v
		if g, err := goValue(v); err == nil {
			out[d.name] = g
		}
	}
	l.ctx.Variables = map[string]cty.Value{"var": cty.ObjectVal(values)}
	return out
}

// decodeVariableBlock decodes one variable block; nil when its name is
// unusable.
func (l *loader) decodeVariableBlock(block *hcl.Block) *variableDecl {
	content, diags := block.Body.Content(variableBlockSchema)
	l.diags = append(l.diags, diags...)
	name := block.Labels[0]
	if !hclsyntax.ValidIdentifier(name) {
		l.errorAt(site{subject: block.LabelRanges[0], context: block.DefRange}, "Invalid Variable Name",
			fmt.Sprintf("%q cannot name a variable: a variable name is a letter followed by letters, digits, \"_\" or \"-\", so that it can be written var.<name>.", name))
		return nil
	}
	if !l.defineName(block) {
		return nil
	}
	d := &variableDecl{name: name, def: cty.NilVal, typ: cty.NilType, block: block}
	var description string
	l.stringAttr(content.Attributes["description"], &description)
	if attr := content.Attributes["type"]; attr != nil {
		ty, tdiags := typeexpr.TypeConstraint(attr.Expr)
		l.diags = append(l.diags, tdiags...)
		if !tdiags.HasErrors() {
			d.typ = ty
		}
	}
	if attr := content.Attributes["default"]; attr != nil {
		d.def = l.decodeDefault(attr, d.typ)
	}
	return d
}

// decodeDefault evaluates a default, which must be a constant.
func (l *loader) decodeDefault(attr *hcl.Attribute, typ cty.Type) cty.Value {
	if len(attr.Expr.Variables()) > 0 {
		l.errorAt(attrSite(attr), "Variables Not Allowed",
			"A default must be a constant value: it cannot refer to variables. Pass values that depend on each other with -var.")
		return cty.DynamicVal
	}
	v, diags := attr.Expr.Value(&hcl.EvalContext{Functions: l.ctx.Functions})
	l.diags = append(l.diags, diags...)
	if diags.HasErrors() {
		return cty.DynamicVal
	}
	if typ == cty.NilType || v.IsNull() {
		return v
	}
	cv, err := convert.Convert(v, typ)
	if err != nil {
		l.errorAt(attrSite(attr), "Invalid Default Value",
			fmt.Sprintf("The default does not fit the variable's type %s: %s. Change the default or the type.", typ.FriendlyName(), err))
		return cty.DynamicVal
	}
	return cv
}

// reportUndeclaredFlags reports -var values for variables the plan does not
// declare, in name order.
func (l *loader) reportUndeclaredFlags(flags map[string]string) {
	names := make([]string, 0, len(flags))
	for name := range flags {
		if l.vars[name] == nil {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Value For Undeclared Variable",
			Detail: fmt.Sprintf("A value was given with -var %s=..., but the plan declares no variable %q. Declare it with a variable %q block, or drop the -var.%s",
				name, name, name, didYouMean(name, sortedKeys(l.vars))),
		})
	}
}

// variableValue settles a variable's value: its -var value converted to
// its type, or else its default.
func (l *loader) variableValue(d *variableDecl, flags map[string]string) (cty.Value, bool) {
	raw, given := flags[d.name]
	if given {
		return l.flagValue(d, raw)
	}
	if d.def == cty.NilVal {
		l.blockError(d.block, "Missing Variable Value",
			fmt.Sprintf("Variable %q has no default. Give it a value with -var %s=VALUE, or add default = ... to the block.", d.name, d.name))
		return cty.NilVal, false
	}
	return d.def, d.def.IsWhollyKnown()
}

// flagValue converts a -var string to the variable's type: the declared
// type, else the default's type, else string. Values of collection types
// are written as HCL expressions, such as -var 'depths=[1, 4, 16]'.
func (l *loader) flagValue(d *variableDecl, raw string) (cty.Value, bool) {
	target := d.typ
	if target == cty.NilType {
		target = cty.String
		if d.def != cty.NilVal && d.def.IsKnown() && !d.def.IsNull() {
			target = d.def.Type()
		}
	}
	v := cty.StringVal(raw)
	if !target.IsPrimitiveType() && target != cty.DynamicPseudoType {
		parsed, ok := l.parseFlagExpression(d, raw)
		if !ok {
			return cty.NilVal, false
		}
		if d.typ == cty.NilType {
			return parsed, true
		}
		v = parsed
	}
	cv, err := convert.Convert(v, target)
	if err != nil {
		l.blockError(d.block, "Invalid Value For Variable",
			fmt.Sprintf("-var %s=%s is not a valid %s: %s. Give a %s value.", d.name, raw, target.FriendlyName(), err, target.FriendlyName()))
		return cty.NilVal, false
	}
	return cv, true
}

// parseFlagExpression evaluates a -var value written as an HCL expression.
func (l *loader) parseFlagExpression(d *variableDecl, raw string) (cty.Value, bool) {
	expr, diags := hclsyntax.ParseExpression([]byte(raw), "-var "+d.name, hcl.InitialPos)
	if !diags.HasErrors() {
		var v cty.Value
		v, diags = expr.Value(&hcl.EvalContext{Functions: l.ctx.Functions})
		if !diags.HasErrors() {
			return v, true
		}
	}
	l.blockError(d.block, "Invalid Value For Variable",
		fmt.Sprintf("-var %s=%s is not a valid HCL value: %s. Write lists as [1, 4, 16] and objects as {key = \"value\"}.", d.name, raw, diags[0].Detail))
	return cty.NilVal, false
}
