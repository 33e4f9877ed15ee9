package plan

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/workload"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// mustLoad loads a plan that must be valid.
func mustLoad(t testing.TB, path string, vars map[string]string) *Plan {
	t.Helper()
	p, sources, diags := Load(path, LoadOptions{Vars: vars})
	if diags.HasErrors() || len(diags) > 0 {
		var buf bytes.Buffer
		_ = sources.WriteDiagnostics(&buf, diags, 100, false)
		t.Fatalf("loading %s:\n%s", path, buf.String())
	}
	return p
}

// TestValidPlansGolden loads each plan under testdata/valid and compares
// its graph with the golden file next to it (regenerate with -update).
func TestValidPlansGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/valid/*.hcl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no valid fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			g := Expand(mustLoad(t, file, nil))
			checkTopologicalOrder(t, g)
			got, err := json.MarshalIndent(g, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(file, ".hcl") + ".graph.json"
			if *update {
				if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if string(want) != string(got)+"\n" {
				t.Errorf("graph of %s differs from %s; run go test -update and review the diff", file, golden)
			}
		})
	}
}

// checkTopologicalOrder checks that every node comes after the nodes it
// depends on, that IDs are unique and that dependencies exist.
func checkTopologicalOrder(t *testing.T, g *Graph) {
	t.Helper()
	seen := map[string]bool{}
	for _, n := range g.Nodes {
		for _, dep := range n.DependsOn {
			if !seen[dep] {
				t.Errorf("node %q depends on %s, which does not come before it", n.Name, dep)
			}
		}
		if seen[n.ID] {
			t.Errorf("node %q repeats ID %s", n.Name, n.ID)
		}
		seen[n.ID] = true
	}
}

func TestQuickstartGraph(t *testing.T) {
	g := Expand(mustLoad(t, "testdata/valid/quickstart.hcl", nil))
	want := []struct {
		kind NodeKind
		name string
	}{
		{KindPrecondition, "scratch / fill pass 1/2"},
		{KindPrecondition, "scratch / fill pass 2/2"},
		{KindProfile, "scratch / 4k-random-read / iodepth=1"},
		{KindProfile, "scratch / 4k-random-read / iodepth=4"},
		{KindProfile, "scratch / 4k-random-read / iodepth=16"},
		{KindCheck, "scratch / latency"},
		{KindProfile, "scratch / 64k-seq-write"},
		{KindReport, "report"},
	}
	if len(g.Nodes) != len(want) {
		t.Fatalf("got %d nodes, want %d", len(g.Nodes), len(want))
	}
	for i, w := range want {
		if n := g.Nodes[i]; n.Kind != w.kind || n.Name != w.name {
			t.Errorf("node %d = %s %q, want %s %q", i, n.Kind, n.Name, w.kind, w.name)
		}
	}
	ids := nodeIDs(g)
	wantDeps := [][]string{
		nil,
		{ids[0]},
		{ids[1]},
		{ids[2]},
		{ids[3]},
		{ids[2], ids[3], ids[4]},
		{ids[4]},
		ids[:7],
	}
	for i, deps := range wantDeps {
		if got := g.Nodes[i].DependsOn; strings.Join(got, ",") != strings.Join(deps, ",") {
			t.Errorf("%s depends on %v, want %v", g.Nodes[i].Name, got, deps)
		}
	}
}

func TestQuickstartWorkloads(t *testing.T) {
	g := Expand(mustLoad(t, "testdata/valid/quickstart.hcl", nil))
	fill := g.Nodes[0].Workload
	if fill.RW != "write" || fill.BS != 128<<10 || fill.Runtime != 0 || fill.Loops != 1 || fill.Engine != "native" {
		t.Errorf("fill pass workload = %+v", *fill)
	}
	read := g.Nodes[3].Workload
	want := workload.Workload{RW: "randread", ReadPct: 100, BS: 4096, IODepth: 4, NumJobs: 1,
		Runtime: 10 * time.Second, Ramp: 2 * time.Second, Direct: true, Engine: "native"}
	if !reflect.DeepEqual(*read, want) {
		t.Errorf("iodepth=4 workload = %+v, want %+v", *read, want)
	}
	if c := g.Nodes[5].Check; c == nil || c.Function != "p99_under" || c.Args["limit_us"] != int64(5000) || c.ScriptHash == "" {
		t.Errorf("check node carries %+v", c)
	}
}

func TestEstimates(t *testing.T) {
	g := Expand(mustLoad(t, "testdata/valid/quickstart.hcl", nil))
	wantNodes := []time.Duration{
		1073741824 * time.Nanosecond, // 1 GiB at 1 GB/s
		1073741824 * time.Nanosecond,
		12 * time.Second, 12 * time.Second, 12 * time.Second,
		0,
		10 * time.Second,
		0,
	}
	for i, want := range wantNodes {
		if got := g.Nodes[i].Estimate; got != want {
			t.Errorf("%s: estimate %v, want %v", g.Nodes[i].Name, got, want)
		}
	}
	if got, want := g.Estimate(), 46*time.Second+2*1073741824*time.Nanosecond; got != want {
		t.Errorf("graph estimate %v, want %v", got, want)
	}
	full := Expand(mustLoad(t, "testdata/valid/full.hcl", nil))
	for _, n := range full.Nodes {
		if n.Source == "fill" && n.Estimate != 0 {
			t.Errorf("%s on a drive of unknown size: estimate %v, want 0", n.Name, n.Estimate)
		}
		if n.Source == "seq-read" && n.Estimate != 1073741824*time.Nanosecond {
			t.Errorf("%s with io_size 1GiB: estimate %v", n.Name, n.Estimate)
		}
	}
}

func TestFullGraphShape(t *testing.T) {
	g := Expand(mustLoad(t, "testdata/valid/full.hcl", nil))
	count := map[string]int{}
	for _, n := range g.Nodes {
		count[n.Drive+"|"+n.Source]++
		for _, dep := range n.DependsOn {
			if d := g.Node(dep); n.Kind != KindReport && d.Drive != n.Drive {
				t.Errorf("%s depends on %s of another drive", n.Name, d.Name)
			}
		}
	}
	want := map[string]int{
		"nvme0|fill": 2, "nvme0|scramble": 1, "nvme0|random-read": 6, "nvme0|latency": 1,
		"nvme0|oltp-mix": 2, "nvme0|patterns": 3, "nvme0|seq-read": 1, "nvme0|reads": 1,
		"reference|random-read": 6, "reference|seq-read": 1, "reference|reads": 1, "|": 1,
	}
	for k, v := range want {
		if count[k] != v {
			t.Errorf("%s: %d nodes, want %d", k, count[k], v)
		}
	}
	if len(g.Nodes) != 26 {
		t.Errorf("got %d nodes, want 26", len(g.Nodes))
	}
}

func TestSweepOrderFirstAxisSlowest(t *testing.T) {
	g := Expand(mustLoad(t, "testdata/valid/full.hcl", nil))
	var names []string
	for _, n := range g.Nodes {
		if n.Drive == "reference" && n.Source == "random-read" {
			names = append(names, strings.TrimPrefix(n.Name, "reference / random-read / "))
			if n.Workload.BS != n.Point[0].Value.(int64) || int64(n.Workload.IODepth) != n.Point[1].Value.(int64) {
				t.Errorf("%s: sweep values not applied: %+v", n.Name, *n.Workload)
			}
		}
	}
	want := "bs=4KiB, iodepth=1|bs=4KiB, iodepth=4|bs=4KiB, iodepth=16|bs=64KiB, iodepth=1|bs=64KiB, iodepth=4|bs=64KiB, iodepth=16"
	if got := strings.Join(names, "|"); got != want {
		t.Errorf("points\n got %s\nwant %s", got, want)
	}
}

func TestMixedSweepReadShares(t *testing.T) {
	g := Expand(mustLoad(t, "testdata/valid/full.hcl", nil))
	got := map[string]int{}
	for _, n := range g.Nodes {
		if n.Drive == "nvme0" && (n.Source == "patterns" || n.Source == "oltp-mix") {
			got[n.Name] = n.Workload.ReadPct
		}
	}
	want := map[string]int{
		"nvme0 / patterns / rw=read":     100,
		"nvme0 / patterns / rw=write":    0,
		"nvme0 / patterns / rw=randrw":   50,
		"nvme0 / oltp-mix / read_pct=70": 70,
		"nvme0 / oltp-mix / read_pct=30": 30,
	}
	for name, pct := range want {
		if got[name] != pct {
			t.Errorf("%s: read_pct %d, want %d", name, got[name], pct)
		}
	}
}

func TestIDsAreDeterministic(t *testing.T) {
	a := nodeIDs(Expand(mustLoad(t, "testdata/valid/full.hcl", nil)))
	b := nodeIDs(Expand(mustLoad(t, "testdata/valid/full.hcl", nil)))
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Errorf("IDs differ between two loads:\n%v\n%v", a, b)
	}
	for _, id := range a {
		if len(id) != 12 {
			t.Errorf("ID %q is not 12 hex digits", id)
		}
	}
}

// copyQuickstart copies the quickstart plan and its script to a temporary
// folder, applying edit to the plan's text.
func copyQuickstart(t *testing.T, edit func(string) string, script string) string {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/valid/quickstart.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "checks"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "quickstart.hcl")
	if err := os.WriteFile(path, []byte(edit(string(src))), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "checks", "latency.star"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestChangedStepChangesOnlyItsIDs(t *testing.T) {
	script, err := os.ReadFile("testdata/valid/checks/latency.star")
	if err != nil {
		t.Fatal(err)
	}
	same := func(s string) string { return s }
	base := Expand(mustLoad(t, copyQuickstart(t, same, string(script)), nil))
	if moved := nodeIDs(Expand(mustLoad(t, "testdata/valid/quickstart.hcl", nil))); strings.Join(moved, ",") != strings.Join(nodeIDs(base), ",") {
		t.Error("the same plan in another folder has other IDs")
	}
	tests := []struct {
		name    string
		edit    func(string) string
		script  string
		changed []string // sources whose nodes get new IDs, besides the report
	}{
		{
			name:    "profile",
			edit:    func(s string) string { return strings.Replace(s, "iodepth = 4\n", "iodepth = 8\n", 1) },
			script:  string(script),
			changed: []string{"64k-seq-write"},
		},
		{
			name:    "check script",
			edit:    same,
			script:  string(script) + "\n# edited\n",
			changed: []string{"latency"},
		},
		{
			name:    "variable",
			edit:    same,
			script:  string(script),
			changed: []string{"4k-random-read", "64k-seq-write"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var vars map[string]string
			if tt.name == "variable" {
				vars = map[string]string{"runtime": "20s"}
			}
			g := Expand(mustLoad(t, copyQuickstart(t, tt.edit, tt.script), vars))
			for i, n := range g.Nodes {
				wantChange := n.Kind == KindReport || strings.Contains(strings.Join(tt.changed, ","), n.Source)
				if changed := n.ID != base.Nodes[i].ID; changed != wantChange {
					t.Errorf("%s: ID changed = %v, want %v", n.Name, changed, wantChange)
				}
			}
		})
	}
}

func TestGraphMethods(t *testing.T) {
	g := Expand(mustLoad(t, "testdata/valid/quickstart.hcl", nil))
	for _, n := range g.Nodes {
		if g.Node(n.ID) != n {
			t.Errorf("Node(%s) does not return %q", n.ID, n.Name)
		}
	}
	if g.Node("000000000000") != nil {
		t.Error("Node of an unknown ID is not nil")
	}
	dot := g.DOT()
	if !strings.HasPrefix(dot, "digraph plan {") || !strings.Contains(dot, `label="scratch"`) {
		t.Errorf("DOT output lacks the graph or the drive cluster:\n%s", dot)
	}
	for _, n := range g.Nodes {
		for _, dep := range n.DependsOn {
			if edge := `"` + dep + `" -> "` + n.ID + `"`; !strings.Contains(dot, edge) {
				t.Errorf("DOT output lacks edge %s", edge)
			}
		}
	}
	raw, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	var back Graph
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Nodes) != len(g.Nodes) || back.Nodes[3].Workload.IODepth != 4 || back.Nodes[7].DependsOn[6] != g.Nodes[6].ID {
		t.Errorf("graph does not survive a JSON round trip: %s", raw)
	}
}

// nodeIDs lists a graph's node IDs in order.
func nodeIDs(g *Graph) []string {
	ids := make([]string, len(g.Nodes))
	for i, n := range g.Nodes {
		ids[i] = n.ID
	}
	return ids
}
