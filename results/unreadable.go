package results

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A record that cannot be read is never overwritten and never stops the
// reading of the others: one damaged file (a disk error, a hand edit) or
// one written by a newer drivebench does not cost the rest of the run.
// Readers skip it and say so; a resumed run refuses to overwrite a newer
// version's record, and moves a damaged one aside, to damaged/, before
// running its step again.

// DamagedDir holds the damaged records a resumed run set aside.
const DamagedDir = "damaged"

// RecordError is a record that cannot be read: damaged (not JSON, not a
// record), or written by a newer drivebench (Newer: its schema, Schema,
// is of a later major version than this one reads).
type RecordError struct {
	Path   string
	StepID string
	Newer  bool
	Schema string
	Err    error
}

func (e *RecordError) Error() string {
	if e.Newer {
		return fmt.Sprintf("%s was written by a newer drivebench (schema %q; this version reads %q)", e.Path, e.Schema, RecordSchema)
	}
	return fmt.Sprintf("%s is damaged: %v", e.Path, e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

// newerSchema reports whether got is of want's family with a later major
// version: "drivebench/record/v3" against "drivebench/record/v2".
func newerSchema(got, want string) bool {
	gotFamily, gotMajor, ok1 := splitSchema(got)
	wantFamily, wantMajor, ok2 := splitSchema(want)
	return ok1 && ok2 && gotFamily == wantFamily && gotMajor > wantMajor
}

func splitSchema(s string) (family string, major int, ok bool) {
	i := strings.LastIndex(s, "/v")
	if i < 0 {
		return "", 0, false
	}
	major, err := strconv.Atoi(s[i+2:])
	return s[:i], major, err == nil
}

// SetAside moves the damaged record e names into the folder's damaged/
// folder, under its own name (with -2, -3... when that is taken), and
// says where, relative to the folder. Nothing is deleted.
func (f *Folder) SetAside(e *RecordError) (SetAsideRecord, error) {
	aside := SetAsideRecord{Record: f.Rel(e.Path), Reason: fmt.Sprint(e.Err)}
	if e.Newer {
		return aside, fmt.Errorf("a newer version's record is not set aside: %w", e)
	}
	dir := filepath.Join(f.Dir, DamagedDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return aside, err
	}
	base := strings.TrimSuffix(filepath.Base(e.Path), ".json")
	for n := 1; ; n++ {
		to := filepath.Join(dir, base+".json")
		if n > 1 {
			to = filepath.Join(dir, fmt.Sprintf("%s-%d.json", base, n))
		}
		err := renameNoReplace(e.Path, to)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return aside, fmt.Errorf("set the damaged record %s aside: %w", e.Path, err)
		}
		aside.KeptAs = f.Rel(to)
		return aside, syncDir(filepath.Dir(e.Path))
	}
}

// Rel is path relative to the folder, when it lies inside it.
func (f *Folder) Rel(path string) string {
	if rel, err := filepath.Rel(f.Dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}

// SetAsideRecords lists the damaged records in damaged/, by file name.
func (f *Folder) SetAsideRecords() ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(f.Dir, DamagedDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names, err
}
