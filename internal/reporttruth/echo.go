package reporttruth

import (
	"fmt"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/reports"
	"github.com/drivebench/drivebench/results"
)

// The sentences that restate what the plan declared and the run found:
// the testbed, each drive's identity and the targets its steps ran on,
// the methods with their sweeps and regions, and the run history's
// notes. Their numbers are names and parameters, held to report.json and
// the records they come from.
var echoKinds = []kind{
	{
		name: "testbed", in: "Testbed",
		pattern: pattern(`\*\*(?P<name>.+?)\*\*(?:: (?P<description>.+))?`),
		check: func(sc *scope, g groups) []string {
			var p problems
			tb := sc.r.Summary.Testbed
			p.eq("testbed", g["name"], cond(tb.Name == "", "—", tb.Name), "report.json")
			p.eq("description", g["description"], tb.Description, "report.json")
			return p
		},
	},
	{
		name: "method", in: "Methodology",
		pattern: pattern(`\*\*(?P<name>.+?)\*\* on (?P<drives>.+?)(?:: (?P<params>.+?))?(?:; sweeps (?P<sweeps>.+?))?(?:; region: (?P<region>.+))?\.`),
		check:   checkMethod,
	},
	{
		name: "identity", in: "Drive specifications",
		pattern: pattern(`Identity: (?P<label>.+) \((?P<sources>reported by the drive|declared in the plan|.+ reported by the drive; .+ declared in the plan)\)\.`),
		check:   checkIdentity,
	},
	{
		name: "target", in: "Drive specifications",
		pattern: pattern(`Its steps ran on (?:{count:n} different targets, .*|(?P<target>.+))\.`),
		check:   checkTargets,
	},
	{
		name: "damaged record set aside", in: "Run history",
		pattern: pattern(`Run {count:run} set the damaged record (?P<record>.+?) aside as (?P<kept>\S+) \((?P<reason>.+)\) and ran its step again\.`),
		check: func(sc *scope, g groups) []string {
			for _, r := range sc.r.Summary.Runs {
				if fmt.Sprint(r.Number) == g["run"] && slices.ContainsFunc(r.SetAside, func(a reports.SetAsideRecord) bool { return a.Record == g["record"] && a.KeptAs == g["kept"] }) {
					return nil
				}
			}
			return []string{"no run of report.json set that record aside"}
		},
	},
	{
		name: "precondition run again", in: "Run history",
		pattern: pattern(`Run {count:run} ran (?P<step>.+?) again: (?P<reason>.+)\.`),
		check: func(sc *scope, g groups) []string {
			for _, r := range sc.r.Summary.Runs {
				if fmt.Sprint(r.Number) == g["run"] && slices.ContainsFunc(r.Reruns, func(x reports.Rerun) bool { return x.Name == g["step"] }) {
					return nil
				}
			}
			return []string{"no run of report.json ran that step again"}
		},
	},
}

// checkMethod holds a method's sweep and region to report.json's
// methodology, and its sweep to the points its steps ran.
func checkMethod(sc *scope, g groups) []string {
	m := sc.r.Summary.Methodology
	for _, methods := range [][]reports.Method{m.Preconditions, m.Profiles, m.Checks} {
		for _, method := range methods {
			if method.Name != g["name"] {
				continue
			}
			var sweeps []string
			for _, dim := range method.Sweep {
				sweeps = append(sweeps, "`"+dim.Param+"` over "+strings.Join(dim.Values, ", "))
			}
			var p problems
			p.eq("sweep", g["sweeps"], strings.Join(sweeps, " by "), "report.json's methodology")
			p.eq("region", g["region"], method.Region, "report.json's methodology")
			return p
		}
	}
	return []string{"names no method of report.json"}
}

// checkIdentity recomputes a drive's identity from what the drive
// reported and what the plan declared: each field as the drive reported
// it, the plan's for the rest, the capacity the drive's alone.
func checkIdentity(sc *scope, g groups) []string {
	d, ok := sc.drive(sc.u.h3)
	if !ok {
		return []string{"report.json holds no drive " + sc.u.h3}
	}
	det, dec := d.Identity.Detected, d.Identity.Declared
	known := results.IdentityFields{
		Model:    cond(det.Model != "", det.Model, dec.Model),
		Serial:   cond(det.Serial != "", det.Serial, dec.Serial),
		Firmware: cond(det.Firmware != "", det.Firmware, dec.Firmware),
	}
	label := known.Label()
	if det.CapacityBytes > 0 {
		label = strings.TrimPrefix(label+", "+format.Bytes(uint64(det.CapacityBytes)), ", ")
	}
	var detected, declared []string
	for _, f := range []struct {
		name     string
		det, dec bool
	}{
		{"model", det.Model != "", dec.Model != ""}, {"serial", det.Serial != "", dec.Serial != ""},
		{"firmware", det.Firmware != "", dec.Firmware != ""}, {"capacity", det.CapacityBytes > 0, false},
	} {
		switch {
		case f.det:
			detected = append(detected, f.name)
		case f.dec:
			declared = append(declared, f.name)
		}
	}
	sources := "reported by the drive"
	switch {
	case len(detected) == 0:
		sources = "declared in the plan"
	case len(declared) > 0:
		sources = words(detected) + " reported by the drive; " + words(declared) + " declared in the plan"
	}
	var p problems
	p.eq("identity", g["label"], label, "what the drive reported and the plan declared")
	p.eq("sources", g["sources"], sources, "what the drive reported and the plan declared")
	return p
}

// words lists words as a sentence does: "model, serial and firmware".
func words(w []string) string {
	if len(w) < 2 {
		return strings.Join(w, "")
	}
	return strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1]
}

// checkTargets holds the targets a drive's steps ran on to their records.
func checkTargets(sc *scope, g groups) []string {
	d, ok := sc.drive(sc.u.h3)
	if !ok {
		return []string{"report.json holds no drive " + sc.u.h3}
	}
	var paths []string
	var sizes []int64
	for _, rec := range sc.r.Records {
		if rec.Drive == d.Name && rec.Target != nil {
			paths, sizes = append(paths, rec.Target.Path), append(sizes, rec.Target.Size)
		}
	}
	var p problems
	if g["n"] != "" {
		p.eq("targets", g["n"], countText(len(d.Targets)), "report.json")
		return p
	}
	i := slices.IndexFunc(paths, func(path string) bool { return strings.HasPrefix(g["target"], path+" (") })
	switch {
	case len(d.Targets) != 1:
		p.add("names one target; report.json has %d", len(d.Targets))
	case i < 0:
		p.add("names a target no record of %s ran on", d.Name)
	case !strings.HasSuffix(g["target"], ", "+format.BlockSize(sizes[i])+")"):
		p.add("gives another size than the record's target, %s", format.BlockSize(sizes[i]))
	}
	return p
}
