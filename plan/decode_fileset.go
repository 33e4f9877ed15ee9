package plan

import (
	"fmt"

	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// decodeFileSet decodes file_size, one size or a distribution of sizes
// in bs_split's syntax, and checks what a file set needs: a file size
// with files, no file-set attribute without files, a known file
// selection, and no region (a set's size is its files').
func (l *loader) decodeFileSet(block *hcl.Block, attrs hcl.Attributes, w *workload.Workload) {
	if attr := attrs["file_size"]; attr != nil {
		if v, ok := l.value(attr); ok && (v.Type().IsObjectType() || v.Type().IsMapType()) {
			w.FileSizes = l.bsSplitAttr(attr)
		} else if v != cty.NilVal {
			w.FileSize, _ = l.positiveSizeValue(v, attrSite(attr))
		}
	}
	if w.Files == 0 {
		for _, name := range fileSetOnly {
			if attr := attrs[name]; attr != nil {
				l.errorAt(attrSite(attr), "File-Set Attribute Without Files", fmt.Sprintf(
					"%s belongs to a file set, and this profile sets no files: add files = 8 (the number of files), or remove %s.", name, name))
			}
		}
		return
	}
	if attrs["file_size"] == nil {
		l.blockError(block, "Missing File Size", fmt.Sprintf(
			"Profile %q runs on a set of %d files and must say how large each is: file_size = \"64MiB\", or a distribution such as file_size = { \"1MiB\" = 50, \"4MiB\" = 50 }.", block.Labels[0], w.Files))
	}
	if attr := attrs["file_service"]; attr != nil {
		if _, err := workload.ParseFileService(w.FileService); err != nil {
			l.errorAt(attrSite(attr), "Unknown File Selection", fmt.Sprintf("file_service = %v.", err))
		}
	}
	for _, name := range []string{"offset", "size", "zones", "verify"} {
		if attr := attrs[name]; attr != nil {
			l.errorAt(attrSite(attr), "Attribute Does Not Fit A File Set", fmt.Sprintf(
				"%s applies to a region of a drive, and this profile runs on a file set (files = %d), whose size is its files'. Remove %s.", name, w.Files, name))
		}
	}
	if attr := attrs["create_on_open"]; attr != nil && w.CreateOnOpen && w.RW != "write" && w.RW != "randwrite" {
		l.errorAt(attrSite(attr), "Create On Open Without Writes", "create_on_open starts every file empty, which a profile that reads cannot read: use it with rw = \"write\" or \"randwrite\", or remove it.")
	}
}

// fileSetOnly are the attributes that apply to a file set only.
var fileSetOnly = []string{"file_size", "dirs", "open_files", "file_service", "create_on_open", "fsync_on_close", "unlink", "measure_setup"}

// checkFileSetDrives reports the drives a file-set profile cannot run on
// (a device or a file: a set needs a folder), and, as a set's files are
// created on the drive, drives not marked writable.
func (l *loader) checkFileSetDrives(p *Profile, drives []string) {
	s := site{subject: p.Range, context: p.Range}
	for _, name := range drives {
		d := l.drives[name]
		if d == nil || d.Directory != "" || d.Path == "" && !l.unknownPath[d.Name] {
			continue
		}
		l.errorAt(s, "File Set On A Device", fmt.Sprintf(
			"Profile %q runs on a file set, which lives in a folder, and drive %q is a device or a file (path). Give the drive directory = \"/mnt/nvme0/bench\" instead of path, use a scratch drive (no path), or limit the profile to other drives with drives = [...].",
			p.Name, name))
	}
	l.checkWritable(fmt.Sprintf("Profile %q (which creates its file set)", p.Name), drives, s)
}
