package plan

import (
	"fmt"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// scope is the namespace blocks are decoded in: the plan file's, a
// module's, or an included file's. It says what expressions may refer to
// and how names and paths are resolved.
type scope struct {
	// file is the file the blocks are in; dir is its folder, the root of
	// the relative paths written in it.
	file, dir string
	// prefix goes before the names of the scope's blocks: "" in the plan,
	// "<module>." in a module, so that two modules' profiles never clash.
	prefix string
	ctx    *hcl.EvalContext
	vars   map[string]*variableDecl
	// locals holds the declared local values' names.
	locals map[string]bool
	// each is true while decoding one instance of a block with for_each.
	each bool
	// drives restricts a module's steps to these drives; nil means every
	// drive.
	drives []string
	// module is the module block of a module's scope, nil elsewhere.
	module *hcl.Block
}

// newScope starts the scope of a file, with the plan functions and no
// variables or local values yet.
func newScope(file, prefix string) *scope {
	return &scope{
		file:   file,
		dir:    filepath.Dir(file),
		prefix: prefix,
		ctx: &hcl.EvalContext{
			Functions: planFunctions(),
			Variables: map[string]cty.Value{"var": cty.EmptyObjectVal, "local": cty.EmptyObjectVal},
		},
		vars:   map[string]*variableDecl{},
		locals: map[string]bool{},
	}
}

// newScope starts a scope whose expressions account for their evaluation
// in the load's budget.
func (l *loader) newScope(file, prefix string) *scope {
	sc := newScope(file, prefix)
	sc.ctx.Functions = l.functions()
	return sc
}

// functions are the plan functions and the load's accounting functions.
func (l *loader) functions() map[string]function.Function {
	funcs := l.budget.limitFunctions(planFunctions())
	for name, f := range l.budget.functions() {
		funcs[name] = f
	}
	return funcs
}

// checkReferences reports references to anything but declared variables,
// declared local values and, in a block with for_each, each.key and
// each.value.
func (l *loader) checkReferences(expr hcl.Expression) bool {
	ok := true
	for _, t := range expr.Variables() {
		if !l.checkReference(t) {
			ok = false
		}
	}
	return ok
}

// checkReference checks one traversal such as var.size.
func (l *loader) checkReference(t hcl.Traversal) bool {
	switch t.RootName() {
	case "var":
		return l.checkDeclared(t, func(name string) bool { return l.sc.vars[name] != nil }, sortedKeys(l.sc.vars),
			"Reference To Undeclared Variable", "No variable %q is declared. Declare it with a variable %q block.")
	case "local":
		return l.checkDeclared(t, func(name string) bool { return l.sc.locals[name] }, sortedKeys(l.sc.locals),
			"Reference To Undeclared Local Value", "No local value %q is declared. Declare it in a locals block, as %[2]s = ...")
	case "each":
		if l.sc.each {
			return l.checkDeclared(t, func(name string) bool { return name == "key" || name == "value" }, []string{"key", "value"},
				"Unsupported Attribute", "each has no attribute %q; it has each.key and each.value.%.0s")
		}
		l.referenceError(t, "Unknown Reference", "each is set only inside a block with for_each, where it holds each.key and each.value of the instance.")
		return false
	}
	l.referenceError(t, "Unknown Reference", fmt.Sprintf(
		"There is nothing named %q here; plan expressions can refer to variables (var.<name>), local values (local.<name>) and, in a block with for_each, each.key and each.value.", t.RootName()))
	return false
}

// checkDeclared checks the attribute after the root of a traversal, such
// as size in var.size. detail is a format taking the name twice.
func (l *loader) checkDeclared(t hcl.Traversal, declared func(string) bool, names []string, summary, detail string) bool {
	if len(t) < 2 {
		return true
	}
	step, isAttr := t[1].(hcl.TraverseAttr)
	if !isAttr || declared(step.Name) {
		return true
	}
	l.referenceError(t, summary, fmt.Sprintf(detail, step.Name, step.Name)+didYouMean(step.Name, names))
	return false
}

// referenceError reports a bad reference at the traversal.
func (l *loader) referenceError(t hcl.Traversal, summary, detail string) {
	l.diags = append(l.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   detail,
		Subject:  t.SourceRange().Ptr(),
	})
}

// forEachSchema picks for_each out of a block's body.
var forEachSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "for_each"}},
}

// forEachItem is one instance of a block with for_each.
type forEachItem struct {
	key   string
	value cty.Value
}

// decodeInstances decodes a labelled block with decode once per
// instance (forEachInstance): one value, or one per element of its
// for_each.
func decodeInstances[T any](l *loader, block *hcl.Block, decode func(block *hcl.Block, name string, body hcl.Body) T) []T {
	var out []T
	l.forEachInstance(block, func(name string, body hcl.Body) {
		out = append(out, decode(block, name, body))
	})
	return out
}

// forEachInstance calls decode once per instance of a labelled block:
// once with the block's name when it has no for_each, or once per element
// of its for_each with each.key and each.value set, named
// "<name>.<key>". body is the block's body without for_each.
func (l *loader) forEachInstance(block *hcl.Block, decode func(name string, body hcl.Body)) {
	content, rest, diags := block.Body.PartialContent(forEachSchema)
	l.diags = append(l.diags, diags...)
	name := l.sc.prefix + block.Labels[0]
	attr := content.Attributes["for_each"]
	if attr == nil {
		decode(name, rest)
		return
	}
	items, ok := l.forEachItems(attr)
	if !ok {
		return
	}
	outer := l.sc
	defer func() { l.sc = outer }()
	for _, it := range items {
		inner := *outer
		inner.ctx = outer.ctx.NewChild()
		inner.ctx.Variables = map[string]cty.Value{"each": cty.ObjectVal(map[string]cty.Value{
			"key": cty.StringVal(it.key), "value": it.value,
		})}
		inner.each = true
		l.sc = &inner
		decode(name+"."+it.key, rest)
	}
}

// forEachItems evaluates for_each: a map or object (instances in key
// order), or a list or set of strings (instances in list order, each
// string its own key and value).
func (l *loader) forEachItems(attr *hcl.Attribute) ([]forEachItem, bool) {
	v, ok := l.value(attr)
	if !ok {
		return nil, false
	}
	s := attrSite(attr)
	ty := v.Type()
	var items []forEachItem
	switch {
	case ty.IsMapType() || ty.IsObjectType():
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			items = append(items, forEachItem{key: k.AsString(), value: ev})
		}
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			sv, err := convert.Convert(ev, cty.String)
			if err != nil || sv.IsNull() {
				l.errorAt(s, "Invalid for_each", fmt.Sprintf("for_each over a list takes strings, each naming an instance; got an element of type %s. For other values use a map, such as { fast = 1, slow = 2 }, and read each.key and each.value.", ev.Type().FriendlyName()))
				return nil, false
			}
			items = append(items, forEachItem{key: sv.AsString(), value: sv})
		}
	default:
		l.errorAt(s, "Invalid for_each", fmt.Sprintf("for_each must be a map, such as { fast = 1, slow = 2 }, or a list of strings; got %s.", ty.FriendlyName()))
		return nil, false
	}
	if len(items) > maxInstances {
		l.errorAt(s, "Too Many Instances", fmt.Sprintf("for_each gives %d instances, more than %d. Use a sweep for large sets of points.", len(items), maxInstances))
		return nil, false
	}
	return items, l.checkForEachKeys(items, s)
}

// maxInstances bounds the instances of one block with for_each.
const maxInstances = 10000

// checkForEachKeys reports keys that cannot be part of a name, and keys
// given twice.
func (l *loader) checkForEachKeys(items []forEachItem, s site) bool {
	seen := map[string]bool{}
	for _, it := range items {
		if !namePattern.MatchString(it.key) {
			l.errorAt(s, "Invalid for_each Key", fmt.Sprintf("%q cannot be part of an instance's name (<block name>.<key>): keys start with a letter or digit and contain only letters, digits, \"_\", \"-\" and \".\".", it.key))
			return false
		}
		if seen[it.key] {
			l.errorAt(s, "Invalid for_each Key", fmt.Sprintf("%q is listed twice; each instance needs a key of its own.", it.key))
			return false
		}
		seen[it.key] = true
	}
	return true
}
