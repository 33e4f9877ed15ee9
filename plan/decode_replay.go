package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/drivebench/drivebench/trace"
	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
)

// replayBlockSchema is the body of a profile's replay block: its
// parameters (the rows of workload.Options of Block "replay") and volume,
// another name of device.
var replayBlockSchema = &hcl.BodySchema{
	Attributes: append(paramAttributes("replay"), hcl.AttributeSchema{Name: "volume"}),
}

// replayProfileAttributes are the profile attributes a replay keeps: the
// region it maps the trace into, the cap on I/Os in flight, how it
// reaches the drive, and what the profile adds to any workload. Every
// other workload parameter describes a generated workload, which the
// trace replaces.
var replayProfileAttributes = append(slices.Clone(workload.ReplayParams), "drives", "preconditions", "expect", "pause", "headline")

// decodeReplayProfile decodes a profile that replays a trace: its replay
// block, and of its own attributes those a replay keeps.
func (l *loader) decodeReplayProfile(p *Profile, content *hcl.BodyContent) {
	attrs := content.Attributes
	for _, attr := range attributesInOrder(attrs) {
		if !slices.Contains(replayProfileAttributes, attr.Name) {
			l.errorAt(attrSite(attr), "Attribute Does Not Apply To A Replay", fmt.Sprintf(
				"%s describes a generated workload, and profile %q replays a trace instead. Remove %s; a replay profile takes %s.",
				attr.Name, p.Name, attr.Name, quotedList(replayProfileAttributes)))
		}
	}
	replays := 0
	for _, b := range content.Blocks {
		if b.Type != "replay" {
			l.blockError(b, "Block Does Not Apply To A Replay", fmt.Sprintf(
				"A %s block varies a generated workload, and profile %q replays a trace instead. Remove the %s block, or make the replay a profile of its own.", b.Type, p.Name, b.Type))
		} else if replays++; replays > 1 {
			l.blockError(b, "Duplicate Replay Block", fmt.Sprintf("Profile %q replays one trace; give each trace a profile of its own.", p.Name))
		}
	}
	w := &p.Workload
	*w = workload.Workload{IODepth: workload.DefaultReplayIODepth, NumJobs: 1, Replay: &workload.Replay{Speed: 1}}
	l.decodeParams(profileBlockSchema, attrs, w)
	l.decodeRegion(attrs, w)
	l.decodeEngine(attrs, w)
	l.decodePresentation(p, attrs)
	p.Preconditions = l.preconditionRefs(attrs["preconditions"])
	rb := blocksByType(content.Blocks)["replay"][0]
	file, facts := l.decodeReplayBlock(rb, w.Replay)
	drives, ok := l.driveRefs(attrs["drives"])
	p.Drives = drives
	if ok && facts != nil {
		l.checkReplayDrives(p, attrs, facts, file, l.drivesOf(drives))
	}
	if attr := attrs["expect"]; attr != nil && ok {
		p.Expect = l.decodeExpect(p, attr, l.drivesOf(drives))
	}
}

// decodeReplayBlock decodes a replay block into r, and reads the trace it
// names: it returns the file attribute and what the trace holds, nil
// when the file cannot be replayed (reported).
func (l *loader) decodeReplayBlock(block *hcl.Block, r *workload.Replay) (*hcl.Attribute, *traceFacts) {
	content, diags := l.content(block.Body, replayBlockSchema)
	l.diags = append(l.diags, diags...)
	attrs := content.Attributes
	if vol := attrs["volume"]; vol != nil {
		if attrs["device"] != nil {
			l.errorAt(attrSite(vol), "Disk Named Twice", "device and volume are one attribute under two names; keep one of them.")
		} else {
			attrs["device"] = vol
		}
	}
	r.Writes = ""
	l.decodeParams(replayBlockSchema, attrs, &workload.Workload{Replay: r})
	switch {
	case r.Writes == "replay":
		r.Writes = ""
	case r.Writes == "" && attrs["writes"] != nil:
		r.Writes = "skip" // reported as invalid; no follow-on error about writing
	}
	file := attrs["file"]
	if file == nil {
		l.blockError(block, "Missing Trace File", `A replay block needs file, the trace to replay, such as file = "traces/boot.iolog" (relative to the plan's folder).`)
		return nil, nil
	}
	if !l.stringAttr(file, &r.File) {
		return file, nil
	}
	return file, l.readTrace(file, r)
}

// traceFacts is what validate reads from a trace: its format, its disks,
// and of the I/Os the replay selects (its window and disk), how many,
// whether any writes, where the last ends and the alignment they share.
type traceFacts struct {
	format  string
	devices map[string]int64
	ios     int64
	end     int64
	largest int64
	// align is the largest power of two that divides every selected
	// offset and size.
	align  int64
	writes bool
	last   time.Duration
	// first and lastIn are the times of the first and last I/O selected.
	first, lastIn time.Duration
}

// readTrace resolves the trace's path, hashes it and reads it through,
// reporting at the file attribute what makes it unusable.
func (l *loader) readTrace(file *hcl.Attribute, r *workload.Replay) *traceFacts {
	s := attrSite(file)
	path := r.File
	if !filepath.IsAbs(path) {
		path = filepath.Join(l.sc.dir, path)
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	r.Path = path
	sum, err := hashFile(path)
	if err != nil {
		l.errorAt(s, "Trace Not Found", fmt.Sprintf(
			"Cannot read the trace %q: %s. The path is relative to the folder of the file that names it, %q.", r.File, err, l.sc.dir))
		return nil
	}
	r.SHA256 = sum
	facts, err := scanTrace(path, r)
	if err != nil {
		l.errorAt(s, "Unreadable Trace", fmt.Sprintf("%s: %s. Give a trace in a format drivebench reads (drivebench trace stat FILE says whether it reads one).", r.File, err))
		return nil
	}
	r.Format, r.HasWrites, r.Span = facts.format, facts.writes, facts.lastIn-facts.first
	return l.checkTraceSelection(s, r, facts)
}

// checkTraceSelection reports a multi-disk trace without a disk chosen,
// a disk the trace lacks and a window without I/Os; nil then.
func (l *loader) checkTraceSelection(s site, r *workload.Replay, f *traceFacts) *traceFacts {
	devices := sortedKeys(f.devices)
	switch {
	case r.Device == "" && len(devices) > 1:
		l.errorAt(s, "Trace Of Several Disks", fmt.Sprintf(
			"%s holds the I/Os of %d disks (%s); say which to replay with device = %q in the replay block.", r.File, len(devices), quotedList(devices), devices[0]))
		return nil
	case r.Device != "" && f.devices[r.Device] == 0:
		l.errorAt(s, "Disk Not In The Trace", fmt.Sprintf(
			"%s holds no I/O of device %q; it holds %s.%s", r.File, r.Device, quotedList(devices), didYouMean(r.Device, devices)))
		return nil
	case f.ios == 0:
		l.errorAt(s, "Empty Replay Window", fmt.Sprintf(
			"The replay's window (skip = %s, duration = %s) holds no read or write of %s, whose I/Os run from 0 to %s. Move skip into the trace.",
			workload.FormatDuration(r.Skip), cmpDuration(r.Duration), r.File, workload.FormatDuration(f.last)))
		return nil
	}
	return f
}

// cmpDuration writes a window's duration, "to the end" when unset.
func cmpDuration(d time.Duration) string {
	if d == 0 {
		return "to the end"
	}
	return workload.FormatDuration(d)
}

// hashFile is the hex SHA-256 of a file's content.
func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// scanTrace reads a trace through and gathers its facts for replay r.
func scanTrace(path string, r *workload.Replay) (*traceFacts, error) {
	t, err := trace.Open(path)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	f := &traceFacts{format: fmt.Sprint(t.Format()), devices: map[string]int64{}}
	for {
		x, err := t.Next()
		if errors.Is(err, io.EOF) {
			return f, nil
		}
		if err != nil {
			return nil, err
		}
		f.add(x, r)
	}
}

// add counts one I/O of the trace.
func (f *traceFacts) add(x trace.IO, r *workload.Replay) {
	f.devices[x.Device]++
	f.last = max(f.last, x.At)
	in, _ := r.InWindow(x.At)
	if !in || !r.OnDevice(x.Device) || (x.Op != trace.Read && x.Op != trace.Write) {
		return
	}
	if f.ios == 0 {
		f.first = x.At
	}
	f.lastIn = x.At
	f.ios++
	f.writes = f.writes || x.Op == trace.Write
	f.end = max(f.end, x.Offset+x.Size)
	f.largest = max(f.largest, x.Size)
	f.align = alignmentOf(f.align, x.Offset, x.Size)
}

// alignmentOf is the largest power of two that divides align (0: none
// seen yet), offset and size, up to 1 MiB.
func alignmentOf(align, offset, size int64) int64 {
	if align == 0 {
		align = 1 << 20
	}
	for align > 1 && (offset%align != 0 || size%align != 0) {
		align /= 2
	}
	return align
}

// checkReplayDrives checks a replay against the drives it runs on: the
// trace's I/Os fit the region (unless folded), O_DIRECT's alignment, and
// writes only to writable drives.
func (l *loader) checkReplayDrives(p *Profile, attrs hcl.Attributes, f *traceFacts, file *hcl.Attribute, drives []string) {
	w, s := &p.Workload, attrSite(file)
	l.checkRegion(w, drives, attrs)
	for _, name := range drives {
		d := l.drives[name]
		if d == nil {
			continue
		}
		capacity, block := d.Size, int64(0)
		if t := l.targetOf(d); t != nil && t.exists {
			capacity, block = min(t.size, nonZero(d.Size, t.size)), t.block
		}
		l.checkReplayFit(p, f, s, name, capacity, block)
	}
	if w.Writes() {
		for _, name := range drives {
			if d := l.drives[name]; d != nil && !d.Writable {
				l.errorAt(s, "Write To A Drive Not Marked Writable", fmt.Sprintf(
					"Profile %q replays the writes of %s onto drive %q, which destroys the data on it. If that is intended, add writable = true to drive %q (at %s); or set writes = \"skip\" or writes = \"read\" in the replay block to replay the trace without writing.",
					p.Name, w.Replay.File, name, name, d.Range))
			}
		}
	}
}

// nonZero is n, or else def.
func nonZero(n, def int64) int64 {
	if n > 0 {
		return n
	}
	return def
}

// checkReplayFit reports a trace that addresses more than the region of
// a drive of known capacity holds, and one whose I/Os O_DIRECT refuses on
// a drive of known logical block size.
func (l *loader) checkReplayFit(p *Profile, f *traceFacts, s site, drive string, capacity, block int64) {
	w := &p.Workload
	if capacity > 0 {
		region := regionOf(w, capacity)
		switch {
		case w.Replay.Fold && f.largest > region:
			l.errorAt(s, "Trace Does Not Fit The Region", fmt.Sprintf(
				"%s has I/Os of %s, more than the %s region of drive %q holds. Give the profile a larger size.",
				w.Replay.File, workload.FormatSize(f.largest), workload.FormatSize(region), drive))
		case !w.Replay.Fold && f.end > region:
			l.errorAt(s, "Trace Does Not Fit The Region", fmt.Sprintf(
				"%s addresses bytes up to %s, past the end of the %s region of drive %q. Set fold = true in the replay block to fold the trace's offsets into the region, or give the profile a larger region.",
				w.Replay.File, workload.FormatSize(f.end), workload.FormatSize(region), drive))
		}
	}
	if w.Direct && block > 0 && f.align%block != 0 {
		l.errorAt(s, "Trace Not Aligned", fmt.Sprintf(
			"%s has offsets or sizes that are multiples of %d bytes only, and direct = true needs multiples of the %d-byte logical blocks of drive %q. Replay it with direct = false.",
			w.Replay.File, f.align, block, drive))
	}
}
