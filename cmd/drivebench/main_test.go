package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/browser"
	"github.com/drivebench/drivebench/internal/testenv"
)

// runCLI runs drivebench in-process and returns its exit code and output.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCLIWith(t, nil, nil, args...)
}

// runCLIWith runs drivebench in-process with stdin (nil for none) as its
// standard input and env as its environment.
func runCLIWith(t *testing.T, stdin io.Reader, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = dispatch(context.Background(), args, stdio{out: &out, err: &errb, in: stdin, getenv: func(name string) string { return env[name] }})
	return code, out.String(), errb.String()
}

// TestHelpOnStdout: help that was asked for is on stdout with nothing on
// stderr, whichever way it is asked for (testdata/cli has usage after a
// mistake, on stderr).
func TestHelpOnStdout(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}, {"--version"}, {"-version"}, {"version"},
		{"run", "-h"}, {"help", "run"}, {"nvme", "-h"}, {"help", "nvme", "info"}, {"completion", "-h"}, {"export", "-h"}} {
		code, out, errOut := runCLI(t, args...)
		if code != exitOK || out == "" || errOut != "" {
			t.Errorf("drivebench %v: exit %d, stdout %d bytes, stderr %q", args, code, len(out), errOut)
		}
	}
}

// TestHelpTopics: help prints each reference document of docs/, as a
// drivebench installed with go install has no checkout to read it in;
// the starter plan of init points to it.
func TestHelpTopics(t *testing.T) {
	for _, tt := range []struct{ topic, file string }{
		{"plan", "plan-language.md"}, {"hooks", "hooks.md"}, {"figures", "figures.md"}, {"catalog", "catalog.md"}, {"trace", "trace.md"},
	} {
		doc, err := os.ReadFile(filepath.Join("..", "..", "docs", tt.file))
		if err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runCLI(t, "help", tt.topic)
		if code != exitOK || !strings.HasSuffix(out, string(doc)) || errOut != "" {
			t.Errorf("help %s: exit %d, stderr %q, stdout does not end in docs/%s:\n%.200s", tt.topic, code, errOut, tt.file, out)
		}
	}
	if _, out, _ := runCLI(t, "init", "-out", "-"); !strings.Contains(out, "drivebench help plan") {
		t.Errorf("the starter plan does not point to drivebench help plan:\n%.400s", out)
	}
}

// TestHelpCommandIsDashH: "help CMD" prints exactly what "CMD -h" prints,
// and then the reference of a topic of the same name ("help plan").
func TestHelpCommandIsDashH(t *testing.T) {
	for _, c := range commands {
		if c.name == "help" {
			continue
		}
		_, viaHelp, _ := runCLI(t, "help", c.name)
		_, viaFlag, _ := runCLI(t, c.name, "-h")
		if topic := findTopic(c.name); topic != nil {
			if viaHelp != viaFlag+"\n"+topic.text {
				t.Errorf("help %s is not %s -h, then its reference:\n%.300s", c.name, c.name, viaHelp)
			}
			continue
		}
		if viaHelp != viaFlag || viaHelp == "" {
			t.Errorf("help %s and %s -h differ:\n%s\n---\n%s", c.name, c.name, viaHelp, viaFlag)
		}
	}
	_, a, _ := runCLI(t, "help", "nvme", "decode")
	_, b, _ := runCLI(t, "nvme", "decode", "-h")
	if a != b || !strings.Contains(a, "Usage: drivebench nvme decode") {
		t.Errorf("help nvme decode:\n%s\n---\n%s", a, b)
	}
}

func TestDescribeBuild(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: "2026-11-30T11:18:49Z"}, {Key: "vcs.modified", Value: modified}}
	}
	cases := []struct {
		explicit, module string
		settings         []debug.BuildSetting
		want             string
	}{
		{"", "v1.4.0", nil, "v1.4.0"},
		{"", "(devel)", nil, "devel"},
		{"v2.0.0-rc1", "(devel)", nil, "v2.0.0-rc1"},
		{"", "v0.0.0-20261130111849-0a65b316936d", vcs("0a65b316936dc4494d39464e5bc370a39de388cc", "false"),
			"v0.0.0-20261130111849-0a65b316936d (commit 0a65b316936d, 2026-11-30T11:18:49Z)"},
		{"", "v0.0.0-20261130111849-0a65b316936d+dirty", vcs("0a65b316936dc4494d39464e5bc370a39de388cc", "true"),
			"v0.0.0-20261130111849-0a65b316936d+dirty (commit 0a65b316936d, modified, 2026-11-30T11:18:49Z)"},
	}
	for _, tc := range cases {
		bi := &debug.BuildInfo{Main: debug.Module{Version: tc.module}, Settings: tc.settings}
		if got := describeBuild(tc.explicit, bi); got != tc.want {
			t.Errorf("describeBuild(%q, %q) = %q, want %q", tc.explicit, tc.module, got, tc.want)
		}
	}
}

// TestRunShortQuickstart runs the quickstart with small sizes and short
// runtimes end to end and reads the report it leaves.
func TestRunShortQuickstart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errOut := runCLI(t, "run", "-var", "runtime=1s", "-var", "size=32MiB", "-out", dir, "../../examples/quickstart.hcl")
	if code != exitOK && code != exitCheckFailed {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	link, err := fileURL(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"report.md", "report.json", "Report:  " + filepath.Join(dir, "report.html"), "Open:    " + link + "\n", "Checks:", "latency on scratch"} {
		if !strings.Contains(out, want) {
			t.Errorf("run output lacks %q:\n%s", want, out)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil || !bytes.Contains(page, []byte("<h2 id=\"checks\">")) {
		t.Errorf("the quickstart wrote no report.html with its checks (err %v)", err)
	}
	// The report a user opens first, looked at as a reviewer would.
	if _, err := os.Stat(browser.Path); err != nil {
		testenv.RequirePart(t, "Chromium", "%s is absent (apt-get install chromium; ./test.sh installs it): the quickstart's report.html is not looked at in a browser", browser.Path)
	} else {
		shots := filepath.Join(browser.ArtifactsDir(t, "quickstart"), "report.html")
		if err := os.WriteFile(shots, page, 0o644); err != nil {
			t.Fatal(err)
		}
		browser.CheckSelfContained(t, page)
		if n := browser.CheckLegends(t, page); n != 4 {
			t.Errorf("%d charts in the quickstart's report.html, want 4", n)
		}
		browser.CheckPage(t, shots)
		browser.CheckNoCutTables(t, shots)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Testbed", "## Drive", "## Methodology", "4k-random-read", "iodepth=16", "## Checks"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	var rep map[string]any
	raw, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil || json.Unmarshal(raw, &rep) != nil {
		t.Fatalf("report.json unreadable: %v", err)
	}
	checkReportTrue(t, dir)
	if _, err := os.Stat(filepath.Join(dir, "scratch-scratch.img")); !os.IsNotExist(err) {
		t.Errorf("scratch file left behind: %v", err)
	}

	// The folder alone is enough to write the reports again.
	os.Remove(filepath.Join(dir, "report.md"))
	if code, _, errOut := runCLI(t, "report", dir); code != exitOK {
		t.Fatalf("report: exit %d: %s", code, errOut)
	}
	if md2, err := os.ReadFile(filepath.Join(dir, "report.md")); err != nil || !bytes.Equal(md, md2) {
		t.Errorf("report from records differs from the run's report (err %v)", err)
	}

	// Every step's interval series is beside its record as CSV; fio's logs
	// only on request, which report -fio-logs makes of a finished run.
	if _, err := os.Stat(filepath.Join(dir, "series", "scratch-4k-random-read-iodepth-16.csv")); err != nil {
		t.Errorf("no series CSV: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "fio-logs")); !os.IsNotExist(err) {
		t.Errorf("fio's logs written unasked: %v", err)
	}
	if code, _, errOut := runCLI(t, "report", "-fio-logs", dir); code != exitOK {
		t.Fatalf("report -fio-logs: exit %d: %s", code, errOut)
	}
	for _, kind := range []string{"bw", "iops", "lat"} {
		if _, err := os.Stat(filepath.Join(dir, "fio-logs", "scratch", "64k-seq-write", "write-iodepth-4-numjobs-1_"+kind+".1.log")); err != nil {
			t.Errorf("report -fio-logs: %v", err)
		}
	}
}

// TestHookErrorKeepsResults: a hook that fails at run time is reported with
// its file and line, the run exits 3, and the measured step is kept.
func TestHookErrorKeepsResults(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errOut := runCLI(t, "run", "-out", dir, "testdata/hook-error.hcl")
	if code != exitStepFailed {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, exitStepFailed, out, errOut)
	}
	if !strings.Contains(out, "hook-error.star:3:") {
		t.Errorf("output does not point at the hook's line:\n%s", out)
	}
	steps, _ := filepath.Glob(filepath.Join(dir, "steps", "*.json"))
	if len(steps) != 2 {
		t.Fatalf("%d step records, want the profile's and the check's", len(steps))
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil || !strings.Contains(string(md), "hook-error.star:3") {
		t.Errorf("report lacks the hook error (err %v)", err)
	}
}

type junitDoc struct {
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Time     string `xml:"time,attr"`
	Suites   []struct {
		Tests int `xml:"tests,attr"`
		Cases []struct {
			Name      string `xml:"name,attr"`
			ClassName string `xml:"classname,attr"`
			Time      string `xml:"time,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"error"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func readJUnit(t *testing.T, path string) (junitDoc, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc junitDoc
	if err := xml.Unmarshal(data, &doc); err != nil || len(doc.Suites) != 1 {
		t.Fatalf("%v\n%s", err, data)
	}
	return doc, data
}

func TestRunWritesJUnit(t *testing.T) {
	dir := t.TempDir()
	junit := filepath.Join(dir, "verdicts.xml")
	code, out, errOut := runCLI(t, "run", "-junit", junit, "-out", filepath.Join(dir, "out"), "testdata/hook-error.hcl")
	if code != exitStepFailed {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	doc, data := readJUnit(t, junit)
	s := doc.Suites[0]
	if doc.Errors != 1 || doc.Tests != 1 || s.Cases[0].Error == nil || !strings.Contains(s.Cases[0].Error.Text, "hook-error.star:3") {
		t.Errorf("junit: %s", data)
	}
}

// TestJUnitNamesAreStable: two runs of the same plan give the same test
// case names, none holding a measured value; the value is in the message,
// each case has its time, the root its totals; report -junit rewrites the
// same file from the results folder.
func TestJUnitNamesAreStable(t *testing.T) {
	dir := t.TempDir()
	var names [2][]string
	var files [2][]byte
	for i := range 2 {
		junit := filepath.Join(dir, fmt.Sprintf("run%d.xml", i))
		out := filepath.Join(dir, fmt.Sprintf("out%d", i))
		code, stdout, errOut := runCLI(t, "run", "-junit", junit, "-out", out, "testdata/junit.hcl")
		if code != exitCheckFailed {
			t.Fatalf("run %d: exit %d\n%s%s", i, code, stdout, errOut)
		}
		doc, data := readJUnit(t, junit)
		files[i] = data
		if doc.Tests != 4 || doc.Failures != 2 || doc.Errors != 0 || doc.Time == "" {
			t.Errorf("run %d: totals tests %d failures %d errors %d time %q", i, doc.Tests, doc.Failures, doc.Errors, doc.Time)
		}
		for _, c := range doc.Suites[0].Cases {
			names[i] = append(names[i], c.ClassName+" :: "+c.Name)
			if c.Time == "" || c.Time == "0.000" {
				t.Errorf("case %q has time %q", c.Name, c.Time)
			}
			if c.Failure != nil && !regexp.MustCompile(`result\.read\.iops = \d`).MatchString(c.Failure.Message) {
				t.Errorf("failure message %q lacks the measured value", c.Failure.Message)
			}
		}
		again := filepath.Join(dir, fmt.Sprintf("again%d.xml", i))
		if code, _, errOut := runCLI(t, "report", "-junit", again, out); code != exitOK {
			t.Fatalf("report -junit: exit %d: %s", code, errOut)
		}
		if rewritten, _ := os.ReadFile(again); !bytes.Equal(rewritten, data) {
			t.Errorf("report -junit differs from the run's file:\n%s\n---\n%s", rewritten, data)
		}
	}
	want := []string{
		"junit.expect read :: scratch / read / iodepth=1: result.read.iops > 0",
		"junit.expect read :: scratch / read / iodepth=1: result.read.iops > 1000000000",
		"junit.expect read :: scratch / read / iodepth=2: result.read.iops > 0",
		"junit.expect read :: scratch / read / iodepth=2: result.read.iops > 1000000000",
	}
	for i := range 2 {
		if strings.Join(names[i], "\n") != strings.Join(want, "\n") {
			t.Errorf("run %d case names:\n%s\nwant:\n%s", i, strings.Join(names[i], "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestRunReportsComparables: a plan whose report block names an earlier
// run's results folder shows that run beside its own.
func TestRunReportsComparables(t *testing.T) {
	dir := t.TempDir()
	body := "drive \"d\" {\n  size     = \"8MiB\"\n  writable = true\n}\n\nprofile \"read\" {\n  rw      = \"randread\"\n  bs      = \"4KiB\"\n  runtime = \"300ms\"\n}\n"
	first := filepath.Join(dir, "first.hcl")
	second := filepath.Join(dir, "second.hcl")
	os.WriteFile(first, []byte(body), 0o644)
	os.WriteFile(second, []byte(body+"\nreport {\n  compare = [\"first-run\"]\n}\n"), 0o644)
	if code, out, errOut := runCLI(t, "run", "-out", filepath.Join(dir, "first-run"), first); code != exitOK {
		t.Fatalf("first run: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, "run", "-out", filepath.Join(dir, "second-run"), second); code != exitOK {
		t.Fatalf("second run: exit %d\n%s%s", code, out, errOut)
	}
	var rep struct {
		Comparables []struct {
			Name string `json:"name"`
		} `json:"comparables"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "second-run", "report.json"))
	if err != nil || json.Unmarshal(raw, &rep) != nil {
		t.Fatalf("report.json: %v", err)
	}
	if len(rep.Comparables) != 1 || rep.Comparables[0].Name != "first-run" {
		t.Errorf("comparables %+v, want the first run", rep.Comparables)
	}
}

// TestMemoryBombFailsItsStep: a check that asks for gigabytes in one step
// fails its own step with an error naming hook, function and limit; the
// other steps run and the report is written, and -resume runs into the
// same error instead of dying on it.
func TestMemoryBombFailsItsStep(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	const want = "memory-bomb.star:1:5: hook stopped: bomb used more than the memory limit of 128 MiB"
	for _, args := range [][]string{{"run", "-out", dir, "testdata/memory-bomb.hcl"}, {"run", "-resume", dir}} {
		code, out, errOut := runCLI(t, args...)
		if code != exitStepFailed {
			t.Fatalf("%v: exit %d, want %d\n%s\n%s", args, code, exitStepFailed, out, errOut)
		}
		if !strings.Contains(out, want) || !strings.Contains(out, "pass  fine on scratch") {
			t.Errorf("%v: output lacks the memory error or the other check:\n%s", args, out)
		}
		md, err := os.ReadFile(filepath.Join(dir, "report.md"))
		if err != nil || !strings.Contains(string(md), "used more than the memory limit of 128 MiB") {
			t.Errorf("%v: report lacks the memory error (err %v)", args, err)
		}
	}
}

// TestSkippedStepsSayWhy: the run's summary gives the reason steps were
// not run, here a steady_state hook that failed, not a generic "a search
// reached steady state".
func TestSkippedStepsSayWhy(t *testing.T) {
	code, out, errOut := runCLI(t, "run", "-out", filepath.Join(t.TempDir(), "out"), "testdata/steady-hook-error.hcl")
	if code != exitStepFailed {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, exitStepFailed, out, errOut)
	}
	if !strings.Contains(out, "3 steps not run: the steady-state hook failed at round 1.") || strings.Contains(out, "reached steady state") {
		t.Errorf("summary does not say why the rounds were not run:\n%s", out)
	}
}
