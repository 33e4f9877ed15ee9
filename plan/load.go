package plan

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Sources keeps the parsed plan files so that diagnostics can be shown
// with the source lines they point at.
type Sources struct {
	// Files maps a file name, as used in diagnostic ranges, to its parsed
	// form (which holds its bytes).
	Files map[string]*hcl.File
}

// planFileSchema is the top level of a plan file.
var planFileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "testbed", LabelNames: []string{"name"}},
		{Type: "drive", LabelNames: []string{"name"}},
		{Type: "precondition", LabelNames: []string{"name"}},
		{Type: "profile", LabelNames: []string{"name"}},
		{Type: "check", LabelNames: []string{"name"}},
		{Type: "report"},
	},
}

// Load reads, decodes and validates the plan file at path. vars holds the
// -var values by variable name, as given on the command line.
//
// All problems are reported at once in the returned diagnostics. The Plan
// is nil when they contain an error; Sources is never nil, so that the
// diagnostics can always be rendered.
func Load(path string, vars map[string]string) (*Plan, *Sources, hcl.Diagnostics) {
	sources := &Sources{Files: map[string]*hcl.File{}}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, sources, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot Read Plan File",
			Detail:   fmt.Sprintf("%s. Check the path of the plan file.", err),
		}}
	}
	file, diags := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	sources.Files[path] = file
	if diags.HasErrors() {
		return nil, sources, diags
	}
	l := newLoader(path)
	p := l.decodePlan(file.Body, vars)
	p.Hash = l.hash(src, p)
	diags = append(diags, l.diags...)
	sortBySubject(diags)
	if diags.HasErrors() {
		return nil, sources, diags
	}
	return p, sources, diags
}

// loader holds the state of decoding one plan file: the evaluation
// context, the names defined so far and the problems found.
type loader struct {
	file  string
	dir   string
	ctx   *hcl.EvalContext
	diags hcl.Diagnostics
	// vars are the declared variables by name.
	vars map[string]*variableDecl
	// defined holds the first definition of each name, per block type.
	defined map[string]map[string]hcl.Range
	drives  map[string]*Drive
	// driveOrder lists every drive name in plan order.
	driveOrder []string
	profiles   map[string]*Profile
	// scripts holds the check scripts' contents in plan order.
	scripts [][]byte
}

func newLoader(path string) *loader {
	return &loader{
		file:     path,
		dir:      filepath.Dir(path),
		vars:     map[string]*variableDecl{},
		defined:  map[string]map[string]hcl.Range{},
		drives:   map[string]*Drive{},
		profiles: map[string]*Profile{},
	}
}

// decodePlan decodes the top level. Blocks are decoded by type in
// dependency order (variables, testbed, drives, preconditions, profiles,
// checks, report), each type in file order, so that references can be
// checked as they are met.
func (l *loader) decodePlan(body hcl.Body, vars map[string]string) *Plan {
	content, diags := body.Content(planFileSchema)
	l.diags = append(l.diags, diags...)
	byType := blocksByType(content.Blocks)
	base := filepath.Base(l.file)
	p := &Plan{
		Name: strings.TrimSuffix(base, filepath.Ext(base)),
		File: l.file,
		Dir:  l.dir,
	}
	p.Variables = l.decodeVariables(byType["variable"], vars)
	p.Testbed = l.decodeTestbeds(byType["testbed"])
	for _, b := range byType["drive"] {
		p.Drives = append(p.Drives, l.decodeDriveBlock(b))
	}
	for _, b := range byType["precondition"] {
		p.Preconditions = append(p.Preconditions, l.decodePreconditionBlock(b))
	}
	for _, b := range byType["profile"] {
		p.Profiles = append(p.Profiles, l.decodeProfileBlock(b))
	}
	for _, b := range byType["check"] {
		p.Checks = append(p.Checks, l.decodeCheckBlock(b))
	}
	p.Report = l.decodeReports(byType["report"])
	if len(p.Drives) == 0 {
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "No Drive To Test",
			Detail:   `A plan needs at least one drive block, such as drive "scratch" { size = "1GiB" } for a scratch file.`,
			Subject:  &hcl.Range{Filename: l.file, Start: hcl.InitialPos, End: hcl.InitialPos},
		})
	}
	return p
}

// blocksByType groups blocks by type, keeping file order within a type.
func blocksByType(blocks hcl.Blocks) map[string]hcl.Blocks {
	m := map[string]hcl.Blocks{}
	for _, b := range blocks {
		m[b.Type] = append(m[b.Type], b)
	}
	return m
}

// sortBySubject orders diagnostics as they appear in the file, so that
// people can work through them from the top. Diagnostics without a place
// (about -var values) come first.
func sortBySubject(diags hcl.Diagnostics) {
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i].Subject, diags[j].Subject
		switch {
		case a == nil || b == nil:
			return a == nil && b != nil
		case a.Filename != b.Filename:
			return a.Filename < b.Filename
		}
		return a.Start.Byte < b.Start.Byte
	})
}
