package plan

import (
	"cmp"
	"fmt"
	"os"
	"slices"

	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
	"golang.org/x/sys/unix"
)

// Reading space that was never written measures the file system (holes
// read as zeros without I/O) or the controller (deallocated blocks after
// a purge), not the media. The plan is checked for reads that no earlier
// step prepares, and the warning says to add a fill.

// span is a byte range [start, end) of a drive.
type span struct{ start, end int64 }

// coverage is the part of a drive the plan's steps have written so far.
type coverage struct {
	spans []span
	// all is set when a write covered a region of unknown extent.
	all bool
	// purge names the purge precondition that erased the drive last, ""
	// when none did or something was written since.
	purge string
}

func (c *coverage) add(s span) {
	c.purge = ""
	if s.end <= s.start {
		c.all = true
		return
	}
	c.spans = append(c.spans, s)
	slices.SortFunc(c.spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	merged := c.spans[:1]
	for _, x := range c.spans[1:] {
		last := &merged[len(merged)-1]
		if x.start <= last.end {
			last.end = max(last.end, x.end)
			continue
		}
		merged = append(merged, x)
	}
	c.spans = merged
}

// covers reports whether the whole of s has been written.
func (c *coverage) covers(s span) bool {
	if c.all || s.end <= s.start {
		return c.all || len(c.spans) > 0
	}
	for _, x := range c.spans {
		if x.start <= s.start && s.end <= x.end {
			return true
		}
	}
	return false
}

// LintReads warns about profiles that read a region of a drive
// that no earlier step writes, and about reads that follow a purge with
// no write in between. A drive that is an existing file whose region
// holds data, or a block device that was not purged, may hold data the
// plan did not write, and is not warned about.
func LintReads(p *Plan, g *Graph) hcl.Diagnostics {
	ranges := map[string]hcl.Range{}
	for _, pr := range p.Profiles {
		ranges[pr.Name] = pr.Range
	}
	drives := map[string]*Drive{}
	for _, d := range p.Drives {
		drives[d.Name] = d
	}
	var diags hcl.Diagnostics
	warned := map[[2]string]bool{}
	cov := map[string]*coverage{}
	for _, n := range g.Nodes {
		d := drives[n.Drive]
		if d == nil {
			continue
		}
		c := cov[n.Drive]
		if c == nil {
			c = &coverage{}
			cov[n.Drive] = c
		}
		switch {
		case n.PurgeMethod != "":
			*c = coverage{purge: n.Source}
		case n.Workload == nil, n.Workload.IsFileSet():
			// a file set's files are made and filled before its step
		case n.Workload.Writes():
			c.add(nodeSpan(n.Workload, d))
		case n.Kind == KindProfile && !warned[[2]string{n.Drive, n.Source}] && !c.covers(nodeSpan(n.Workload, d)) && mayBeUnwritten(d, n.Workload, c):
			warned[[2]string{n.Drive, n.Source}] = true
			rng := ranges[n.Source]
			diags = append(diags, unwrittenWarning(n, c, &rng))
		}
	}
	return diags
}

// nodeSpan is the region a workload covers on a drive; an empty span when
// the drive's capacity is not known.
func nodeSpan(w *workload.Workload, d *Drive) span {
	capacity := d.Size
	if capacity == 0 && d.Path != "" {
		if info, err := os.Stat(d.Path); err == nil && info.Mode().IsRegular() {
			capacity = info.Size()
		}
	}
	if capacity == 0 {
		return span{}
	}
	length := regionOf(w, capacity)
	return span{w.Offset, w.Offset + length}
}

// mayBeUnwritten reports whether a drive may hold unwritten space in a
// workload's region before the plan writes it: a scratch or directory
// drive is new, a file may have holes, and any drive right after a purge
// is erased.
func mayBeUnwritten(d *Drive, w *workload.Workload, c *coverage) bool {
	if c.purge != "" || d.Path == "" {
		return true
	}
	info, err := os.Stat(d.Path)
	switch {
	case err != nil:
		return true // a file the run creates
	case !info.Mode().IsRegular():
		return false // a device may hold data the plan did not write
	}
	s := nodeSpan(w, d)
	holes, err := UnwrittenBytes(d.Path, s.start, s.end-s.start)
	return err == nil && holes > 0
}

func unwrittenWarning(n *Node, c *coverage, rng *hcl.Range) *hcl.Diagnostic {
	if c.purge != "" {
		return &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Read After Purge",
			Detail: fmt.Sprintf("Profile %q reads drive %q right after precondition %q purged it, with no write in between: a purged drive answers reads of deallocated blocks from the controller without reading the media, so the figures would not be the drive's. Add a fill precondition (pattern = \"sequential_write\") after the purge.",
				n.Source, n.Drive, c.purge),
			Subject: rng,
		}
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "Read Of Never-Written Space",
		Detail: fmt.Sprintf("Profile %q reads a region of drive %q that no earlier step of the plan writes (no fill precondition, no write profile): reads of never-written space return zeros from the file system without reaching the drive, so the figures would measure the file system. Add a precondition such as precondition \"fill\" { pattern = \"sequential_write\" } before it.",
			n.Source, n.Drive),
		Subject: rng,
	}
}

// UnwrittenBytes counts the bytes of [start, start+length) of a file that
// lie in holes, as SEEK_DATA and SEEK_HOLE report them (on ext4 and XFS
// that includes space allocated but never written).
func UnwrittenBytes(path string, start, length int64) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fd, end := int(f.Fd()), start+length
	var holes int64
	for off := start; off < end; {
		data, err := unix.Seek(fd, off, unix.SEEK_DATA)
		if err == unix.ENXIO {
			return holes + end - off, nil
		}
		if err != nil {
			return 0, err
		}
		holes += min(data, end) - off
		if data >= end {
			break
		}
		hole, err := unix.Seek(fd, data, unix.SEEK_HOLE)
		if err != nil {
			return 0, err
		}
		off = hole
	}
	return holes, nil
}
