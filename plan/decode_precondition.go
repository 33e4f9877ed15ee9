package plan

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// preconditionBlockSchema is the body of a precondition block.
var preconditionBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "pattern", Required: true},
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
}

// decodePreconditionBlock decodes one precondition block.
func (l *loader) decodePreconditionBlock(block *hcl.Block) *Precondition {
	content, diags := block.Body.Content(preconditionBlockSchema)
	l.diags = append(l.diags, diags...)
	l.defineName(block)
	attrs := content.Attributes
	p := &Precondition{
		Name:   block.Labels[0],
		Passes: defaultPasses,
		Range:  block.DefRange,
		Workload: Workload{
			BS:      defaultPrecondBS,
			IODepth: defaultIODepth,
			NumJobs: defaultNumJobs,
			Loops:   1,
		},
	}
	p.Workload.RW = l.decodePattern(attrs["pattern"], &p.Pattern)
	l.countAttr(attrs["passes"], &p.Passes, maxPasses)
	l.decodeWorkloadShape(attrs, &p.Workload)
	drives, ok := l.driveRefs(attrs["drives"])
	p.Drives = drives
	if ok && attrs["pattern"] != nil {
		l.checkWritable(fmt.Sprintf("Precondition %q", p.Name), l.drivesOf(drives), attrSite(attrs["pattern"]))
		l.checkRegion(&p.Workload, l.drivesOf(drives), attrs)
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
