package plan

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// driveBlockSchema is the body of a drive block.
var driveBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "path"},
		{Name: "directory"},
		{Name: "size"},
		{Name: "writable"},
		{Name: "allow_existing_data"},
		{Name: "shared"},
		{Name: "engine"},
		{Name: "spec_sheet"},
		{Name: "model"},
		{Name: "serial"},
		{Name: "firmware"},
		{Name: "vendor"},
		{Name: "volatile_write_cache"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "spec"},
	},
}

// specParams are the conditions of a spec entry that are workload
// parameters, decoded by their rows of workload.Options as a profile's
// are, so that "4KiB" or a queue depth out of range reads the same in a
// spec sheet as in a profile.
var specParams = []string{"bs", "iodepth", "numjobs", "rw"}

// specConditionKeys are the keys of a spec entry that state the conditions
// of a figure rather than the figure itself.
var specConditionKeys = append(slices.Clone(specParams), "state", "pcie_gen")

// specMetricKeys are the figures a spec entry commonly claims; any other
// key with a number is a figure too.
var specMetricKeys = []string{"iops", "bw", "lat_us"}

// driveStates are the drive states a spec figure can be measured in:
// fresh out of the box, or in steady state after preconditioning.
var driveStates = []string{"fresh", "steady"}

// decodeDrive decodes one drive.
func (l *loader) decodeDrive(block *hcl.Block, name string, body hcl.Body) *Drive {
	content, diags := l.content(body, driveBlockSchema)
	l.diags = append(l.diags, diags...)
	d := &Drive{Name: name, Engine: l.testbedEngine(), Range: block.DefRange}
	if l.define(block, name) {
		l.drives[d.Name] = d
		l.driveOrder = append(l.driveOrder, d.Name)
	}
	attrs := content.Attributes
	l.driveAttrs[name] = attrs
	if attrs["path"] != nil && !l.stringAttr(attrs["path"], &d.Path) {
		// The path is unknown (a missing variable, a bad expression): that
		// has been reported, and the drive is not taken for a scratch file.
		l.unknownPath[d.Name] = true
	}
	l.directoryAttr(d, attrs)
	sizeValid := l.sizeAttr(attrs["size"], &d.Size)
	l.boolAttr(attrs["writable"], &d.Writable)
	l.boolAttr(attrs["allow_existing_data"], &d.AllowExistingData)
	l.sharedAttr(d, attrs["shared"])
	l.engineAttr(attrs["engine"], &d.Engine)
	if attrs["size"] == nil || sizeValid {
		l.scratchChecks[d] = func() { l.checkScratchSize(block, d, attrs) }
	}
	d.Declared = l.declaredIdentity(attrs)
	l.writeCacheAttr(d, attrs["volatile_write_cache"])
	d.SpecSheet = l.specSheetRef(attrs["spec_sheet"])
	if d.SpecSheet != nil {
		d.Spec = append(d.Spec, d.SpecSheet.Spec...)
	}
	own := l.decodeSpecBlocks(fmt.Sprintf("Drive %q", name), content.Blocks)
	d.Spec = l.addOwnSpec(d, own)
	return d
}

// identityKeys are the attributes that declare a drive's identity.
var identityKeys = []string{"model", "serial", "firmware", "vendor"}

// declaredIdentity decodes the identity a plan declares for a drive that
// cannot report its own (a scratch file, a device behind a controller
// that hides it); what the drive reports is preferred where it does.
func (l *loader) declaredIdentity(attrs hcl.Attributes) map[string]string {
	var out map[string]string
	for _, k := range identityKeys {
		var v string
		if l.stringAttr(attrs[k], &v) && v != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = v
		}
	}
	return out
}

// directoryAttr decodes directory, which takes the place of path.
func (l *loader) directoryAttr(d *Drive, attrs hcl.Attributes) {
	attr := attrs["directory"]
	if !l.stringAttr(attr, &d.Directory) {
		return
	}
	switch {
	case d.Directory == "":
		l.errorAt(attrSite(attr), "Empty Directory", "directory names a folder on the file system under test, such as \"/mnt/nvme0/bench\"; remove it for a scratch file.")
	case d.Path != "":
		l.errorAt(attrSite(attr), "Both Path And Directory", fmt.Sprintf(
			"Drive %q has a path and a directory: a drive is a device or file (path), or a folder on a file system (directory). Remove one of the two.", d.Name))
	}
}

// sharedAttr decodes shared, which lets other runs measure a drive that
// this plan only reads at the same time as this run: a run otherwise has
// its drives to itself.
func (l *loader) sharedAttr(d *Drive, attr *hcl.Attribute) {
	if !l.boolAttr(attr, &d.Shared) || !d.Shared {
		return
	}
	switch {
	case d.Writable:
		l.errorAt(attrSite(attr), "Shared Writable Drive", fmt.Sprintf(
			"Drive %q is writable and shared: a run that writes a drive must have it to itself, or what other runs measure on it is worthless. "+
				"Remove shared, or writable if the plan only reads the drive.", d.Name))
		d.Shared = false
	case d.Path == "" && d.Directory == "" && !l.unknownPath[d.Name]:
		l.errorAt(attrSite(attr), "Shared Scratch File", fmt.Sprintf(
			"Drive %q is a scratch file in the results folder, which no other run uses: remove shared.", d.Name))
		d.Shared = false
	}
}

// checkDirectorySize reports a step that does I/O on a directory drive
// without a size: the engine has to know how large a file to create in
// the directory.
func (l *loader) checkDirectorySize(what string, drives []string, s site) {
	for _, name := range drives {
		d := l.drives[name]
		if d == nil || d.Directory == "" || d.Size > 0 {
			continue
		}
		l.errorAt(s, "Missing Size Of A Directory Drive", fmt.Sprintf(
			"%s does I/O on drive %q, a directory, and so on a file in it, whose size the drive must give: add size = \"1GiB\" to drive %q.",
			what, name, name))
	}
}

// testbedEngine is the engine of drives that name none: the testbed's, or
// the default one.
func (l *loader) testbedEngine() string {
	if l.testbed != nil && l.testbed.Engine != "" {
		return l.testbed.Engine
	}
	return workload.DefaultEngine
}

// addOwnSpec adds a drive's own spec entries after its sheet's, refusing
// an entry that the sheet already has.
func (l *loader) addOwnSpec(d *Drive, own []*SpecEntry) []*SpecEntry {
	for _, e := range own {
		i := slices.IndexFunc(d.Spec, func(s *SpecEntry) bool { return s.Name == e.Name })
		if i >= 0 {
			l.errorAt(site{subject: e.Range, context: e.Range}, "Duplicate Spec Entry", fmt.Sprintf(
				"Spec sheet %q already has an entry %q (at %s). Name the drive's own entry differently.", d.SpecSheet.Name, e.Name, d.Spec[i].Range))
			continue
		}
		d.Spec = append(d.Spec, e)
	}
	return d.Spec
}

// checkScratchSizes reports the scratch drives without a size that need
// one: every scratch drive but one that only exec steps use, for which
// the engine creates no file.
func (l *loader) checkScratchSizes(p *Plan) {
	for _, d := range p.Drives {
		if check := l.scratchChecks[d]; check != nil && (driveDoesIO(p, d.Name) || !driveRunsExec(p, d.Name) && !driveRunsFileSets(p, d.Name)) {
			check()
		}
	}
}

// driveDoesIO reports whether a precondition or a profile runs on a
// drive.
func driveDoesIO(p *Plan, drive string) bool {
	for _, pc := range p.Preconditions {
		if appliesTo(pc.Drives, drive) {
			return true
		}
	}
	return slices.ContainsFunc(p.Profiles, func(pr *Profile) bool {
		return pr.Exec == nil && !pr.Workload.IsFileSet() && appliesTo(pr.Drives, drive)
	})
}

// driveRunsFileSets reports whether a profile on a file set runs on a
// drive: its files are made in a folder, and need no drive size.
func driveRunsFileSets(p *Plan, drive string) bool {
	return slices.ContainsFunc(p.Profiles, func(pr *Profile) bool { return pr.Workload.IsFileSet() && appliesTo(pr.Drives, drive) })
}

// driveRunsExec reports whether an exec step runs on a drive.
func driveRunsExec(p *Plan, drive string) bool {
	return slices.ContainsFunc(p.Profiles, func(pr *Profile) bool { return pr.Exec != nil && appliesTo(pr.Drives, drive) })
}

// checkScratchSize reports a scratch drive without a size: the engine has
// to know how large a file to create. A size that failed to decode has
// been reported already.
func (l *loader) checkScratchSize(block *hcl.Block, d *Drive, attrs hcl.Attributes) {
	if d.Path != "" || d.Size > 0 || attrs["directory"] != nil && l.knownValue(attrs["directory"]) {
		return
	}
	if attrs["size"] != nil && !l.knownValue(attrs["size"]) || attrs["path"] != nil && !l.knownValue(attrs["path"]) {
		return
	}
	detail := fmt.Sprintf("Drive %q has no path, so it is a scratch file in the results folder, and needs a size such as size = \"1GiB\" to know how large a file to create. Or set path to a block device or file.", d.Name)
	for _, name := range []string{"size", "path"} {
		if attr := attrs[name]; attr != nil {
			l.errorAt(attrSite(attr), "Missing Scratch File Size", detail)
			return
		}
	}
	l.blockError(block, "Missing Scratch File Size", detail)
}

// knownValue reports whether an attribute evaluates without problems, to
// avoid reporting follow-on errors.
func (l *loader) knownValue(attr *hcl.Attribute) bool {
	v, diags := attr.Expr.Value(l.sc.ctx)
	return !diags.HasErrors() && v.IsWhollyKnown() && !v.IsNull()
}

// decodeSpecBlocks decodes the spec block of a drive or a spec sheet
// (what names it), of which there may be at most one. Entries are kept in
// the order written.
func (l *loader) decodeSpecBlocks(what string, blocks hcl.Blocks) []*SpecEntry {
	if len(blocks) == 0 {
		return nil
	}
	for _, extra := range blocks[1:] {
		l.blockError(extra, "Duplicate Spec Block",
			fmt.Sprintf("%s already has a spec block. Put all spec entries in the first one and remove this one.", what))
	}
	attrs, diags := blocks[0].Body.JustAttributes()
	l.diags = append(l.diags, diags...)
	var entries []*SpecEntry
	for _, attr := range attributesInOrder(attrs) {
		entries = append(entries, l.decodeSpecEntry(attr))
	}
	return entries
}

// attributesInOrder returns attributes in the order they are written.
func attributesInOrder(attrs hcl.Attributes) []*hcl.Attribute {
	list := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		list = append(list, a)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Range.Start.Byte < list[j].Range.Start.Byte })
	return list
}

// decodeSpecEntry decodes one figure such as
// rand_read_4k = { iops = 1000000, bs = "4KiB", iodepth = 32 }.
func (l *loader) decodeSpecEntry(attr *hcl.Attribute) *SpecEntry {
	e := &SpecEntry{Name: attr.Name, Values: map[string]float64{}, Range: attr.Range}
	v, ok := l.objectValue(attr, `{ iops = 1000000, bs = "4KiB", iodepth = 32 }`)
	if !ok {
		return e
	}
	sites := objectItemSites(attr)
	var cond workload.Workload
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		if o := workload.Lookup(k.AsString()); o != nil && slices.Contains(specParams, o.Name) {
			l.setParam(o, ev, sites(o.Name).value, &cond)
			continue
		}
		l.decodeSpecItem(e, k.AsString(), ev, sites(k.AsString()))
	}
	e.BS, e.IODepth, e.NumJobs, e.RW = cond.BS, cond.IODepth, cond.NumJobs, cond.RW
	if !hasFigureKey(v) {
		l.errorAt(attrSite(attr), "Spec Entry Without A Figure",
			fmt.Sprintf("Spec entry %q states conditions but no figure. Add the claimed figure, such as iops = 1000000, bw = \"6200MB/s\" or lat_us = 80.", e.Name))
	}
	return e
}

// hasFigureKey reports whether a spec entry has a key that is not a
// condition, that is, a figure.
func hasFigureKey(entry cty.Value) bool {
	for it := entry.ElementIterator(); it.Next(); {
		k, _ := it.Element()
		if !slices.Contains(specConditionKeys, k.AsString()) {
			return true
		}
	}
	return false
}

// decodeSpecItem decodes one key of a spec entry: a condition or a figure.
func (l *loader) decodeSpecItem(e *SpecEntry, key string, v cty.Value, s itemSites) {
	switch key {
	case "state":
		if st, ok := l.stringValue(v, s.value); ok && l.oneOf(st, driveStates, s.value, "Invalid Drive State") {
			e.State = st
		}
	case "pcie_gen":
		e.PCIeGen = l.intOrZero(v, s.value, maxPCIeGen)
	case "bw":
		l.decodeSpecBandwidth(e, v, s.value)
	default:
		l.decodeSpecFigure(e, key, v, s)
	}
}

// intOrZero decodes a count from 1 to hi; zero when it is invalid.
func (l *loader) intOrZero(v cty.Value, s site, hi int64) int {
	n, _ := l.intValue(v, s, 1, hi)
	return int(n)
}

// decodeSpecBandwidth decodes bw: a rate such as "6200MB/s", or a number
// of bytes per second.
func (l *loader) decodeSpecBandwidth(e *SpecEntry, v cty.Value, s site) {
	if v.Type() == cty.Number {
		l.decodeSpecFigure(e, "bw", v, itemSites{value: s})
		return
	}
	str, ok := l.stringValue(v, s)
	if !ok {
		return
	}
	bw, err := workload.ParseBandwidth(str)
	if err != nil {
		l.errorAt(s, "Invalid Bandwidth", fmt.Sprintf("%s: %s. %s", s.name, err, workload.BandwidthUnitsHelp))
		return
	}
	e.Values["bw"] = bw
}

// decodeSpecFigure decodes a claimed figure, which must be a number that
// is not negative. A key that is neither a condition nor a number is most
// likely a misspelt condition, and is reported on the key.
func (l *loader) decodeSpecFigure(e *SpecEntry, key string, v cty.Value, s itemSites) {
	if !l.notNull(v, s.value) {
		return
	}
	if v.Type() != cty.Number {
		l.errorAt(s.key, "Unknown Spec Condition",
			fmt.Sprintf("%q is not a condition (%s) and its value is not a number, as a figure such as %s must be.%s",
				key, quotedList(specConditionKeys), quotedList(specMetricKeys), didYouMean(key, specConditionKeys)))
		return
	}
	f, _ := v.AsBigFloat().Float64()
	if f < 0 || math.IsInf(f, 0) {
		l.errorAt(s.value, "Invalid Spec Figure", fmt.Sprintf("%s must be a figure of zero or more.", s.value.name))
		return
	}
	e.Values[key] = f
}

// writeCacheAttr decodes volatile_write_cache, which only an NVMe drive
// has: a scratch file or a directory drive is refused here, a path that
// is not an NVMe namespace when the run opens it.
func (l *loader) writeCacheAttr(d *Drive, attr *hcl.Attribute) {
	var on bool
	if !l.boolAttr(attr, &on) {
		return
	}
	if d.Directory != "" || (d.Path == "" && !l.unknownPath[d.Name]) {
		what := "a scratch file"
		if d.Directory != "" {
			what = "a directory"
		}
		l.errorAt(attrSite(attr), "Write Cache Of A File", fmt.Sprintf(
			"volatile_write_cache switches an NVMe drive's write cache, and drive %q is %s. Point the drive at an NVMe namespace (path = \"/dev/nvme0n1\") or remove volatile_write_cache.", d.Name, what))
		return
	}
	d.VolatileWriteCache = &on
}
