package plan

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
)

// acceptBlockSchema is the body of an accept block.
var acceptBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "drives"},
		{Name: "profiles"},
		{Name: "entries"},
		{Name: "tolerance_pct"},
		{Name: "pcie_gen"},
	},
}

// defaultTolerancePct is how far short of a claim a measurement may be
// and pass, when the accept block does not say.
const defaultTolerancePct = 5

// decodeAcceptBlock decodes one accept block.
func (l *loader) decodeAcceptBlock(block *hcl.Block) *Accept {
	content, diags := l.content(block.Body, acceptBlockSchema)
	l.diags = append(l.diags, diags...)
	name := block.Labels[0]
	l.define(block, name)
	attrs := content.Attributes
	a := &Accept{Name: name, TolerancePct: defaultTolerancePct, Range: block.DefRange}
	if v, ok := l.value(attrs["tolerance_pct"]); ok {
		if f, ok := l.percentValue(v, attrSite(attrs["tolerance_pct"])); ok {
			pct, _ := f.Float64()
			if pct < 0 || pct >= 100 {
				l.errorAt(attrSite(attrs["tolerance_pct"]), "Value Out Of Range", "tolerance_pct is a percentage from 0 to below 100, such as 5.")
			} else {
				a.TolerancePct = pct
			}
		}
	}
	if v, ok := l.value(attrs["pcie_gen"]); ok {
		if n, ok := l.intValue(v, attrSite(attrs["pcie_gen"]), 1, maxPCIeGen); ok {
			a.PCIeGen = int(n)
		}
	}
	drives, ok := l.acceptDrives(block, attrs["drives"])
	a.Drives = drives
	if !ok {
		return a
	}
	a.Profiles = l.acceptProfiles(attrs["profiles"], drives)
	a.Entries = l.acceptEntries(attrs["entries"], drives)
	return a
}

// acceptDrives decodes the drives an accept block judges: the listed
// ones, each of which must have a spec, or every drive that has one.
func (l *loader) acceptDrives(block *hcl.Block, attr *hcl.Attribute) ([]string, bool) {
	if attr == nil {
		for _, name := range l.driveOrder {
			if d := l.drives[name]; d != nil && len(d.Spec) > 0 {
				return nil, true
			}
		}
		l.blockError(block, "Nothing To Accept", "No drive of this plan has a spec to compare with. Give a drive spec_sheet = \"...\" or a spec block.")
		return nil, false
	}
	names, ok := l.driveRefs(attr)
	if !ok {
		return nil, false
	}
	sites := elementSites(attr, len(names))
	for i, name := range names {
		if len(l.drives[name].Spec) == 0 {
			l.errorAt(sites[i], "Drive Without A Spec", fmt.Sprintf(
				"Drive %q has no spec to compare with. Give it spec_sheet = \"...\" or a spec block, or remove it here.", name))
			ok = false
		}
	}
	return names, ok
}

// acceptDrivesOf is the drives an accept block judges.
func (l *loader) acceptDrivesOf(listed []string) []string {
	if len(listed) > 0 {
		return listed
	}
	var out []string
	for _, name := range l.driveOrder {
		if d := l.drives[name]; d != nil && len(d.Spec) > 0 {
			out = append(out, name)
		}
	}
	return out
}

// acceptProfiles decodes the profiles whose points are compared; each
// must measure I/O on at least one of the drives.
func (l *loader) acceptProfiles(attr *hcl.Attribute, drives []string) []string {
	names, sites, ok := l.stringList(attr)
	if !ok {
		return nil
	}
	for i, name := range names {
		p := l.profiles[name]
		switch {
		case p == nil:
			l.errorAt(sites[i], "Reference To Undefined Profile", fmt.Sprintf(
				"There is no profile %q.%s", name, didYouMean(name, sortedKeys(l.profiles))))
		case p.Exec != nil:
			l.errorAt(sites[i], "Exec Step Among The Profiles", fmt.Sprintf(
				"%q is an exec step, whose metrics a spec sheet does not claim; list profiles that measure I/O.", name))
		case !slices.ContainsFunc(l.acceptDrivesOf(drives), func(d string) bool { return appliesTo(p.Drives, d) }):
			l.errorAt(sites[i], "Profile On No Accepted Drive", fmt.Sprintf(
				"Profile %q runs on none of the drives this block judges. Remove it, or add its drives.", name))
		}
	}
	return names
}

// acceptEntries decodes the spec entries compared; each must be in the
// spec of every drive judged.
func (l *loader) acceptEntries(attr *hcl.Attribute, drives []string) []string {
	names, sites, ok := l.stringList(attr)
	if !ok {
		return nil
	}
	for i, name := range names {
		for _, dn := range l.acceptDrivesOf(drives) {
			spec := l.drives[dn].Spec
			if !slices.ContainsFunc(spec, func(e *SpecEntry) bool { return e.Name == name }) {
				l.errorAt(sites[i], "Reference To Undefined Spec Entry", fmt.Sprintf(
					"Drive %q has no spec entry %q.%s", dn, name, didYouMean(name, specNames(spec))))
				break
			}
		}
	}
	return names
}
