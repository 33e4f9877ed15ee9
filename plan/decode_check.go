package plan

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/hashicorp/hcl/v2"
)

// checkBlockSchema is the body of a check block.
var checkBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "script", Required: true},
		{Name: "function", Required: true},
		{Name: "profile", Required: true},
		{Name: "drives"},
		{Name: "args"},
	},
}

// starlarkIdentifier is what a Starlark function name looks like.
var starlarkIdentifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// decodeCheck decodes one check.
func (l *loader) decodeCheck(block *hcl.Block, name string, body hcl.Body) *Check {
	content, diags := l.content(body, checkBlockSchema)
	l.diags = append(l.diags, diags...)
	l.define(block, name)
	attrs := content.Attributes
	c := &Check{Name: name, Args: map[string]any{}, Range: block.DefRange}
	if l.stringAttr(attrs["script"], &c.ScriptName) {
		l.loadScript(c, attrSite(attrs["script"]))
	}
	if l.stringAttr(attrs["function"], &c.Function) {
		l.functionName(c.Function, attrSite(attrs["function"]))
	}
	profileOK := l.stringAttr(attrs["profile"], &c.Profile) && l.profileRef(c, attrSite(attrs["profile"]))
	drives, drivesOK := l.driveRefs(attrs["drives"])
	c.Drives = drives
	if profileOK && drivesOK {
		l.checkDrivesInProfile(c, attrs["drives"])
	}
	if attr := attrs["args"]; attr != nil {
		c.Args = l.decodeArgs(attr)
	}
	return c
}

// loadScript reads the check's script, relative to the plan's folder, and
// records its absolute path and content hash.
func (l *loader) loadScript(c *Check, s site) {
	c.Script, c.ScriptHash, _ = l.readScriptFor(c.ScriptName, s, "Check Script Not Found")
}

// profileRef resolves the profile a check names, within the check's
// module, and reports one that is not defined.
func (l *loader) profileRef(c *Check, s site) bool {
	name := c.Profile
	c.Profile = l.sc.prefix + name
	if l.profiles[c.Profile] != nil {
		return true
	}
	l.errorAt(s, "Reference To Undefined Profile", fmt.Sprintf(
		"There is no profile %q; name one of the plan's profiles or define it with a profile block.%s",
		name, didYouMean(c.Profile, sortedKeys(l.profiles))))
	return false
}

// checkDrivesInProfile reports drives of a check that its profile does
// not run on: there would be no results to judge.
func (l *loader) checkDrivesInProfile(c *Check, attr *hcl.Attribute) {
	profileDrives := l.profiles[c.Profile].Drives
	if attr == nil || len(c.Drives) == 0 || len(profileDrives) == 0 {
		return
	}
	sites := elementSites(attr, len(c.Drives))
	for i, d := range c.Drives {
		if !slices.Contains(profileDrives, d) {
			l.errorAt(sites[i], "Check On A Drive Its Profile Skips", fmt.Sprintf(
				"Profile %q does not run on drive %q, so check %q would have no results to judge there. Remove the drive from the check, or add it to the profile's drives.",
				c.Profile, d, c.Name))
		}
	}
}

// decodeArgs decodes the arguments passed to the check function.
func (l *loader) decodeArgs(attr *hcl.Attribute) map[string]any {
	v, ok := l.objectValue(attr, "{ limit_us = 5000 }")
	if !ok {
		return map[string]any{}
	}
	g, err := goValue(v)
	args, isMap := g.(map[string]any)
	if err != nil || !isMap {
		l.errorAt(attrSite(attr), "Invalid Check Arguments", "args must be an object of plain values (strings, numbers, bools, lists and objects).")
		return map[string]any{}
	}
	return args
}
