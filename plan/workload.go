package plan

import (
	"fmt"
	"slices"

	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
)

// Defaults and limits of what a plan sets beside the workload parameters
// (whose own are in workload.Options). The limits keep a mistyped number
// from expanding into millions of steps.
const (
	defaultPasses    = 1
	defaultPrecondBS = 128 << 10
	maxPasses        = 100
	maxSweepPoints   = 10000
	maxPCIeGen       = 9
)

// normalizeSeqPct clears the sequential share of a workload that is not
// random, where it has no meaning, so that equal workloads compare equal.
func normalizeSeqPct(w *workload.Workload) {
	if !workload.IsRandom(w.RW) {
		w.SeqPct = 0
	}
}

// normalizeReadPct sets the read share of a workload that does not mix:
// 100 for reads and 0 for writes, so that equal workloads compare equal.
// A mix keeps its share.
func normalizeReadPct(w *workload.Workload) {
	switch w.RW {
	case "read", "randread":
		w.ReadPct = 100
	case "write", "randwrite":
		w.ReadPct = 0
	}
}

// drivesOf returns the drives a step applies to: the listed ones, or every
// drive of the plan when none are listed.
func (l *loader) drivesOf(listed []string) []string {
	if len(listed) > 0 {
		return listed
	}
	return l.driveOrder
}

// driveRefs decodes a drives attribute: a non-empty list of defined drive
// names. ok is false when the attribute has a problem, so that checks
// that depend on the drives are skipped rather than run on every drive.
func (l *loader) driveRefs(attr *hcl.Attribute) (names []string, ok bool) {
	if attr == nil {
		return l.sc.drives, true
	}
	names, sites, ok := l.stringList(attr)
	if !ok {
		return nil, false
	}
	if len(names) == 0 {
		l.errorAt(attrSite(attr), "Empty Drive List",
			"drives = [] selects no drive. List at least one drive, or remove drives to use every drive.")
		return nil, false
	}
	for i, name := range names {
		switch {
		case l.drives[name] == nil:
			l.errorAt(sites[i], "Reference To Undefined Drive",
				fmt.Sprintf("There is no drive %q; define it with a drive block or fix the name.%s", name, didYouMean(name, l.driveOrder)))
			ok = false
		case l.sc.drives != nil && !slices.Contains(l.sc.drives, name):
			l.errorAt(sites[i], "Drive Outside The Module's Drives",
				fmt.Sprintf("This module runs on %s (the drives of its module block), not on %q. Add the drive to the module block's drives, or remove it here.", quotedList(l.sc.drives), name))
			ok = false
		}
	}
	return names, ok
}

// checkWritable reports each drive a writing step would write to that is
// not marked writable. what describes the step; s is where it is told to
// write.
func (l *loader) checkWritable(what string, drives []string, s site) {
	for _, name := range drives {
		d := l.drives[name]
		if d == nil || d.Writable {
			continue
		}
		l.errorAt(s, "Write To A Drive Not Marked Writable", fmt.Sprintf(
			"%s writes to drive %q, which destroys the data on it. If that is intended, add writable = true to drive %q (at %s); otherwise limit the step to other drives with drives = [...].",
			what, name, name, d.Range))
	}
}

// decodeRegion decodes the region of the drive a precondition or a
// profile runs on.
func (l *loader) decodeRegion(attrs hcl.Attributes, w *workload.Workload) {
	l.sizeAttr(attrs["offset"], &w.Offset)
	l.regionSizeAttr(attrs["size"], &w.Size, &w.SizePct)
}

// checkRegion reports a region that does not fit on a drive of known
// size.
func (l *loader) checkRegion(w *workload.Workload, drives []string, attrs hcl.Attributes) {
	for _, name := range drives {
		d := l.drives[name]
		if d == nil || d.Size == 0 {
			continue
		}
		switch {
		case w.Offset >= d.Size && attrs["offset"] != nil:
			l.errorAt(attrSite(attrs["offset"]), "Region Outside The Drive", fmt.Sprintf(
				"offset = %s starts at or after the end of drive %q, which is %s. Use a smaller offset.",
				workload.FormatSize(w.Offset), name, workload.FormatSize(d.Size)))
		case w.Size > 0 && w.Size > d.Size-w.Offset && attrs["size"] != nil:
			l.errorAt(attrSite(attrs["size"]), "Region Outside The Drive", fmt.Sprintf(
				"offset %s plus size %s ends after the end of drive %q, which is %s. Use a smaller size, or a percentage such as \"50%%\".",
				workload.FormatSize(w.Offset), workload.FormatSize(w.Size), name, workload.FormatSize(d.Size)))
		}
	}
}
