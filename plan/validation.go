package plan

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// checkValidationBlock decodes a validation block far enough to know it
// is usable: both attributes present, and a condition that refers to the
// variable it validates and to nothing else.
func (l *loader) checkValidationBlock(d *variableDecl, block *hcl.Block) bool {
	content, diags := block.Body.Content(validationBlockSchema)
	l.diags = append(l.diags, diags...)
	cond := content.Attributes["condition"]
	if diags.HasErrors() || cond == nil || content.Attributes["error_message"] == nil {
		return false
	}
	ok := true
	for _, t := range cond.Expr.Variables() {
		if refersTo(t, "var", d.name) {
			continue
		}
		l.referenceError(t, "Invalid Validation Condition", fmt.Sprintf(
			"A validation condition of variable %q can refer only to var.%s, the value being validated.", d.name, d.name))
		ok = false
	}
	return ok
}

// refersTo reports whether a traversal is root.name or goes through it.
func refersTo(t hcl.Traversal, root, name string) bool {
	if t.RootName() != root || len(t) < 2 {
		return false
	}
	step, ok := t[1].(hcl.TraverseAttr)
	return ok && step.Name == name
}

// validateVariable checks a variable's value against its validation
// rules. A failed rule is reported where the value is written: in the
// variable file or module block that gives it, at the default, or, for
// -var and environment values, at the rule's condition.
func (l *loader) validateVariable(d *variableDecl, v cty.Value, g givenValue, isGiven bool) bool {
	ctx := &hcl.EvalContext{
		Functions: l.functions(),
		Variables: map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{d.name: v})},
	}
	ok := true
	for _, vb := range d.validations {
		content, _ := vb.Body.Content(validationBlockSchema)
		cond := content.Attributes["condition"]
		holds, known := l.evalCondition(d, cond, ctx)
		if !known || holds {
			continue
		}
		ok = false
		message := l.errorMessage(content.Attributes["error_message"], ctx)
		l.validationError(d, g, isGiven, cond, message)
	}
	return ok
}

// evalCondition evaluates a validation condition, which must be a bool.
func (l *loader) evalCondition(d *variableDecl, cond *hcl.Attribute, ctx *hcl.EvalContext) (holds, known bool) {
	v, diags := cond.Expr.Value(ctx)
	l.diags = append(l.diags, diags...)
	if diags.HasErrors() || !v.IsWhollyKnown() {
		return false, false
	}
	bv, err := convert.Convert(v, cty.Bool)
	if err != nil || bv.IsNull() {
		l.errorAt(attrSite(cond), "Invalid Validation Condition", fmt.Sprintf(
			"The condition of variable %q must be true or false; got %s. Write a comparison, such as var.%s > 0.", d.name, v.Type().FriendlyName(), d.name))
		return false, false
	}
	return bv.True(), true
}

// errorMessage evaluates a rule's error message; it may show the value
// with a template such as "${var.size} is too small".
func (l *loader) errorMessage(attr *hcl.Attribute, ctx *hcl.EvalContext) string {
	v, diags := attr.Expr.Value(ctx)
	if diags.HasErrors() || !v.IsWhollyKnown() {
		l.diags = append(l.diags, diags...)
		return "The value does not pass the variable's validation rule."
	}
	sv, err := convert.Convert(v, cty.String)
	if err != nil || sv.IsNull() {
		l.errorAt(attrSite(attr), "Incorrect Value Type", "error_message must be a string.")
		return "The value does not pass the variable's validation rule."
	}
	return strings.TrimSpace(sv.AsString())
}

// validationError reports a value that fails a rule.
func (l *loader) validationError(d *variableDecl, g givenValue, isGiven bool, cond *hcl.Attribute, message string) {
	const summary = "Invalid Value For Variable"
	switch {
	case isGiven && g.rng != nil:
		l.errorAt(site{subject: *g.rng, context: *g.rng}, summary, message+fmt.Sprintf(" (variable %q; rule at %s)", d.name, cond.Range))
	case isGiven:
		l.errorAt(attrSite(cond), summary, fmt.Sprintf("%s: %s", g.origin, message))
	case d.defAttr != nil:
		l.errorAt(attrSite(d.defAttr), summary, fmt.Sprintf("The default of variable %q: %s", d.name, message))
	default:
		l.errorAt(attrSite(cond), summary, message)
	}
}

// readVarFile reads a -var-file: an HCL file of name = value lines, or a
// JSON object when its name ends in ".json". Values must be constants.
// A name the plan does not declare is a warning, since one file often
// serves several plans.
func (l *loader) readVarFile(path string, given map[string]givenValue) {
	file, diags := parseVarFile(path)
	if file == nil {
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Cannot Read Variable File",
			Detail:   fmt.Sprintf("-var-file %s: %s. Check the path.", path, diagsDetail(diags)),
		})
		return
	}
	l.sources.Files[path] = file
	l.diags = append(l.diags, diags...)
	if diags.HasErrors() {
		return
	}
	attrs, adiags := file.Body.JustAttributes()
	l.diags = append(l.diags, adiags...)
	for _, attr := range attributesInOrder(attrs) {
		l.readVarFileValue(path, attr, given)
	}
}

// readVarFileValue records one name = value line of a variable file.
func (l *loader) readVarFileValue(path string, attr *hcl.Attribute, given map[string]givenValue) {
	if l.sc.vars[attr.Name] == nil {
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Value For Undeclared Variable",
			Detail: fmt.Sprintf("The plan declares no variable %q, so this value is not used.%s",
				attr.Name, didYouMean(attr.Name, sortedKeys(l.sc.vars))),
			Subject: attr.NameRange.Ptr(),
		})
		return
	}
	v, ok := l.constantValue(attr.Expr, attrSite(attr), "A value in a variable file must be a constant: it cannot refer to variables.")
	if !ok {
		return
	}
	rng := attr.Expr.Range()
	given[attr.Name] = givenValue{val: v, origin: fmt.Sprintf("-var-file %s: %s", path, attr.Name), rng: &rng}
}

// diagsDetail is the detail of the first diagnostic, for wrapping.
func diagsDetail(diags hcl.Diagnostics) string {
	if len(diags) == 0 {
		return "unknown error"
	}
	return diags[0].Detail
}

// parseVarFile parses a variable file, HCL or JSON, after checking its
// nesting.
func parseVarFile(path string) (*hcl.File, hcl.Diagnostics) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot Read File", Detail: err.Error()}}
	}
	parser := hclparse.NewParser()
	if strings.EqualFold(filepath.Ext(path), ".json") {
		if diags := checkJSONNesting(src, path); diags.HasErrors() {
			return &hcl.File{Body: hcl.EmptyBody(), Bytes: src}, diags
		}
		return parser.ParseJSON(src, path)
	}
	if diags := checkNesting(src, path); diags.HasErrors() {
		return &hcl.File{Body: hcl.EmptyBody(), Bytes: src}, diags
	}
	return parser.ParseHCL(src, path)
}
