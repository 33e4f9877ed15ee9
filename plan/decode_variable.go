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
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "validation"},
	},
}

// validationBlockSchema is the body of a variable's validation block.
var validationBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "condition", Required: true},
		{Name: "error_message", Required: true},
	},
}

// variableDecl is a declared variable before its value is settled.
type variableDecl struct {
	name string
	// def is the default, cty.NilVal when there is none; typ is the
	// declared type, cty.NilType when there is none.
	def         cty.Value
	defAttr     *hcl.Attribute
	typ         cty.Type
	validations []*hcl.Block
	block       *hcl.Block
}

// givenValue is a variable's value from outside its declaration: a -var
// or environment string (raw), or a value from a variable file or a
// module block (val, with rng where it is written).
type givenValue struct {
	raw string
	val cty.Value
	// origin names the source for people: "-var size=1GiB".
	origin string
	rng    *hcl.Range
}

// decodeRootVariables decodes the plan's variable blocks and settles their
// values from the defaults, the environment, the variable files and the
// -var values. It returns the values as Go data.
func (l *loader) decodeRootVariables(blocks hcl.Blocks) map[string]any {
	decls := l.declareVariables(blocks)
	given := map[string]givenValue{}
	if l.opts.Env != nil {
		for _, d := range decls {
			if raw := l.opts.Env(EnvPrefix + d.name); raw != "" {
				given[d.name] = givenValue{raw: raw, origin: fmt.Sprintf("the environment variable %s%s=%s", EnvPrefix, d.name, raw)}
			}
		}
	}
	for _, path := range l.opts.VarFiles {
		l.readVarFile(path, given)
	}
	l.reportUndeclaredFlags(l.opts.Vars)
	for name, raw := range l.opts.Vars {
		given[name] = givenValue{raw: raw, origin: fmt.Sprintf("-var %s=%s", name, raw)}
	}
	return l.settleVariables(decls, given)
}

// declareVariables decodes variable blocks into the current scope.
func (l *loader) declareVariables(blocks hcl.Blocks) []*variableDecl {
	var decls []*variableDecl
	for _, b := range blocks {
		if d := l.decodeVariableBlock(b); d != nil {
			decls = append(decls, d)
			l.sc.vars[d.name] = d
		}
	}
	return decls
}

// settleVariables gives each declared variable its value, checks its
// validation rules and makes var.<name> available to the scope's
// expressions. It returns the values as Go data.
func (l *loader) settleVariables(decls []*variableDecl, given map[string]givenValue) map[string]any {
	values := map[string]cty.Value{}
	out := map[string]any{}
	for _, d := range decls {
		g, isGiven := given[d.name]
		v, ok := l.variableValue(d, g, isGiven)
		if ok {
			ok = l.validateVariable(d, v, g, isGiven)
		}
		if !ok {
			values[d.name] = cty.DynamicVal
			continue
		}
		values[d.name] = v
		if gv, err := goValue(v); err == nil {
			out[d.name] = gv
		}
	}
	l.sc.ctx.Variables["var"] = cty.ObjectVal(values)
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
	if !l.define(block, l.sc.prefix+name) {
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
		d.defAttr = attr
		d.def = l.decodeDefault(attr, d.typ)
	}
	for _, vb := range content.Blocks {
		if l.checkValidationBlock(d, vb) {
			d.validations = append(d.validations, vb)
		}
	}
	return d
}

// decodeDefault evaluates a default, which must be a constant.
func (l *loader) decodeDefault(attr *hcl.Attribute, typ cty.Type) cty.Value {
	v, ok := l.constantValue(attr.Expr, attrSite(attr),
		"A default must be a constant value: it cannot refer to variables. Pass values that depend on each other with -var, or compute them in a locals block.")
	if !ok {
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

// constantValue evaluates an expression that may call functions but not
// refer to anything.
func (l *loader) constantValue(expr hcl.Expression, s site, why string) (cty.Value, bool) {
	if len(expr.Variables()) > 0 {
		l.errorAt(s, "Variables Not Allowed", why)
		return cty.NilVal, false
	}
	v, diags := expr.Value(&hcl.EvalContext{Functions: l.functions()})
	l.diags = append(l.diags, diags...)
	return v, !diags.HasErrors() && v.IsWhollyKnown()
}

// reportUndeclaredFlags reports -var values for variables the plan does not
// declare, in name order.
func (l *loader) reportUndeclaredFlags(flags map[string]string) {
	names := make([]string, 0, len(flags))
	for name := range flags {
		if l.sc.vars[name] == nil {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Value For Undeclared Variable",
			Detail: fmt.Sprintf("A value was given with -var %s=..., but the plan declares no variable %q. Declare it with a variable %q block, or drop the -var.%s",
				name, name, name, didYouMean(name, sortedKeys(l.sc.vars))),
		})
	}
}

// variableValue settles a variable's value: the given value converted to
// its type, or else its default.
func (l *loader) variableValue(d *variableDecl, g givenValue, isGiven bool) (cty.Value, bool) {
	switch {
	case isGiven && g.val != cty.NilVal:
		return l.convertGiven(d, g)
	case isGiven:
		return l.flagValue(d, g)
	case d.def == cty.NilVal && l.sc.module != nil:
		l.blockError(l.sc.module, "Missing Module Input", fmt.Sprintf(
			"The module's variable %q has no default (at %s). Give it a value here, as %s = ...", d.name, d.block.DefRange, d.name))
		return cty.NilVal, false
	case d.def == cty.NilVal && l.opts.Unset:
		l.unset = append(l.unset, d.name)
		if d.typ == cty.NilType {
			return cty.DynamicVal, true
		}
		return cty.UnknownVal(d.typ), true
	case d.def == cty.NilVal:
		l.blockError(d.block, "Missing Variable Value", fmt.Sprintf(
			"Variable %q has no default. Give it a value with -var %s=VALUE, or add default = ... to the block.", d.name, d.name))
		return cty.NilVal, false
	}
	return d.def, d.def.IsWhollyKnown()
}

// convertGiven converts a value from a variable file or a module block to
// the variable's type.
func (l *loader) convertGiven(d *variableDecl, g givenValue) (cty.Value, bool) {
	if d.typ == cty.NilType || g.val.IsNull() {
		return g.val, g.val.IsWhollyKnown()
	}
	cv, err := convert.Convert(g.val, d.typ)
	if err != nil {
		l.givenError(d, g, "Invalid Value For Variable", fmt.Sprintf("%s is not a valid %s: %s. Give a %s value.", g.origin, d.typ.FriendlyName(), err, d.typ.FriendlyName()))
		return cty.NilVal, false
	}
	return cv, cv.IsWhollyKnown()
}

// givenError reports a problem with a given value where it is written,
// or else at the variable's declaration.
func (l *loader) givenError(d *variableDecl, g givenValue, summary, detail string) {
	if g.rng != nil {
		l.errorAt(site{subject: *g.rng, context: *g.rng}, summary, detail)
		return
	}
	l.blockError(d.block, summary, detail)
}

// flagValue converts a -var or environment string to the variable's type:
// the declared type, else the default's type when the string converts to
// it, else string. Values of
// collection types are written as HCL expressions, such as
// -var 'depths=[1, 4, 16]'.
func (l *loader) flagValue(d *variableDecl, g givenValue) (cty.Value, bool) {
	target := d.typ
	if target == cty.NilType {
		target = cty.String
		if d.def != cty.NilVal && d.def.IsKnown() && !d.def.IsNull() {
			target = d.def.Type()
		}
	}
	v := cty.StringVal(g.raw)
	if !target.IsPrimitiveType() && target != cty.DynamicPseudoType {
		parsed, ok := l.parseFlagExpression(d, g)
		if !ok {
			return cty.NilVal, false
		}
		if d.typ == cty.NilType {
			return parsed, true
		}
		v = parsed
	}
	cv, err := convert.Convert(v, target)
	if err != nil && d.typ == cty.NilType && target.IsPrimitiveType() {
		// An untyped variable takes any value; its default's type is only
		// a guess. A size variable defaulting to 0 takes -var size=256MiB.
		return v, true
	}
	if err != nil {
		l.blockError(d.block, "Invalid Value For Variable",
			fmt.Sprintf("%s is not a valid %s: %s. Give a %s value.", g.origin, target.FriendlyName(), err, target.FriendlyName()))
		return cty.NilVal, false
	}
	return cv, true
}

// parseFlagExpression evaluates a -var value written as an HCL expression.
func (l *loader) parseFlagExpression(d *variableDecl, g givenValue) (cty.Value, bool) {
	diags := checkNesting([]byte(g.raw), "-var "+d.name)
	var expr hclsyntax.Expression
	if !diags.HasErrors() {
		expr, diags = hclsyntax.ParseExpression([]byte(g.raw), "-var "+d.name, hcl.InitialPos)
	}
	if !diags.HasErrors() {
		var v cty.Value
		v, diags = expr.Value(&hcl.EvalContext{Functions: l.functions()})
		if !diags.HasErrors() {
			return v, true
		}
	}
	l.blockError(d.block, "Invalid Value For Variable",
		fmt.Sprintf("%s is not a valid HCL value: %s. Write lists as [1, 4, 16] and objects as {key = \"value\"}.", g.origin, diags[0].Detail))
	return cty.NilVal, false
}
