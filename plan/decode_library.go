package plan

import (
	_ "embed"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"
)

// presetMixes holds the mixes shipped with drivebench, written in the
// plan language.
//
//go:embed presets/mixes.hcl
var presetMixes []byte

// presetFile is the name diagnostics give the shipped mixes.
const presetFile = "drivebench/presets/mixes.hcl"

// libraryFileSchema is the top level of an included file: definitions
// that plans share.
var libraryFileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "spec_sheet", LabelNames: []string{"name"}},
		{Type: "mix", LabelNames: []string{"name"}},
	},
}

// specSheetBlockSchema is the body of a spec_sheet block.
var specSheetBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "vendor"},
		{Name: "model"},
		{Name: "capacity"},
		{Name: "interface"},
		{Name: "description"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "spec"},
	},
}

// decodeLibraries makes the mixes and spec sheets available to profiles
// and drives: the shipped mixes, then those of the included files, then
// the plan's own.
func (l *loader) decodeLibraries(include *hcl.Attribute, byType map[string]hcl.Blocks) {
	l.decodePresets()
	for _, path := range l.includedFiles(include) {
		l.decodeLibraryFile(path)
	}
	for _, b := range byType["mix"] {
		l.decodeMixBlock(b, false)
	}
	for _, b := range byType["spec_sheet"] {
		l.decodeSpecSheetBlock(b)
	}
}

// decodePresets decodes the shipped mixes.
func (l *loader) decodePresets() {
	file, diags := parseConfig(presetMixes, presetFile)
	l.sources.Files[presetFile] = file
	content, cdiags := l.content(file.Body, libraryFileSchema)
	l.diags = append(append(l.diags, diags...), cdiags...)
	l.inScope(l.newScope(presetFile, ""), func() {
		for _, b := range content.Blocks {
			l.decodeMixBlock(b, true)
		}
	})
}

// inScope runs decode with sc as the current scope.
func (l *loader) inScope(sc *scope, decode func()) {
	outer := l.sc
	l.sc = sc
	decode()
	l.sc = outer
}

// includedFiles evaluates include: paths of files, or patterns such as
// "../drives/*.hcl", relative to the plan's folder. Each file is listed
// once, in the order first matched.
func (l *loader) includedFiles(attr *hcl.Attribute) []string {
	patterns, sites, ok := l.stringList(attr)
	if !ok {
		return nil
	}
	var files []string
	for i, pattern := range patterns {
		if !filepath.IsAbs(pattern) {
			pattern = filepath.Join(l.sc.dir, pattern)
		}
		matches, err := filepath.Glob(pattern)
		if err != nil || len(matches) == 0 {
			l.errorAt(sites[i], "Include Matches No File", fmt.Sprintf(
				"No file matches %q. Paths are relative to the plan's folder, %q; a pattern such as \"../drives/*.hcl\" includes several files.", patterns[i], l.sc.dir))
			continue
		}
		for _, m := range matches {
			if !slices.Contains(files, m) && m != l.sc.file {
				files = append(files, m)
			}
		}
	}
	return files
}

// decodeLibraryFile decodes an included file's mixes and spec sheets.
// Its expressions may call functions but refer to nothing, so that a
// file means the same in every plan that includes it.
func (l *loader) decodeLibraryFile(path string) {
	file, ok := l.parseFile(path, nil)
	if !ok {
		return
	}
	content, diags := l.content(file.Body, libraryFileSchema)
	l.diags = append(l.diags, diags...)
	l.inScope(l.newScope(path, ""), func() {
		for _, b := range content.Blocks {
			switch b.Type {
			case "mix":
				l.decodeMixBlock(b, false)
			case "spec_sheet":
				l.decodeSpecSheetBlock(b)
			}
		}
	})
}

// decodeSpecSheetBlock decodes one spec_sheet block and makes it
// available to drives by name.
func (l *loader) decodeSpecSheetBlock(block *hcl.Block) {
	content, diags := l.content(block.Body, specSheetBlockSchema)
	l.diags = append(l.diags, diags...)
	name := block.Labels[0]
	if !l.define(block, name) {
		return
	}
	attrs := content.Attributes
	s := &SpecSheet{Name: name, File: l.sc.file, Range: block.DefRange}
	l.stringAttr(attrs["vendor"], &s.Vendor)
	l.stringAttr(attrs["model"], &s.Model)
	l.positiveSizeAttr(attrs["capacity"], &s.Capacity)
	l.stringAttr(attrs["interface"], &s.Interface)
	l.stringAttr(attrs["description"], &s.Description)
	s.Spec = l.decodeSpecBlocks(fmt.Sprintf("Spec sheet %q", name), content.Blocks)
	l.sheets[name] = s
}

// specSheetRef looks up the spec sheet a drive names.
func (l *loader) specSheetRef(attr *hcl.Attribute) *SpecSheet {
	var name string
	if !l.stringAttr(attr, &name) {
		return nil
	}
	s := l.sheets[name]
	if s == nil {
		l.errorAt(attrSite(attr), "Reference To Undefined Spec Sheet", fmt.Sprintf(
			"There is no spec sheet %q. Include the file that defines it, as include = [\"../drives/*.hcl\"], or fix the name.%s",
			name, didYouMean(name, sortedKeys(l.sheets))))
	}
	return s
}
