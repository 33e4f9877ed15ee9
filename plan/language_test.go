package plan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/workload"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// varsPlan declares variables of several types, one validated.
const varsPlan = `
variable "size"    { default = "1GiB" }
variable "runtime" { default = "10s" }
variable "depths" {
  type    = list(number)
  default = [1]
}
variable "label" {
  default = "x"
  validation {
    condition     = length(regexall("^[a-z]+$", var.label)) > 0
    error_message = "label is lower-case letters."
  }
}

drive "scratch" {
  size     = var.size
  writable = true
}

profile "read" {
  rw      = "randread"
  runtime = var.runtime
  sweep { iodepth = var.depths }
}
`

// writeFile writes a file into dir and returns its path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestVariableSourcesInOrder(t *testing.T) {
	dir := t.TempDir()
	planPath := writeFile(t, dir, "plan.hcl", varsPlan)
	hclFile := writeFile(t, dir, "a.hcl", "size = \"2GiB\"\ndepths = [2, 4]\nruntime = \"20s\"\n")
	jsonFile := writeFile(t, dir, "b.json", `{"runtime": "30s", "label": "fromjson"}`)
	env := map[string]string{"DRIVEBENCH_VAR_size": "3GiB", "DRIVEBENCH_VAR_label": "fromenv", "DRIVEBENCH_VAR_other": "ignored"}
	tests := []struct {
		name string
		opts LoadOptions
		want map[string]any
	}{
		{"defaults", LoadOptions{}, map[string]any{"size": "1GiB", "runtime": "10s", "label": "x"}},
		{"environment", LoadOptions{Env: func(k string) string { return env[k] }},
			map[string]any{"size": "3GiB", "label": "fromenv"}},
		{"files after environment", LoadOptions{Env: func(k string) string { return env[k] }, VarFiles: []string{hclFile, jsonFile}},
			map[string]any{"size": "2GiB", "runtime": "30s", "label": "fromjson", "depths": []any{int64(2), int64(4)}}},
		{"flags last", LoadOptions{VarFiles: []string{hclFile}, Vars: map[string]string{"size": "4GiB", "depths": "[8]"}},
			map[string]any{"size": "4GiB", "runtime": "20s", "depths": []any{int64(8)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, sources, diags := Load(planPath, tt.opts)
			if len(diags) > 0 {
				var b strings.Builder
				_ = sources.WriteDiagnostics(&b, diags, 100, false)
				t.Fatal(b.String())
			}
			for name, want := range tt.want {
				if got := p.Variables[name]; !reflect.DeepEqual(got, want) {
					t.Errorf("%s = %#v, want %#v", name, got, want)
				}
			}
		})
	}
}

func TestVarFileProblems(t *testing.T) {
	dir := t.TempDir()
	planPath := writeFile(t, dir, "plan.hcl", varsPlan)
	vars := writeFile(t, dir, "vars.hcl", "sise = \"2GiB\"\nlabel = \"UPPER\"\ndepths = \"many\"\n")
	missing := filepath.Join(dir, "none.hcl")
	_, sources, diags := Load(planPath, LoadOptions{VarFiles: []string{vars, missing}})
	type place struct {
		summary  string
		severity hcl.DiagnosticSeverity
		file     string
		line     int
	}
	var got []place
	for _, d := range diags {
		p := place{summary: d.Summary, severity: d.Severity}
		if d.Subject != nil {
			p.file, p.line = d.Subject.Filename, d.Subject.Start.Line
		}
		got = append(got, p)
	}
	want := []place{
		{"Cannot Read Variable File", hcl.DiagError, "", 0},
		{"Value For Undeclared Variable", hcl.DiagWarning, vars, 1},
		{"Invalid Value For Variable", hcl.DiagError, vars, 2},
		{"Invalid Value For Variable", hcl.DiagError, vars, 3},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diagnostics\n got %v\nwant %v", got, want)
	}
	if sources.Files[vars] == nil {
		t.Error("the variable file is not among the sources, so its diagnostics cannot show their lines")
	}
	var b strings.Builder
	_ = sources.WriteDiagnostics(&b, diags, 0, false)
	for _, text := range []string{`Did you mean "size"?`, "label is lower-case letters.", "   2 | label = \"UPPER\""} {
		if !strings.Contains(b.String(), text) {
			t.Errorf("rendered diagnostics lack %q:\n%s", text, b.String())
		}
	}
}

func TestFunctions(t *testing.T) {
	tests := []struct {
		expr string
		want string
	}{
		{`kib(4)`, `4096`},
		{`mib(1.5)`, `1572864`},
		{`gib(1) + tib(1)`, `1100585369600`},
		{`[kb(1), mb(2), gb(3), tb(4)]`, `[1000,2000000,3000000000,4000000000000]`},
		{`parse_size("1.92TB")`, `1920000000000`},
		{`format_size(131072)`, `"128KiB"`},
		{`parse_duration("1h30m")`, `5400`},
		{`[minutes(2), hours(6)]`, `[120,21600]`},
		{`range_pct(10, 120, 10)`, `[10,20,30,40,50,60,70,80,90,100,110,120]`},
		{`range_pct(0.5, 1.5, 0.25)`, `[0.5,0.75,1,1.25,1.5]`},
		{`pow2(1, 32)`, `[1,2,4,8,16,32]`},
		{`pow2(512, kib(4))`, `[512,1024,2048,4096]`},
		{`sum([10, 70, 20])`, `100`},
		{`[alltrue([true, true]), alltrue([true, false]), anytrue([false, true]), anytrue([])]`, `[true,false,true,false]`},
		{`[can(parse_size("x")), try(parse_size("x"), 0)]`, `[false,0]`},
		{`length(toset(["a", "a", "b"]))`, `2`},
	}
	ctx := &hcl.EvalContext{Functions: planFunctions()}
	for _, tt := range tests {
		expr, diags := hclsyntax.ParseExpression([]byte(tt.expr), "test", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", tt.expr, diags)
		}
		v, diags := expr.Value(ctx)
		if diags.HasErrors() {
			t.Errorf("%s: %v", tt.expr, diags)
			continue
		}
		got, err := goValue(v)
		if err != nil {
			t.Fatal(err)
		}
		if s := jsonText(t, got); s != tt.want {
			t.Errorf("%s = %s, want %s", tt.expr, s, tt.want)
		}
	}
}

func TestFunctionErrors(t *testing.T) {
	ctx := &hcl.EvalContext{Functions: planFunctions()}
	for _, src := range []string{
		`kib(0.3)`, `kib(-1)`, `parse_size("12 parsecs")`, `parse_duration("soon")`,
		`range_pct(10, 5, 1)`, `range_pct(1, 5, 0)`, `range_pct(0, 10000, 1)`,
		`pow2(3, 8)`, `pow2(8, 4)`, `format_size(1.5)`, `sum([1, null])`,
	} {
		expr, _ := hclsyntax.ParseExpression([]byte(src), "test", hcl.InitialPos)
		_, diags := expr.Value(ctx)
		if !diags.HasErrors() || diags[0].Subject == nil {
			t.Errorf("%s: want an error with a place, got %v", src, diags)
		}
	}
}

func TestModuleUsedTwiceReportsOnce(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "suite.hcl", `
variable "depth" { type = number }
profile "read" {
  rw      = "randread"
  iodepth = var.depth
  runtime = "1s"
  colour  = "red"
}
`)
	planPath := writeFile(t, dir, "plan.hcl", `
drive "scratch" { size = "1GiB" }
module "a" {
  source = "suite.hcl"
  depth  = 1
}
module "b" {
  source = "suite.hcl"
  depth  = 2
}
`)
	_, _, diags := Load(planPath, LoadOptions{})
	if len(diags) != 1 || diags[0].Summary != "Unsupported argument" {
		t.Errorf("want one Unsupported argument, got %v", diags)
	}
}

func TestModuleInstances(t *testing.T) {
	p := mustLoad(t, "testdata/valid/language.hcl", nil)
	var names []string
	for _, pr := range p.Profiles {
		names = append(names, pr.Name)
	}
	if got := strings.Join(names, ","); got != "mixes.web,mixes.sql-90-10,rounds,steady,shaped,capped,suite.curve" {
		t.Errorf("profiles %s", got)
	}
	curve := p.Profiles[6]
	if curve.Workload.IODepth != 8 || strings.Join(curve.Drives, ",") != "nvme.b" || strings.Join(curve.Preconditions, ",") != "suite.fill" {
		t.Errorf("module profile %+v", *curve)
	}
	if c := p.Checks[0]; c.Name != "suite.latency" || c.Profile != "suite.curve" || !strings.HasSuffix(c.Script, filepath.Join("testdata", "valid", "checks", "latency.star")) {
		t.Errorf("module check %+v", *c)
	}
	if p.OnError != "abort" || !p.Testbed.Parallel || p.Testbed.Engine != "fio" || len(p.Testbed.Hosts) != 2 {
		t.Errorf("plan settings: on_error %q, testbed %+v", p.OnError, *p.Testbed)
	}
}

func TestLanguageWorkloads(t *testing.T) {
	p := mustLoad(t, "testdata/valid/language.hcl", nil)
	byName := map[string]*Profile{}
	for _, pr := range p.Profiles {
		byName[pr.Name] = pr
	}
	web := byName["mixes.web"].Workload
	wantWeb := workload.Workload{RW: "randrw", ReadPct: 95, BS: 4096, IODepth: 16, NumJobs: 1, Runtime: 2 * time.Second,
		SizePct: 50, Engine: "native", SeqPct: 20,
		BSSplit: []workload.SizeWeight{{Size: 4096, Weight: 60}, {Size: 16384, Weight: 40}}, Zones: []workload.Zone{{AccessPct: 90, RegionPct: 10}, {AccessPct: 10, RegionPct: 90}}}
	if !reflect.DeepEqual(web, wantWeb) {
		t.Errorf("web mix workload\n got %+v\nwant %+v", web, wantWeb)
	}
	shaped := byName["shaped"].Workload
	if shaped.SeqPct != 25 || shaped.RateIOPS != 20000 || shaped.Arrival != "poisson" || shaped.Data != "compressible" ||
		shaped.CompressPct != 50 || !shaped.Verify || shaped.BytesPct != 300 || shaped.Runtime != 10*time.Minute || len(shaped.BSSplit) != 2 {
		t.Errorf("shaped workload %+v", shaped)
	}
	capped := byName["capped"].Workload
	if capped.RateBW != 500e6 || capped.Data != "dedupe" || capped.DedupePct != 30 || capped.ReadPct != 90 {
		t.Errorf("capped workload %+v", capped)
	}
	d := p.Drives[0]
	if d.Name != "nvme.a" || d.SpecSheet.Name != "acme-a1" || d.SpecSheet.Capacity != 1_920_000_000_000 || len(d.Spec) != 3 ||
		d.Spec[0].PCIeGen != 4 || d.Spec[2].Name != "p99_read" || d.Engine != "fio" {
		t.Errorf("drive %+v, sheet %+v", *d, d.SpecSheet)
	}
	if len(p.Mixes) != 2 || p.Mixes[0].Name != "web" || p.Mixes[0].Preset || !p.Mixes[1].Preset {
		t.Errorf("mixes %+v", p.Mixes)
	}
	if pc := p.Preconditions[0]; pc.Pattern != "purge" || pc.Method != "sanitize-crypto" || !pc.Destructive || pc.Passes != 1 {
		t.Errorf("purge %+v", *pc)
	}
}

func TestSteadyStateTracking(t *testing.T) {
	g := Expand(mustLoad(t, "testdata/valid/language.hcl", nil))
	var tracked []string
	for _, n := range stepsOf(g, "steady") {
		if n.TracksSteadyState() {
			tracked = append(tracked, n.Name)
		}
	}
	want := "nvme.a / steady / round 1/3 / read_pct=0,nvme.a / steady / round 2/3 / read_pct=0,nvme.a / steady / round 3/3 / read_pct=0"
	if got := strings.Join(tracked, ","); got != want {
		t.Errorf("tracked %s", got)
	}
	plain := &Node{Point: []workload.Param{{Name: "read_pct", Value: int64(0)}}}
	if plain.TracksSteadyState() {
		t.Error("a node without steady state tracks it")
	}
}

func TestAggregateDependsOnItsRounds(t *testing.T) {
	g := Expand(mustLoad(t, "testdata/valid/language.hcl", nil))
	for _, n := range g.Nodes {
		if n.Kind != KindAggregate {
			continue
		}
		if len(n.DependsOn) != 3 || *n.Aggregate != (workload.Aggregate{Use: "last", Keep: 2}) || n.Workload != nil {
			t.Errorf("%s: %+v", n.Name, *n)
		}
		for i, dep := range n.DependsOn {
			if r := g.Node(dep); r.Round != i+1 || r.Group != n.Group || r.Rounds != 3 {
				t.Errorf("%s depends on %s", n.Name, r.Name)
			}
		}
	}
}

func TestEstimateSequentialOrParallel(t *testing.T) {
	g := &Graph{Nodes: []*Node{
		{Drive: "a", Estimate: time.Minute},
		{Drive: "b", Estimate: 2 * time.Minute},
		{Drive: "a", Estimate: time.Minute},
	}}
	if got := g.Estimate(); got != 4*time.Minute {
		t.Errorf("drives in turn: %v, want 4m", got)
	}
	g.Parallel = true
	if got := g.Estimate(); got != 2*time.Minute {
		t.Errorf("drives in parallel: %v, want 2m", got)
	}
	w := &workload.Workload{Runtime: time.Hour, BytesPct: 400}
	if got := estimate(w, &Drive{Size: 1e9}); got != 4*time.Second {
		t.Errorf("the shorter bound: %v, want 4s", got)
	}
}

// jsonText renders plain Go data as compact JSON.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}
