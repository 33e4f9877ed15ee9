package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// journalEntry is one line of journal.jsonl.
type journalEntry struct {
	Step   string    `json:"step"`
	Status string    `json:"status"`
	Time   time.Time `json:"time"`
}

func (f *Folder) appendJournal(e journalEntry) error {
	f.journalMu.Lock()
	defer f.journalMu.Unlock()
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	j, err := os.OpenFile(filepath.Join(f.Dir, JournalFile), os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if torn, err := endsTorn(j); err != nil || torn {
		// The last append was cut short: end that line so this one
		// stands on its own.
		line = append([]byte{'\n'}, line...)
	}
	if _, err := j.Write(append(line, '\n')); err != nil {
		j.Close()
		return err
	}
	if err := j.Sync(); err != nil {
		j.Close()
		return err
	}
	return j.Close()
}

// Journal returns the last status the journal holds for each step. A torn
// or garbled line (the process died while appending it) is skipped: the
// step it names is then simply not known to be done.
func (f *Folder) Journal() (map[string]string, error) {
	data, err := os.ReadFile(filepath.Join(f.Dir, JournalFile))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	status := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		var e journalEntry
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Step != "" {
			status[e.Step] = e.Status
		}
	}
	return status, nil
}

// endsTorn reports whether the journal's last line lacks its newline.
func endsTorn(j *os.File) (bool, error) {
	info, err := j.Stat()
	if err != nil || info.Size() == 0 {
		return false, err
	}
	last := make([]byte, 1)
	if _, err := j.ReadAt(last, info.Size()-1); err != nil {
		return false, err
	}
	return last[0] != '\n', nil
}
