package main

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestCLI runs each case in testdata/cli/*.txtar: one drivebench command
// on the archive's files, its exit code, output and changed files compared
// with the archive's. testdata/cli/README.md describes the format; go test
// -run TestCLI -update rewrites what a case expects from what the command
// did.
func TestCLI(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "cli"))
	if err != nil {
		t.Fatal(err)
	}
	// The paths are absolute, as each case runs in its own folder.
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases in %s (%v)", dir, err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			c, err := loadCLICase(file)
			if err != nil {
				t.Fatal(err)
			}
			got := c.run(t)
			if *update {
				data, err := c.updated(got)
				if err == nil {
					err = os.WriteFile(file, data, 0o644)
				}
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			c.check(t, got)
		})
	}
}

// Section names with a meaning of their own; every other section is a
// file the command finds in its folder.
const (
	sectionStdin  = "stdin"
	sectionStdout = "stdout"
	sectionStderr = "stderr"
	wantPrefix    = "want/"
)

// workPlaceholder stands for the case's folder in arguments and is put in
// its place in what the command wrote.
const workPlaceholder = "$WORK"

// cliCase is one parsed archive.
type cliCase struct {
	archive *txtar.Archive
	args    []string
	exit    int
	// inputs are the files written before the command, by name.
	inputs []txtar.File
	stdin  []byte
	hasIn  bool
	// stdout and stderr are the expected output; want the expected
	// content of files, by name.
	stdout, stderr []byte
	want           map[string][]byte
	// wantNames are the names of want, in the archive's order.
	wantNames []string
}

// cliResult is what the command did.
type cliResult struct {
	exit           int
	stdout, stderr []byte
	// files holds the content of each file in the case's folder after
	// the command, by its slash-separated path there; names are its keys
	// in lexical order.
	files map[string][]byte
	names []string
}

func loadCLICase(file string) (*cliCase, error) {
	a, err := txtar.ParseFile(file)
	if err != nil {
		return nil, err
	}
	c := &cliCase{archive: a, want: map[string][]byte{}}
	for _, line := range strings.Split(string(a.Comment), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "exit "):
			if c.exit, err = strconv.Atoi(strings.TrimPrefix(line, "exit ")); err != nil {
				return nil, fmt.Errorf("%s: %q: the exit code is not a number", file, line)
			}
		case isCommandLine(line):
			if c.args != nil {
				return nil, fmt.Errorf("%s: a case runs one command, and %q is a second", file, line)
			}
			if c.args, err = splitArgs(strings.TrimPrefix(line, "drivebench")); err != nil {
				return nil, fmt.Errorf("%s: %v", file, err)
			}
		default:
			return nil, fmt.Errorf("%s: %q is neither a drivebench command, an exit line nor a # comment", file, line)
		}
	}
	if c.args == nil {
		return nil, fmt.Errorf("%s: no drivebench command line", file)
	}
	for _, f := range a.Files {
		if !filepath.IsLocal(f.Name) {
			return nil, fmt.Errorf("%s: %q is not a path inside the case's folder", file, f.Name)
		}
		switch name := f.Name; {
		case name == sectionStdout:
			c.stdout = f.Data
		case name == sectionStderr:
			c.stderr = f.Data
		case name == sectionStdin:
			c.stdin, c.hasIn = f.Data, true
		case strings.HasPrefix(name, wantPrefix):
			c.want[strings.TrimPrefix(name, wantPrefix)] = f.Data
			c.wantNames = append(c.wantNames, strings.TrimPrefix(name, wantPrefix))
		default:
			c.inputs = append(c.inputs, f)
		}
	}
	return c, nil
}

// isCommandLine says whether a line of an archive's comment is its
// command.
func isCommandLine(line string) bool {
	return line == "drivebench" || strings.HasPrefix(line, "drivebench ")
}

// splitArgs splits a command line at spaces; single quotes keep spaces
// in an argument, as in 'a b', and a pair of them alone is an empty one.
func splitArgs(line string) ([]string, error) {
	args := []string{}
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
			}
			inWord = false
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("%q: a quote is not closed", line)
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args, nil
}

// run writes the case's files to a new folder and runs its command there.
func (c *cliCase) run(t *testing.T) cliResult {
	work := t.TempDir()
	for _, f := range c.inputs {
		path := filepath.Join(work, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(work)
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = strings.ReplaceAll(a, workPlaceholder, work)
	}
	var stdin io.Reader
	if c.hasIn {
		stdin = bytes.NewReader(c.stdin)
	}
	// HOME is the case's folder, so defaults under it (the catalog's) do
	// not depend on who runs the tests.
	code, stdout, stderr := runCLIWith(t, stdin, map[string]string{"HOME": work}, args...)
	got := cliResult{exit: code, stdout: hideWork(work, stdout), stderr: hideWork(work, stderr), files: map[string][]byte{}}
	err := filepath.WalkDir(work, func(path string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		name, err := filepath.Rel(work, path)
		name = filepath.ToSlash(name)
		got.files[name] = hideWork(work, string(data))
		got.names = append(got.names, name)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// fileNames lists the files a case is to have after the command: its
// inputs in order, then the other files its want/ sections name, then
// the ones the command made that it does not name.
func (c *cliCase) fileNames(got cliResult) []string {
	var names []string
	for _, f := range c.inputs {
		names = append(names, f.Name)
	}
	for _, name := range slices.Concat(c.wantNames, got.names) {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names
}

// hideWork puts the placeholder in place of the case's folder.
func hideWork(work, s string) []byte {
	if real, err := filepath.EvalSymlinks(work); err == nil && real != work {
		s = strings.ReplaceAll(s, real, workPlaceholder)
	}
	return []byte(strings.ReplaceAll(s, work, workPlaceholder))
}

// input is the content the case gives a file before the command.
func (c *cliCase) input(name string) ([]byte, bool) {
	for _, f := range c.inputs {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// wantFile is what a file should hold after the command: its want/
// section, or else its input (the command is to leave it alone); named
// is false for a file the case does not name.
func (c *cliCase) wantFile(name string) (data []byte, named bool) {
	if data, ok := c.want[name]; ok {
		return data, true
	}
	return c.input(name)
}

func (c *cliCase) check(t *testing.T, got cliResult) {
	t.Helper()
	if got.exit != c.exit {
		t.Errorf("exit %d, want %d", got.exit, c.exit)
	}
	compareOutput(t, sectionStdout, c.stdout, got.stdout)
	compareOutput(t, sectionStderr, c.stderr, got.stderr)
	for _, name := range c.fileNames(got) {
		want, named := c.wantFile(name)
		switch data, ok := got.files[name]; {
		case !ok:
			t.Errorf("%s is missing after the command", name)
		case !named:
			t.Errorf("the command wrote %s, and no %s%s section says what it holds", name, wantPrefix, name)
		case !bytes.Equal(data, want):
			t.Errorf("%s after the command differs:\n%s", name, diff.Diff("want", want, "got", data))
		}
	}
	if t.Failed() {
		t.Log("if the change is intended: go test ./cmd/drivebench -run TestCLI -update")
	}
}

// compareOutput compares output with its section; a section always ends
// in a newline, so output that does not cannot match.
func compareOutput(t *testing.T, name string, want, got []byte) {
	t.Helper()
	if bytes.Equal(want, got) {
		return
	}
	t.Errorf("%s differs:\n%s", name, diff.Diff("want", want, "got", got))
	if len(got) > 0 && got[len(got)-1] != '\n' {
		t.Errorf("%s does not end in a newline, which a txtar section cannot hold", name)
	}
}

// updated is the archive with its exit line, output sections and want/
// sections rewritten from what the command did; comments, the command
// and the input files stay as written.
func (c *cliCase) updated(got cliResult) ([]byte, error) {
	var comment strings.Builder
	for _, line := range strings.SplitAfter(string(c.archive.Comment), "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "exit ") {
			continue
		}
		comment.WriteString(line)
		if isCommandLine(trimmed) && got.exit != 0 {
			fmt.Fprintf(&comment, "exit %d\n", got.exit)
		}
	}
	a := &txtar.Archive{Comment: []byte(comment.String())}
	for _, f := range c.archive.Files {
		if f.Name != sectionStdout && f.Name != sectionStderr && !strings.HasPrefix(f.Name, wantPrefix) {
			a.Files = append(a.Files, f)
		}
	}
	if len(got.stdout) > 0 {
		a.Files = append(a.Files, txtar.File{Name: sectionStdout, Data: got.stdout})
	}
	if len(got.stderr) > 0 {
		a.Files = append(a.Files, txtar.File{Name: sectionStderr, Data: got.stderr})
	}
	for _, name := range c.fileNames(got) {
		data, ok := got.files[name]
		// An input the command left alone needs no want/ section.
		if in, isInput := c.input(name); ok && !(isInput && bytes.Equal(data, in)) {
			a.Files = append(a.Files, txtar.File{Name: wantPrefix + name, Data: data})
		}
	}
	for _, f := range a.Files {
		if bytes.HasPrefix(f.Data, []byte("-- ")) || bytes.Contains(f.Data, []byte("\n-- ")) {
			return nil, fmt.Errorf("%s holds a line that starts with \"-- \", which a txtar section cannot hold", f.Name)
		}
	}
	return txtar.Format(a), nil
}
