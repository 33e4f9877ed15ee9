package plan

import (
	"fmt"

	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// ownDecoders are the workload parameters a profile decodes with code of
// its own, because what they may be depends on other attributes (a mix,
// bs_split, the data pattern, the run length) or on the engines a build
// has; every other row of workload.Options is decoded by its kind, so a
// new parameter needs no code here.
var ownDecoders = map[string]bool{
	"random_pct": true, "bs": true, "bs_split": true, "zones": true,
	"runtime": true, "io_size": true, "offset": true, "size": true,
	"rate_iops": true, "rate_bw": true, "data": true, "compress_pct": true, "dedupe_pct": true,
	"engine": true, "file": true, "file_size": true,
}

// paramAttributes are the schema entries of the workload parameters
// written in a block: "" for a profile itself, "replay" for its replay
// block, "dataloader" for a dataloader block.
func paramAttributes(block string) []hcl.AttributeSchema {
	var out []hcl.AttributeSchema
	for _, o := range workload.Options {
		if o.Block == block {
			out = append(out, hcl.AttributeSchema{Name: o.Name})
		}
	}
	return out
}

// decodeParams decodes the workload parameters a block's schema has that
// are decoded by their kind, each into w.
func (l *loader) decodeParams(schema *hcl.BodySchema, attrs hcl.Attributes, w *workload.Workload) {
	for _, a := range schema.Attributes {
		if o := workload.Lookup(a.Name); o != nil && !ownDecoders[o.Name] {
			l.paramAttr(o, attrs[o.Name], w)
		}
	}
}

// paramAttr decodes one parameter's attribute by its row into w; it does
// nothing when the attribute is absent.
func (l *loader) paramAttr(o *workload.Option, attr *hcl.Attribute, w *workload.Workload) {
	v, ok := l.value(attr)
	l.checkUnknownParam(o, attr)
	if !ok {
		return
	}
	l.setParam(o, v, attrSite(attr), w)
}

// setParam decodes one value of a parameter by its row into w;
// w keeps its value when v is not one the row takes.
func (l *loader) setParam(o *workload.Option, v cty.Value, s site, w *workload.Workload) {
	if x, ok := l.paramValue(o, v, s); ok {
		o.Set(w, x)
	}
}

// checkUnknownParam checks the type of an unknown value (LoadOptions.Unset)
// against the parameter's kind.
func (l *loader) checkUnknownParam(o *workload.Option, attr *hcl.Attribute) {
	switch o.Kind {
	case workload.Count:
		l.checkUnknown(attr, "a whole number", cty.Number)
	case workload.Rate, workload.Scale:
		l.checkUnknown(attr, "a number", cty.Number)
	case workload.Percent:
		l.checkUnknownExact(attr, "a percentage: a number, or a string such as \"25%\"", cty.Number, cty.String)
	case workload.Bool:
		l.checkUnknown(attr, "true or false", cty.Bool)
	case workload.Choice, workload.Text:
		l.checkUnknown(attr, "a string", cty.String)
	case workload.Size:
		l.checkUnknownExact(attr, "a size: a number of bytes, or a string such as \"4KiB\"", cty.Number, cty.String)
	case workload.Duration:
		l.checkUnknownExact(attr, "a duration: a number of seconds, or a string such as \"60s\"", cty.Number, cty.String)
	}
}

// paramValue decodes one value of a parameter, as a point holds it, by
// its row: its kind, bounds and values.
func (l *loader) paramValue(o *workload.Option, v cty.Value, s site) (any, bool) {
	switch o.Kind {
	case workload.Count:
		return l.intValue(v, s, o.Min, o.Max)
	case workload.Percent:
		return l.percentInt(v, s, o.Min, o.Max)
	case workload.Size:
		return l.positiveSizeValue(v, s)
	case workload.Bool:
		return l.boolValue(v, s)
	case workload.Duration:
		return l.durationValue(v, s)
	case workload.Rate:
		return l.rateValue(v, s)
	case workload.Scale:
		return l.scaleValue(v, s)
	case workload.Choice, workload.Text:
		str, ok := l.stringValue(v, s)
		return str, ok && (o.Kind == workload.Text || l.oneOf(str, o.Values, s, o.Invalid))
	}
	l.errorAt(s, "Unsupported Parameter Kind", fmt.Sprintf("%s is a %s, which is decoded where it is used, not here; this is a bug in drivebench.", s.name, o.Kind))
	return nil, false
}

// rateValue decodes a rate: a number more than zero, as a float64.
func (l *loader) rateValue(v cty.Value, s site) (float64, bool) {
	f, ok := l.numberValue(v, s)
	if !ok {
		return 0, false
	}
	if f.Sign() <= 0 {
		l.errorAt(s, "Value Out Of Range", fmt.Sprintf("%s must be more than zero; leave it out for no limit.", s.name))
		return 0, false
	}
	x, _ := f.Float64()
	return x, true
}

// scaleValue decodes a scale: a number of zero or more, as a float64.
func (l *loader) scaleValue(v cty.Value, s site) (float64, bool) {
	f, ok := l.numberValue(v, s)
	if !ok {
		return 0, false
	}
	if f.Sign() < 0 {
		l.errorAt(s, "Value Out Of Range", fmt.Sprintf("%s must be zero or more.", s.name))
		return 0, false
	}
	x, _ := f.Float64()
	return x, true
}

// engineAttr decodes an engine attribute into dst and reports whether it
// is set to an engine the plan may name (LoadOptions.Engines); dst is left
// "" when it is not.
func (l *loader) engineAttr(attr *hcl.Attribute, dst *string) bool {
	if !l.stringAttr(attr, dst) {
		return false
	}
	if l.opts.Engines != nil && !l.oneOf(*dst, l.opts.Engines, attrSite(attr), workload.Lookup("engine").Invalid) {
		*dst = ""
		return false
	}
	return true
}
