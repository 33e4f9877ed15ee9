package plan

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Sources keeps the parsed plan files so that diagnostics can be shown
// with the source lines they point at.
type Sources struct {
	// Files maps a file name, as used in diagnostic ranges, to its parsed
	// form (which holds its bytes): the plan, the files it includes, its
	// modules and its variable files.
	Files map[string]*hcl.File
}

// LoadOptions are the values a plan's variables get from outside the
// plan. Each source overrides the ones before it: a variable's default,
// then the environment, then the variable files in order, then Vars.
type LoadOptions struct {
	// Vars holds the -var values by variable name, as given on the command
	// line.
	Vars map[string]string
	// VarFiles are -var-file paths: HCL files of name = value lines, or
	// JSON objects when the name ends in ".json".
	VarFiles []string
	// Env looks up environment variables, such as os.Getenv: a variable
	// named size takes the value of DRIVEBENCH_VAR_size when it is set and
	// not empty. Nil reads no environment.
	Env func(string) string
	// Unset gives a variable that has no value from anywhere an unknown
	// value of its declared type instead of a Missing Variable Value
	// error, as terraform validate does: what depends on the value goes
	// unchecked (except its type), everything else is checked. The plan is
	// then for validation only; Plan.Unset names those variables.
	Unset bool
	// Engines are the engines a step may name (engine.Engines, which the
	// engine packages fill): a testbed's, drive's or profile's engine
	// attribute naming another is an error at its place. plan cannot
	// import the engines, so they are given; nil accepts any name, and a
	// run then refuses a step whose engine its build lacks.
	Engines []string
}

// EnvPrefix starts the name of an environment variable that sets a plan
// variable: DRIVEBENCH_VAR_size sets var.size.
const EnvPrefix = "DRIVEBENCH_VAR_"

// planFileSchema is the top level of a plan file.
var planFileSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "include"},
		{Name: "on_error"},
		{Name: "hook_memory"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
		{Type: "testbed", LabelNames: []string{"name"}},
		{Type: "drive", LabelNames: []string{"name"}},
		{Type: "spec_sheet", LabelNames: []string{"name"}},
		{Type: "mix", LabelNames: []string{"name"}},
		{Type: "precondition", LabelNames: []string{"name"}},
		{Type: "profile", LabelNames: []string{"name"}},
		{Type: "exec", LabelNames: []string{"name"}},
		{Type: "dataloader", LabelNames: []string{"name"}},
		{Type: "checkpoint", LabelNames: []string{"name"}},
		{Type: "check", LabelNames: []string{"name"}},
		{Type: "accept", LabelNames: []string{"name"}},
		{Type: "module", LabelNames: []string{"name"}},
		{Type: "report"},
	},
}

// Load reads, decodes and validates the plan file at path, with the
// variable values opts gives.
//
// All problems are reported at once in the returned diagnostics. The Plan
// is nil when they contain an error; Sources is never nil, so that the
// diagnostics can always be rendered.
func Load(path string, opts LoadOptions) (*Plan, *Sources, hcl.Diagnostics) {
	l := newLoader(path, opts)
	file, ok := l.parseFile(path, nil)
	if !ok {
		return nil, l.sources, l.diags
	}
	p := l.decodePlan(file)
	p.Unset = l.unset
	p.Hash = l.hash(p)
	limitDiagnostics(l.diags)
	diags := distinct(l.diags)
	sortBySubject(diags)
	if diags.HasErrors() {
		return nil, l.sources, diags
	}
	return p, l.sources, diags
}

// loader holds the state of decoding one plan: the scope being decoded,
// the names defined so far and the problems found.
type loader struct {
	opts    LoadOptions
	sources *Sources
	// budget counts the evaluation work of the load (see limits.go).
	budget *evalBudget
	diags  hcl.Diagnostics
	// sc is the scope whose blocks are being decoded: the plan's, a
	// module's or an included file's.
	sc *scope
	// defined holds the first definition of each name, per block type.
	defined map[string]map[string]hcl.Range
	drives  map[string]*Drive
	// unknownPath names the drives whose path could not be evaluated, so
	// that they are not mistaken for scratch files in later checks.
	unknownPath map[string]bool
	// driveOrder lists every drive name in plan order.
	driveOrder []string
	testbed    *Testbed
	// hostsAttrib is the testbed's hosts attribute, for diagnostics.
	hostsAttrib   *hcl.Attribute
	preconditions map[string]*Precondition
	profiles      map[string]*Profile
	mixes         map[string]*Mix
	usedMixes     []*Mix
	sheets        map[string]*SpecSheet
	// files holds the contents of the plan's source files in the order
	// they were read, and scripts the check scripts' contents in plan
	// order; both go into the plan's hash.
	files   [][]byte
	scripts [][]byte
	// parsed caches files read more than once (a module used twice).
	parsed map[string]*hcl.File
	// rootDir is the plan's folder, which places in verdicts are
	// relative to.
	rootDir string
	// scratchChecks holds each drive's check of its scratch size, which
	// waits for the steps that run on it.
	scratchChecks map[*Drive]func()
	// unset names the variables left unknown under LoadOptions.Unset.
	unset []string
	// driveAttrs holds each drive's attributes, for diagnostics about its
	// target; targets what was found at each drive's path.
	driveAttrs map[string]hcl.Attributes
	targets    map[string]*targetFacts
}

func newLoader(path string, opts LoadOptions) *loader {
	l := &loader{
		opts:          opts,
		sources:       &Sources{Files: map[string]*hcl.File{}},
		budget:        &evalBudget{},
		defined:       map[string]map[string]hcl.Range{},
		drives:        map[string]*Drive{},
		unknownPath:   map[string]bool{},
		preconditions: map[string]*Precondition{},
		profiles:      map[string]*Profile{},
		mixes:         map[string]*Mix{},
		sheets:        map[string]*SpecSheet{},
		parsed:        map[string]*hcl.File{},
		rootDir:       filepath.Dir(path),
		scratchChecks: map[*Drive]func(){},
		driveAttrs:    map[string]hcl.Attributes{},
		targets:       map[string]*targetFacts{},
	}
	l.sc = l.newScope(path, "")
	return l
}

// parseFile reads and parses an HCL file. from is where the file is
// named (an include or a module's source), nil for the plan itself.
func (l *loader) parseFile(path string, from *site) (*hcl.File, bool) {
	if f, ok := l.parsed[path]; ok {
		return f, true
	}
	src, err := os.ReadFile(path)
	if err != nil {
		l.cannotRead(path, err, from)
		return nil, false
	}
	file, diags := parseConfig(src, path)
	l.sources.Files[path] = file
	l.diags = append(l.diags, diags...)
	if diags.HasErrors() {
		return nil, false
	}
	accountEvaluation(file)
	l.parsed[path] = file
	l.files = append(l.files, src)
	return file, true
}

// cannotRead reports a file that cannot be read, at the place that names
// it.
func (l *loader) cannotRead(path string, err error, from *site) {
	if from == nil {
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Cannot Read Plan File",
			Detail:   fmt.Sprintf("%s. Check the path of the plan file.", err),
		})
		return
	}
	l.errorAt(*from, "Cannot Read File", fmt.Sprintf("%s. The path is relative to the folder of the file that names it, %q.", err, filepath.Dir(from.subject.Filename)))
}

// decodePlan decodes the top level. Blocks are decoded by type in
// dependency order (variables, locals, mixes and spec sheets, testbed,
// drives, modules, preconditions, profiles and exec steps, checks, accept
// blocks, report), each type in
// file order with a module's blocks in the module block's place, so that
// references can be checked as they are met.
func (l *loader) decodePlan(file *hcl.File) *Plan {
	content, diags := l.content(file.Body, planFileSchema)
	l.diags = append(l.diags, diags...)
	byType := blocksByType(content.Blocks)
	root := l.sc
	base := filepath.Base(root.file)
	p := &Plan{
		Name: strings.TrimSuffix(base, filepath.Ext(base)),
		File: root.file,
		Dir:  root.dir,
	}
	p.Variables = l.decodeRootVariables(byType["variable"])
	l.decodeLocals(byType["locals"])
	l.decodeLibraries(content.Attributes["include"], byType)
	p.Testbed = l.decodeTestbeds(byType["testbed"])
	l.testbed = p.Testbed
	for _, b := range byType["drive"] {
		p.Drives = append(p.Drives, decodeInstances(l, b, l.decodeDrive)...)
	}
	modules := l.decodeModules(byType["module"])
	l.eachBlockOf(content.Blocks, modules, []string{"precondition"}, func(b *hcl.Block) {
		p.Preconditions = append(p.Preconditions, decodeInstances(l, b, l.decodePrecondition)...)
	})
	l.eachBlockOf(content.Blocks, modules, []string{"profile", "exec", "dataloader", "checkpoint"}, func(b *hcl.Block) {
		switch b.Type {
		case "checkpoint":
			p.Profiles = append(p.Profiles, decodeInstances(l, b, l.decodeCheckpoint)...)
			return
		case "exec":
			p.Profiles = append(p.Profiles, decodeInstances(l, b, l.decodeExec)...)
			return
		case "dataloader":
			p.Profiles = append(p.Profiles, decodeInstances(l, b, l.decodeDataloader)...)
			return
		}
		p.Profiles = append(p.Profiles, decodeInstances(l, b, l.decodeProfile)...)
	})
	l.eachBlockOf(content.Blocks, modules, []string{"check"}, func(b *hcl.Block) {
		p.Checks = append(p.Checks, decodeInstances(l, b, l.decodeCheck)...)
	})
	for _, b := range byType["accept"] {
		p.Accepts = append(p.Accepts, l.decodeAcceptBlock(b))
	}
	p.Report = l.decodeReports(byType["report"])
	p.OnError = l.onErrorAttr(content.Attributes["on_error"])
	l.hookMemoryAttr(content.Attributes["hook_memory"], p)
	p.Mixes = l.usedMixes
	l.checkScratchSizes(p)
	l.checkSameTargets(p)
	l.checkDrivesDeclared(p, file)
	l.checkHostsUsed(p)
	l.checkPlanSize(p)
	return p
}

// maxSteps bounds the steps of a whole plan, so that a mistyped count or
// collection is reported instead of expanding for hours.
const maxSteps = 200000

// checkPlanSize reports a plan that expands into more than maxSteps
// steps, at its largest profile.
func (l *loader) checkPlanSize(p *Plan) {
	total := 0
	var largest *Profile
	largestSteps := 0
	for _, pr := range p.Profiles {
		n := stepsPerPoint(pr) * pr.pointCount() * len(l.drivesOf(pr.Drives))
		total += n
		if n > largestSteps {
			largest, largestSteps = pr, n
		}
	}
	for _, pc := range p.Preconditions {
		total += pc.Passes * len(l.drivesOf(pc.Drives))
	}
	if total <= maxSteps || largest == nil {
		return
	}
	l.errorAt(site{subject: largest.Range, context: largest.Range}, "Plan Too Large", fmt.Sprintf(
		"The plan expands into more than %d steps (profile %q alone into %d). Sweep fewer values, use fewer rounds or drives, or split the plan.",
		maxSteps, largest.Name, largestSteps))
}

// eachBlockOf calls decode for each block of the given types, in file
// order, with a module block standing for the module's blocks of those
// types, each decoded in the module's scope.
func (l *loader) eachBlockOf(blocks hcl.Blocks, modules map[*hcl.Block]*moduleInstance, kinds []string, decode func(*hcl.Block)) {
	for _, b := range blocks {
		switch {
		case slices.Contains(kinds, b.Type):
			decode(b)
		case b.Type == "module" && modules[b] != nil:
			m := modules[b]
			outer := l.sc
			l.sc = m.scope
			for _, mb := range m.content.Blocks {
				if slices.Contains(kinds, mb.Type) {
					decode(mb)
				}
			}
			l.sc = outer
		}
	}
}

// onErrors are what a failed step can do to the rest of the run.
var onErrors = []string{"continue", "abort"}

// onErrorAttr decodes on_error; "continue" when absent.
func (l *loader) onErrorAttr(attr *hcl.Attribute) string {
	onError := "continue"
	if l.stringAttr(attr, &onError) && !l.oneOf(onError, onErrors, attrSite(attr), "Unknown Error Handling") {
		return "continue"
	}
	return onError
}

// Bounds of hook_memory: below the lower one not even a small hook's
// values fit; the upper one keeps a typo from handing hooks the machine.
const (
	minHookMemory = 16 << 20
	maxHookMemory = 64 << 30
)

// hookMemoryAttr decodes hook_memory, the most memory the plan's hooks may
// use; 0 (the default) leaves the engine's default.
func (l *loader) hookMemoryAttr(attr *hcl.Attribute, p *Plan) {
	if attr == nil || !l.positiveSizeAttr(attr, &p.HookMemory) {
		return
	}
	if p.HookMemory < minHookMemory || p.HookMemory > maxHookMemory {
		l.errorAt(attrSite(attr), "Hook Memory Out Of Range", fmt.Sprintf(
			"hook_memory is %d bytes; give a size from 16MiB to 64GiB, such as \"1GiB\". The default is 512MiB.", p.HookMemory))
		p.HookMemory = 0
	}
}

// checkDrivesDeclared reports a plan without drives; not one whose drive
// blocks all have errors of their own (a missing name, say), which are
// reported where they are.
func (l *loader) checkDrivesDeclared(p *Plan, file *hcl.File) {
	if len(p.Drives) > 0 {
		return
	}
	if body, ok := file.Body.(*hclsyntax.Body); ok {
		for _, b := range body.Blocks {
			if b.Type == "drive" {
				return
			}
		}
	}
	l.diags = append(l.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "No Drive To Test",
		Detail:   `A plan needs at least one drive block, such as drive "scratch" { size = "1GiB" } for a scratch file.`,
		Subject:  &hcl.Range{Filename: p.File, Start: hcl.InitialPos, End: hcl.InitialPos},
	})
}

// blocksByType groups blocks by type, keeping file order within a type.
func blocksByType(blocks hcl.Blocks) map[string]hcl.Blocks {
	m := map[string]hcl.Blocks{}
	for _, b := range blocks {
		m[b.Type] = append(m[b.Type], b)
	}
	return m
}

// distinct drops repeated diagnostics: a module used twice reports a
// problem in its file once.
func distinct(diags hcl.Diagnostics) hcl.Diagnostics {
	type key struct {
		severity        hcl.DiagnosticSeverity
		summary, detail string
		subject         hcl.Range
	}
	seen := map[key]bool{}
	var out hcl.Diagnostics
	for _, d := range diags {
		k := key{severity: d.Severity, summary: d.Summary, detail: d.Detail}
		if d.Subject != nil {
			k.subject = *d.Subject
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
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
