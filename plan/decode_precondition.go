package plan

import (
	"fmt"

	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
)

// preconditionBlockSchema is the body of a precondition block.
var preconditionBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "pattern", Required: true},
		{Name: "method"},
		{Name: "destructive"},
		{Name: "bs"},
		{Name: "passes"},
		{Name: "iodepth"},
		{Name: "numjobs"},
		{Name: "direct"},
		{Name: "offset"},
		{Name: "size"},
		{Name: "drives"},
	},
}

// preconditionPatterns are the precondition patterns, in the order the
// documentation lists them, with the rw mode each one writes with.
var preconditionPatterns = []struct{ name, rw string }{
	{"sequential_write", "write"},
	{"random_write", "randwrite"},
	{"purge", ""},
}

// purgeMethods are the ways a purge erases a drive: NVMe sanitize (block
// erase, crypto erase, overwrite) or format (user data erase, crypto
// erase).
var purgeMethods = []string{"sanitize-block", "sanitize-crypto", "sanitize-overwrite", "format", "format-crypto"}

// decodePrecondition decodes one precondition.
func (l *loader) decodePrecondition(block *hcl.Block, name string, body hcl.Body) *Precondition {
	content, diags := l.content(body, preconditionBlockSchema)
	l.diags = append(l.diags, diags...)
	attrs := content.Attributes
	p := &Precondition{
		Name:   name,
		Passes: defaultPasses,
		Range:  block.DefRange,
		Workload: workload.Workload{
			BS:      defaultPrecondBS,
			IODepth: workload.DefaultIODepth,
			NumJobs: workload.DefaultNumJobs,
			Loops:   1,
		},
	}
	if l.define(block, name) {
		l.preconditions[name] = p
	}
	p.Workload.RW = l.decodePattern(attrs["pattern"], &p.Pattern)
	l.countAttr(attrs["passes"], &p.Passes, maxPasses)
	l.positiveSizeAttr(attrs["bs"], &p.Workload.BS)
	l.decodeParams(preconditionBlockSchema, attrs, &p.Workload)
	l.decodeRegion(attrs, &p.Workload)
	l.decodePurge(p, attrs)
	drives, ok := l.driveRefs(attrs["drives"])
	p.Drives = drives
	if ok && attrs["pattern"] != nil {
		what := fmt.Sprintf("Precondition %q", p.Name)
		l.checkWritable(what, l.drivesOf(drives), attrSite(attrs["pattern"]))
		if p.Pattern == "purge" {
			l.checkPurgeTargets(what, l.drivesOf(drives), attrSite(attrs["pattern"]))
		} else {
			l.checkRegion(&p.Workload, l.drivesOf(drives), attrs)
			at := site{subject: p.Range, context: p.Range}
			if attrs["bs"] != nil {
				at = attrSite(attrs["bs"])
			}
			l.checkTargetFit(&p.Workload, l.drivesOf(drives), attrs, []int64{p.Workload.BS}, []site{at})
			l.checkDirectorySize(what, l.drivesOf(drives), attrSite(attrs["pattern"]))
		}
	}
	return p
}

// decodePattern decodes a precondition's pattern and returns the rw mode
// it writes with.
func (l *loader) decodePattern(attr *hcl.Attribute, dst *string) string {
	if !l.stringAttr(attr, dst) {
		return ""
	}
	names := make([]string, len(preconditionPatterns))
	for i, p := range preconditionPatterns {
		if p.name == *dst {
			return p.rw
		}
		names[i] = p.name
	}
	l.oneOf(*dst, names, attrSite(attr), "Unknown Precondition Pattern")
	return ""
}

// purgeOnly are the attributes only a purge takes; writeOnly those a
// purge does not.
var (
	purgeOnly = []string{"method", "destructive"}
	writeOnly = []string{"bs", "passes", "iodepth", "numjobs", "direct", "offset", "size"}
)

// decodePurge decodes the method of a purge and its consent, and reports
// attributes that do not fit the pattern.
func (l *loader) decodePurge(p *Precondition, attrs hcl.Attributes) {
	if p.Pattern != "purge" {
		for _, name := range purgeOnly {
			if attr := attrs[name]; attr != nil && p.Pattern != "" {
				l.errorAt(attrSite(attr), "Attribute Only For A Purge", fmt.Sprintf(
					"%s applies to pattern = \"purge\"; this precondition writes (pattern = %q). Remove %s.", name, p.Pattern, name))
			}
		}
		return
	}
	for _, name := range writeOnly {
		if attr := attrs[name]; attr != nil {
			l.errorAt(attrSite(attr), "Attribute Not Used By A Purge", fmt.Sprintf(
				"A purge erases the whole drive in one command, so %s does not apply. Remove it.", name))
		}
	}
	p.Passes, p.Workload = 1, workload.Workload{}
	if attrs["method"] == nil {
		l.errorAt(attrSite(attrs["pattern"]), "Missing Purge Method", fmt.Sprintf(
			"A purge needs method = %s: how the drive is erased.", quotedList(purgeMethods)))
	} else if l.stringAttr(attrs["method"], &p.Method) && !l.oneOf(p.Method, purgeMethods, attrSite(attrs["method"]), "Unknown Purge Method") {
		p.Method = ""
	}
	l.boolAttr(attrs["destructive"], &p.Destructive)
	if !p.Destructive && (attrs["destructive"] == nil || l.knownValue(attrs["destructive"])) {
		l.errorAt(attrSite(attrs["pattern"]), "Purge Not Confirmed",
			"A purge erases everything on the drive, including data outside the tested region, and cannot be undone. Add destructive = true to confirm it.")
	}
}

// checkPurgeTargets reports a purge of a scratch file or a directory,
// which have no controller to erase them.
func (l *loader) checkPurgeTargets(what string, drives []string, s site) {
	for _, name := range drives {
		d := l.drives[name]
		if d == nil || d.Path != "" || l.unknownPath[name] {
			continue
		}
		kind := "a scratch file"
		if d.Directory != "" {
			kind = "a directory"
		}
		l.errorAt(s, "Purge Of A Scratch File", fmt.Sprintf(
			"%s purges drive %q, which is %s: only an NVMe device can be sanitized or formatted. Give drive %q a path, or limit the purge to devices with drives = [...].",
			what, name, kind, name))
	}
}
