package plan

import (
	"fmt"
	"math"
	"sort"

	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// mixBlockSchema is the body of a mix block.
var mixBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"},
		{Name: "read_pct", Required: true},
		{Name: "random_pct"},
		{Name: "bs"},
		{Name: "bs_split"},
		{Name: "zones"},
	},
}

// decodeMixBlock decodes one mix block and makes it available to
// profiles by name.
func (l *loader) decodeMixBlock(block *hcl.Block, preset bool) {
	content, diags := l.content(block.Body, mixBlockSchema)
	l.diags = append(l.diags, diags...)
	name := block.Labels[0]
	if old := l.mixes[name]; old != nil && old.Preset && !preset {
		l.errorAt(site{subject: block.LabelRanges[0], context: block.DefRange}, "Mix Name Taken By A Preset", fmt.Sprintf(
			"%q is the name of a mix shipped with drivebench. Give yours another name, such as %q.", name, name+"-custom"))
		return
	}
	if !l.define(block, name) {
		return
	}
	attrs := content.Attributes
	m := &Mix{Name: name, RandomPct: 100, BS: workload.DefaultBS, Preset: preset, Range: block.DefRange}
	l.stringAttr(attrs["description"], &m.Description)
	m.ReadPct = l.pctAttr(attrs["read_pct"], 0)
	m.RandomPct = l.pctAttr(attrs["random_pct"], 100)
	l.decodeTransferSizes(attrs, &m.BS, &m.BSSplit)
	m.Zones = l.zonesAttr(attrs["zones"])
	m.RW = mixMode(m.ReadPct, m.RandomPct)
	l.mixes[name] = m
}

// mixMode is the rw mode of a read share and a random share.
func mixMode(readPct, randomPct int) string {
	mode := "rw"
	switch readPct {
	case 100:
		mode = "read"
	case 0:
		mode = "write"
	}
	if randomPct > 0 {
		if mode == "rw" {
			return "randrw"
		}
		return "rand" + mode
	}
	return mode
}

// pctAttr decodes a whole percentage from 0 to 100; def when absent or
// invalid.
func (l *loader) pctAttr(attr *hcl.Attribute, def int) int {
	v, ok := l.value(attr)
	if !ok {
		return def
	}
	n, ok := l.percentInt(v, attrSite(attr), 0, 100)
	if !ok {
		return def
	}
	return int(n)
}

// decodeTransferSizes decodes bs or bs_split, of which a block may set
// one: a single transfer size, or a distribution of them.
func (l *loader) decodeTransferSizes(attrs hcl.Attributes, bs *int64, split *[]workload.SizeWeight) {
	if attrs["bs"] != nil && attrs["bs_split"] != nil {
		l.errorAt(attrSite(attrs["bs_split"]), "Conflicting Transfer Sizes",
			"bs sets one transfer size and bs_split a distribution of them; keep one of the two.")
		return
	}
	if l.positiveSizeAttr(attrs["bs"], bs) {
		*split = nil
	}
	if s := l.bsSplitAttr(attrs["bs_split"]); s != nil {
		*split = s
	}
}

// bsSplitAttr decodes a transfer-size distribution such as
// { "4KiB" = 10, "8KiB" = 70, "64KiB" = 20 }: sizes and their weights in
// percent, which add up to 100. The result is ordered by size.
func (l *loader) bsSplitAttr(attr *hcl.Attribute) []workload.SizeWeight {
	v, ok := l.objectValue(attr, `{ "4KiB" = 10, "8KiB" = 70, "64KiB" = 20 }`)
	if !ok {
		return nil
	}
	sites := objectItemSites(attr)
	var split []workload.SizeWeight
	seen := map[int64]string{}
	total := 0.0
	valid := true
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		key := k.AsString()
		sw, ok := l.sizeWeight(key, ev, sites(key))
		if ok && seen[sw.Size] != "" {
			l.errorAt(sites(key).key, "Duplicate Transfer Size", fmt.Sprintf("%q is the same size as %q; give each size once.", key, seen[sw.Size]))
			ok = false
		}
		if !ok {
			valid = false
			continue
		}
		seen[sw.Size] = key
		total += sw.Weight
		split = append(split, sw)
	}
	if !valid {
		return nil
	}
	if len(split) == 0 || math.Abs(total-100) > 1e-6 {
		l.errorAt(attrSite(attr), "Weights Do Not Add Up", fmt.Sprintf(
			"The weights of %s are percentages of the I/Os and must add up to 100; they add up to %g.", attr.Name, total))
		return nil
	}
	sort.Slice(split, func(i, j int) bool { return split[i].Size < split[j].Size })
	return split
}

// sizeWeight decodes one "4KiB" = 10 item of a transfer-size
// distribution.
func (l *loader) sizeWeight(key string, v cty.Value, s itemSites) (workload.SizeWeight, bool) {
	size, err := workload.ParseSize(key)
	if err != nil || size == 0 {
		l.errorAt(s.key, "Invalid Size", fmt.Sprintf("%s: each key of a transfer-size distribution is a size, such as \"8KiB\". %s", s.key.name, workload.SizeUnitsHelp))
		return workload.SizeWeight{}, false
	}
	f, ok := l.numberValue(v, s.value)
	if !ok {
		return workload.SizeWeight{}, false
	}
	w, _ := f.Float64()
	if w <= 0 || w > 100 {
		l.errorAt(s.value, "Value Out Of Range", fmt.Sprintf("%s is a weight in percent: more than 0 and at most 100.", s.value.name))
		return workload.SizeWeight{}, false
	}
	return workload.SizeWeight{Size: size, Weight: w}, true
}

// zonesAttr decodes a skew such as
// [{ access_pct = 80, region_pct = 20 }, { access_pct = 20, region_pct = 80 }]:
// each zone gets access_pct percent of the I/Os over region_pct percent
// of the region, zone after zone; both columns add up to 100.
func (l *loader) zonesAttr(attr *hcl.Attribute) []workload.Zone {
	vals, sites, ok := l.listValues(attr)
	if !ok {
		return nil
	}
	var zones []workload.Zone
	var access, region float64
	valid := true
	for i, v := range vals {
		z, ok := l.zoneValue(v, sites[i], exprItemSites(elementExpr(attr, i), sites[i]))
		if !ok {
			valid = false // every bad zone is reported, not only the first
			continue
		}
		access += z.AccessPct
		region += z.RegionPct
		zones = append(zones, z)
	}
	if !valid {
		return nil
	}
	if len(zones) == 0 || math.Abs(access-100) > 1e-6 || math.Abs(region-100) > 1e-6 {
		l.errorAt(attrSite(attr), "Zones Do Not Add Up", fmt.Sprintf(
			"The zones' access_pct and region_pct each add up to 100, so that every I/O and every byte of the region belongs to a zone; they add up to %g and %g.", access, region))
		return nil
	}
	return zones
}

// zoneValue decodes one zone object at s, each of its keys and values at
// the site items gives it.
func (l *loader) zoneValue(v cty.Value, s site, items func(string) itemSites) (workload.Zone, bool) {
	const example = "{ access_pct = 80, region_pct = 20 }"
	if !l.notNull(v, s) {
		return workload.Zone{}, false
	}
	if !v.Type().IsObjectType() && !v.Type().IsMapType() {
		l.errorAt(s, "Incorrect Value Type", fmt.Sprintf("%s must be an object, such as %s.", s.name, example))
		return workload.Zone{}, false
	}
	var z workload.Zone
	ok := true
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		key := k.AsString()
		var dst *float64
		switch key {
		case "access_pct":
			dst = &z.AccessPct
		case "region_pct":
			dst = &z.RegionPct
		default:
			l.errorAt(items(key).key, "Unknown Zone Key", fmt.Sprintf("%s has a key %q; a zone has access_pct and region_pct, as in %s.%s",
				s.name, key, example, didYouMean(key, []string{"access_pct", "region_pct"})))
			ok = false
			continue
		}
		vs := items(key).value
		f, isNumber := l.percentValue(ev, vs)
		if !isNumber {
			ok = false
			continue
		}
		*dst, _ = f.Float64()
		if *dst <= 0 || *dst > 100 {
			l.errorAt(vs, "Value Out Of Range", fmt.Sprintf("%s is a percentage: more than 0 and at most 100.", vs.name))
			ok = false
		}
	}
	if !ok {
		return workload.Zone{}, false
	}
	if z.AccessPct == 0 || z.RegionPct == 0 {
		l.errorAt(s, "Incomplete Zone", fmt.Sprintf("%s needs both access_pct and region_pct, as in %s.", s.name, example))
		return workload.Zone{}, false
	}
	return z, true
}

// mixRef looks up the mix a profile names, reporting a misspelt name.
func (l *loader) mixRef(name string, s site) *Mix {
	m := l.mixes[name]
	if m == nil {
		l.errorAt(s, "Reference To Undefined Mix", fmt.Sprintf(
			"There is no mix %q. Use one of the shipped mixes (%s), or define it with a mix block.%s",
			name, quotedList(l.presetNames()), didYouMean(name, sortedKeys(l.mixes))))
		return nil
	}
	for _, used := range l.usedMixes {
		if used == m {
			return m
		}
	}
	l.usedMixes = append(l.usedMixes, m)
	return m
}

// presetNames lists the shipped mixes' names in order.
func (l *loader) presetNames() []string {
	var names []string
	for _, name := range sortedKeys(l.mixes) {
		if l.mixes[name].Preset {
			names = append(names, name)
		}
	}
	return names
}
