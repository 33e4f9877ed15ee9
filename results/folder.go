package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// File names inside a results folder.
const (
	ManifestFile = "manifest.json"
	JournalFile  = "journal.jsonl"
	StepsDir     = "steps"
)

// Folder is an open results folder.
type Folder struct {
	Dir      string
	Manifest *Manifest
	// journalMu serialises appends to the journal from steps that run in
	// parallel.
	journalMu sync.Mutex
}

// Create makes dir (and its steps folder) if needed and writes the
// manifest. Creating over an existing run keeps its records, so a rerun of
// the same plan can resume.
func Create(dir string, m *Manifest) (*Folder, error) {
	if err := os.MkdirAll(filepath.Join(dir, StepsDir), 0o755); err != nil {
		return nil, fmt.Errorf("create results folder: %w", err)
	}
	removeStaleTemporaries(dir)
	m.Schema = ManifestSchema
	if err := WriteJSONAtomic(filepath.Join(dir, ManifestFile), m); err != nil {
		return nil, fmt.Errorf("write manifest: %w", err)
	}
	return &Folder{Dir: dir, Manifest: m}, nil
}

// Open reads the manifest of an existing results folder.
func Open(dir string) (*Folder, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s is not a results folder: it has no %s", dir, ManifestFile)
	}
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestFile), err)
	}
	if err := checkSchema(m.Schema, ManifestSchema); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestFile), err)
	}
	m.earlierAggregates()
	return &Folder{Dir: dir, Manifest: &m}, nil
}

// checkSchema accepts the same schema family and major version.
// readOptional reads the JSON document at path, which errors name as
// name, and checks that its schema (schemaOf) is want; nil without error
// when there is no file.
func readOptional[T any](path, name, want string, schemaOf func(*T) string) (*T, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := checkSchema(schemaOf(&v), want); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &v, nil
}

func checkSchema(got, want string) error {
	if got == want {
		return nil
	}
	return fmt.Errorf("schema %q is not %q: this folder was written by another version of drivebench", got, want)
}

// RecordPath is where the record of step id is stored.
func (f *Folder) RecordPath(id string) string {
	return filepath.Join(f.Dir, StepsDir, id+".json")
}

// WriteRecord stores r atomically, and its interval series beside it
// (WriteSeries), then appends its completion to the journal. A crash
// between the two leaves a complete record that the journal does not
// mention yet; readers trust the record.
func (f *Folder) WriteRecord(r *Record) error {
	r.Schema = RecordSchema
	if err := WriteJSONAtomic(f.RecordPath(r.StepID), r); err != nil {
		return fmt.Errorf("save record of step %s: %w", r.Name, err)
	}
	if err := f.WriteSeries(r, f.Manifest.FioLogs); err != nil {
		return fmt.Errorf("save the interval series of step %s: %w", r.Name, err)
	}
	return f.appendJournal(journalLine(r))
}

// MarkDone appends a journal line for a record that is complete on disk
// but that the journal does not mention: the process died between the
// two writes.
func (f *Folder) MarkDone(r *Record) error {
	return f.appendJournal(journalLine(r))
}

// ReadRecord reads the record of step id; fs.ErrNotExist when there is
// none, a *RecordError when it cannot be read (damaged, or written by a
// newer drivebench).
func (f *Folder) ReadRecord(id string) (*Record, error) {
	path := f.RecordPath(id)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var head struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, &RecordError{Path: path, StepID: id, Err: err}
	}
	if newerSchema(head.Schema, RecordSchema) {
		return nil, &RecordError{Path: path, StepID: id, Newer: true, Schema: head.Schema}
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, &RecordError{Path: path, StepID: id, Err: err}
	}
	if r.Schema == RecordSchemaV1 {
		r.fromV1(f.Manifest)
		return &r, nil
	}
	if err := checkSchema(r.Schema, RecordSchema); err != nil {
		return nil, &RecordError{Path: path, StepID: id, Err: err}
	}
	return &r, nil
}

// Records reads every record of the run, in the manifest's step order
// first and then any others (from earlier revisions of the plan) by name.
// A record that cannot be read is an error; ReadableRecords reads the
// others.
func (f *Folder) Records() ([]*Record, error) {
	recs, unreadable, err := f.ReadableRecords()
	if err != nil {
		return recs, err
	}
	if len(unreadable) > 0 {
		return recs, unreadable[0]
	}
	return recs, nil
}

// ReadableRecords reads the records of the run as Records does, and
// returns those that cannot be read apart, each a *RecordError naming
// its file and why; they are left as they are.
func (f *Folder) ReadableRecords() (recs []*Record, unreadable []*RecordError, err error) {
	entries, err := os.ReadDir(filepath.Join(f.Dir, StepsDir))
	if err != nil {
		return nil, nil, fmt.Errorf("read records: %w", err)
	}
	present := map[string]bool{}
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".json"); ok && !strings.HasPrefix(id, ".") {
			present[id] = true
		}
	}
	read := func(id string) error {
		if !present[id] {
			return nil
		}
		delete(present, id)
		r, err := f.ReadRecord(id)
		var re *RecordError
		switch {
		case errors.As(err, &re):
			unreadable = append(unreadable, re)
		case err != nil:
			return err
		default:
			recs = append(recs, r)
		}
		return nil
	}
	for _, s := range f.Manifest.Steps {
		if err := read(s.ID); err != nil {
			return recs, unreadable, err
		}
	}
	for _, e := range entries {
		if err := read(strings.TrimSuffix(e.Name(), ".json")); err != nil {
			return recs, unreadable, err
		}
	}
	return recs, unreadable, nil
}

// Finished reports whether the folder holds a run that reached its end,
// and when: its journal's last run ended complete. A folder written
// before the journal kept runs is finished when its journal names every
// step of the manifest but the report, none of them interrupted.
func (f *Folder) Finished() (ended time.Time, finished bool, err error) {
	runs, err := f.Runs()
	if err != nil {
		return time.Time{}, false, err
	}
	if n := len(runs); n > 0 {
		last := runs[n-1]
		return last.Time, last.Run == RunEnded && last.Outcome == RunComplete, nil
	}
	status, err := f.Journal()
	if err != nil {
		return time.Time{}, false, err
	}
	for _, s := range f.Manifest.Steps {
		if st := status[s.ID]; s.Kind != reportKind && (st == "" || st == StatusInterrupted) {
			return time.Time{}, false, nil
		}
	}
	return time.Time{}, true, nil
}

// reportKind is the manifest's kind of the report step, which runs last
// and leaves no record.
const reportKind = "report"

// MoveAside renames the results folder dir to a sibling named
// dir.replaced-<now>, with -2, -3... after it when that exists, and
// returns the new path. Nothing is deleted: the earlier run stays whole
// under the new name.
func MoveAside(dir string, now time.Time) (string, error) {
	clean := filepath.Clean(dir)
	base := clean + ".replaced-" + now.Format("20060102-150405")
	for n := 1; ; n++ {
		to := base
		if n > 1 {
			to = fmt.Sprintf("%s-%d", base, n)
		}
		err := renameNoReplace(clean, to)
		if errors.Is(err, fs.ErrExist) || errors.Is(err, unix.ENOTEMPTY) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("move %s aside: %w", dir, err)
		}
		return to, nil
	}
}

// renameNoReplace renames from to to, failing if to exists (a plain
// rename would replace an empty folder there).
func renameNoReplace(from, to string) error {
	err := unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_NOREPLACE)
	if !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOSYS) {
		return err
	}
	// A file system without RENAME_NOREPLACE.
	if _, err := os.Lstat(to); err == nil {
		return fs.ErrExist
	}
	return os.Rename(from, to)
}

// removeStaleTemporaries deletes the temporary files of atomic writes that
// a killed run left behind; they were never renamed, so nothing refers to
// them.
func removeStaleTemporaries(dir string) {
	for _, d := range []string{dir, filepath.Join(dir, StepsDir)} {
		tmps, _ := filepath.Glob(filepath.Join(d, ".*.tmp*"))
		for _, t := range tmps {
			os.Remove(t)
		}
	}
}
