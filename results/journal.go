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

// journalEntry is the line of journal.jsonl that says a step finished,
// in which run of the folder, on which target, and why a precondition
// complete before ran again.
type journalEntry struct {
	Step   string    `json:"step"`
	Status string    `json:"status"`
	Time   time.Time `json:"time"`
	Run    int       `json:"run,omitempty"`
	Target *Target   `json:"target,omitempty"`
	Rerun  string    `json:"rerun,omitempty"`
}

// journalLine is the journal's line for r.
func journalLine(r *Record) journalEntry {
	e := journalEntry{Step: r.StepID, Status: r.Status, Time: r.Finished, Run: r.Run, Target: r.Target}
	if r.DriveState != nil {
		e.Rerun = r.DriveState.Rerun
	}
	return e
}

// RunEvent is the line of journal.jsonl that says a run started in the
// folder or ended: the folder's history, which tells a finished run from
// one to resume and lets the report say when a run was interrupted and
// resumed. A start without an end after it is a run that was killed,
// crashed or lost its machine.
type RunEvent struct {
	// Run is RunStarted or RunEnded.
	Run  string    `json:"run"`
	Time time.Time `json:"time"`
	// On a start: the plan revision and drivebench version of the run,
	// and whether the folder already held an earlier run's steps.
	PlanHash string `json:"plan_hash,omitempty"`
	Version  string `json:"drivebench_version,omitempty"`
	Resumed  bool   `json:"resumed,omitempty"`
	// SetAside lists the damaged records the run moved to damaged/
	// before it began, their steps to run again.
	SetAside []SetAsideRecord `json:"set_aside,omitempty"`
	// On an end: RunComplete, RunInterrupted or RunStopped, and why when
	// not complete.
	Outcome string `json:"outcome,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// SetAsideRecord is a damaged record a run moved aside: its file and
// where it is kept, relative to the results folder, and what was wrong.
type SetAsideRecord struct {
	Record string `json:"record"`
	KeptAs string `json:"kept_as"`
	Reason string `json:"reason"`
}

// Run events and how a run ended.
const (
	RunStarted = "started"
	RunEnded   = "ended"
	// RunComplete: every step ran (some may have failed), and the
	// reports were made. RunInterrupted: a signal stopped the run.
	// RunStopped: an error stopped it (an abort after a failed step, a
	// full disk).
	RunComplete    = "complete"
	RunInterrupted = "interrupted"
	RunStopped     = "stopped"
)

// AppendRunEvent adds a run's start or end to the journal.
func (f *Folder) AppendRunEvent(e RunEvent) error {
	return f.appendJournal(e)
}

func (f *Folder) appendJournal(e any) error {
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
	status := map[string]string{}
	err := f.eachJournalLine(func(line []byte) {
		var e journalEntry
		if json.Unmarshal(line, &e) == nil && e.Step != "" {
			status[e.Step] = e.Status
		}
	})
	return status, err
}

// Runs returns the starts and ends of runs the journal holds, in order.
func (f *Folder) Runs() ([]RunEvent, error) {
	var runs []RunEvent
	err := f.eachJournalLine(func(line []byte) {
		var e RunEvent
		if json.Unmarshal(line, &e) == nil && e.Run != "" {
			runs = append(runs, e)
		}
	})
	return runs, err
}

// eachJournalLine calls fn with each line of the journal; a folder
// without one has none.
func (f *Folder) eachJournalLine(fn func([]byte)) error {
	data, err := os.ReadFile(filepath.Join(f.Dir, JournalFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		fn(sc.Bytes())
	}
	return nil
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

// RunHistory is one run of the folder as the journal tells it: its start,
// its end (nil when the journal has none: the run was killed or crashed,
// or is still going), and the steps it finished, in order. Steps
// journaled before the journal kept runs form a first run with a zero
// Start.
type RunHistory struct {
	Start RunEvent
	End   *RunEvent
	Steps []string
}

// History returns the runs of the folder, in order.
func (f *Folder) History() ([]RunHistory, error) {
	var runs []RunHistory
	err := f.eachJournalLine(func(line []byte) {
		var e RunEvent
		if json.Unmarshal(line, &e) == nil && e.Run == RunStarted {
			runs = append(runs, RunHistory{Start: e})
			return
		}
		if e.Run == RunEnded && len(runs) > 0 && runs[len(runs)-1].End == nil {
			runs[len(runs)-1].End = &e
			return
		}
		var s journalEntry
		if json.Unmarshal(line, &s) == nil && s.Step != "" {
			if len(runs) == 0 {
				runs = append(runs, RunHistory{})
			}
			runs[len(runs)-1].Steps = append(runs[len(runs)-1].Steps, s.Step)
		}
	})
	return runs, err
}
