package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/zclconf/go-cty/cty"
)

// profileBlockSchema is the body of a profile block.
// profileBlockSchema is the body of a profile block: the workload
// parameters (workload.Options) and what the profile adds to them.
var profileBlockSchema = &hcl.BodySchema{
	Attributes: append(paramAttributes(""), []hcl.AttributeSchema{
		{Name: "mix"},
		{Name: "drives"},
		{Name: "preconditions"},
		{Name: "expect"},
		{Name: "pause"},
		{Name: "headline"},
		// files is a dataloader's parameter (workload.Options) that a
		// profile takes too: the number of files of its file set.
		{Name: "files"},
	}...),
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "sweep"},
		{Type: "rate_curve"},
		{Type: "repeat"},
		{Type: "steady_state"},
		{Type: "adaptive"},
		{Type: "replay"},
	},
}

// Headlines are the figures a profile's results can lead with.
var Headlines = []string{"iops", "bw", "lat"}

// maxBytesPct bounds io_size as a share of the region: a thousand times
// the region.
const maxBytesPct = 100000

// decodeProfile decodes one profile. Its nested blocks may be dynamic
// blocks.
func (l *loader) decodeProfile(block *hcl.Block, name string, body hcl.Body) *Profile {
	content, diags := l.content(dynblock.Expand(body, l.sc.ctx), profileBlockSchema)
	l.diags = append(l.diags, diags...)
	p := &Profile{
		Name:  name,
		Range: block.DefRange,
		Workload: workload.Workload{
			BS:      workload.DefaultBS,
			IODepth: workload.DefaultIODepth,
			NumJobs: workload.DefaultNumJobs,
			ReadPct: workload.DefaultReadPct,
		},
	}
	if l.defineStep(block, name) {
		l.profiles[name] = p
	}
	if len(blocksByType(content.Blocks)["replay"]) > 0 {
		l.decodeReplayProfile(p, content)
		return p
	}
	attrs := content.Attributes
	blocks := blocksByType(content.Blocks)
	sweep := l.decodeSweepBlocks(p, blocks["sweep"])
	l.checkSweptNotSet(attrs, sweep)
	l.decodeProfileShape(p, attrs, sweep)
	l.decodeFileSet(block, attrs, &p.Workload)
	l.decodeRegion(attrs, &p.Workload)
	l.decodeRunLength(block, attrs, &p.Workload)
	l.decodeRate(attrs, &p.Workload)
	l.decodeData(attrs, &p.Workload)
	l.decodeEngine(attrs, &p.Workload)
	l.decodePresentation(p, attrs)
	p.Preconditions = l.preconditionRefs(attrs["preconditions"])
	l.decodeRounds(p, blocks, attrs)
	l.decodeAdaptive(p, blocks)
	l.checkProfileModes(block, p, attrs, sweep)
	drives, ok := l.driveRefs(attrs["drives"])
	p.Drives = drives
	if ok {
		l.checkProfileDrives(p, attrs, sweep)
	}
	if attr := attrs["expect"]; attr != nil && ok {
		p.Expect = l.decodeExpect(p, attr, l.drivesOf(drives))
	}
	return p
}

// decodeProfileShape decodes what the profile does: its mix, if any, and
// the attributes that override the mix's.
func (l *loader) decodeProfileShape(p *Profile, attrs, sweep hcl.Attributes) {
	w := &p.Workload
	randomPct := 100
	if attr := attrs["mix"]; attr != nil && l.stringAttr(attr, &p.Mix) {
		if m := l.mixRef(p.Mix, attrSite(attr)); m != nil {
			w.RW, w.ReadPct, w.BS = m.RW, m.ReadPct, m.BS
			w.BSSplit, w.Zones = slices.Clone(m.BSSplit), slices.Clone(m.Zones)
			randomPct = m.RandomPct
		}
	}
	l.decodeParams(profileBlockSchema, attrs, w)
	randomPct = l.pctAttr(attrs["random_pct"], randomPct)
	l.decodeTransferSizes(attrs, &w.BS, &w.BSSplit)
	if attrs["bs_split"] != nil && sweep["bs"] != nil {
		l.errorAt(attrSite(sweep["bs"]), "Parameter Both Set And Swept", "bs is swept, so the profile cannot also set a transfer-size distribution (bs_split). Remove one of the two.")
	}
	if attr := attrs["zones"]; attr != nil {
		w.Zones = l.zonesAttr(attr)
	}
	w.SeqPct = 100 - randomPct
	if sweep["rw"] == nil {
		normalizeReadPct(w)
		normalizeSeqPct(w)
	}
	l.checkRandomPct(p, attrs["random_pct"], randomPct)
}

// checkRandomPct reports a random share on a profile that has no random
// pattern, and a random pattern made wholly sequential.
func (l *loader) checkRandomPct(p *Profile, attr *hcl.Attribute, randomPct int) {
	if attr == nil {
		return
	}
	modes := profileModes(p)
	switch {
	case len(modes) > 0 && !slices.ContainsFunc(modes, workload.IsRandom):
		l.errorAt(attrSite(attr), "Random Share On A Sequential Pattern", fmt.Sprintf(
			"random_pct applies to the random modes (randread, randwrite, randrw); this profile runs %s. Remove random_pct or use a random mode.", quotedList(modes)))
	case randomPct == 0:
		l.errorAt(attrSite(attr), "Value Out Of Range",
			"random_pct = 0 makes every I/O sequential; use a sequential rw mode (read, write or rw) instead.")
	}
}

// decodeEngine decodes the profile's engine.
func (l *loader) decodeEngine(attrs hcl.Attributes, w *workload.Workload) {
	l.engineAttr(attrs["engine"], &w.Engine)
}

// decodeRunLength decodes runtime, ramp and io_size: a run is timed, or
// transfers a number of bytes, or both, stopping at whichever bound comes
// first; it must say which.
func (l *loader) decodeRunLength(block *hcl.Block, attrs hcl.Attributes, w *workload.Workload) {
	runtime, ioSize := attrs["runtime"], attrs["io_size"]
	if runtime == nil && ioSize == nil {
		l.blockError(block, "Missing Run Length", fmt.Sprintf(
			"Profile %q must say how long to run: runtime = \"60s\" for a timed run, io_size = \"10GiB\" (or \"400%%\" of the region) to transfer that many bytes, or both to stop at whichever comes first.", block.Labels[0]))
	}
	if l.durationAttr(runtime, &w.Runtime) && w.Runtime == 0 {
		l.errorAt(attrSite(runtime), "Value Out Of Range", "runtime must be more than zero, such as \"60s\".")
	}
	l.ioSizeAttr(ioSize, w)
}

// ioSizeAttr decodes io_size: a byte count, or a percentage of the region
// such as "400%" for four times the region.
func (l *loader) ioSizeAttr(attr *hcl.Attribute, w *workload.Workload) {
	v, ok := l.value(attr)
	if !ok {
		return
	}
	s := attrSite(attr)
	if v.Type() == cty.String && strings.HasSuffix(strings.TrimSpace(v.AsString()), "%") {
		p, err := workload.ParsePercent(v.AsString())
		if err != nil || p <= 0 || p > maxBytesPct {
			l.errorAt(s, "Invalid Percentage", fmt.Sprintf("io_size = %q: a share of the region must be more than 0%% and at most %d%%, such as \"400%%\" to write the region four times.", v.AsString(), maxBytesPct))
			return
		}
		w.BytesPct = p
		return
	}
	w.Bytes, _ = l.positiveSizeValue(v, s)
}

// decodeRate decodes a fixed rate limit and the arrival of I/Os.
func (l *loader) decodeRate(attrs hcl.Attributes, w *workload.Workload) {
	if v, ok := l.value(attrs["rate_iops"]); ok {
		if f, ok := l.numberValue(v, attrSite(attrs["rate_iops"])); ok {
			w.RateIOPS, _ = f.Float64()
			if w.RateIOPS <= 0 {
				l.errorAt(attrSite(attrs["rate_iops"]), "Value Out Of Range", "rate_iops must be more than zero I/Os per second; leave it out for no limit.")
			}
		}
	}
	if attr := attrs["rate_bw"]; attr != nil {
		w.RateBW = l.bandwidthAttr(attr)
	}
}

// bandwidthAttr decodes a bandwidth that must be more than zero.
func (l *loader) bandwidthAttr(attr *hcl.Attribute) float64 {
	v, ok := l.value(attr)
	if !ok {
		return 0
	}
	s := attrSite(attr)
	var bw float64
	if v.Type() == cty.Number {
		bw, _ = v.AsBigFloat().Float64()
	} else if str, ok := l.stringValue(v, s); ok {
		var err error
		if bw, err = workload.ParseBandwidth(str); err != nil {
			l.errorAt(s, "Invalid Bandwidth", fmt.Sprintf("%s: %s. %s", s.name, err, workload.BandwidthUnitsHelp))
			return 0
		}
	}
	if bw <= 0 {
		l.errorAt(s, "Value Out Of Range", fmt.Sprintf("%s must be more than zero bytes per second.", s.name))
		return 0
	}
	return bw
}

// decodeData decodes the write buffers' content and verification.
func (l *loader) decodeData(attrs hcl.Attributes, w *workload.Workload) {
	if o := workload.Lookup("data"); l.stringAttr(attrs["data"], &w.Data) && !l.oneOf(w.Data, o.Values, attrSite(attrs["data"]), o.Invalid) {
		w.Data = ""
	}
	l.dataPctAttr(attrs, "compress_pct", "compressible", w.Data, &w.CompressPct)
	l.dataPctAttr(attrs, "dedupe_pct", "dedupe", w.Data, &w.DedupePct)
}

// dataPctAttr decodes compress_pct or dedupe_pct, which belong to one
// data pattern and which that pattern needs.
func (l *loader) dataPctAttr(attrs hcl.Attributes, name, pattern, data string, dst *int) {
	attr := attrs[name]
	if attrs["data"] != nil && data == "" {
		return
	}
	switch {
	case attr == nil:
		if data == pattern {
			l.errorAt(attrSite(attrs["data"]), "Missing Data Share", fmt.Sprintf(
				"data = %q needs %s, the share in percent, such as %s = 50.", pattern, name, name))
		}
	case attrs["data"] == nil:
		l.errorAt(attrSite(attr), "Attribute Does Not Fit The Data Pattern", fmt.Sprintf(
			"%s applies to data = %q; add that, or remove %s.", name, pattern, name))
	case data != pattern && data != "":
		l.errorAt(attrSite(attr), "Attribute Does Not Fit The Data Pattern", fmt.Sprintf(
			"%s applies to data = %q; this profile writes data = %q. Remove %s or change data.", name, pattern, data, name))
	default:
		if v, ok := l.value(attr); ok {
			if n, ok := l.percentInt(v, attrSite(attr), 1, 99); ok {
				*dst = int(n)
			}
		}
	}
}

// preconditionRefs decodes the preconditions a profile runs right before
// it.
func (l *loader) preconditionRefs(attr *hcl.Attribute) []string {
	names, sites, ok := l.stringList(attr)
	if !ok {
		return nil
	}
	var refs []string
	for i, name := range names {
		full := l.sc.prefix + name
		if l.preconditions[full] == nil {
			l.errorAt(sites[i], "Reference To Undefined Precondition", fmt.Sprintf(
				"There is no precondition %q; define it with a precondition block above the profile, or fix the name.%s",
				name, didYouMean(full, sortedKeys(l.preconditions))))
			continue
		}
		refs = append(refs, full)
	}
	return refs
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
	if attrs["rw"] == nil && sweep["rw"] == nil && attrs["mix"] == nil {
		l.blockError(block, "Missing I/O Pattern", fmt.Sprintf(
			"Profile %q needs rw = %s, an rw list in its sweep block, or a mix.", p.Name, quotedList(workload.RWModes)))
		return
	}
	readPct := attrs["read_pct"]
	if readPct == nil {
		readPct = sweep["read_pct"]
	}
	modes := profileModes(p)
	if readPct == nil || len(modes) == 0 || slices.ContainsFunc(modes, workload.IsMix) {
		return
	}
	l.errorAt(attrSite(readPct), "Read Share Without A Mix", fmt.Sprintf(
		"read_pct applies only to the mixed modes rw = \"rw\" and \"randrw\"; this profile runs %s. Remove read_pct or use a mixed mode.", quotedList(modes)))
}

// profileSizes lists a profile's transfer sizes, each with the site it is
// written at: the swept values of bs, the sizes of bs_split, or its one
// bs.
func profileSizes(p *Profile, attrs, sweep hcl.Attributes) ([]int64, []site) {
	var sizes []int64
	var sites []site
	for _, a := range p.Sweep {
		if a.Param != "bs" || sweep["bs"] == nil {
			continue
		}
		for _, v := range a.Values {
			if n, ok := v.(int64); ok {
				sizes, sites = append(sizes, n), append(sites, attrSite(sweep["bs"]))
			}
		}
		return sizes, sites
	}
	if split := attrs["bs_split"]; split != nil {
		for _, sw := range p.Workload.BSSplit {
			sizes, sites = append(sizes, sw.Size), append(sites, attrSite(split))
		}
		return sizes, sites
	}
	at := site{subject: p.Range, context: p.Range}
	if attrs["bs"] != nil {
		at = attrSite(attrs["bs"])
	}
	return []int64{p.Workload.BS}, []site{at}
}

// checkProfileDrives checks a profile against the drives it runs on:
// writes need writable drives, and the region must fit.
func (l *loader) checkProfileDrives(p *Profile, attrs, sweep hcl.Attributes) {
	drives := l.drivesOf(p.Drives)
	if p.Workload.IsFileSet() {
		l.checkFileSetDrives(p, drives)
		return
	}
	l.checkRegion(&p.Workload, drives, attrs)
	if p.Exec == nil {
		sizes, sites := profileSizes(p, attrs, sweep)
		l.checkTargetFit(&p.Workload, drives, attrs, sizes, sites)
	}
	l.checkDirectorySize(fmt.Sprintf("Profile %q", p.Name), drives, site{subject: p.Range, context: p.Range})
	writes := profileWrites(p)
	if attr := attrs["verify"]; attr != nil && p.Workload.Verify && !writes {
		l.errorAt(attrSite(attr), "Verify Without Writes",
			"verify checks the blocks a profile writes, and this profile only reads. Remove verify, or verify in a profile that writes.")
	}
	if !writes {
		return
	}
	s := site{subject: p.Range, context: p.Range}
	for _, attr := range []*hcl.Attribute{attrs["rw"], sweep["rw"], attrs["read_pct"], sweep["read_pct"], attrs["mix"]} {
		if attr != nil {
			s = attrSite(attr)
			break
		}
	}
	l.checkWritable(fmt.Sprintf("Profile %q", p.Name), drives, s)
}

// profileWrites reports whether any point of a profile writes.
func profileWrites(p *Profile) bool {
	if p.Workload.Replay != nil {
		return p.Workload.Writes()
	}
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
		w := workload.Workload{RW: rw, ReadPct: minRead}
		if w.Writes() {
			return true
		}
	}
	return false
}

// decodePresentation decodes the pause between a profile's steps and the
// figure its results lead with.
func (l *loader) decodePresentation(p *Profile, attrs hcl.Attributes) {
	if attr := attrs["pause"]; l.durationAttr(attr, &p.Pause) && p.Pause <= 0 {
		l.errorAt(attrSite(attr), "Value Out Of Range", "pause must be more than zero, such as \"5s\"; leave it out for no pause.")
		p.Pause = 0
	}
	if attr := attrs["headline"]; l.stringAttr(attr, &p.Headline) && !l.oneOf(p.Headline, Headlines, attrSite(attr), "Unknown Headline") {
		p.Headline = ""
	}
}
