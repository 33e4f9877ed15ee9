package plan

import (
	"github.com/hashicorp/hcl/v2"
)

// A drive measured without drivebench (fio's outputs imported) is still a
// drive of a model, with a serial and a firmware, held to a spec sheet; a
// drive file says so in the plan language: one drive block, as a plan
// writes it, with the spec sheets it names (spec_sheet blocks, or files
// included). Its attributes that place the drive (path, size, writable)
// are read as in a plan and used by nothing.

// driveFileSchema is the top level of a drive file.
var driveFileSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "include"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "drive", LabelNames: []string{"name"}},
		{Type: "spec_sheet", LabelNames: []string{"name"}},
	},
}

// LoadDrive reads the drive file at path: its one drive block, decoded as
// a plan's, with its declared identity (model, serial, firmware, vendor)
// and the spec sheet it is held to. Every problem is in the diagnostics,
// and the Drive is nil when they hold an error; Sources renders them.
func LoadDrive(path string) (*Drive, *Sources, hcl.Diagnostics) {
	l := newLoader(path, LoadOptions{})
	file, ok := l.parseFile(path, nil)
	if !ok {
		return nil, l.sources, l.diags
	}
	content, diags := l.content(file.Body, driveFileSchema)
	l.diags = append(l.diags, diags...)
	byType := blocksByType(content.Blocks)
	l.decodeLibraries(content.Attributes["include"], byType)
	var drives []*Drive
	for _, b := range byType["drive"] {
		drives = append(drives, decodeInstances(l, b, l.decodeDrive)...)
	}
	switch {
	case len(drives) == 0:
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError, Summary: "No Drive Block",
			Detail:  `A drive file holds one drive block, as a plan writes it: drive "cm9" { model = "KIOXIA KCM9XRJE15T3", serial = "X4E0A01ZT1A8", firmware = "0102" }.`,
			Subject: &hcl.Range{Filename: path, Start: hcl.InitialPos, End: hcl.InitialPos},
		})
	case len(drives) > 1:
		l.errorAt(site{subject: drives[1].Range, context: drives[1].Range}, "More Than One Drive",
			"A drive file describes the one drive that was measured. Keep one drive block, and put each other drive in a file of its own.")
	}
	diags = distinct(l.diags)
	sortBySubject(diags)
	if diags.HasErrors() {
		return nil, l.sources, diags
	}
	return drives[0], l.sources, diags
}
