package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/testenv"
)

// complete runs the bash completion function on a command line (the last
// word is the one being completed) and returns its candidates.
func bashComplete(t *testing.T, script string, words ...string) []string {
	t.Helper()
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = "'" + w + "'"
	}
	prog := script + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" + itoa(len(words)-1) + "\n_drivebench\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
	out, err := exec.Command("bash", "-c", prog).CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	return strings.Fields(string(out))
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestBashCompletion(t *testing.T) {
	testenv.Command(t, "bash", "bash")
	code, script, errOut := runCLI(t, "completion", "bash")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	dir := completionFiles(t)
	cases := []struct {
		words []string
		want  []string
	}{
		{[]string{"drivebench", "r"}, []string{"run", "report"}},
		{[]string{"drivebench", "report", "-format", "m"}, []string{"markdown"}},
		{[]string{"drivebench", "report", "-format", "markdown,"}, []string{"markdown,markdown", "markdown,json", "markdown,html"}},
		{[]string{"drivebench", "compare", "-units", "M"}, []string{"MB/s", "MiB/s"}},
		{[]string{"drivebench", "catalog", "trend", "-by", ""}, []string{"firmware", "day", "month"}},
		{[]string{"drivebench", "catalog", "fleet", "-figure", "p99_"}, []string{"p99_9", "p99_99"}},
		{[]string{"drivebench", "run", "-out", dir + "/"}, []string{dir + "/notes.txt", dir + "/plan.hcl", dir + "/sub"}},
		{[]string{"drivebench", "run", dir + "/"}, []string{dir + "/plan.hcl", dir + "/sub"}},
		{[]string{"drivebench", "help", "ho"}, []string{"hooks"}},
		{[]string{"drivebench", "run", "-re"}, []string{"-resume"}},
		{[]string{"drivebench", "nvme", "i"}, []string{"info"}},
		{[]string{"drivebench", "nvme", "info", "-j"}, []string{"-json"}},
		{[]string{"drivebench", "completion", "f"}, []string{"fish"}},
		{[]string{"drivebench", "export", "f"}, []string{"fio"}},
	}
	for _, tc := range cases {
		got := bashComplete(t, script, tc.words...)
		if strings.HasPrefix(tc.words[len(tc.words)-1], dir) {
			// file names come in the folder's order
			slices.Sort(got)
			slices.Sort(tc.want)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("completing %q: %q, want %q", tc.words, got, tc.want)
		}
	}
}

// completionFiles makes a folder holding a plan, another file and a
// folder, and returns it.
func completionFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "plan.hcl"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	return dir
}

// TestFishCompletion: fish, given the script, completes flag values and
// plan files as bash does.
func TestFishCompletion(t *testing.T) {
	testenv.Command(t, "fish", "fish")
	_, script, _ := runCLI(t, "completion", "fish")
	path := filepath.Join(t.TempDir(), "drivebench.fish")
	os.WriteFile(path, []byte(script), 0o644)
	dir := completionFiles(t)
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"drivebench report -format m", []string{"markdown"}},
		{"drivebench report -format markdown,h", []string{"markdown,html"}},
		{"drivebench compare -units Mi", []string{"MiB/s"}},
		{"drivebench catalog fleet -by f", []string{"firmware"}},
		{"drivebench validate " + dir + "/", []string{dir + "/plan.hcl", dir + "/sub/"}},
	} {
		out, err := exec.Command("fish", "--no-config", "-c", "source "+path+"; complete -C "+fishQuote(tc.line)).CombinedOutput()
		if err != nil {
			t.Fatalf("fish: %v\n%s", err, out)
		}
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			word, _, _ := strings.Cut(line, "\t")
			got = append(got, word)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("completing %q: %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestZshAndFishCompletionParse: the scripts are valid in their shells
// (syntax only; the shells are installed by test.sh).
func TestZshAndFishCompletionParse(t *testing.T) {
	for _, sh := range []struct{ shell, check string }{{"zsh", "-n"}, {"fish", "--no-execute"}} {
		t.Run(sh.shell, func(t *testing.T) {
			code, script, _ := runCLI(t, "completion", sh.shell)
			if code != exitOK || !strings.Contains(script, "validate") || !strings.Contains(script, "resume") || !strings.Contains(script, "MiB/s") {
				t.Fatalf("exit %d, script:\n%s", code, script)
			}
			testenv.Command(t, sh.shell, sh.shell)
			path := filepath.Join(t.TempDir(), "drivebench."+sh.shell)
			os.WriteFile(path, []byte(script), 0o644)
			if out, err := exec.Command(sh.shell, sh.check, path).CombinedOutput(); err != nil {
				t.Errorf("%s %s: %v\n%s", sh.shell, sh.check, err, out)
			}
		})
	}
}

// TestManPageFromHelp: every line of every command's -h is in the man
// page, and groff reads it without a warning.
func TestManPageFromHelp(t *testing.T) {
	code, page, _ := runCLI(t, "man")
	if code != exitOK || !strings.HasPrefix(page, ".TH DRIVEBENCH 1") {
		t.Fatalf("exit %d: %.200s", code, page)
	}
	for _, c := range commands {
		if c.name == "help" {
			continue
		}
		for _, line := range strings.Split(helpText(c.name), "\n") {
			if !strings.Contains(page, roffEscape(line)) {
				t.Errorf("man page lacks %s's help line %q", c.name, line)
			}
		}
	}
	testenv.Command(t, "groff", "groff-base")
	cmd := exec.Command("groff", "-man", "-Tutf8", "-ww", "-z")
	cmd.Stdin = strings.NewReader(page)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("groff: %v\n%s", err, out)
	}
}
