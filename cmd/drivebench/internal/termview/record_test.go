package termview

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// The golden tests replay runs recorded from the engine: a plan of
// recordings run with its variables, its graph and every event it gave
// written to testdata/NAME.events.jsonl with the time since the run
// began. go test -record -update runs them again (real I/O, on scratch
// files; the figures change, so the goldens are made again with them).

var record = flag.Bool("record", false, "run the recorded plans again and record their events")

// recordings are the recorded plans and their variables.
var recordings = []struct {
	name, plan string
	vars       map[string]string
}{
	// The quickstart, shortened.
	{"quickstart", "../../../../examples/quickstart.hcl", map[string]string{"runtime": "1s", "size": "64MiB"}},
	// Two drives in parallel lanes.
	{"parallel", "testdata/parallel.hcl", nil},
	// A vdbench-style sweep of a file in memory, never written: every
	// point warns twice.
	{"sweep-warnings", "testdata/sweep-warnings.hcl", map[string]string{"target": "/dev/shm/termview-sweep.bin"}},
}

// recordedNode is what the view reads of a step of the graph.
type recordedNode struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Drive      string `json:"drive,omitempty"`
	EstimateMs int64  `json:"estimate_ms,omitempty"`
}

// recordedEvent is an engine event as the view reads it.
type recordedEvent struct {
	AtMs        int64            `json:"at_ms"`
	Kind        engine.EventKind `json:"kind"`
	Index       int              `json:"index"`
	Sample      *metrics.Sample  `json:"sample,omitempty"`
	Progress    float64          `json:"progress,omitempty"`
	Message     string           `json:"message,omitempty"`
	WarningKind string           `json:"warning_kind,omitempty"`
	Record      *results.Record  `json:"record,omitempty"`
}

// recording is a recorded run: its first line, then one event a line.
type recording struct {
	Parallel bool           `json:"parallel,omitempty"`
	Nodes    []recordedNode `json:"nodes"`
	events   []recordedEvent
}

// TestRecordings reads every recording (recording it first with
// -record): a step that started has finished, or is the report, which
// finishes with the run.
func TestRecordings(t *testing.T) {
	for _, r := range recordings {
		t.Run(r.name, func(t *testing.T) {
			if *record {
				recordRun(t, r.name, r.plan, r.vars)
			}
			rec := readRecording(t, r.name)
			open := map[int]bool{}
			for _, e := range rec.events {
				switch e.Kind {
				case engine.StepStarted:
					open[e.Index] = true
				case engine.StepFinished:
					delete(open, e.Index)
				}
			}
			for i := range open {
				if !strings.HasSuffix(rec.Nodes[i].Name, "report") {
					t.Errorf("step %d (%s) started and never finished", i+1, rec.Nodes[i].Name)
				}
			}
		})
	}
}

// recordRun runs a recorded plan again and writes its recording.
func recordRun(t *testing.T, name, path string, vars map[string]string) {
	if target := vars["target"]; target != "" {
		if err := os.WriteFile(target, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(target, 16<<20); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Remove(target) })
	}
	p, sources, diags := plan.Load(path, plan.LoadOptions{Vars: vars})
	if diags.HasErrors() {
		var b strings.Builder
		sources.WriteDiagnostics(&b, diags, 100, false)
		t.Fatal(b.String())
	}
	g := plan.Expand(p)
	rec := recording{Parallel: g.Parallel}
	for _, n := range g.Nodes {
		rec.Nodes = append(rec.Nodes, recordedNode{ID: n.ID, Name: n.Name, Drive: n.Drive, EstimateMs: n.Estimate.Milliseconds()})
	}
	var mu sync.Mutex
	start := time.Now()
	observe := func(e engine.Event) {
		mu.Lock()
		defer mu.Unlock()
		rec.events = append(rec.events, recordedEvent{AtMs: time.Since(start).Milliseconds(), Kind: e.Kind, Index: e.Index,
			Sample: sampleOf(e), Progress: e.Progress, Message: e.Message, WarningKind: e.WarningKind, Record: slim(e.Record)})
	}
	if _, err := engine.Run(context.Background(), p, g, engine.Options{Dir: t.TempDir(), Observe: observe}); err != nil {
		t.Fatal(err)
	}
	writeRecording(t, filepath.Join("testdata", name+".events.jsonl"), rec)
}

func sampleOf(e engine.Event) *metrics.Sample {
	if e.Kind != engine.StepLive {
		return nil
	}
	return &e.Sample
}

// slim keeps of a record what the view shows.
func slim(r *results.Record) *results.Record {
	if r == nil {
		return nil
	}
	s := &results.Record{StepID: r.StepID, Kind: r.Kind, Name: r.Name, Drive: r.Drive, Status: r.Status, Error: r.Error, Started: r.Started, Finished: r.Finished,
		Verdicts: r.Verdicts, Warnings: r.Warnings, Command: r.Command}
	if res := r.Result; res != nil {
		s.Result = &metrics.Result{Read: slimDir(res.Read), Write: slimDir(res.Write), Metrics: res.Metrics}
	}
	return s
}

// slimDir keeps a direction's figures and percentiles, not its
// histogram.
func slimDir(d *metrics.DirStats) *metrics.DirStats {
	if d == nil {
		return nil
	}
	c := *d
	c.Hist, c.Service = nil, nil
	return &c
}

func writeRecording(t *testing.T, path string, rec recording) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.Encode(rec)
	for _, e := range rec.events {
		enc.Encode(e)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readRecording reads testdata/NAME.events.jsonl.
func readRecording(t *testing.T, name string) recording {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name+".events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var rec recording
	for n := 0; sc.Scan(); n++ {
		var err error
		if n == 0 {
			err = json.Unmarshal(sc.Bytes(), &rec)
		} else {
			var e recordedEvent
			err = json.Unmarshal(sc.Bytes(), &e)
			rec.events = append(rec.events, e)
		}
		if err != nil {
			t.Fatalf("%s.events.jsonl:%d: %v", name, n+1, err)
		}
	}
	return rec
}

// graph is the recorded plan's graph.
func (rec recording) graph() *plan.Graph {
	g := &plan.Graph{Parallel: rec.Parallel}
	for _, n := range rec.Nodes {
		g.Nodes = append(g.Nodes, &plan.Node{ID: n.ID, Name: n.Name, Drive: n.Drive, Estimate: time.Duration(n.EstimateMs) * time.Millisecond})
	}
	return g
}

// event is a recorded event as the engine gave it.
func (rec recording) event(g *plan.Graph, e recordedEvent) engine.Event {
	ev := engine.Event{Kind: e.Kind, Index: e.Index, Total: len(g.Nodes), Node: g.Nodes[e.Index], Progress: e.Progress,
		Message: e.Message, WarningKind: e.WarningKind, Record: e.Record}
	if e.Sample != nil {
		ev.Sample = *e.Sample
	}
	return ev
}
