// Package golden holds the expected output of the reports' golden tests
// and compares what a test writes with it. A golden report.json is held
// as a tree of files, one per part of the document, so that a change to
// a report reads as the diff of the part it touched, and a test that
// fails names the file and the field that differ; a missing file and one
// no longer written fail as well.
//
// The layout has one owner, this package: the golden test writes it
// (SplitJSON), the report truth test reads it back (JoinJSON).
package golden

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// File is a file a golden test writes, by its slash-separated path under
// the case's directory.
type File struct {
	Name string
	Data []byte
}

// Write writes a golden file, making its directory.
func Write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// Stale are the files under dir that are not named in names
// (slash-separated paths relative to dir).
func Stale(dir string, names []string) ([]string, error) {
	var stale []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err == nil && !slices.Contains(names, filepath.ToSlash(rel)) {
			stale = append(stale, path)
		}
		return err
	})
	return stale, err
}

// Diff says where got first differs from the golden file at path: the
// line and, in a JSON file, the field; "" when they are equal.
func Diff(path string, got []byte) string {
	want, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("%s is missing (run go test -update to create it)", path)
	}
	if err != nil {
		return err.Error()
	}
	if bytes.Equal(got, want) {
		return ""
	}
	where := ""
	if strings.HasSuffix(path, ".json") {
		where = ", " + JSONDiff(got, want)
	}
	gotLines, wantLines := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	i := 0
	for i < min(len(gotLines), len(wantLines)) && gotLines[i] == wantLines[i] {
		i++
	}
	return fmt.Sprintf("%s differs at line %d%s (run go test -update if the change is intended):\ngot:  %.300q\nwant: %.300q",
		path, i+1, where, lineAt(gotLines, i), lineAt(wantLines, i))
}

func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "<end of file>"
}
