package plan

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hclwrite"
)

// exampleDir holds the example plans, the spec sheets they include
// (drives/) and the modules they use (modules/).
const exampleDir = "../examples"

// examplePlan is an example plan, the -var values it is loaded with and
// the steps it must expand to.
type examplePlan struct {
	file  string
	vars  map[string]string
	steps int
	kinds map[NodeKind]int
}

// examplePlans are the example plans with the -var values that make them
// load (a target where one is required) and the steps they expand to,
// as documented in each plan and in docs/plan-language.md.
var examplePlans = []examplePlan{
	{"quickstart.hcl", nil, 8, map[NodeKind]int{KindPrecondition: 2, KindProfile: 4, KindCheck: 1, KindReport: 1}},
	// fill, 8 four-corners and 12 mix curves of 1 + 12 points
	{"storagereview-vdbench/kioxia-cd6.hcl", devTarget, 262, map[NodeKind]int{KindPrecondition: 1, KindProfile: 260, KindReport: 1}},
	// fill, 4 four-corners and 12 mix curves of 1 + 12 points
	{"storagereview-vdbench/sk-hynix-pe6011.hcl", devTarget, 210, map[NodeKind]int{KindPrecondition: 1, KindProfile: 208, KindReport: 1}},
	// 4 tests each after 2 fill passes: 56 + 2 x (10 + mean) + 105 + 1
	// The latency ladder is 11 (workers, QD) points at each of 3 read
	// shares: 33 steps, not a 5 x 7 matrix of 105.
	{"thg-cd6v/thg-cd6v.hcl", devTarget, 121, map[NodeKind]int{KindPrecondition: 8, KindProfile: 110, KindAggregate: 2, KindReport: 1}},
	// fill, then 8 workloads x 6 iodepths x 5 numjobs
	{"storagereview-fio-matrix/kioxia-cm9-r.hcl", devTarget, 242, map[NodeKind]int{KindPrecondition: 1, KindProfile: 240, KindReport: 1}},
	// each test after a purge (and 2 fill passes), up to 25 rounds:
	// IOPS 56, throughput 2 x 2, latency 9 points a round; saturation 1
	{"snia-pts-enterprise/pts-e.hcl", devTarget, 1740, map[NodeKind]int{KindPrecondition: 13, KindProfile: 1726, KindReport: 1}},
	// prepare, then 4 tests x (read, write) x (5 loops + best)
	{"crystaldiskmark/crystaldiskmark.hcl", nil, 50, map[NodeKind]int{KindPrecondition: 1, KindProfile: 40, KindAggregate: 8, KindReport: 1}},
	{"crystaldiskmark/crystaldiskmark.hcl", map[string]string{"preset": "nvme"}, 50, map[NodeKind]int{KindPrecondition: 1, KindProfile: 40, KindAggregate: 8, KindReport: 1}},
	// 2 fill passes, 4 profiles, a check of each
	{"acceptance/acceptance.hcl", devTarget, 11, map[NodeKind]int{KindPrecondition: 2, KindProfile: 4, KindCheck: 4, KindReport: 1}},
	// 2 fill passes, 2 x 2 sequential and 2 x 4 x 2 random points, QD1, the sheet
	{"acceptance/vendor-acceptance.hcl", devTarget, 25, map[NodeKind]int{KindPrecondition: 2, KindProfile: 21, KindAcceptance: 1, KindReport: 1}},
	// fill, the adaptive search, up to 10 steady-state rounds
	{"acceptance/latency-qos.hcl", devTarget, 13, map[NodeKind]int{KindPrecondition: 1, KindAdaptive: 1, KindProfile: 10, KindReport: 1}},
	// a fill, then the boot and login replays
	{"vdi-replay/vdi-replay.hcl", nil, 4, map[NodeKind]int{KindPrecondition: 1, KindProfile: 2, KindReport: 1}},
	// prepare, 4 modes x 2 thread counts, cleanup
	{"apps/sysbench-fileio.hcl", nil, 11, map[NodeKind]int{KindExec: 10, KindReport: 1}},
	// clean, initdb, start, createdb, prepare, 3 OLTP runs, stop
	// unet3d, resnet50 and cosmoflow, each on its own data set
	{"ai/dataloader.hcl", nil, 4, map[NodeKind]int{KindProfile: 3, KindReport: 1}},
	// 3 passes of a write and a read-back, and the checkpoint's summary
	{"ai/checkpoint.hcl", nil, 8, map[NodeKind]int{KindProfile: 6, KindCheckpoint: 1, KindReport: 1}},
	// DLIO's data generation, training and cleanup (not run by the tests)
	{"ai/dlio.hcl", nil, 4, map[NodeKind]int{KindExec: 3, KindReport: 1}},
	{"apps/postgres-oltp.hcl", map[string]string{"directory": "/mnt/nvme0/pgbench"}, 10, map[NodeKind]int{KindExec: 9, KindReport: 1}},
}

// devTarget points an example at a device path; loading a plan does not
// touch it.
var devTarget = map[string]string{"target": "/dev/nvme0n1"}

// isExamplePlan tells example plans from the files they use: spec sheets,
// modules and variable files.
func isExamplePlan(path string) bool {
	rel, _ := filepath.Rel(exampleDir, path)
	top := strings.Split(filepath.ToSlash(rel), "/")[0]
	return top != "drives" && top != "modules" && !strings.HasSuffix(path, ".vars.hcl")
}

// TestExamplesListed fails when an example plan has no row in
// examplePlans, so that every example is loaded and counted.
func TestExamplesListed(t *testing.T) {
	var found []string
	for _, path := range exampleFiles(t) {
		if isExamplePlan(path) {
			rel, _ := filepath.Rel(exampleDir, path)
			found = append(found, filepath.ToSlash(rel))
		}
	}
	for _, f := range found {
		if !slices.ContainsFunc(examplePlans, func(e examplePlan) bool { return e.file == f }) {
			t.Errorf("example %s is not in examplePlans", f)
		}
	}
	if len(found) < 7 {
		t.Errorf("found %d example plans: %v", len(found), found)
	}
}

// exampleFiles lists every .hcl file under the examples folder.
func exampleFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(exampleDir, func(path string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(path, ".hcl") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestExamplesFormatted fails when drivebench fmt would change an example.
func TestExamplesFormatted(t *testing.T) {
	for _, path := range append(exampleFiles(t), "presets/mixes.hcl") {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(hclwrite.Format(src), src) {
			t.Errorf("%s is not formatted; run drivebench fmt on it", path)
		}
	}
}

func TestExamplePlans(t *testing.T) {
	for _, ex := range examplePlans {
		t.Run(ex.file+varsSuffix(ex.vars), func(t *testing.T) {
			g := Expand(mustLoad(t, filepath.Join(exampleDir, ex.file), ex.vars))
			checkTopologicalOrder(t, g)
			kinds := map[NodeKind]int{}
			for _, n := range g.Nodes {
				kinds[n.Kind]++
			}
			if len(g.Nodes) != ex.steps {
				t.Errorf("%d steps, want %d", len(g.Nodes), ex.steps)
			}
			for kind, want := range ex.kinds {
				if kinds[kind] != want {
					t.Errorf("%d %s steps, want %d", kinds[kind], kind, want)
				}
			}
		})
	}
}

// varsSuffix names a subtest by its -var values.
func varsSuffix(vars map[string]string) string {
	var parts []string
	for _, k := range sortedKeys(vars) {
		if k != "target" {
			parts = append(parts, k+"="+vars[k])
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "/" + strings.Join(parts, ",")
}

// stepsOf returns the nodes of a graph whose source is source.
func stepsOf(g *Graph, source string) []*Node {
	var out []*Node
	for _, n := range g.Nodes {
		if n.Source == source {
			out = append(out, n)
		}
	}
	return out
}

func TestSNIAIOPSRounds(t *testing.T) {
	g := Expand(mustLoad(t, filepath.Join(exampleDir, "snia-pts-enterprise/pts-e.hcl"), devTarget))
	perRound := map[int]int{}
	tracked := 0
	for _, n := range stepsOf(g, "iops") {
		if n.Kind != KindProfile {
			continue
		}
		perRound[n.Round]++
		if n.TracksSteadyState() {
			tracked++
			if n.Workload.BS != 4096 || n.Workload.ReadPct != 0 {
				t.Errorf("%s tracks steady state", n.Name)
			}
		}
		if n.Group != "dut / iops" || n.Rounds != 25 || n.SteadyState == nil || n.SteadyState.Window != 5 {
			t.Errorf("%s: group %q, rounds %d, steady state %+v", n.Name, n.Group, n.Rounds, n.SteadyState)
		}
	}
	if len(perRound) != 25 || tracked != 25 {
		t.Errorf("%d rounds, %d tracked nodes; want 25 and 25", len(perRound), tracked)
	}
	for round, n := range perRound {
		if n != 56 {
			t.Errorf("round %d has %d IOPS points, want 56", round, n)
		}
	}
	var purges []string
	for _, n := range g.Nodes {
		if n.Source == "purge" {
			purges = append(purges, n.Before)
			if n.Workload != nil || n.PurgeMethod != "format" {
				t.Errorf("%s: workload %v, method %q", n.Name, n.Workload, n.PurgeMethod)
			}
		}
	}
	if got := strings.Join(purges, ","); got != "iops,throughput.1024KiB,throughput.128KiB,latency,write-saturation" {
		t.Errorf("purges before %s", got)
	}
	wsat := stepsOf(g, "write-saturation")[0].Workload
	if wsat.BytesPct != 400 || wsat.Runtime.Hours() != 24 {
		t.Errorf("write saturation: %+v", *wsat)
	}
}

func TestFioMatrixPoints(t *testing.T) {
	g := Expand(mustLoad(t, filepath.Join(exampleDir, "storagereview-fio-matrix/kioxia-cm9-r.hcl"), devTarget))
	perWorkload := map[string]int{}
	for _, n := range g.Nodes {
		if n.Kind == KindProfile {
			perWorkload[n.Source]++
			if n.Workload.Engine != "fio" {
				t.Errorf("%s runs on %q", n.Name, n.Workload.Engine)
			}
		}
	}
	if len(perWorkload) != 8 {
		t.Errorf("%d workloads: %v", len(perWorkload), perWorkload)
	}
	for w, n := range perWorkload {
		if n != 6*5 {
			t.Errorf("%s has %d points, want 6 x 5", w, n)
		}
	}
	first := stepsOf(g, "matrix.128k-sequential-write")
	if first[0].Name != "dut / matrix.128k-sequential-write / iodepth=1, numjobs=1" || g.Nodes[1] != first[0] {
		t.Errorf("the matrix does not start with the review's first workload: %s", g.Nodes[1].Name)
	}
}

func TestVdbenchCurves(t *testing.T) {
	p := mustLoad(t, filepath.Join(exampleDir, "storagereview-vdbench/kioxia-cd6.hcl"), devTarget)
	if p.Drives[0].SpecSheet == nil || p.Drives[0].SpecSheet.Model != "CD6-R" || len(p.Mixes) != 12 {
		t.Fatalf("spec sheet %+v, %d mixes", p.Drives[0].SpecSheet, len(p.Mixes))
	}
	g := Expand(p)
	curve := stepsOf(g, "vdbench.corners.4k-random-read-high")
	if len(curve) != 13 {
		t.Fatalf("curve has %d steps, want 13", len(curve))
	}
	base := curve[0]
	if base.Workload.RatePct != 0 || base.Workload.IODepth != 512 || base.Workload.SizePct != 25 || base.Stop != nil {
		t.Errorf("uncontrolled step: %+v", *base.Workload)
	}
	for i, n := range curve[1:] {
		w := n.Workload
		if w.RatePct != float64(10*(i+1)) || w.RateBase != base.ID || n.Group != base.Group || n.Group == "" {
			t.Errorf("%s: rate %g%% of %s, group %q", n.Name, w.RatePct, w.RateBase, n.Group)
		}
	}
	sql := stepsOf(g, "vdbench.mixes.sql")[0].Workload
	if sql.RW != "randrw" || sql.ReadPct != 70 || len(sql.BSSplit) != 3 || len(sql.Zones) != 2 || sql.SeqPct != 0 {
		t.Errorf("sql mix workload: %+v", *sql)
	}
}

// mustLoadSmoke loads an example plan with the smoke.vars.hcl beside it
// and the given -var values.
func mustLoadSmoke(t *testing.T, plan string, vars map[string]string) *Plan {
	t.Helper()
	path := filepath.Join(exampleDir, plan)
	p, sources, diags := Load(path, LoadOptions{Vars: vars, VarFiles: []string{filepath.Join(filepath.Dir(path), "smoke.vars.hcl")}})
	if diags.HasErrors() || len(diags) > 0 {
		var b strings.Builder
		_ = sources.WriteDiagnostics(&b, diags, 100, false)
		t.Fatal(b.String())
	}
	return p
}

func TestExampleWithVarFile(t *testing.T) {
	p := mustLoadSmoke(t, "thg-cd6v/thg-cd6v.hcl", nil)
	d := p.Drives[0]
	if d.Path != "" || d.Size != 256<<20 {
		t.Errorf("drive %+v", *d)
	}
	g := Expand(p)
	if len(g.Nodes) != 121-56+3*7 {
		t.Errorf("%d steps, want 86: 3 x 7 IOPS points instead of 8 x 7", len(g.Nodes))
	}
	for _, n := range stepsOf(g, "write-saturation") {
		if n.Workload.Runtime.Seconds() != 12 || n.Workload.NumJobs != 4 {
			t.Errorf("%s: %+v", n.Name, *n.Workload)
		}
	}
}

// TestSNIASmokeVars: the variable file that scales PTS down for the QEMU
// tier keeps every test, each after its purge, with 5 rounds (the
// window) of fewer points.
func TestSNIASmokeVars(t *testing.T) {
	p := mustLoadSmoke(t, "snia-pts-enterprise/pts-e.hcl", devTarget)
	if d := p.Drives[0]; d.Path != "/dev/nvme0n1" || d.Size != 64<<20 {
		t.Errorf("drive %+v", *d)
	}
	g := Expand(p)
	points := map[string]int{}
	for _, n := range g.Nodes {
		if n.Kind == KindProfile {
			points[n.Source]++
			if n.SteadyState != nil && n.Rounds != 5 {
				t.Errorf("%s: %d rounds, want 5", n.Name, n.Rounds)
			}
		}
	}
	// 2 x 2 IOPS points, write and read, 2 latency points: 5 rounds each
	want := map[string]int{"iops": 20, "throughput.1024KiB": 10, "throughput.128KiB": 10, "latency": 10, "write-saturation": 1}
	for source, n := range want {
		if points[source] != n {
			t.Errorf("%s: %d steps, want %d (all: %v)", source, points[source], n, points)
		}
	}
	if len(g.Nodes) != 65 {
		t.Errorf("%d steps, want 65: 51 profile steps, 13 preconditions and the report", len(g.Nodes))
	}
}
