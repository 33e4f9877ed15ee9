package plan

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// moduleFileSchema is the top level of a module file: a reusable
// methodology, with variables for its inputs.
var moduleFileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
		{Type: "precondition", LabelNames: []string{"name"}},
		{Type: "profile", LabelNames: []string{"name"}},
		{Type: "exec", LabelNames: []string{"name"}},
		{Type: "dataloader", LabelNames: []string{"name"}},
		{Type: "check", LabelNames: []string{"name"}},
	},
}

// moduleMetaAttributes are the attributes of a module block that are not
// inputs.
var moduleMetaAttributes = []string{"source", "drives"}

// moduleInstance is a module block with its file decoded far enough for
// its preconditions, profiles and checks to be decoded in their turn.
type moduleInstance struct {
	scope   *scope
	content *hcl.BodyContent
}

// decodeModules decodes the plan's module blocks: reads each module's
// file and settles its variables from the block's inputs.
func (l *loader) decodeModules(blocks hcl.Blocks) map[*hcl.Block]*moduleInstance {
	modules := map[*hcl.Block]*moduleInstance{}
	for _, b := range blocks {
		if m := l.decodeModuleBlock(b); m != nil {
			modules[b] = m
		}
	}
	return modules
}

// decodeModuleBlock decodes one module block.
func (l *loader) decodeModuleBlock(block *hcl.Block) *moduleInstance {
	name := block.Labels[0]
	attrs, diags := block.Body.JustAttributes()
	l.diags = append(l.diags, diags...)
	if !l.define(block, name) {
		return nil
	}
	path, ok := l.moduleSource(block, attrs["source"])
	if !ok {
		return nil
	}
	drives, _ := l.driveRefs(attrs["drives"])
	file, ok := l.parseFile(path, siteOf(attrs["source"]))
	if !ok {
		return nil
	}
	content, diags := l.content(file.Body, moduleFileSchema)
	l.diags = append(l.diags, diags...)
	inputs := l.moduleInputs(name, attrs)
	sc := l.newScope(path, name+".")
	sc.drives, sc.module = drives, block
	byType := blocksByType(content.Blocks)
	l.inScope(sc, func() {
		decls := l.declareVariables(byType["variable"])
		l.reportUndeclaredInputs(name, attrs)
		l.settleVariables(decls, inputs)
		l.decodeLocals(byType["locals"])
	})
	return &moduleInstance{scope: sc, content: content}
}

// moduleSource decodes the path of the module's file, relative to the
// folder of the file the module block is in.
func (l *loader) moduleSource(block *hcl.Block, attr *hcl.Attribute) (string, bool) {
	if attr == nil {
		l.blockError(block, "Missing Module Source", fmt.Sprintf(
			"Module %q needs source = \"<file>.hcl\": the file of the methodology to apply, relative to this file's folder.", block.Labels[0]))
		return "", false
	}
	var source string
	if !l.stringAttr(attr, &source) {
		return "", false
	}
	if !filepath.IsAbs(source) {
		source = filepath.Join(l.sc.dir, source)
	}
	return source, true
}

// siteOf is the site of an attribute, or nil for none.
func siteOf(attr *hcl.Attribute) *site {
	if attr == nil {
		return nil
	}
	s := attrSite(attr)
	return &s
}

// moduleInputs evaluates the module block's inputs in the plan's scope.
func (l *loader) moduleInputs(module string, attrs hcl.Attributes) map[string]givenValue {
	inputs := map[string]givenValue{}
	for _, attr := range attributesInOrder(attrs) {
		if slices.Contains(moduleMetaAttributes, attr.Name) {
			continue
		}
		v, ok := l.anyValue(attr)
		if !ok {
			v = cty.DynamicVal
		}
		rng := attr.Expr.Range()
		inputs[attr.Name] = givenValue{val: v, origin: fmt.Sprintf("module %q input %s", module, attr.Name), rng: &rng}
	}
	return inputs
}

// anyValue evaluates an attribute that may be null.
func (l *loader) anyValue(attr *hcl.Attribute) (cty.Value, bool) {
	if !l.checkReferences(attr.Expr) {
		return cty.NilVal, false
	}
	v, diags := attr.Expr.Value(l.sc.ctx)
	l.diags = append(l.diags, diags...)
	return v, !diags.HasErrors() && v.IsWhollyKnown()
}

// reportUndeclaredInputs reports inputs for variables the module does not
// declare.
func (l *loader) reportUndeclaredInputs(module string, attrs hcl.Attributes) {
	for _, attr := range attributesInOrder(attrs) {
		if slices.Contains(moduleMetaAttributes, attr.Name) || l.sc.vars[attr.Name] != nil {
			continue
		}
		l.errorAt(site{subject: attr.NameRange, context: attr.Range}, "Input For Undeclared Variable", fmt.Sprintf(
			"Module %q (%s) declares no variable %q. Declare it there with a variable block, or remove the input.%s",
			module, l.sc.file, attr.Name, didYouMean(attr.Name, sortedKeys(l.sc.vars))))
	}
}
