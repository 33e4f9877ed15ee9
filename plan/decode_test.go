package plan

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// writePlan writes a plan to a temporary folder and returns its path.
func writePlan(t testing.TB, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "plan.hcl")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const typedVariablesPlan = `
variable "seconds" { type = number }
variable "direct"  { default = false }
variable "depths" {
  type    = list(number)
  default = [1]
}
variable "label"   { default = "x" }

drive "scratch" { size = "1GiB" }

profile "read" {
  rw      = "randread"
  runtime = var.seconds
  direct  = var.direct
  sweep { iodepth = var.depths }
}
`

func TestVariableValuesFromFlags(t *testing.T) {
	p := mustLoad(t, writePlan(t, typedVariablesPlan), map[string]string{
		"seconds": "45", "direct": "true", "depths": "[2, 8]",
	})
	w := p.Profiles[0].Workload
	if w.Runtime != 45*time.Second || !w.Direct {
		t.Errorf("workload = %+v; want runtime 45s, direct", w)
	}
	if got := p.Profiles[0].Sweep[0].Values; len(got) != 2 || got[0] != int64(2) || got[1] != int64(8) {
		t.Errorf("swept iodepths = %v, want [2 8]", got)
	}
	want := map[string]any{"seconds": int64(45), "direct": true, "depths": []any{int64(2), int64(8)}, "label": "x"}
	for name, v := range want {
		if got := p.Variables[name]; !reflect.DeepEqual(got, v) {
			t.Errorf("Variables[%q] = %#v, want %#v", name, got, v)
		}
	}
}

func TestUndeclaredFlagVariable(t *testing.T) {
	_, _, diags := Load(writePlan(t, typedVariablesPlan), LoadOptions{Vars: map[string]string{"seconds": "5", "lable": "y"}})
	if len(diags) != 1 {
		t.Fatalf("got %d diagnostics, want 1: %v", len(diags), diags)
	}
	d := diags[0]
	if d.Summary != "Value For Undeclared Variable" || d.Subject != nil || !strings.Contains(d.Detail, `Did you mean "label"?`) {
		t.Errorf("diagnostic = %q (%s), subject %v", d.Summary, d.Detail, d.Subject)
	}
}

func TestHash(t *testing.T) {
	path := writePlan(t, typedVariablesPlan)
	a := mustLoad(t, path, map[string]string{"seconds": "5"})
	b := mustLoad(t, path, map[string]string{"seconds": "5"})
	c := mustLoad(t, path, map[string]string{"seconds": "6"})
	if len(a.Hash) != 64 || a.Hash != b.Hash {
		t.Errorf("same plan, same values: hashes %q and %q", a.Hash, b.Hash)
	}
	if a.Hash == c.Hash {
		t.Error("a changed variable value leaves the hash unchanged")
	}
	script, err := os.ReadFile("testdata/valid/checks/latency.star")
	if err != nil {
		t.Fatal(err)
	}
	same := func(s string) string { return s }
	q1 := mustLoad(t, copyQuickstart(t, same, string(script)), nil)
	q2 := mustLoad(t, copyQuickstart(t, same, string(script)+"\n"), nil)
	if q1.Hash == q2.Hash {
		t.Error("an edited check script leaves the hash unchanged")
	}
}

func TestQuickstartPlan(t *testing.T) {
	p := mustLoad(t, "testdata/valid/quickstart.hcl", nil)
	if p.Name != "quickstart" || p.Dir != "testdata/valid" {
		t.Errorf("name %q, dir %q", p.Name, p.Dir)
	}
	d := p.Drives[0]
	if d.Path != "" || d.Size != 1<<30 || !d.Writable || d.Engine != "native" {
		t.Errorf("drive = %+v", *d)
	}
	e := d.Spec[0]
	if e.Name != "rand_read_4k" || e.Values["iops"] != 1e6 || e.BS != 4096 || e.IODepth != 32 || e.NumJobs != 4 {
		t.Errorf("spec entry = %+v", *e)
	}
	if pc := p.Preconditions[0]; pc.Pattern != "sequential_write" || pc.Passes != 2 || pc.Workload.BS != 128<<10 {
		t.Errorf("precondition = %+v", *pc)
	}
	c := p.Checks[0]
	if !filepath.IsAbs(c.Script) || c.ScriptName != "checks/latency.star" || len(c.ScriptHash) != 64 {
		t.Errorf("check script = %q, %q, %q", c.Script, c.ScriptName, c.ScriptHash)
	}
	if p.Testbed.Name != "local" || p.Testbed.Description != "the machine this runs on" {
		t.Errorf("testbed = %+v", *p.Testbed)
	}
	if strings.Join(p.Report.Formats, ",") != "markdown,json" {
		t.Errorf("report formats = %v", p.Report.Formats)
	}
}

func TestFullPlan(t *testing.T) {
	p := mustLoad(t, "testdata/valid/full.hcl", nil)
	tb := p.Testbed
	if tb.Name != "lab-r760" || tb.Facts["server"] != "Dell R760" || tb.Facts["cpus"] != "2" || tb.Facts["kernel"] != "6.1-LTS" {
		t.Errorf("testbed = %+v", *tb)
	}
	spec := map[string]*SpecEntry{}
	for _, e := range p.Drives[0].Spec {
		spec[e.Name] = e
	}
	if e := spec["seq_read_128k"]; e.Values["bw"] != 6.8e9 || e.BS != 128<<10 {
		t.Errorf("seq_read_128k = %+v", *e)
	}
	if e := spec["rand_write_4k"]; e.State != "fresh" || e.RW != "randwrite" || e.Values["lat_us"] != 20 {
		t.Errorf("rand_write_4k = %+v", *e)
	}
	if p.Drives[1].Size != 1_920_000_000_000 {
		t.Errorf("reference drive size = %d", p.Drives[1].Size)
	}
	scramble := p.Preconditions[1].Workload
	if scramble.RW != "randwrite" || scramble.BS != 4096 || scramble.SizePct != 50 || !scramble.Direct {
		t.Errorf("scramble workload = %+v", scramble)
	}
	mix := p.Profiles[1]
	if mix.Workload.Engine != "fio" || mix.Workload.IOEngine != "io_uring" || mix.Workload.SizePct != 25 {
		t.Errorf("oltp-mix workload = %+v", mix.Workload)
	}
	if args := p.Checks[0].Args; args["label"] != "p99" || len(args["percentiles"].([]any)) != 2 {
		t.Errorf("check args = %v", args)
	}
	if strings.Join(p.Report.Formats, ",") != "markdown,json,html" {
		t.Errorf("report formats = %v", p.Report.Formats)
	}
}

func TestLoadMissingFile(t *testing.T) {
	p, sources, diags := Load(filepath.Join(t.TempDir(), "nope.hcl"), LoadOptions{})
	if p != nil || sources == nil || len(diags) != 1 || diags[0].Summary != "Cannot Read Plan File" {
		t.Errorf("Load of a missing file: %v, %v", p, diags)
	}
}

func TestWriteDiagnosticsShowsSource(t *testing.T) {
	_, sources, diags := Load("testdata/invalid/three_mistakes.hcl", LoadOptions{})
	var buf bytes.Buffer
	if err := sources.WriteDiagnostics(&buf, diags, 0, false); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"Error: Value Out Of Range",
		"  10 |   iodepth = 0",
		"\n" + strings.Repeat(" ", 21) + "^\n", // under the 0
		`Did you mean "scratch"?`,
		`at testdata/invalid/three_mistakes.hcl:24:14, in check "latency"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("rendered diagnostics lack %q:\n%s", want, out)
		}
	}
}

func TestDiagnosticsHaveSubjects(t *testing.T) {
	files, _ := filepath.Glob("testdata/invalid/*.hcl")
	for _, file := range files {
		src, _ := os.ReadFile(file)
		_, vars := fixtureExpectations(src)
		_, _, diags := Load(file, LoadOptions{Vars: vars})
		for _, d := range diags {
			if d.Subject == nil || d.Severity != hcl.DiagError || d.Detail == "" {
				t.Errorf("%s: %q has no subject, is not an error or has no detail", file, d.Summary)
			}
		}
	}
}

func FuzzLoad(f *testing.F) {
	for _, pattern := range []string{"testdata/valid/*.hcl", "testdata/invalid/*.hcl"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	// One file, rewritten for each input: the fuzzer calls the function
	// of one process sequentially.
	path := filepath.Join(f.TempDir(), "plan.hcl")
	f.Fuzz(func(t *testing.T, src []byte) {
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		p, sources, diags := Load(path, LoadOptions{})
		if err := sources.WriteDiagnostics(io.Discard, diags, 80, false); err != nil {
			t.Fatal(err)
		}
		if (p == nil) != diags.HasErrors() {
			t.Fatalf("plan %v returned with diagnostics %v", p != nil, diags)
		}
		if p != nil {
			checkTopologicalOrder(t, Expand(p))
		}
	})
}

// TestUntypedVariableTakesAnyValue: a variable without a type whose
// default is a number still takes a size with a unit from -var.
func TestUntypedVariableTakesAnyValue(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.hcl")
	src := "variable \"size\" { default = 0 }\ndrive \"d\" {\n  size     = var.size\n  writable = true\n}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, _, diags := Load(file, LoadOptions{Vars: map[string]string{"size": "256MiB"}})
	if diags.HasErrors() || p.Drives[0].Size != 256<<20 {
		t.Fatalf("%v", diags)
	}
}
