package plan

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/drivebench/drivebench/blockdev"
	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
	"golang.org/x/sys/unix"
)

// What can be known about a drive's target before the first I/O is
// checked when the plan is loaded, so that a misfit is an error at
// validate and not a failure hours into a run: a path that is a folder, a
// file smaller than the drive's size, two writable drives on one file or
// device, and transfer sizes or offsets that O_DIRECT cannot align to the
// target's logical block size or that do not fit in the region.

// targetFacts are what the loader found at a drive's path.
type targetFacts struct {
	// exists is false when nothing is at the path yet (a file the run
	// creates); the other fields are then zero.
	exists bool
	size   int64
	// block is the logical block size O_DIRECT aligns to; 0 when unknown.
	block int64
	// id tells files and devices apart: device and inode, or the device
	// number of a block device.
	id [2]uint64
}

// targetOf reads the facts of the drive's path once; nil for a drive
// without a path (a scratch file, a directory drive) or whose path is not
// known.
func (l *loader) targetOf(d *Drive) *targetFacts {
	if d.Path == "" || l.unknownPath[d.Name] {
		return nil
	}
	if t, ok := l.targets[d.Name]; ok {
		return t
	}
	t := l.readTarget(d)
	l.targets[d.Name] = t
	return t
}

func (l *loader) readTarget(d *Drive) *targetFacts {
	pathAttr := l.driveAttrs[d.Name]["path"]
	var st unix.Stat_t
	if err := unix.Stat(d.Path, &st); err != nil {
		if !errors.Is(err, fs.ErrNotExist) && pathAttr != nil {
			l.errorAt(attrSite(pathAttr), "Unreadable Drive Path", fmt.Sprintf(
				"Drive %q: %s: %v. Check the path and that drivebench may read it.", d.Name, d.Path, err))
		}
		return &targetFacts{}
	}
	t := &targetFacts{exists: true, size: st.Size, id: [2]uint64{st.Dev, st.Ino}}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		if pathAttr != nil {
			l.errorAt(attrSite(pathAttr), "Drive Path Is A Folder", fmt.Sprintf(
				"Drive %q: %s is a folder. Give a block device or a file as path, or write directory = %q to run on a file in that folder.", d.Name, d.Path, d.Path))
		}
		return nil
	case unix.S_IFBLK:
		t.id = [2]uint64{st.Rdev, 0}
		t.size, t.block = blockDeviceSizes(d.Path)
	case unix.S_IFREG:
		t.block = fileDirectAlignment(d.Path)
		l.checkFileSize(d, t)
	}
	return t
}

// checkFileSize reports a file smaller than the drive's declared size: the
// run would measure a smaller drive than the plan says.
func (l *loader) checkFileSize(d *Drive, t *targetFacts) {
	attr := l.driveAttrs[d.Name]["size"]
	if d.Size <= t.size || attr == nil {
		return
	}
	l.errorAt(attrSite(attr), "File Smaller Than The Drive", fmt.Sprintf(
		"Drive %q: %s holds %s, less than size = %s. Lower size to %s or less, remove size to use the whole file, or give a larger file.",
		d.Name, d.Path, workload.FormatSize(t.size), workload.FormatSize(d.Size), workload.FormatSize(t.size)))
}

// blockDeviceSizes reads a block device's size and logical block size;
// zeros when it cannot be opened.
func blockDeviceSizes(path string) (size, block int64) {
	b, err := blockdev.BlockInfo(path)
	if err != nil {
		return 0, 0
	}
	return b.Size, int64(b.LogicalBlockSize)
}

// fileDirectAlignment is the alignment O_DIRECT needs on a file, as the
// engine reads it when it runs; 0 when it cannot be known, which leaves
// the check to the run.
func fileDirectAlignment(path string) int64 {
	n, err := blockdev.FileDirectAlignment(path)
	if err != nil {
		return 0
	}
	return int64(n)
}

// checkSameTargets reports two writable drives that are the same file or
// device: each would overwrite what the other measured.
func (l *loader) checkSameTargets(p *Plan) {
	first := map[[2]uint64]*Drive{}
	for _, d := range p.Drives {
		t := l.targetOf(d)
		if t == nil || !t.exists || !d.Writable {
			continue
		}
		other, dup := first[t.id]
		if !dup {
			first[t.id] = d
			continue
		}
		if attr := l.driveAttrs[d.Name]["path"]; attr != nil {
			l.errorAt(attrSite(attr), "Two Drives On One Target", fmt.Sprintf(
				"Drives %q and %q are both writable and both %s (the same file or device): each would overwrite what the other measured. Point one of them elsewhere.",
				other.Name, d.Name, d.Path))
		}
	}
}

// checkTargetFit reports transfer sizes and offsets of a workload that
// the targets of its drives cannot take: under direct = true, sizes and
// offsets that are not a multiple of the logical block size, and a block
// larger than the region. sizes lists the transfer sizes with the site
// of each (a swept bs has one per value).
func (l *loader) checkTargetFit(w *workload.Workload, drives []string, attrs hcl.Attributes, sizes []int64, sizeSites []site) {
	for _, name := range drives {
		d := l.drives[name]
		if d == nil {
			continue
		}
		t := l.targetOf(d)
		if t == nil || !t.exists {
			continue
		}
		capacity := t.size
		if d.Size > 0 && d.Size < capacity {
			capacity = d.Size
		}
		region := regionOf(w, capacity)
		field := "bs"
		if len(w.BSSplit) > 0 {
			field = "bs_split"
		}
		for i, bs := range sizes {
			switch {
			case bs <= 0:
			case w.Direct && t.block > 0 && bs%t.block != 0:
				l.errorAt(sizeSites[i], "Transfer Size Not Aligned",
					DirectMisfit(field, bs, t.block, fmt.Sprintf("%s (drive %q)", d.Path, name)))
			case region > 0 && bs > region:
				l.errorAt(sizeSites[i], "Transfer Larger Than The Region", fmt.Sprintf(
					"%s = %s is larger than the %s region it runs on (drive %q): not one I/O fits. Use a smaller %s or a larger region.",
					field, workload.FormatSize(bs), workload.FormatSize(region), name, field))
			}
		}
		if attr := attrs["offset"]; attr != nil && w.Direct && t.block > 0 && w.Offset%t.block != 0 {
			l.errorAt(attrSite(attr), "Offset Not Aligned",
				DirectMisfit("offset", w.Offset, t.block, fmt.Sprintf("%s (drive %q)", d.Path, name)))
		}
	}
}

// DirectMisfit says that a transfer size or offset (field = value) is not
// a multiple of block, the logical block size O_DIRECT aligns to on the
// target where names. Validate and the engines refuse in these words, so
// a run that stops on it reads as validate would have.
func DirectMisfit(field string, value, block int64, where string) string {
	return fmt.Sprintf("%s = %s is not a multiple of %s, the logical block size of %s, which O_DIRECT I/O needs under direct = true. Use a multiple of %s, or direct = false.",
		field, workload.FormatSize(value), workload.FormatSize(block), where, workload.FormatSize(block))
}

// regionOf is the length of a workload's region on a target of the given
// capacity.
func regionOf(w *workload.Workload, capacity int64) int64 {
	switch {
	case w.Size > 0:
		return w.Size
	case w.SizePct > 0:
		return int64(float64(capacity) * w.SizePct / 100)
	}
	return capacity - w.Offset
}
