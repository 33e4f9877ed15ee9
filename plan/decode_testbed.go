package plan

import (
	"fmt"
	"net"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// testbedBlockSchema is the body of a testbed block.
var testbedBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"},
		{Name: "facts"},
		{Name: "parallel"},
		{Name: "hosts"},
		{Name: "engine"},
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
	l.define(block, block.Labels[0])
	attrs := content.Attributes
	tb := &Testbed{Name: block.Labels[0], Facts: map[string]string{}}
	l.stringAttr(attrs["description"], &tb.Description)
	if attr := attrs["facts"]; attr != nil {
		l.decodeFacts(attr, tb.Facts)
	}
	l.boolAttr(attrs["parallel"], &tb.Parallel)
	if !l.engineAttr(attrs["engine"], &tb.Engine) {
		tb.Engine = ""
	}
	tb.Hosts = l.hostsAttr(attrs["hosts"])
	if attr := attrs["hosts"]; attr != nil {
		l.hostsAttrib = attr
	}
	return tb
}

// hostsAttr decodes the fio servers a testbed's fio steps run on, each
// "host:port".
func (l *loader) hostsAttr(attr *hcl.Attribute) []string {
	hosts, sites, ok := l.stringList(attr)
	if !ok {
		return nil
	}
	for i, h := range hosts {
		host, port, err := net.SplitHostPort(h)
		n, perr := strconv.Atoi(port)
		if err != nil || host == "" || perr != nil || n < 1 || n > 65535 {
			l.errorAt(sites[i], "Invalid Host", fmt.Sprintf(
				"%q is not host:port. Give each fio server as its address and port, such as \"10.0.0.2:8765\" or \"[fd00::2]:8765\" (fio --server listens on 8765 by default).", h))
			return nil
		}
	}
	return hosts
}

// checkHostsUsed reports fio hosts on a testbed whose steps all run on
// the native engine, which has no use for them.
func (l *loader) checkHostsUsed(p *Plan) {
	if len(p.Testbed.Hosts) == 0 {
		return
	}
	for _, d := range p.Drives {
		if d.Engine == "fio" {
			return
		}
	}
	for _, pr := range p.Profiles {
		if pr.Workload.Engine == "fio" {
			return
		}
	}
	l.errorAt(attrSite(l.hostsAttrib), "Hosts Without The fio Engine",
		"hosts are the fio servers that fio steps run on, but every step of this plan runs on the native engine. Add engine = \"fio\" to the testbed (or to drives or profiles), or remove hosts.")
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
