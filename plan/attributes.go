package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agext/levenshtein"
	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// site is where a value was written: the name a person knows it by, the
// narrowest source range and the enclosing construct. Diagnostics about the
// value point at it.
type site struct {
	name    string
	subject hcl.Range
	context hcl.Range
}

// attrSite is the site of an attribute's whole value.
func attrSite(attr *hcl.Attribute) site {
	return site{name: attr.Name, subject: attr.Expr.Range(), context: attr.Range}
}

// errorAt records an error about the value at s.
func (l *loader) errorAt(s site, summary, detail string) {
	ctx := s.context
	l.diags = append(l.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   detail,
		Subject:  s.subject.Ptr(),
		Context:  &ctx,
	})
}

// warnAt records a warning about the value at s.
func (l *loader) warnAt(s site, summary, detail string) {
	ctx := s.context
	l.diags = append(l.diags, &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  summary,
		Detail:   detail,
		Subject:  s.subject.Ptr(),
		Context:  &ctx,
	})
}

// figureNamed finds the figure a plan names at s in place p, by the
// figure registry: its name there, or an old name, which still works
// with a warning that gives the new one. ok is false, after an error
// listing the names place p takes, for a name that is no figure there.
func (l *loader) figureNamed(name string, p figure.Place, s site, summary string) (*figure.Figure, bool) {
	f, old := figure.Resolve(p, name)
	switch {
	case f == nil:
		keys := figure.Keys(p)
		l.errorAt(s, summary, fmt.Sprintf("%s = %q is not allowed; use one of %s.%s", s.name, name, quotedList(keys), didYouMean(name, keys)))
		return nil, false
	case old:
		l.warnAt(s, "Deprecated Figure Name", f.Deprecation(p, name)+".")
	}
	return f, true
}

// blockError records an error about a whole block, pointing at its header.
func (l *loader) blockError(block *hcl.Block, summary, detail string) {
	l.diags = append(l.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   detail,
		Subject:  block.DefRange.Ptr(),
	})
}

// value evaluates an attribute. ok is false when the attribute is absent
// or null, or when its value is unknown because of a problem already
// reported (an invalid variable, say), so that one mistake is not reported
// again at every use.
func (l *loader) value(attr *hcl.Attribute) (cty.Value, bool) {
	if attr == nil || !l.checkReferences(attr.Expr) {
		return cty.NilVal, false
	}
	v, diags := attr.Expr.Value(l.sc.ctx)
	l.diags = append(l.diags, diags...)
	if diags.HasErrors() || !v.IsWhollyKnown() || v.IsNull() {
		return cty.NilVal, false
	}
	return v, true
}

// stringValue converts v to a string.
func (l *loader) stringValue(v cty.Value, s site) (string, bool) {
	if !l.notNull(v, s) {
		return "", false
	}
	sv, err := convert.Convert(v, cty.String)
	if err != nil {
		l.errorAt(s, "Incorrect Value Type", fmt.Sprintf("%s must be a string; got %s.", s.name, v.Type().FriendlyName()))
		return "", false
	}
	return sv.AsString(), true
}

// boolValue converts v to a bool.
func (l *loader) boolValue(v cty.Value, s site) (bool, bool) {
	if !l.notNull(v, s) {
		return false, false
	}
	bv, err := convert.Convert(v, cty.Bool)
	if err != nil {
		l.errorAt(s, "Incorrect Value Type", fmt.Sprintf("%s must be true or false; got %s.", s.name, v.Type().FriendlyName()))
		return false, false
	}
	return bv.True(), true
}

// numberValue converts v to a number.
func (l *loader) numberValue(v cty.Value, s site) (*big.Float, bool) {
	if !l.notNull(v, s) {
		return nil, false
	}
	nv, err := convert.Convert(v, cty.Number)
	if err != nil {
		l.errorAt(s, "Incorrect Value Type", fmt.Sprintf("%s must be a number; got %s.", s.name, v.Type().FriendlyName()))
		return nil, false
	}
	return nv.AsBigFloat(), true
}

// percentValue converts a percentage, written as a number (25) or a
// string ("25%"), to its number.
func (l *loader) percentValue(v cty.Value, s site) (*big.Float, bool) {
	if v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
		p, err := workload.ParsePercent(v.AsString())
		if err != nil {
			l.errorAt(s, "Invalid Percentage", fmt.Sprintf("%s must be a percentage, a number such as 25 or a string such as \"25%%\"; %s.", s.name, err))
			return nil, false
		}
		return big.NewFloat(p), true
	}
	return l.numberValue(v, s)
}

// percentInt converts a percentage (see percentValue) to a whole number
// from lo to hi.
func (l *loader) percentInt(v cty.Value, s site, lo, hi int64) (int64, bool) {
	f, ok := l.percentValue(v, s)
	if !ok {
		return 0, false
	}
	n, acc := f.Int64()
	if !f.IsInt() || acc != big.Exact || n < lo || n > hi {
		l.errorAt(s, "Value Out Of Range", fmt.Sprintf("%s must be a whole percentage from %d to %d; got %s.", s.name, lo, hi, f.Text('g', 10)))
		return 0, false
	}
	return n, true
}

// intValue converts v to a whole number from lo to hi.
func (l *loader) intValue(v cty.Value, s site, lo, hi int64) (int64, bool) {
	f, ok := l.numberValue(v, s)
	if !ok {
		return 0, false
	}
	n, acc := f.Int64()
	if !f.IsInt() || acc != big.Exact || n < lo || n > hi {
		l.errorAt(s, "Value Out Of Range", fmt.Sprintf("%s must be a whole number from %d to %d; got %s.", s.name, lo, hi, f.Text('g', 10)))
		return 0, false
	}
	return n, true
}

// sizeValue converts v to a byte count: a number of bytes or a string
// with a unit.
func (l *loader) sizeValue(v cty.Value, s site) (int64, bool) {
	if !l.notNull(v, s) {
		return 0, false
	}
	switch v.Type() {
	case cty.Number:
		return l.intValue(v, s, 0, math.MaxInt64)
	case cty.String:
	default:
		l.errorAt(s, "Incorrect Value Type", fmt.Sprintf("%s must be a size: a number of bytes, or a string such as \"4KiB\"; got %s.", s.name, v.Type().FriendlyName()))
		return 0, false
	}
	n, err := workload.ParseSize(v.AsString())
	if err != nil {
		l.errorAt(s, "Invalid Size", fmt.Sprintf("%s: %s. %s", s.name, err, workload.SizeUnitsHelp))
		return 0, false
	}
	return n, true
}

// positiveSizeValue is sizeValue for sizes that must be more than zero.
func (l *loader) positiveSizeValue(v cty.Value, s site) (int64, bool) {
	n, ok := l.sizeValue(v, s)
	if ok && n == 0 {
		l.errorAt(s, "Value Out Of Range", fmt.Sprintf("%s must be more than zero bytes.", s.name))
		return 0, false
	}
	return n, ok
}

// durationValue converts v to a duration: a number of seconds or a string
// with units.
func (l *loader) durationValue(v cty.Value, s site) (time.Duration, bool) {
	if !l.notNull(v, s) {
		return 0, false
	}
	if v.Type() != cty.String && v.Type() != cty.Number {
		l.errorAt(s, "Incorrect Value Type", fmt.Sprintf("%s must be a duration: a number of seconds, or a string such as \"60s\"; got %s.", s.name, v.Type().FriendlyName()))
		return 0, false
	}
	str, _ := l.stringValue(v, s)
	d, err := workload.ParseDuration(str)
	if err != nil {
		l.errorAt(s, "Invalid Duration", fmt.Sprintf("%s: %s. %s", s.name, err, workload.DurationUnitsHelp))
		return 0, false
	}
	return d, true
}

// notNull reports a null value, such as a null list element.
func (l *loader) notNull(v cty.Value, s site) bool {
	if v.IsNull() {
		l.errorAt(s, "Missing Value", fmt.Sprintf("%s is null; give it a value.", s.name))
		return false
	}
	return true
}

// The attribute helpers below decode one attribute into dst. They do
// nothing when the attribute is absent and report whether dst was set.

func (l *loader) stringAttr(attr *hcl.Attribute, dst *string) bool {
	v, ok := l.value(attr)
	l.checkUnknown(attr, "a string", cty.String)
	if ok {
		*dst, ok = l.stringValue(v, attrSite(attr))
	}
	return ok
}

func (l *loader) boolAttr(attr *hcl.Attribute, dst *bool) bool {
	v, ok := l.value(attr)
	l.checkUnknown(attr, "true or false", cty.Bool)
	if ok {
		*dst, ok = l.boolValue(v, attrSite(attr))
	}
	return ok
}

// countAttr decodes a whole number from 1 to hi.
func (l *loader) countAttr(attr *hcl.Attribute, dst *int, hi int64) bool {
	v, ok := l.value(attr)
	l.checkUnknown(attr, "a whole number", cty.Number)
	if !ok {
		return false
	}
	n, ok := l.intValue(v, attrSite(attr), 1, hi)
	if ok {
		*dst = int(n)
	}
	return ok
}

func (l *loader) sizeAttr(attr *hcl.Attribute, dst *int64) bool {
	v, ok := l.value(attr)
	l.checkUnknownExact(attr, "a size: a number of bytes, or a string such as \"4KiB\"", cty.Number, cty.String)
	if ok {
		*dst, ok = l.sizeValue(v, attrSite(attr))
	}
	return ok
}

func (l *loader) positiveSizeAttr(attr *hcl.Attribute, dst *int64) bool {
	v, ok := l.value(attr)
	l.checkUnknownExact(attr, "a size: a number of bytes, or a string such as \"4KiB\"", cty.Number, cty.String)
	if ok {
		*dst, ok = l.positiveSizeValue(v, attrSite(attr))
	}
	return ok
}

func (l *loader) durationAttr(attr *hcl.Attribute, dst *time.Duration) bool {
	v, ok := l.value(attr)
	l.checkUnknownExact(attr, "a duration: a number of seconds, or a string such as \"60s\"", cty.Number, cty.String)
	if ok {
		*dst, ok = l.durationValue(v, attrSite(attr))
	}
	return ok
}

// regionSizeAttr decodes the size of a region: a byte count, or a
// percentage of the drive such as "25%". "100%" is the whole drive and is
// stored as zero, like an absent size, so both give the same node IDs.
func (l *loader) regionSizeAttr(attr *hcl.Attribute, size *int64, pct *float64) {
	v, ok := l.value(attr)
	if !ok {
		return
	}
	s := attrSite(attr)
	if v.Type() == cty.String && strings.HasSuffix(strings.TrimSpace(v.AsString()), "%") {
		p, err := workload.ParsePercent(v.AsString())
		if err != nil || p <= 0 || p > 100 {
			l.errorAt(s, "Invalid Percentage", fmt.Sprintf("size = %q: a share of the drive must be more than 0%% and at most 100%%, such as \"25%%\".", v.AsString()))
			return
		}
		if p < 100 {
			*pct = p
		}
		return
	}
	if n, ok := l.positiveSizeValue(v, s); ok {
		*size = n
	}
}

// listValues evaluates a list attribute and returns its elements with
// their sites: each element's own range when the list is written out.
func (l *loader) listValues(attr *hcl.Attribute) ([]cty.Value, []site, bool) {
	v, ok := l.value(attr)
	if !ok {
		return nil, nil, false
	}
	if !v.CanIterateElements() || v.Type().IsObjectType() || v.Type().IsMapType() {
		l.errorAt(attrSite(attr), "Incorrect Value Type", fmt.Sprintf("%s must be a list, such as [\"a\", \"b\"]; got %s.", attr.Name, v.Type().FriendlyName()))
		return nil, nil, false
	}
	vals := v.AsValueSlice()
	return vals, elementSites(attr, len(vals)), true
}

// elementSites returns a site per list element. When the expression is a
// written-out list the sites are the elements' ranges; otherwise (a
// function call, a variable) they are the whole expression's.
func elementSites(attr *hcl.Attribute, n int) []site {
	sites := make([]site, n)
	tuple, written := attr.Expr.(*hclsyntax.TupleConsExpr)
	for i := range sites {
		sites[i] = attrSite(attr)
		sites[i].name = fmt.Sprintf("%s[%d]", attr.Name, i)
		if written && len(tuple.Exprs) == n {
			sites[i].subject = tuple.Exprs[i].Range()
		}
	}
	return sites
}

// stringList decodes a list of strings, refusing duplicates.
func (l *loader) stringList(attr *hcl.Attribute) ([]string, []site, bool) {
	vals, sites, ok := l.listValues(attr)
	if !ok {
		return nil, nil, false
	}
	out := make([]string, 0, len(vals))
	seen := map[string]bool{}
	for i, v := range vals {
		s, ok := l.stringValue(v, sites[i])
		if !ok {
			return nil, nil, false
		}
		if seen[s] {
			l.errorAt(sites[i], "Duplicate List Element", fmt.Sprintf("%q is listed twice in %s; remove one.", s, attr.Name))
			return nil, nil, false
		}
		seen[s] = true
		out = append(out, s)
	}
	return out, sites, true
}

// itemSites holds the sites of one item of a written-out object: its key
// and its value.
type itemSites struct {
	key, value site
}

// objectItemSites maps each key of an object attribute to the sites of
// its key and value. Keys of an object that is not written out (a
// variable, merge(...)) get the whole expression's site.
func objectItemSites(attr *hcl.Attribute) func(key string) itemSites {
	return exprItemSites(attr.Expr, attrSite(attr))
}

// exprItemSites is objectItemSites for an object expression at the site
// whole, such as one element of a list of objects.
func exprItemSites(expr hcl.Expression, whole site) func(key string) itemSites {
	items := map[string]itemSites{}
	if obj, ok := expr.(*hclsyntax.ObjectConsExpr); ok {
		for _, item := range obj.Items {
			kv, diags := item.KeyExpr.Value(nil)
			if diags.HasErrors() || kv.Type() != cty.String || !kv.IsKnown() || kv.IsNull() {
				continue
			}
			key := kv.AsString()
			items[key] = itemSites{
				key:   site{name: whole.name + "." + key, subject: item.KeyExpr.Range(), context: whole.context},
				value: site{name: whole.name + "." + key, subject: item.ValueExpr.Range(), context: whole.context},
			}
		}
	}
	return func(key string) itemSites {
		if s, ok := items[key]; ok {
			return s
		}
		w := whole
		w.name = whole.name + "." + key
		return itemSites{key: w, value: w}
	}
}

// elementExpr is the expression of the list element i of attr when the
// list is written out, else the whole expression.
func elementExpr(attr *hcl.Attribute, i int) hcl.Expression {
	if tuple, ok := attr.Expr.(*hclsyntax.TupleConsExpr); ok && i < len(tuple.Exprs) {
		return tuple.Exprs[i]
	}
	return attr.Expr
}

// objectValue evaluates an attribute that must be an object or a map.
func (l *loader) objectValue(attr *hcl.Attribute, example string) (cty.Value, bool) {
	v, ok := l.value(attr)
	if !ok {
		return cty.NilVal, false
	}
	if !v.Type().IsObjectType() && !v.Type().IsMapType() {
		l.errorAt(attrSite(attr), "Incorrect Value Type", fmt.Sprintf("%s must be an object, such as %s; got %s.", attr.Name, example, v.Type().FriendlyName()))
		return cty.NilVal, false
	}
	return v, true
}

// goValue converts a known cty value to plain Go data (string, int64 for
// whole numbers, float64 for others, bool, []any, map[string]any) through
// its JSON form. Whole numbers stay integers so that a hook given
// args = { rounds = 5 } can use it as an index or a count.
func goValue(v cty.Value) (any, error) {
	raw, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return plainNumbers(out), nil
}

// plainNumbers replaces the json.Numbers in v by int64 or float64.
func plainNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = plainNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = plainNumbers(x[k])
		}
	}
	return v
}

// oneOf checks that a string is one of the allowed values.
func (l *loader) oneOf(value string, allowed []string, s site, summary string) bool {
	for _, a := range allowed {
		if value == a {
			return true
		}
	}
	l.errorAt(s, summary, fmt.Sprintf("%s = %q is not allowed; use one of %s.%s",
		s.name, value, quotedList(allowed), didYouMean(value, allowed)))
	return false
}

// namePattern is what block names may look like: they appear in node
// names and in file names of results.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// define registers the name of a labelled block, or of one of its
// instances, and reports an invalid or duplicate name.
func (l *loader) define(block *hcl.Block, name string) bool {
	kind := block.Type
	labelSite := site{name: kind + " name", subject: block.LabelRanges[0], context: block.DefRange}
	if !namePattern.MatchString(block.Labels[0]) {
		l.errorAt(labelSite, "Invalid Name", fmt.Sprintf("%q cannot name a %s: names start with a letter or digit and contain only letters, digits, \"_\", \"-\" and \".\", because they appear in step names and file names.", block.Labels[0], kind))
		return false
	}
	seen := l.defined[kind]
	if seen == nil {
		seen = map[string]hcl.Range{}
		l.defined[kind] = seen
	}
	if first, dup := seen[name]; dup {
		l.errorAt(labelSite, "Duplicate "+format.UpperFirst(kind)+" Name", fmt.Sprintf("A %s named %q is already defined at %s. Rename one of them.", kind, name, first))
		return false
	}
	seen[name] = block.DefRange
	return true
}

// quotedList formats names as "a", "b" or "c".
func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	switch len(q) {
	case 0:
		return "nothing"
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// didYouMean suggests the closest of options to a misspelt name, as
// " Did you mean "x"?", or returns "".
func didYouMean(given string, options []string) string {
	best, bestDist := "", 3
	for _, o := range options {
		if d := levenshtein.Distance(strings.ToLower(given), strings.ToLower(o), nil); d < bestDist {
			best, bestDist = o, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" Did you mean %q?", best)
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkUnknown type-checks an attribute whose value is not known yet (it
// depends on a variable left unset under LoadOptions.Unset): a value of
// a type that cannot become any of want is reported, as it would be once
// known.
func (l *loader) checkUnknown(attr *hcl.Attribute, what string, want ...cty.Type) {
	v, ok := l.unknownValue(attr)
	if ok && !slices.ContainsFunc(want, func(w cty.Type) bool {
		return v.Type().Equals(w) || convert.GetConversionUnsafe(v.Type(), w) != nil
	}) {
		l.unknownTypeError(attr, what, v)
	}
}

// checkUnknownExact is checkUnknown for attributes that take exactly the
// types in want (sizes and durations: a number or a string, not a bool).
func (l *loader) checkUnknownExact(attr *hcl.Attribute, what string, want ...cty.Type) {
	if v, ok := l.unknownValue(attr); ok && !slices.ContainsFunc(want, v.Type().Equals) {
		l.unknownTypeError(attr, what, v)
	}
}

// unknownValue is the attribute's value when it is unknown but of a
// known type, under LoadOptions.Unset.
func (l *loader) unknownValue(attr *hcl.Attribute) (cty.Value, bool) {
	if attr == nil || !l.opts.Unset {
		return cty.NilVal, false
	}
	v, diags := attr.Expr.Value(l.sc.ctx)
	if diags.HasErrors() || v.IsKnown() || v.Type() == cty.DynamicPseudoType {
		return cty.NilVal, false
	}
	return v, true
}

func (l *loader) unknownTypeError(attr *hcl.Attribute, what string, v cty.Value) {
	l.errorAt(attrSite(attr), "Incorrect Value Type", fmt.Sprintf("%s must be %s; its value is not known until its variables are set, but it will be %s. Change the variable's type or the expression.", attr.Name, what, v.Type().FriendlyName()))
}

// content is body.Content(schema) with the attributes set to null taken
// out: in HCL null means "not set", as in runtime = var.quick ? "5s" :
// null, so such an attribute is treated as absent everywhere (a default
// applies, a required one is missing) rather than slipping past the
// checks. A required attribute set to null is reported at its place.
func (l *loader) content(body hcl.Body, schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	content, diags := body.Content(schema)
	if content == nil {
		return content, diags
	}
	for _, as := range schema.Attributes {
		attr, ok := content.Attributes[as.Name]
		if !ok || !l.isNull(attr) {
			continue
		}
		delete(content.Attributes, as.Name)
		if as.Required {
			rng := attr.Expr.Range()
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing required argument",
				Detail:   fmt.Sprintf("The argument %q is required, but it is null here, which in HCL means not set. Give it a value.", as.Name),
				Subject:  &rng,
			})
		}
	}
	return content, diags
}

// isNull reports whether attr's value is a known null; an expression that
// does not evaluate is left to the attribute's own decoding to report.
func (l *loader) isNull(attr *hcl.Attribute) bool {
	v, diags := attr.Expr.Value(l.sc.ctx)
	return !diags.HasErrors() && v.IsKnown() && v.IsNull()
}

// floatAttr decodes a number that in accepts, such as a share more than
// 0 and at most 1; out of it, the error is why, which says what the
// number is and which values it takes.
func (l *loader) floatAttr(attr *hcl.Attribute, dst *float64, in func(float64) bool, why string) bool {
	v, ok := l.value(attr)
	if !ok {
		return false
	}
	n, ok := l.numberValue(v, attrSite(attr))
	if !ok {
		return false
	}
	f, _ := n.Float64()
	if !in(f) || math.IsInf(f, 0) {
		l.errorAt(attrSite(attr), "Value Out Of Range", why)
		return false
	}
	*dst = f
	return true
}

// isPositive and isShare are the ranges of floatAttr's numbers: more
// than 0, and more than 0 and at most 1.
func isPositive(f float64) bool { return f > 0 }

func isShare(f float64) bool { return f > 0 && f <= 1 }
