package catalog

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/internal/testenv"
)

// metricsFixtures are results folders of every kind the reports know:
// hook verdicts (two of one step in review/, of one subject), drives
// without a serial, exec steps, acceptance lines.
var metricsFixtures = []string{"quickstart", "review", "review-cd6", "qemu", "vendor-acceptance", "latency-qos", "sysbench-fileio", "postgres-oltp"}

// TestMetricsExportIsValid exports a catalog of the report fixtures and
// two more runs of one plan on drives without a serial, and checks the
// OpenMetrics text with a strict reader of its own, then with
// prometheus_client's OpenMetrics parser and promtool (on the Prometheus
// text) when they are installed; ./test.sh installs both.
func TestMetricsExportIsValid(t *testing.T) {
	root := t.TempDir()
	start := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	unnamed := []string{writeRun(t, root, drive{}, start, nil, nil), writeRun(t, root, drive{}, start.Add(time.Hour), nil, nil)}
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		ctx := context.Background()
		for _, f := range metricsFixtures {
			if _, err := c.Add(ctx, "../reports/testdata/"+f); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
		}
		for _, dir := range unnamed {
			if _, err := c.Add(ctx, dir); err != nil {
				t.Fatal(err)
			}
		}
		e, err := c.Export(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		codes := map[string]bool{}
		for _, d := range e.Drives {
			for _, v := range d.Verdicts {
				codes[v.Kind+" "+v.Code] = true
			}
		}
		for _, want := range []string{"acceptance conditions_differ", "acceptance other_link", "check hook", "expect does_not_hold"} {
			if !codes[want] {
				t.Errorf("no %s verdict in the export, which has %v", want, codes)
			}
		}
		var om, prom bytes.Buffer
		if err := WriteMetrics(&om, e, OpenMetrics); err != nil {
			t.Fatal(err)
		}
		if err := WriteMetrics(&prom, e, PrometheusText); err != nil {
			t.Fatal(err)
		}
		for _, p := range checkOpenMetrics(om.String()) {
			t.Error(p)
		}
		for _, want := range []string{
			// Both hook verdicts of one step, told apart by their index.
			`kind="check",name="p99-under-1ms",metric="",subject="p99-under-1ms",index="2",drivebench_verdict="pass"} 1`,
			`drive="cm9",model="KIOXIA KCM9XRJE15T3",serial="X4E0A01ZT1A8",firmware="0102",plan="review",step="474c12d43a37d86f",profile="4k-70-30-mix",point="iodepth=1",direction="write",quantile="0.999"} 0.000299008`,
		} {
			if !strings.Contains(om.String(), want) {
				t.Errorf("the export lacks %s", want)
			}
		}
		if got := strings.Count(om.String(), "drivebench_run_timestamp_seconds{"); got != len(metricsFixtures)+len(unnamed) {
			t.Errorf("%d runs in the export, want %d", got, len(metricsFixtures)+len(unnamed))
		}
		pythonParses(t, om.String())
		promtoolChecks(t, prom.String())
	})
}

// pythonParses reads text with prometheus_client's OpenMetrics parser,
// the reference reader, when a python3 has it.
func pythonParses(t *testing.T, text string) {
	t.Helper()
	const script = `import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
n = sum(len(f.samples) for f in text_string_to_metric_families(sys.stdin.read()))
print(n)`
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-c", "import prometheus_client.openmetrics.parser").Run() != nil {
			continue
		}
		cmd := exec.Command(py, "-c", script)
		cmd.Stdin = strings.NewReader(text)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("prometheus_client's OpenMetrics parser refuses the export: %v\n%s", err, out)
		}
		if want := strconv.Itoa(strings.Count(text, "\n") - strings.Count(text, "\n#") - 1); strings.TrimSpace(string(out)) != want {
			t.Errorf("prometheus_client read %s samples, want %s", strings.TrimSpace(string(out)), want)
		}
		return
	}
	testenv.RequirePart(t, "prometheus_client", "python3 cannot import it (apt-get install python3-prometheus-client; ./test.sh installs it): the export is not read by it")
}

// promtoolChecks lints the Prometheus text with promtool, when installed.
// promtool reads the Prometheus text format only, not OpenMetrics.
func promtoolChecks(t *testing.T, text string) {
	t.Helper()
	if _, err := exec.LookPath("promtool"); err != nil {
		testenv.RequirePart(t, "promtool", "it is not installed (./test.sh takes it out of the prometheus package): the Prometheus text is not linted")
		return
	}
	cmd := exec.Command("promtool", "check", "metrics")
	cmd.Stdin = strings.NewReader(text)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
}

func TestCheckOpenMetricsFindsFaults(t *testing.T) {
	const head = "# TYPE a gauge\n# HELP a x\n"
	for _, c := range []struct{ name, text, want string }{
		{"valid", head + "a{x=\"1\"} 1\na{x=\"2\"} 2\n# EOF\n", ""},
		{"no EOF", head + "a 1\n", "does not end with # EOF"},
		{"after EOF", head + "a 1\n# EOF\na 2\n", "after # EOF"},
		{"duplicate", head + "a{x=\"1\"} 1\na{x=\"1\"} 2\n# EOF\n", "line 4: series a{x=\"1\"} written twice"},
		{"family twice", head + "# TYPE b gauge\nb 1\na 2\n# EOF\n", "line 5: a outside its family"},
		{"metadata late", head + "a 1\n# UNIT a seconds\n# EOF\n", "line 4: metadata of a after its samples"},
		{"unit suffix", "# TYPE a gauge\n# UNIT a seconds\na 1\n# EOF\n", "line 2: a does not end in _seconds"},
		{"summary grouping", "# TYPE s summary\ns{q=\"1\",quantile=\"0.5\"} 1\ns{q=\"2\",quantile=\"0.5\"} 1\ns{q=\"1\",quantile=\"0.9\"} 1\n# EOF\n",
			"line 4: s{q=\"1\"} interleaved with another point"},
		{"stateset", "# TYPE v stateset\nv{v=\"pass\"} 1\nv{v=\"fail\"} 1\n# EOF\n", "line 3: v{} has 2 states set, want one"},
		{"bad label", head + "a{x=1} 1\n# EOF\n", "line 3: cannot read"},
		{"untyped", "a 1\n# EOF\n", "line 1: a outside its family"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Join(checkOpenMetrics(c.text), "\n")
			if c.want == "" && got != "" || !strings.Contains(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

var (
	metricsSample = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*",?)*)\})? (\S+)$`)
	metricsLabel  = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"`)
)

// omFamily is what checkOpenMetrics knows of a family as it reads it.
type omFamily struct {
	name, typ  string
	hasSamples bool
	points     map[string]bool
	lastPoint  string
	states     map[string]int // a stateset's points: how many states are 1
}

// checkOpenMetrics reads OpenMetrics text strictly and returns what is
// wrong with it: a family's metadata and samples together and once, each
// series once, a summary's or a stateset's points each in one run of
// lines, one state set per StateSet point, units as name suffixes, and
// "# EOF" last.
func checkOpenMetrics(text string) []string {
	var problems []string
	bad := func(n int, format string, a ...any) {
		problems = append(problems, fmt.Sprintf("line %d: ", n)+fmt.Sprintf(format, a...))
	}
	if !strings.HasSuffix(text, "\n# EOF\n") && text != "# EOF\n" {
		problems = append(problems, "the text does not end with # EOF")
	}
	families := map[string]*omFamily{}
	series := map[string]bool{}
	var cur *omFamily
	eof := false
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		n := i + 1
		if eof {
			bad(n, "a line after # EOF")
			break
		}
		if line == "# EOF" {
			eof = true
			continue
		}
		if f := strings.SplitN(line, " ", 4); f[0] == "#" {
			if len(f) < 4 || !slices.Contains([]string{"TYPE", "UNIT", "HELP"}, f[1]) {
				bad(n, "cannot read %q", line)
				continue
			}
			cur = checkMetadata(families, cur, f[1], f[2], f[3], func(format string, a ...any) { bad(n, format, a...) })
			continue
		}
		m := metricsSample.FindStringSubmatch(line)
		if m == nil {
			bad(n, "cannot read %q", line)
			continue
		}
		if _, err := strconv.ParseFloat(m[3], 64); err != nil {
			bad(n, "value %q is not a number", m[3])
		}
		if cur == nil || !cur.owns(m[1]) {
			bad(n, "%s outside its family", m[1])
			continue
		}
		cur.hasSamples = true
		labels := map[string]string{}
		for _, l := range metricsLabel.FindAllStringSubmatch(m[2], -1) {
			if _, dup := labels[l[1]]; dup {
				bad(n, "label %s twice", l[1])
			}
			labels[l[1]] = l[2]
		}
		if key := m[1] + labelText(labels, ""); series[key] {
			bad(n, "series %s written twice", key)
		} else {
			series[key] = true
		}
		cur.point(labels, m[3], func(format string, a ...any) { bad(n, format, a...) })
	}
	for _, f := range families {
		for p, set := range f.states {
			if set == 0 {
				problems = append(problems, fmt.Sprintf("%s%s has no state set", f.name, p))
			}
		}
	}
	return problems
}

// checkMetadata reads a TYPE, UNIT or HELP line of family name and returns
// the family now being read.
func checkMetadata(families map[string]*omFamily, cur *omFamily, kind, name, value string, bad func(string, ...any)) *omFamily {
	if cur == nil || cur.name != name {
		if families[name] != nil {
			bad("family %s written in two places", name)
		}
		cur = &omFamily{name: name, typ: "unknown", points: map[string]bool{}, states: map[string]int{}}
		families[name] = cur
	}
	if cur.hasSamples {
		bad("metadata of %s after its samples", name)
	}
	switch kind {
	case "TYPE":
		cur.typ = value
	case "UNIT":
		if !strings.HasSuffix(name, "_"+value) {
			bad("%s does not end in _%s", name, value)
		}
	}
	return cur
}

// owns tells whether a sample named name belongs to the family.
func (f *omFamily) owns(name string) bool {
	if f.typ == "summary" && (name == f.name+"_count" || name == f.name+"_sum") {
		return true
	}
	return name == f.name
}

// point checks that a sample's point continues the family's current one
// or starts a new one, and counts a stateset's set states.
func (f *omFamily) point(labels map[string]string, value string, bad func(string, ...any)) {
	skip := map[string]string{"summary": "quantile", "stateset": f.name}[f.typ]
	p := labelText(labels, skip)
	if p != f.lastPoint && f.points[p] {
		bad("%s%s interleaved with another point", f.name, p)
	}
	f.points[p], f.lastPoint = true, p
	if f.typ == "stateset" {
		if value != "0" && value != "1" {
			bad("state %s of %s%s is %s, want 0 or 1", labels[f.name], f.name, p, value)
		}
		if value == "1" {
			f.states[p]++
			if f.states[p] > 1 {
				bad("%s%s has %d states set, want one", f.name, p, f.states[p])
			}
		} else if _, ok := f.states[p]; !ok {
			f.states[p] = 0
		}
	}
}

// labelText is a label set in name order without the label skip.
func labelText(labels map[string]string, skip string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		if k != skip {
			parts = append(parts, k+`="`+labels[k]+`"`)
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}
