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
	"github.com/rogpeppe/go-internal/diff"
)

// exitUnformatted is fmt -check's exit code when a file would change, as
// terraform fmt -check: 1, like a failed check.
const exitUnformatted = exitCheckFailed

func cmdFmt(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("fmt", "[PATH ...]",
		"Rewrite plan files in the canonical layout (indentation, aligned =), listing each file changed.\n"+
			"Folders are searched recursively for *.hcl files; without a path, the current folder.\n"+
			"With -, the plan is read from stdin and written formatted to stdout (for editors).\n"+
			"Exit codes: 0 done, 1 with -check when a file is not formatted, 2 a file cannot be read or parsed.", io)
	check := fs.Bool("check", false, "write nothing; exit 1 if any file is not formatted")
	diff := fs.Bool("diff", false, "print each change as a unified diff")
	// Folders are searched recursively whatever it says; terraform fmt
	// needs it for that, so scripts and editor plugins written for
	// terraform pass it.
	fs.Bool("recursive", true, "search folders recursively, which fmt always does; accepted as terraform fmt takes it")
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
			f.io.out.Write(unifiedDiff(name, src, out))
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
		f.io.out.Write(unifiedDiff(path, src, out))
	}
	if !f.check {
		if err := writeFormatted(path, out); err != nil {
			fmt.Fprintln(f.io.err, "drivebench fmt:", err)
			f.failed = true
		}
	}
}

// unifiedDiff is the change from old to new of the file at path as a
// unified diff, as gofmt -d writes it: a "diff" line, the two names (a/PATH
// and b/PATH, as git diff names them and patch -p1 takes them) and hunks
// with three lines of context, a missing final newline marked. It takes
// O(n log n) time, so a file of any size is diffed line by line.
func unifiedDiff(path string, old, new []byte) []byte {
	name := filepath.ToSlash(path)
	return diff.Diff("a/"+name, old, "b/"+name, new)
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
