package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/drivebench/drivebench/plan"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// exitUnformatted is fmt -check's exit code when a file would change, as
// terraform fmt -check: 1, like a failed check.
const exitUnformatted = exitCheckFailed

// diffContext is the number of unchanged lines a diff shows around each
// change.
const diffContext = 3

// maxDiffCells bounds the table the line diff fills; larger files are
// shown as one replacement.
const maxDiffCells = 4 << 20

func cmdFmt(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("fmt", "[PATH ...]",
		"Rewrite plan files in the canonical layout (indentation, aligned =), listing each file changed.\n"+
			"Folders are searched recursively for *.hcl files; without a path, the current folder.\n"+
			"With -, the plan is read from stdin and written formatted to stdout (for editors).\n"+
			"Exit codes: 0 done, 1 with -check when a file is not formatted, 2 a file cannot be read or parsed.", io)
	check := fs.Bool("check", false, "write nothing; exit 1 if any file is not formatted")
	diff := fs.Bool("diff", false, "print each change as a unified diff")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	paths := fs.Args()
	f := formatter{io: io, check: *check, diff: *diff}
	if len(paths) == 1 && paths[0] == "-" {
		return f.stdin()
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	files, err := hclFiles(paths)
	if err != nil {
		fmt.Fprintln(io.err, "drivebench fmt:", err)
		return exitUsage
	}
	for _, path := range files {
		f.file(path)
	}
	switch {
	case f.failed:
		return exitUsage
	case f.check && f.changed:
		return exitUnformatted
	}
	return exitOK
}

// hclFiles lists the files to format: each file given, and the *.hcl
// files under each folder given, skipping hidden folders.
func hclFiles(paths []string) ([]string, error) {
	var files []string
	for _, root := range paths {
		info, err := os.Stat(root)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			files = append(files, root)
			continue
		}
		err = filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case e.IsDir() && path != root && strings.HasPrefix(e.Name(), "."):
				return filepath.SkipDir
			case !e.IsDir() && strings.HasSuffix(e.Name(), ".hcl"):
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

// formatter formats files one by one and remembers what happened.
type formatter struct {
	io          stdio
	check, diff bool
	changed     bool
	failed      bool
}

// stdin formats a plan read from stdin: the result on stdout, or with
// -check only the exit code, or with -diff the change.
func (f *formatter) stdin() int {
	if f.io.in == nil {
		fmt.Fprintln(f.io.err, "drivebench fmt: no standard input")
		return exitUsage
	}
	src, err := io.ReadAll(f.io.in)
	if err != nil {
		fmt.Fprintln(f.io.err, "drivebench fmt: stdin:", err)
		return exitUsage
	}
	const name = "<stdin>"
	out, ok := f.format(name, src)
	switch {
	case !ok:
		return exitUsage
	case f.diff:
		if !bytes.Equal(src, out) {
			fmt.Fprint(f.io.out, unifiedDiff(name, string(src), string(out)))
		}
	case !f.check:
		f.io.out.Write(out)
	}
	if f.check && !bytes.Equal(src, out) {
		return exitUnformatted
	}
	return exitOK
}

// format parses src and returns it in the canonical layout; ok is false
// (and the diagnostics are printed) when it does not parse.
func (f *formatter) format(name string, src []byte) ([]byte, bool) {
	parsed, diags := plan.ParseConfig(src, name)
	if diags.HasErrors() {
		sources := &plan.Sources{Files: map[string]*hcl.File{name: parsed}}
		_ = sources.WriteDiagnostics(f.io.err, diags, 100, false)
		return nil, false
	}
	return hclwrite.Format(src), true
}

// file formats one file: a file that does not parse is reported and left
// alone, since its layout cannot be trusted.
func (f *formatter) file(path string) {
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(f.io.err, "drivebench fmt:", err)
		f.failed = true
		return
	}
	out, ok := f.format(path, src)
	if !ok {
		f.failed = true
		return
	}
	if bytes.Equal(src, out) {
		return
	}
	f.changed = true
	fmt.Fprintln(f.io.out, path)
	if f.diff {
		fmt.Fprint(f.io.out, unifiedDiff(path, string(src), string(out)))
	}
	if !f.check {
		if err := writeFormatted(path, out); err != nil {
			fmt.Fprintln(f.io.err, "drivebench fmt:", err)
			f.failed = true
		}
	}
}

// writeFormatted replaces a file's content atomically, keeping its mode.
func writeFormatted(path string, content []byte) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".fmt-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(content); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// lineOp is one line of a diff: ' ' kept, '-' removed, '+' added.
type lineOp struct {
	kind byte
	text string
}

// unifiedDiff renders the change from a to b as a unified diff with
// diffContext lines of context, as diff -u does.
func unifiedDiff(path, a, b string) string {
	ops := diffLines(splitLines(a), splitLines(b))
	var out strings.Builder
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", filepath.ToSlash(path), filepath.ToSlash(path))
	for start := 0; start < len(ops); {
		first := nextChange(ops, start)
		if first == len(ops) {
			break
		}
		end := hunkEnd(ops, first)
		from := max(first-diffContext, start)
		writeHunk(&out, ops, from, end)
		start = end
	}
	return out.String()
}

// splitLines splits text into lines, keeping a missing final newline
// visible as a line without one.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines is the shortest edit from a to b, by longest common
// subsequence of lines after the common prefix and suffix.
func diffLines(a, b []string) []lineOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []lineOp
	for _, l := range a[:pre] {
		ops = append(ops, lineOp{' ', l})
	}
	ops = append(ops, diffMiddle(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, lineOp{' ', l})
	}
	return ops
}

// diffMiddle diffs the differing middle of two texts.
func diffMiddle(a, b []string) []lineOp {
	var ops []lineOp
	if (len(a)+1)*(len(b)+1) > maxDiffCells {
		for _, l := range a {
			ops = append(ops, lineOp{'-', l})
		}
		for _, l := range b {
			ops = append(ops, lineOp{'+', l})
		}
		return ops
	}
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int32, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, lineOp{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, lineOp{'-', a[i]})
			i++
		default:
			ops = append(ops, lineOp{'+', b[j]})
			j++
		}
	}
	return ops
}

// nextChange is the index of the first changed line at or after i.
func nextChange(ops []lineOp, i int) int {
	for i < len(ops) && ops[i].kind == ' ' {
		i++
	}
	return i
}

// hunkEnd is where the hunk that starts with the change at i ends: after
// diffContext unchanged lines that no further change follows within
// 2*diffContext lines.
func hunkEnd(ops []lineOp, i int) int {
	for {
		for i < len(ops) && ops[i].kind != ' ' {
			i++
		}
		next := nextChange(ops, i)
		if next == len(ops) || next-i > 2*diffContext {
			return min(i+diffContext, len(ops))
		}
		i = next
	}
}

// writeHunk writes ops[from:to] with its @@ header.
func writeHunk(out *strings.Builder, ops []lineOp, from, to int) {
	aStart, bStart := 1, 1
	for _, op := range ops[:from] {
		if op.kind != '+' {
			aStart++
		}
		if op.kind != '-' {
			bStart++
		}
	}
	aLen, bLen := 0, 0
	for _, op := range ops[from:to] {
		if op.kind != '+' {
			aLen++
		}
		if op.kind != '-' {
			bLen++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
	for _, op := range ops[from:to] {
		out.WriteByte(op.kind)
		out.WriteString(op.text)
		if !strings.HasSuffix(op.text, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// hunkRange is a hunk header's "start,length", as diff -u writes it: a
// range of one line is just its start, and an empty range starts at the
// line before it.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
