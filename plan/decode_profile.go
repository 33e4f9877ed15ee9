package plan

import (
	"fmt"
	"math"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// profileBlockSchema is the body of a profile block.
var profileBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "rw"},
		{Name: "read_pct"},
		{Name: "bs"},
		{Name: "iodepth"},
		{Name: "numjobs"},
		{Name: "runtime"},
		{Name: "ramp"},
		{Name: "io_size"},
		{Name: "direct"},
		{Name: "offset"},
		{Name: "size"},
		{Name: "engine"},
		{Name: "ioengine"},
		{Name: "seed"},
		{Name: "drives"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "sweep"},
	},
}

// sweepBlockSchema is the body of a profile's sweep block: the parameters
// that can be swept, each a list of values.
var sweepBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "iodepth"},
		{Name: "numjobs"},
		{Name: "bs"},
		{Name: "rw"},
		{Name: "read_pct"},
	},
}

// decodeProfileBlock decodes one profile block.
func (l *loader) decodeProfileBlock(block *hcl.Block) *Profile {
	content, diags := block.Body.Content(profileBlockSchema)
	l.diags = append(l.diags, diags...)
	p := &Profile{
		Name:  block.Labels[0],
		Range: block.DefRange,
		Workload: Workload{
			BS:      defaultProfileBS,
			IODepth: defaultIODepth,
			NumJobs: defaultNumJobs,
			ReadPct: defaultMixReadPct,
		},
	}
	if l.defineName(block) {
		l.profiles[p.Name] = p
	}
	attrs := content.Attributes
	sweep := l.decodeSweepBlocks(p, content.Blocks)
	l.checkSweptNotSet(attrs, sweep)
	if l.stringAttr(attrs["rw"], &p.Workload.RW) {
		l.oneOf(p.Workload.RW, rwModes, attrSite(attrs["rw"]), "Invalid I/O Pattern")
	}
	if attrs["read_pct"] != nil {
		p.Workload.ReadPct = l.readPctAttr(attrs["read_pct"])
	}
	l.decodeWorkloadShape(attrs, &p.Workload)
	l.decodeRunLength(block, attrs, &p.Workload)
	if l.stringAttr(attrs["engine"], &p.Workload.Engine) {
		l.oneOf(p.Workload.Engine, engines, attrSite(attrs["engine"]), "Unknown Engine")
	}
	l.stringAttr(attrs["ioengine"], &p.Workload.IOEngine)
	l.seedAttr(attrs["seed"], &p.Workload.Seed)
	if sweep["rw"] == nil {
		normalizeReadPct(&p.Workload)
	}
	l.checkProfileModes(block, p, attrs, sweep)
	drives, ok := l.driveRefs(attrs["drives"])
	p.Drives = drives
	if ok {
		l.checkProfileDrives(p, attrs, sweep)
	}
	return p
}

// readPctAttr decodes a read share in percent.
func (l *loader) readPctAttr(attr *hcl.Attribute) int {
	v, ok := l.value(attr)
	if !ok {
		return defaultMixReadPct
	}
	n, ok := l.intValue(v, attrSite(attr), 0, 100)
	if !ok {
		return defaultMixReadPct
	}
	return int(n)
}

// seedAttr decodes the seed of random offsets.
func (l *loader) seedAttr(attr *hcl.Attribute, dst *uint64) {
	v, ok := l.value(attr)
	if !ok {
		return
	}
	if n, ok := l.intValue(v, attrSite(attr), 0, math.MaxInt64); ok {
		*dst = uint64(n)
	}
}

// decodeRunLength decodes runtime, ramp and io_size: a run is timed or
// transfers a number of bytes, and must say which.
func (l *loader) decodeRunLength(block *hcl.Block, attrs hcl.Attributes, w *Workload) {
	runtime, ioSize := attrs["runtime"], attrs["io_size"]
	switch {
	case runtime == nil && ioSize == nil:
		l.blockError(block, "Missing Run Length", fmt.Sprintf(
			"Profile %q must say how long to run: runtime = \"60s\" for a timed run, or io_size = \"10GiB\" to transfer that many bytes.", block.Labels[0]))
	case runtime != nil && ioSize != nil:
		l.errorAt(attrSite(ioSize), "Conflicting Run Length",
			"A run is either timed (runtime) or transfers a number of bytes (io_size), not both. Remove one of them.")
	}
	if l.durationAttr(runtime, &w.Runtime) && w.Runtime == 0 {
		l.errorAt(attrSite(runtime), "Value Out Of Range", "runtime must be more than zero, such as \"60s\".")
	}
	l.durationAttr(attrs["ramp"], &w.Ramp)
	if runtime == nil {
		l.positiveSizeAttr(ioSize, &w.Bytes)
	}
}

// checkSweptNotSet reports parameters that are both swept and set: the
// profile would not say which value to use.
func (l *loader) checkSweptNotSet(attrs hcl.Attributes, sweep hcl.Attributes) {
	for _, attr := range attributesInOrder(attrs) {
		if sweep[attr.Name] != nil {
			l.errorAt(attrSite(attr), "Parameter Both Set And Swept", fmt.Sprintf(
				"%s is swept (at %s), so it cannot also be set here. Remove one of the two.", attr.Name, sweep[attr.Name].Range))
		}
	}
}

// profileModes returns the rw modes a profile runs with: the swept ones,
// or its rw.
func profileModes(p *Profile) []string {
	for _, axis := range p.Sweep {
		if axis.Param == "rw" {
			modes := make([]string, len(axis.Values))
			for i, v := range axis.Values {
				modes[i], _ = v.(string)
			}
			return modes
		}
	}
	if p.Workload.RW == "" {
		return nil
	}
	return []string{p.Workload.RW}
}

// checkProfileModes reports a profile without rw, and a read share on a
// profile that does not mix reads and writes.
func (l *loader) checkProfileModes(block *hcl.Block, p *Profile, attrs, sweep hcl.Attributes) {
	if attrs["rw"] == nil && sweep["rw"] == nil {
		l.blockError(block, "Missing I/O Pattern", fmt.Sprintf(
			"Profile %q needs rw = %s, or an rw list in its sweep block.", p.Name, quotedList(rwModes)))
		return
	}
	readPct := attrs["read_pct"]
	if readPct == nil {
		readPct = sweep["read_pct"]
	}
	modes := profileModes(p)
	if readPct == nil || len(modes) == 0 || slices.ContainsFunc(modes, isMix) {
		return
	}
	l.errorAt(attrSite(readPct), "Read Share Without A Mix", fmt.Sprintf(
		"read_pct applies only to the mixed modes rw = \"rw\" and \"randrw\"; this profile runs %s. Remove read_pct or use a mixed mode.", quotedList(modes)))
}

// checkProfileDrives checks a profile against the drives it runs on:
// writes need writable drives, and the region must fit.
func (l *loader) checkProfileDrives(p *Profile, attrs, sweep hcl.Attributes) {
	drives := l.drivesOf(p.Drives)
	l.checkRegion(&p.Workload, drives, attrs)
	if !profileWrites(p) {
		return
	}
	s := site{subject: p.Range, context: p.Range}
	for _, attr := range []*hcl.Attribute{attrs["rw"], sweep["rw"], attrs["read_pct"], sweep["read_pct"]} {
		if attr != nil {
			s = attrSite(attr)
			break
		}
	}
	l.checkWritable(fmt.Sprintf("Profile %q", p.Name), drives, s)
}

// profileWrites reports whether any point of a profile writes.
func profileWrites(p *Profile) bool {
	minRead := p.Workload.ReadPct
	for _, axis := range p.Sweep {
		if axis.Param != "read_pct" {
			continue
		}
		for _, v := range axis.Values {
			if n, _ := v.(int64); int(n) < minRead {
				minRead = int(n)
			}
		}
	}
	for _, rw := range profileModes(p) {
		w := Workload{RW: rw, ReadPct: minRead}
		if w.Writes() {
			return true
		}
	}
	return false
}

// decodeSweepBlocks decodes the profile's sweep block, of which there may
// be at most one, into p.Sweep. It returns the sweep's attributes, for
// checks that point at them.
func (l *loader) decodeSweepBlocks(p *Profile, blocks hcl.Blocks) hcl.Attributes {
	if len(blocks) == 0 {
		return nil
	}
	for _, extra := range blocks[1:] {
		l.blockError(extra, "Duplicate Sweep Block", fmt.Sprintf(
			"Profile %q already has a sweep block. Put all swept parameters in the first one and remove this one.", p.Name))
	}
	content, diags := blocks[0].Body.Content(sweepBlockSchema)
	l.diags = append(l.diags, diags...)
	points := 1
	for _, attr := range attributesInOrder(content.Attributes) {
		if axis, ok := l.decodeSweepAxis(attr); ok {
			p.Sweep = append(p.Sweep, axis)
			points *= len(axis.Values)
		}
		if points > maxSweepPoints {
			l.blockError(blocks[0], "Sweep Too Large", fmt.Sprintf(
				"The sweep of profile %q has more than %d points. Sweep fewer values, or split it into several profiles.", p.Name, maxSweepPoints))
			p.Sweep = nil
			break
		}
	}
	return content.Attributes
}

// decodeSweepAxis decodes one swept parameter: a non-empty list of
// distinct values.
func (l *loader) decodeSweepAxis(attr *hcl.Attribute) (SweepAxis, bool) {
	axis := SweepAxis{Param: attr.Name}
	vals, sites, ok := l.listValues(attr)
	if !ok {
		return axis, false
	}
	if len(vals) == 0 {
		l.errorAt(attrSite(attr), "Empty Sweep", fmt.Sprintf(
			"sweep %s = [] gives no points. List at least one value, or remove %s from the sweep.", attr.Name, attr.Name))
		return axis, false
	}
	for i, v := range vals {
		x, valid := l.sweepValue(attr.Name, v, sites[i])
		if valid && slices.Contains(axis.Values, x) {
			l.errorAt(sites[i], "Duplicate Sweep Value", fmt.Sprintf(
				"%v is listed twice in the sweep of %s; each point runs once. Remove one.", x, attr.Name))
			valid = false
		}
		ok = ok && valid
		axis.Values = append(axis.Values, x)
	}
	return axis, ok
}

// sweepValue decodes one value of a swept parameter: int64 for counts and
// sizes, string for rw.
func (l *loader) sweepValue(param string, v cty.Value, s site) (any, bool) {
	switch param {
	case "iodepth":
		return l.intValue(v, s, 1, maxIODepth)
	case "numjobs":
		return l.intValue(v, s, 1, maxNumJobs)
	case "read_pct":
		return l.intValue(v, s, 0, 100)
	case "bs":
		return l.positiveSizeValue(v, s)
	}
	rw, ok := l.stringValue(v, s)
	return rw, ok && l.oneOf(rw, rwModes, s, "Invalid I/O Pattern")
}
