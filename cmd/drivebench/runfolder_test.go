package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two small plans that share no drive or block.
const (
	folderPlanA = "variable \"runtime\" {\n  default = \"200ms\"\n}\n\ndrive \"d\" {\n  size     = \"8MiB\"\n  writable = true\n}\n\nprofile \"read\" {\n  rw      = \"randread\"\n  bs      = \"4KiB\"\n  runtime = var.runtime\n}\n"
	folderPlanB = "drive \"e\" {\n  size     = \"8MiB\"\n  writable = true\n}\n\nprofile \"write\" {\n  rw      = \"randwrite\"\n  bs      = \"4KiB\"\n  runtime = \"200ms\"\n}\n"
)

// dropRunEnd removes the journal's last line, the run's end, as a run
// killed before it ended leaves the journal.
func dropRunEnd(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, "journal.jsonl")
	lines := strings.SplitAfter(strings.TrimSuffix(readFile(t, path), "\n"), "\n")
	if !strings.Contains(lines[len(lines)-1], `"run":"ended"`) {
		t.Fatalf("the journal does not end with the run's end:\n%s", strings.Join(lines, ""))
	}
	os.WriteFile(path, []byte(strings.Join(lines[:len(lines)-1], "")), 0o644)
}

// TestOutFolderBelongsToOnePlan: run -out into a folder that holds a run
// is refused (exit 2, the folder untouched, what to do in the message)
// when the run is finished, even of the same plan, or of another plan;
// -force moves the earlier run aside and says where; -resume refuses a
// plan file replaced by another plan; an unfinished run of the same plan
// goes on.
func TestOutFolderBelongsToOnePlan(t *testing.T) {
	tests := []struct {
		name string
		// then is the second command, after run -out D a.hcl; a.hcl is
		// replaced by plan B first when replace is set, the first run's
		// end is dropped when unfinished is set.
		then       []string
		replace    bool
		unfinished bool
		code       int
		stderr     []string
		// movedAside: the first run is whole in D.replaced-<timestamp>.
		movedAside bool
	}{
		{name: "finished run of the same plan", then: []string{"run", "-out", "D", "a.hcl"}, code: exitUsage,
			stderr: []string{"drivebench run: D holds a finished run of plan a (ended ", "give another folder (-out NEWDIR), add -force to move that run aside to D.replaced-<timestamp> (nothing is deleted)"}},
		{name: "finished run with another -var", then: []string{"run", "-var", "runtime=300ms", "-out", "D", "a.hcl"}, code: exitUsage,
			stderr: []string{"D holds a finished run of plan a"}},
		{name: "another plan", then: []string{"run", "-out", "D", "b.hcl"}, code: exitUsage,
			stderr: []string{`drivebench run: D holds a run of another plan: plan "a" (a.hcl), not "b". It is left as it is: give another folder (-out NEWDIR), or add -force`}},
		{name: "another plan, unfinished", then: []string{"run", "-out", "D", "b.hcl"}, unfinished: true, code: exitUsage,
			stderr: []string{`D holds a run of another plan`}},
		{name: "force moves the run aside", then: []string{"run", "-force", "-out", "D", "b.hcl"}, code: exitOK, movedAside: true,
			stderr: []string{"drivebench run: -force: the earlier contents of D are now in D.replaced-", "(nothing was deleted); this run starts afresh in D"}},
		{name: "resume of a plan file replaced by another plan", then: []string{"run", "-resume", "D"}, replace: true, code: exitUsage,
			stderr: []string{`drivebench run: -resume D: D holds a run of another plan: plan "a" of the same name, whose drives and blocks (d/read) share none with the plan now in`, "put back the plan it was made with"}},
		{name: "unfinished run of the same plan goes on", then: []string{"run", "-out", "D", "a.hcl"}, unfinished: true, code: exitOK},
		{name: "resume of a finished run", then: []string{"run", "-resume", "D"}, code: exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			work := t.TempDir()
			t.Chdir(work)
			os.WriteFile("a.hcl", []byte(folderPlanA), 0o644)
			os.WriteFile("b.hcl", []byte(folderPlanB), 0o644)
			if code, out, errOut := runCLI(t, "run", "-out", "D", "a.hcl"); code != exitOK {
				t.Fatalf("first run: exit %d\n%s%s", code, out, errOut)
			}
			report := readFile(t, filepath.Join("D", "report.md"))
			if tt.replace {
				os.WriteFile("a.hcl", []byte(folderPlanB), 0o644)
			}
			if tt.unfinished {
				dropRunEnd(t, "D")
			}
			code, out, errOut := runCLI(t, tt.then...)
			if code != tt.code {
				t.Fatalf("%v: exit %d, want %d\n%s%s", tt.then, code, tt.code, out, errOut)
			}
			for _, want := range tt.stderr {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr lacks %q:\n%s", want, errOut)
				}
			}
			aside, _ := filepath.Glob("D.replaced-*")
			if tt.movedAside != (len(aside) == 1) {
				t.Fatalf("folders moved aside: %v", aside)
			}
			kept := "D"
			if tt.movedAside {
				kept = aside[0]
			}
			if tt.code != exitOK || tt.movedAside {
				if got := readFile(t, filepath.Join(kept, "report.md")); got != report {
					t.Errorf("the first run's report in %s changed", kept)
				}
			}
		})
	}
}

// TestResumeChangedPlanKeepsEarlierSteps: a plan changed between runs
// (its runtime) gives its profile a new step; -resume runs it and the
// report still shows what the earlier revision measured, marked with
// that revision, instead of dropping it.
func TestResumeChangedPlanKeepsEarlierSteps(t *testing.T) {
	t.Chdir(t.TempDir())
	os.WriteFile("a.hcl", []byte(folderPlanA), 0o644)
	if code, out, errOut := runCLI(t, "run", "-out", "D", "a.hcl"); code != exitOK {
		t.Fatalf("first run: exit %d\n%s%s", code, out, errOut)
	}
	os.WriteFile("a.hcl", []byte(strings.Replace(folderPlanA, `"200ms"`, `"250ms"`, 1)), 0o644)
	if code, out, errOut := runCLI(t, "run", "-resume", "D"); code != exitOK {
		t.Fatalf("resume: exit %d\n%s%s", code, out, errOut)
	}
	md := readFile(t, filepath.Join("D", "report.md"))
	for _, want := range []string{
		"- Kept from earlier revisions of the plan: 1 record of steps this plan no longer has, under Measurements of earlier plan revisions",
		"## Measurements of earlier plan revisions",
		"| d / read | ¹ ",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
}

// TestResumeKeepsEnvVarsAndHookLimits: the manifest keeps the plan
// variables the environment set and the hook limits given; -resume, in an
// environment without them, loads the same plan (its step is kept, not
// run again as a changed one) and gives its hooks the same limits.
func TestResumeKeepsEnvVarsAndHookLimits(t *testing.T) {
	t.Chdir(t.TempDir())
	os.WriteFile("a.hcl", []byte(folderPlanA), 0o644)
	env := map[string]string{"DRIVEBENCH_VAR_runtime": "150ms"}
	if code, out, errOut := runCLIWith(t, nil, env, "run", "-hook-steps", "7777777", "-hook-memory", "300MiB", "-out", "D", "a.hcl"); code != exitOK {
		t.Fatalf("first run: exit %d\n%s%s", code, out, errOut)
	}
	dropRunEnd(t, "D")
	code, out, errOut := runCLI(t, "run", "-resume", "D")
	if code != exitOK || !strings.Contains(out, "d / read: already done in this folder, kept") {
		t.Fatalf("resume: exit %d, want the step kept\n%s%s", code, out, errOut)
	}
	m := readFile(t, filepath.Join("D", "manifest.json"))
	for _, want := range []string{`"var_env": {
    "runtime": "150ms"
  }`, `"hook_limits": {
    "max_steps": 7777777,
    "memory_bytes": 314572800
  }`} {
		if !strings.Contains(m, want) {
			t.Errorf("the resumed run's manifest lacks\n%s\nin\n%s", want, m)
		}
	}
}
