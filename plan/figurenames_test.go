package plan

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/figure"
	"github.com/hashicorp/hcl/v2"
)

// oldFigureNamesPlan writes figures by the names they had before the
// figure registry.
const oldFigureNamesPlan = `drive "scratch" {
  size     = "64MiB"
  writable = true
}

profile "steady-mean" {
  rw      = "randwrite"
  runtime = "1s"
  steady_state {
    metric = "lat_mean"
  }
}

profile "steady-p99" {
  rw      = "randwrite"
  runtime = "1s"
  steady_state { metric = "lat_p99" }
}

profile "read" {
  rw      = "randread"
  runtime = "1s"
  expect  = [result.read.lat.p999_us < 500, result.read.p99_us < 100]
}
`

// TestOldFigureNames loads a plan that names figures the old ways: it
// loads, each old name becomes its registry name, and each gives a
// warning at its place that names the new one.
func TestOldFigureNames(t *testing.T) {
	path := writeFile(t, t.TempDir(), "plan.hcl", oldFigureNamesPlan)
	p, sources, diags := Load(path, LoadOptions{})
	if diags.HasErrors() {
		var b strings.Builder
		_ = sources.WriteDiagnostics(&b, diags, 0, false)
		t.Fatal(b.String())
	}
	metrics := map[string]string{}
	for _, pr := range p.Profiles {
		if pr.SteadyState != nil {
			metrics[pr.Name] = pr.SteadyState.Metric
		}
	}
	if metrics["steady-mean"] != "mean" || metrics["steady-p99"] != "p99" {
		t.Errorf("steady-state metrics %v, want steady-mean: mean, steady-p99: p99", metrics)
	}
	var got []string
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning && d.Summary == "Deprecated Figure Name" {
			got = append(got, fmt.Sprintf("%d:%d %s", d.Subject.Start.Line, d.Subject.Start.Column, d.Detail))
		}
	}
	want := []string{
		`10:14 "lat_mean", the old steady_state metric name of the mean latency, is deprecated: write "mean"`,
		`17:27 "lat_p99", the old steady_state metric name of the p99 latency, is deprecated: write "p99"`,
		`23:14 result.read.lat.p999_us is the old name of the p99.9 latency: write result.read.p99_9_us`,
	}
	if len(got) != len(want) {
		t.Fatalf("deprecation warnings %q, want %q", got, want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("warning %d = %q, want it to start %q", i, got[i], want[i])
		}
	}
	var read *Profile
	for _, pr := range p.Profiles {
		if pr.Name == "read" {
			read = pr
		}
	}
	j, err := read.Expect[0].Eval(Measured{Read: &DirMeasure{Figures: map[string]float64{"p99_9_us": 400}}}, nil)
	if err != nil || !j.Holds || len(j.Values) != 1 || j.Values[0] != "result.read.lat.p999_us = 400" {
		t.Errorf("result.read.lat.p999_us < 500 with a p99.9 of 400 µs: %+v, %v", j, err)
	}
	var b strings.Builder
	_ = sources.WriteDiagnostics(&b, diags, 0, false)
	if !strings.Contains(b.String(), "plan.hcl:10:14") {
		t.Errorf("rendered warnings do not name plan.hcl:10:14:\n%s", b.String())
	}
}

// TestSteadyStateMetrics loads a steady_state block naming each figure the
// figure registry gives steady_state: each is taken, under its name.
func TestSteadyStateMetrics(t *testing.T) {
	for _, name := range figure.Keys(figure.Steady) {
		src := fmt.Sprintf("drive \"scratch\" {\n  size     = \"64MiB\"\n  writable = true\n}\n\nprofile \"w\" {\n  rw      = \"randwrite\"\n  runtime = \"1s\"\n  steady_state { metric = %q }\n}\n", name)
		p, sources, diags := Load(writeFile(t, t.TempDir(), "plan.hcl", src), LoadOptions{})
		if len(diags) > 0 {
			var b strings.Builder
			_ = sources.WriteDiagnostics(&b, diags, 0, false)
			t.Fatalf("metric %q:\n%s", name, b.String())
		}
		if got := p.Profiles[0].SteadyState.Metric; got != name {
			t.Errorf("metric %q decodes as %q", name, got)
		}
	}
}

// TestExpectationFigures loads and evaluates an expectation on each
// figure the figure registry gives expectations.
func TestExpectationFigures(t *testing.T) {
	for _, key := range figure.Keys(figure.Expect) {
		src := fmt.Sprintf("drive \"scratch\" {\n  size     = \"64MiB\"\n  writable = true\n}\n\nprofile \"r\" {\n  rw      = \"randread\"\n  runtime = \"1s\"\n  expect  = result.read.%s < 10\n}\n", key)
		p, sources, diags := Load(writeFile(t, t.TempDir(), "plan.hcl", src), LoadOptions{})
		if len(diags) > 0 {
			var b strings.Builder
			_ = sources.WriteDiagnostics(&b, diags, 0, false)
			t.Fatalf("result.read.%s:\n%s", key, b.String())
		}
		j, err := p.Profiles[0].Expect[0].Eval(Measured{Read: &DirMeasure{Figures: map[string]float64{key: 7}}}, nil)
		if want := "result.read." + key + " = 7"; err != nil || !j.Holds || len(j.Values) != 1 || j.Values[0] != want {
			t.Errorf("result.read.%s < 10 with 7: %+v, %v; want it to hold, showing %s", key, j, err, want)
		}
	}
}

// TestRateCurveStopStats loads a rate curve stopping on each figure the
// figure registry gives a stop condition, and on one it does not know,
// which is refused at its place with the registry's names.
func TestRateCurveStopStats(t *testing.T) {
	curve := "drive \"scratch\" {\n  size     = \"64MiB\"\n  writable = true\n}\n\nprofile \"c\" {\n  rw      = \"randread\"\n  runtime = \"1s\"\n  rate_curve {\n    percents = [50, 100]\n    stop     = { stat = %q, above = \"2ms\" }\n  }\n}\n"
	keys := figure.Keys(figure.Stop)
	for _, want := range []string{"mean", "p99", "p99_9", "p99_999"} {
		if !slices.Contains(keys, want) {
			t.Errorf("a stop condition takes %v, not %s", keys, want)
		}
	}
	for _, name := range keys {
		p, sources, diags := Load(writeFile(t, t.TempDir(), "plan.hcl", fmt.Sprintf(curve, name)), LoadOptions{})
		if len(diags) > 0 {
			var b strings.Builder
			_ = sources.WriteDiagnostics(&b, diags, 0, false)
			t.Fatalf("stat %q:\n%s", name, b.String())
		}
		if stop := p.Profiles[0].RateCurve.Stop; stop.Stat != name || stop.LimitNs != 2_000_000 {
			t.Errorf("stat %q decodes as %+v", name, stop)
		}
	}
	_, sources, diags := Load(writeFile(t, t.TempDir(), "plan.hcl", fmt.Sprintf(curve, "p97")), LoadOptions{})
	var b strings.Builder
	_ = sources.WriteDiagnostics(&b, diags, 0, false)
	want := `stop.stat = "p97" is not allowed; use one of "mean", "p50", "p90", "p95", "p99", "p99_9", "p99_99" or "p99_999".`
	if !diags.HasErrors() || !strings.Contains(b.String(), "plan.hcl:11:25") || !strings.Contains(strings.Join(strings.Fields(b.String()), " "), want) {
		t.Errorf("stat \"p97\" gives:\n%s\nwant an error at plan.hcl:11:25 saying %s", b.String(), want)
	}
}
