package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
)

func newFolder(t *testing.T, steps ...string) *Folder {
	t.Helper()
	m := &Manifest{Plan: "p", PlanHash: "h"}
	for _, s := range steps {
		m.Steps = append(m.Steps, StepInfo{ID: s, Name: "step " + s})
	}
	f, err := Create(filepath.Join(t.TempDir(), "run"), m)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestRecordRoundTripAndOrder(t *testing.T) {
	f := newFolder(t, "b2", "a1")
	var h metrics.Histogram
	h.Record(1500)
	h.Record(2500)
	for _, id := range []string{"a1", "b2", "zz-older"} {
		r := &Record{StepID: id, Name: id, Status: StatusOK, Finished: time.Unix(1, 0).UTC(),
			Result:   &metrics.Result{Read: metrics.Summarize(&h, 8192, time.Second)},
			Workload: &workload.Workload{RW: "randrw", ReadPct: 70, BSSplit: []workload.SizeWeight{{Size: 4096, Weight: 60}, {Size: 65536, Weight: 40}}, Runtime: time.Minute, RateIOPS: 5000}}
		if err := f.WriteRecord(r); err != nil {
			t.Fatal(err)
		}
	}
	again, err := Open(f.Dir)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := again.Records()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range recs {
		ids = append(ids, r.StepID)
	}
	if got := strings.Join(ids, ","); got != "b2,a1,zz-older" {
		t.Errorf("records in order %s, want the manifest's order then the rest", got)
	}
	if w := recs[0].Workload; w == nil || w.RW != "randrw" || len(w.BSSplit) != 2 || w.BSSplit[1].Size != 65536 ||
		w.Runtime != time.Minute || !w.RateLimited() {
		t.Errorf("workload did not survive the round trip: %+v", recs[0].Workload)
	}
	if recs[0].Result.Read.Hist.Count() != 2 || recs[0].Schema != RecordSchema {
		t.Errorf("record did not survive the round trip: %+v", recs[0])
	}
}

func TestWriteRecordLeavesNoTemporaryFiles(t *testing.T) {
	f := newFolder(t, "s")
	if err := f.WriteRecord(&Record{StepID: "s", Status: StatusOK}); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Join(f.Dir, StepsDir))
	if len(entries) != 1 || entries[0].Name() != "s.json" {
		t.Errorf("steps folder holds %v", entries)
	}
}

func TestJournalToleratesTornLastLine(t *testing.T) {
	f := newFolder(t, "a", "b")
	for _, id := range []string{"a", "b"} {
		if err := f.WriteRecord(&Record{StepID: id, Status: StatusOK}); err != nil {
			t.Fatal(err)
		}
	}
	j, err := os.OpenFile(filepath.Join(f.Dir, JournalFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	j.WriteString(`{"step":"c","stat`)
	j.Close()
	status, err := f.Journal()
	if err != nil {
		t.Fatal(err)
	}
	if len(status) != 2 || status["a"] != StatusOK || status["b"] != StatusOK {
		t.Errorf("journal read as %v", status)
	}
	// Appending after a torn line still gives readable entries.
	if err := f.WriteRecord(&Record{StepID: "c", Status: StatusFailed}); err != nil {
		t.Fatal(err)
	}
	if status, _ := f.Journal(); status["c"] != StatusFailed {
		t.Errorf("entry after a torn line lost: %v", status)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "not a results folder") {
		t.Errorf("Open of an empty folder: %v", err)
	}
	os.WriteFile(filepath.Join(dir, ManifestFile), []byte(`{"schema":"drivebench/manifest/v9"}`), 0o644)
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "another version") {
		t.Errorf("Open of a future schema: %v", err)
	}
	os.WriteFile(filepath.Join(dir, ManifestFile), []byte(`{"schema":`), 0o644)
	if _, err := Open(dir); err == nil {
		t.Error("Open of a torn manifest succeeded")
	}
}

func TestReadRecordMissingAndCorrupt(t *testing.T) {
	f := newFolder(t, "x")
	if _, err := f.ReadRecord("x"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing record: %v", err)
	}
	os.WriteFile(f.RecordPath("x"), []byte("{"), 0o644)
	if _, err := f.ReadRecord("x"); err == nil || !strings.Contains(err.Error(), "x.json") {
		t.Errorf("corrupt record: %v", err)
	}
}

func TestWriteJSONAtomicReplaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v.json")
	for i := range 3 {
		if err := WriteJSONAtomic(path, map[string]int{"i": i}); err != nil {
			t.Fatal(err)
		}
	}
	var v map[string]int
	data, _ := os.ReadFile(path)
	if json.Unmarshal(data, &v) != nil || v["i"] != 2 {
		t.Errorf("file holds %s", data)
	}
}

// TestParamsReadBackAsWritten: a whole-number parameter read from a
// record on disk is an int64, as the plan gave it, and a fraction stays a
// float64.
func TestParamsReadBackAsWritten(t *testing.T) {
	var got []workload.Param
	if err := json.Unmarshal([]byte(`[{"name":"bs","value":4096},{"name":"rate_pct","value":12.5},{"name":"rw","value":"randread"}]`), &got); err != nil {
		t.Fatal(err)
	}
	if got[0].Value != int64(4096) || got[1].Value != 12.5 || got[2].Value != "randread" {
		t.Errorf("got %#v", got)
	}
}

func TestHealthRoundTripAndRefusals(t *testing.T) {
	f := newFolder(t)
	temp := 41
	h := &Health{Drive: "nvme0", Path: "/dev/nvme0n1", EngineBytesWritten: 4096,
		Before: &HealthReading{TemperatureC: &temp, DataUnitsWritten: "340282366920938463463374607431768211455"},
		Change: &HealthChange{BytesWritten: 512_000, NewCriticalWarnings: []string{"temperature"}}}
	if err := f.WriteHealth(h); err != nil {
		t.Fatal(err)
	}
	got, err := f.Health()
	if err != nil {
		t.Fatal(err)
	}
	if g := got["nvme0"]; g == nil || g.Schema != HealthSchema || *g.Before.TemperatureC != 41 ||
		g.Before.DataUnitsWritten != h.Before.DataUnitsWritten || g.Change.NewCriticalWarnings[0] != "temperature" {
		t.Errorf("health did not survive the round trip: %+v", got)
	}
	os.WriteFile(filepath.Join(f.Dir, HealthDir, "old.json"), []byte(`{"before":{"smart_log":{}}}`), 0o644)
	if _, err := f.Health(); err == nil || !strings.Contains(err.Error(), "old.json") || !strings.Contains(err.Error(), "another version") {
		t.Errorf("a health document of another version: %v", err)
	}
}

// TestFinished: a folder's run is finished when the journal's last run
// ended complete; a start without an end, or an interrupted end, is not;
// a folder from before run events is finished when every step but the
// report has a status other than interrupted.
func TestFinished(t *testing.T) {
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		events []RunEvent
		steps  map[string]string // journal status by step
		want   bool
	}{
		{"complete", []RunEvent{{Run: RunStarted}, {Run: RunEnded, Time: at, Outcome: RunComplete}}, nil, true},
		{"interrupted", []RunEvent{{Run: RunStarted}, {Run: RunEnded, Time: at, Outcome: RunInterrupted}}, nil, false},
		{"killed after a complete run", []RunEvent{{Run: RunStarted}, {Run: RunEnded, Outcome: RunComplete}, {Run: RunStarted, Time: at}}, nil, false},
		{"no events, every step", nil, map[string]string{"a": StatusOK, "b": StatusFailed}, true},
		{"no events, a step interrupted", nil, map[string]string{"a": StatusOK, "b": StatusInterrupted}, false},
		{"no events, a step missing", nil, map[string]string{"a": StatusOK}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFolder(t, "a", "b")
			f.Manifest.Steps = append(f.Manifest.Steps, StepInfo{ID: "r", Kind: reportKind})
			for id, st := range tt.steps {
				if err := f.WriteRecord(&Record{StepID: id, Status: st}); err != nil {
					t.Fatal(err)
				}
			}
			for _, e := range tt.events {
				if err := f.AppendRunEvent(e); err != nil {
					t.Fatal(err)
				}
			}
			ended, got, err := f.Finished()
			if err != nil || got != tt.want {
				t.Fatalf("Finished = %v, %v; want %v", got, err, tt.want)
			}
			if tt.events != nil && !ended.Equal(at) {
				t.Errorf("ended %v, want the last event's time %v", ended, at)
			}
		})
	}
}

// TestMoveAside: the folder is renamed beside itself, whole, and a second
// move in the same second takes the next free name rather than replacing
// the first.
func TestMoveAside(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "run")
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	var moved []string
	for i := range 2 {
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "manifest.json"), []byte{byte('0' + i)}, 0o644)
		to, err := MoveAside(dir, now)
		if err != nil {
			t.Fatal(err)
		}
		moved = append(moved, filepath.Base(to))
		if data, _ := os.ReadFile(filepath.Join(to, "manifest.json")); string(data) != string(rune('0'+i)) {
			t.Errorf("%s holds %q", to, data)
		}
	}
	if want := "run.replaced-20250102-030405,run.replaced-20250102-030405-2"; strings.Join(moved, ",") != want {
		t.Errorf("moved to %v, want %s", moved, want)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s is still there: %v", dir, err)
	}
}

// TestReadableRecords: records that cannot be read are returned apart,
// each saying whether a newer drivebench wrote it, and the others are
// read; Records refuses the folder.
func TestReadableRecords(t *testing.T) {
	f := newFolder(t, "good", "torn", "newer", "foreign", "older")
	if err := f.WriteRecord(&Record{StepID: "good", Status: StatusOK}); err != nil {
		t.Fatal(err)
	}
	for id, content := range map[string]string{
		"torn":    `{"schema": "drivebench/record/v1", "step`,
		"newer":   `{"schema": "drivebench/record/v12"}`,
		"foreign": `{"schema": "drivebench/summary/v1"}`,
		"older":   `{"schema": "drivebench/record/v0"}`,
	} {
		os.WriteFile(f.RecordPath(id), []byte(content), 0o644)
	}
	recs, unreadable, err := f.ReadableRecords()
	if err != nil || len(recs) != 1 || recs[0].StepID != "good" {
		t.Fatalf("records %v, %v", recs, err)
	}
	var got []string
	for _, e := range unreadable {
		got = append(got, fmt.Sprintf("%s newer=%v", e.StepID, e.Newer))
	}
	if want := "torn newer=false,newer newer=true,foreign newer=false,older newer=false"; strings.Join(got, ",") != want {
		t.Errorf("unreadable %s, want %s", strings.Join(got, ","), want)
	}
	if _, err := f.Records(); err == nil || !strings.Contains(err.Error(), "torn.json is damaged") {
		t.Errorf("Records: %v, want the damaged record named", err)
	}
}

// TestHistory: the journal's lines are grouped by run, a run without an
// end has none, and steps journaled before the journal kept runs form a
// first run with no start.
func TestHistory(t *testing.T) {
	f := newFolder(t, "a", "b", "c")
	write := func(id string) {
		if err := f.WriteRecord(&Record{StepID: id, Status: StatusOK}); err != nil {
			t.Fatal(err)
		}
	}
	event := func(e RunEvent) {
		if err := f.AppendRunEvent(e); err != nil {
			t.Fatal(err)
		}
	}
	write("a")
	event(RunEvent{Run: RunStarted, Resumed: true})
	write("b")
	event(RunEvent{Run: RunStarted, Resumed: true})
	write("c")
	event(RunEvent{Run: RunEnded, Outcome: RunComplete})
	runs, err := f.History()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		end := "no end"
		if r.End != nil {
			end = r.End.Outcome
		}
		got = append(got, fmt.Sprintf("%q %s %v", r.Start.Run, end, r.Steps))
	}
	if want := `"" no end [a]; "started" no end [b]; "started" complete [c]`; strings.Join(got, "; ") != want {
		t.Errorf("history %s, want %s", strings.Join(got, "; "), want)
	}
}

// FuzzJournal: any journal, torn or garbled, reads without a panic, and
// the runs' steps are the steps the journal names.
func FuzzJournal(f *testing.F) {
	f.Add([]byte(`{"run":"started","time":"2026-01-01T00:00:00Z","resumed":true}` + "\n" + `{"step":"a","status":"ok","time":"2026-01-01T00:00:01Z","run":1}` + "\n" + `{"run":"ended","outcome":"complete"}` + "\n"))
	f.Add([]byte(`{"step":"a","status":"ok"}` + "\n" + `{"run":"ended"}` + "\n" + `{"run":"start`))
	f.Fuzz(func(t *testing.T, journal []byte) {
		folder := newFolder(t, "a")
		if err := os.WriteFile(filepath.Join(folder.Dir, JournalFile), journal, 0o644); err != nil {
			t.Fatal(err)
		}
		status, err := folder.Journal()
		if err != nil {
			t.Fatal(err)
		}
		runs, err := folder.History()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			for _, id := range r.Steps {
				if _, ok := status[id]; !ok {
					t.Errorf("run step %q is not in the journal's statuses", id)
				}
			}
		}
		if _, _, err := folder.Finished(); err != nil {
			t.Fatal(err)
		}
	})
}
