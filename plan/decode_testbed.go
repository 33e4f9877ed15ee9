package plan

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// testbedBlockSchema is the body of a testbed block.
var testbedBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"},
		{Name: "facts"},
	},
}

// localTestbed is the name of the testbed of a plan that declares none.
const localTestbed = "local"

// decodeTestbeds decodes the plan's testbed block, of which there may be
// at most one; without one the testbed is the local machine.
func (l *loader) decodeTestbeds(blocks hcl.Blocks) *Testbed {
	if len(blocks) == 0 {
		return &Testbed{Name: localTestbed, Facts: map[string]string{}}
	}
	for _, extra := range blocks[1:] {
		l.blockError(extra, "Duplicate Testbed Block",
			"A plan runs on one testbed and may declare it once. Merge the facts into the first testbed block and remove this one.")
	}
	return l.decodeTestbedBlock(blocks[0])
}

// decodeTestbedBlock decodes one testbed block.
func (l *loader) decodeTestbedBlock(block *hcl.Block) *Testbed {
	content, diags := block.Body.Content(testbedBlockSchema)
	l.diags = append(l.diags, diags...)
	l.defineName(block)
	tb := &Testbed{Name: block.Labels[0], Facts: map[string]string{}}
	l.stringAttr(content.Attributes["description"], &tb.Description)
	if attr := content.Attributes["facts"]; attr != nil {
		l.decodeFacts(attr, tb.Facts)
	}
	return tb
}

// decodeFacts decodes facts = { key = "value", ... }; numbers and bools
// are kept as their text.
func (l *loader) decodeFacts(attr *hcl.Attribute, facts map[string]string) {
	v, ok := l.objectValue(attr, `{ server = "Dell R760", cpu = "2x Xeon 6430" }`)
	if !ok {
		return
	}
	sites := objectItemSites(attr)
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		key := k.AsString()
		sv, err := convert.Convert(ev, cty.String)
		if err != nil || sv.IsNull() {
			l.errorAt(sites(key).value, "Incorrect Value Type",
				"Each fact is a piece of text, a number or a bool, such as server = \"Dell R760\"; got "+ev.Type().FriendlyName()+".")
			continue
		}
		facts[key] = sv.AsString()
	}
}
