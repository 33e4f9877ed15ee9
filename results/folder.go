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
	return &Folder{Dir: dir, Manifest: &m}, nil
}

// checkSchema accepts the same schema family and major version.
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

// WriteRecord stores r atomically, then appends its completion to the
// journal. A crash between the two leaves a complete record that the
// journal does not mention yet; readers trust the record.
func (f *Folder) WriteRecord(r *Record) error {
	r.Schema = RecordSchema
	if err := WriteJSONAtomic(f.RecordPath(r.StepID), r); err != nil {
		return fmt.Errorf("save record of step %s: %w", r.Name, err)
	}
	return f.appendJournal(journalEntry{Step: r.StepID, Status: r.Status, Time: r.Finished})
}

// MarkDone appends a journal line for a record that is complete on disk
// but that the journal does not mention: the process died between the
// two writes.
func (f *Folder) MarkDone(r *Record) error {
	return f.appendJournal(journalEntry{Step: r.StepID, Status: r.Status, Time: r.Finished})
}

// ReadRecord reads the record of step id; fs.ErrNotExist when there is none.
func (f *Folder) ReadRecord(id string) (*Record, error) {
	data, err := os.ReadFile(f.RecordPath(id))
	if err != nil {
		return nil, err
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", f.RecordPath(id), err)
	}
	if err := checkSchema(r.Schema, RecordSchema); err != nil {
		return nil, fmt.Errorf("%s: %w", f.RecordPath(id), err)
	}
	return &r, nil
}

// Records reads every record of the run, in the manifest's step order
// first and then any others (from earlier revisions of the plan) by name.
func (f *Folder) Records() ([]*Record, error) {
	entries, err := os.ReadDir(filepath.Join(f.Dir, StepsDir))
	if err != nil {
		return nil, fmt.Errorf("read records: %w", err)
	}
	present := map[string]bool{}
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".json"); ok && !strings.HasPrefix(id, ".") {
			present[id] = true
		}
	}
	var recs []*Record
	read := func(id string) error {
		if !present[id] {
			return nil
		}
		delete(present, id)
		r, err := f.ReadRecord(id)
		if err != nil {
			return err
		}
		recs = append(recs, r)
		return nil
	}
	for _, s := range f.Manifest.Steps {
		if err := read(s.ID); err != nil {
			return recs, err
		}
	}
	for _, e := range entries {
		if err := read(strings.TrimSuffix(e.Name(), ".json")); err != nil {
			return recs, err
		}
	}
	return recs, nil
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
