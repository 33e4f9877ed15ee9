package termview

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// tickEvery is how often a replay moves the view on between events.
const tickEvery = 500 * time.Millisecond

// fakeClock is a clock the test moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

// replayer replays a recording into a view, the clock at each event's
// recorded time, the view ticked every tickEvery between events.
type replayer struct {
	rec  recording
	g    *plan.Graph
	clk  *fakeClock
	view *View
	out  bytes.Buffer
	// snap, when set, is called after each event.
	snap func(e engine.Event)
}

func newReplayer(t *testing.T, name string, opt Options) *replayer {
	rec := readRecording(t, name)
	r := &replayer{rec: rec, g: rec.graph(), clk: &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}}
	opt.Graph, opt.Now = r.g, r.clk.now
	r.view = New(&r.out, opt)
	return r
}

func (r *replayer) run() {
	start := r.clk.t
	var recs []*results.Record
	for _, re := range r.rec.events {
		at := start.Add(time.Duration(re.AtMs) * time.Millisecond)
		for r.clk.t.Add(tickEvery).Before(at) {
			r.clk.t = r.clk.t.Add(tickEvery)
			r.view.Tick()
		}
		r.clk.t = at
		e := r.rec.event(r.g, re)
		r.view.Observe(e)
		if e.Kind == engine.StepFinished || e.Kind == engine.StepReused {
			recs = append(recs, e.Record)
		}
		if r.snap != nil {
			r.snap(e)
		}
	}
	r.view.Finish()
	r.view.Table(recs)
}

// screen is a terminal as far as the view moves on it: lines written,
// the cursor moved up (ESC [ n A) and a line erased (ESC [ 2 K). Text
// written over a line not erased first is an error: a terminal would show
// what is left of the old one. Colours are kept as {red}...{/}.
type screen struct {
	lines []string
	row   int
	// stale marks the lines of text the cursor moved up over, not yet
	// erased.
	stale map[int]bool
}

var escape = regexp.MustCompile(`^\x1b\[([0-9]*)([AKm])`)

var colorNames = map[string]string{red: "{red}", green: "{green}", yellow: "{yellow}", "0": "{/}"}

func (s *screen) write(t *testing.T, b string) {
	for len(b) > 0 {
		for s.row >= len(s.lines) && b[0] != '\n' && !strings.HasSuffix(escape.FindString(b), "A") {
			s.lines = append(s.lines, "")
		}
		switch m := escape.FindStringSubmatch(b); {
		case m != nil:
			n, _ := strconv.Atoi(m[1])
			switch m[2] {
			case "A":
				s.row -= n
				if s.row < 0 {
					t.Fatalf("the cursor moved above the screen's first line")
				}
				if s.stale == nil {
					s.stale = map[int]bool{}
				}
				for i := s.row; i < s.row+n; i++ {
					s.stale[i] = s.lines[i] != ""
				}
			case "K":
				s.lines[s.row] = ""
				delete(s.stale, s.row)
			case "m":
				s.lines[s.row] += colorNames[m[1]]
			}
			b = b[len(m[0]):]
		case b[0] == '\n':
			s.row++
			b = b[1:]
		case b[0] == '\r': // the model's cursor is always at a line's start
			b = b[1:]
		case b[0] == '\x1b':
			t.Fatalf("an escape sequence the view should not write: %q", b[:min(len(b), 8)])
		default:
			i := strings.IndexAny(b, "\n\r\x1b")
			if i < 0 {
				i = len(b)
			}
			if s.stale[s.row] {
				t.Fatalf("text written over line %d, %q, without erasing it", s.row, s.lines[s.row])
			}
			s.lines[s.row] += b[:i]
			b = b[i:]
		}
	}
}

func (s *screen) text() string { return strings.TrimRight(strings.Join(s.lines, "\n"), "\n") + "\n" }

// TestLiveView replays recorded runs on a terminal: the screen after the
// first interval of each step (the live block: bars, labelled progress,
// figures, folded warnings) and the whole screen at the end (finished
// steps with their latency, the warnings counted, the closing table).
func TestLiveView(t *testing.T) {
	cases := []struct {
		golden, recording string
		color             bool
		width             int
	}{
		{"quickstart.live", "quickstart", true, 120},
		{"quickstart.narrow", "quickstart", false, 60},
		{"parallel.live", "parallel", false, 100},
		{"sweep-warnings.live", "sweep-warnings", true, 100},
	}
	for _, tc := range cases {
		t.Run(tc.golden, func(t *testing.T) {
			r := newReplayer(t, tc.recording, Options{Live: true, Color: tc.color, Size: func() (int, int) { return tc.width, 40 }})
			var scr screen
			var got strings.Builder
			seen := map[int]bool{}
			r.snap = func(e engine.Event) {
				scr.write(t, r.out.String())
				r.out.Reset()
				if e.Kind != engine.StepLive || seen[e.Index] {
					return
				}
				seen[e.Index] = true
				fmt.Fprintf(&got, "== the block after the first interval of step %d ==\n", e.Index+1)
				got.WriteString(strings.Join(scr.lines[len(scr.lines)-r.view.drawn:], "\n") + "\n")
			}
			r.run()
			scr.write(t, r.out.String())
			got.WriteString("== the screen at the end ==\n" + scr.text())
			for _, l := range scr.lines {
				if n := len([]rune(regexp.MustCompile(`\{[a-z/]*\}`).ReplaceAllString(l, ""))); n >= tc.width && !strings.HasPrefix(l, "─") && tc.width > 100 {
					t.Errorf("a line of %d columns on a terminal of %d: %q", n, tc.width, l)
				}
			}
			golden(t, tc.golden, got.String())
		})
	}
}

// TestLogView replays recorded runs without a terminal: plain lines,
// a heartbeat per running step timed from its own start, the first
// warning of each kind in full and the others counted.
func TestLogView(t *testing.T) {
	for _, name := range []string{"quickstart", "parallel", "sweep-warnings"} {
		t.Run(name, func(t *testing.T) {
			r := newReplayer(t, name, Options{Heartbeat: 2 * time.Second, Color: false})
			r.run()
			if strings.Contains(r.out.String(), "\x1b") {
				t.Errorf("an escape sequence without a terminal:\n%q", r.out.String())
			}
			golden(t, name+".log", r.out.String())
		})
	}
}

// TestHeartbeatTimedPerStep: a step's first heartbeat comes a whole
// interval after its own start, whatever the steps before it took, and
// names the step's and the plan's progress apart.
func TestHeartbeatTimedPerStep(t *testing.T) {
	a := &plan.Node{Name: "d / a", Estimate: 3 * time.Second}
	b := &plan.Node{Name: "d / b", Estimate: 20 * time.Second}
	g := &plan.Graph{Nodes: []*plan.Node{a, b}}
	clk := &fakeClock{t: time.Unix(1000, 0)}
	var out bytes.Buffer
	v := New(&out, Options{Graph: g, Now: clk.now, Heartbeat: 10 * time.Second})
	at := func(d time.Duration) { clk.t = time.Unix(1000, 0).Add(d); v.Tick() }
	v.Observe(engine.Event{Kind: engine.StepStarted, Index: 0, Total: 2, Node: a})
	at(3 * time.Second)
	v.Observe(engine.Event{Kind: engine.StepFinished, Index: 0, Total: 2, Node: a, Record: &results.Record{Status: results.StatusOK}})
	v.Observe(engine.Event{Kind: engine.StepStarted, Index: 1, Total: 2, Node: b})
	at(4 * time.Second)
	at(10 * time.Second) // a run-wide 10 s timer would beat here, 7 s into b
	v.Observe(engine.Event{Kind: engine.StepLive, Index: 1, Total: 2, Node: b, Sample: metrics.Sample{ReadIOPS: 9000, WriteIOPS: 3000, BW: 48e6, P99Ns: 210_000}})
	at(13 * time.Second)
	at(22 * time.Second)
	want := `[1/2] d / a: started
[1/2] d / a: done
[2/2] d / b: started
[2/2] d / b: running 00:10, 12,000 IOPS (read 9,000, write 3,000), 48.0 MB/s, p99 210.0 µs, step 2/2 50%, plan 57% ETA 00:10
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestManyLanes: many drives in parallel get a line each, and those
// that do not fit the terminal's height are counted, so the block never
// scrolls out of the cursor's reach.
func TestManyLanes(t *testing.T) {
	g := &plan.Graph{Parallel: true}
	for i := range 8 {
		g.Nodes = append(g.Nodes, &plan.Node{Name: fmt.Sprintf("d%d / read", i), Drive: fmt.Sprintf("d%d", i), Estimate: 10 * time.Second})
	}
	clk := &fakeClock{t: time.Unix(1000, 0)}
	var out bytes.Buffer
	v := New(&out, Options{Graph: g, Live: true, Now: clk.now, Size: func() (int, int) { return 80, 8 }})
	for i, n := range g.Nodes {
		v.Observe(engine.Event{Kind: engine.StepStarted, Index: i, Total: len(g.Nodes), Node: n})
	}
	clk.t = clk.t.Add(5 * time.Second)
	v.Observe(engine.Event{Kind: engine.StepWarning, Index: 3, Total: len(g.Nodes), Node: g.Nodes[3], WarningKind: results.WarnHostCPU, Message: "busy"})
	var scr screen
	scr.write(t, out.String())
	got := strings.Join(scr.lines[len(scr.lines)-v.drawn:], "\n")
	want := `[1/8] d0 / read  00:05  [██████████░░░░░░░░░░] step 1/8 50%
[2/8] d1 / read  00:05  [██████████░░░░░░░░░░] step 2/8 50%
[3/8] d2 / read  00:05  [██████████░░░░░░░░░░] step 3/8 50%
[4/8] d3 / read  00:05  [██████████░░░░░░░░░░] step 4/8 50%
… and 4 more steps running
plan 50% ETA 00:05
⚠ host-bound: 1 warning, details in the report`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestUnits: a plan whose reports are in MiB/s is shown in MiB/s, live
// and in the closing table.
func TestUnits(t *testing.T) {
	n := &plan.Node{Name: "d / write", Estimate: 10 * time.Second}
	g := &plan.Graph{Nodes: []*plan.Node{n}}
	clk := &fakeClock{t: time.Unix(1000, 0)}
	var out bytes.Buffer
	v := New(&out, Options{Graph: g, Now: clk.now, Units: "MiB/s", Heartbeat: time.Second})
	v.Observe(engine.Event{Kind: engine.StepStarted, Total: 1, Node: n})
	v.Observe(engine.Event{Kind: engine.StepLive, Total: 1, Node: n, Sample: metrics.Sample{WriteIOPS: 100, BW: 48e6, MeanLatNs: 2e6}})
	clk.t = clk.t.Add(time.Second)
	v.Tick()
	rec := &results.Record{Name: "d / write", Status: results.StatusOK,
		Result: &metrics.Result{Write: &metrics.DirStats{IOs: 100, IOPS: 100, BW: 48e6, Lat: metrics.LatencySummary{Mean: 2e6}}}}
	v.Observe(engine.Event{Kind: engine.StepFinished, Total: 1, Node: n, Record: rec})
	v.Table([]*results.Record{rec})
	for _, want := range []string{
		"[1/1] d / write: running 00:01, 100 IOPS, 45.8 MiB/s, mean latency 2.00 ms, step 1/1 10%, plan 10% ETA 00:09\n",
		"[1/1] d / write: 100 IOPS, 45.8 MiB/s, mean latency 2.00 ms\n",
		"step       status  IOPS  MiB/s  p50  p99  verdicts  warnings\n",
		"d / write  ok       100   45.8    —    —\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
}

func TestColorAllowed(t *testing.T) {
	cases := []struct {
		terminal      bool
		env           map[string]string
		color, redraw bool
	}{
		{true, nil, true, true},
		{true, map[string]string{"TERM": "xterm-256color"}, true, true},
		{true, map[string]string{"NO_COLOR": "1"}, false, true},
		{true, map[string]string{"TERM": "dumb"}, false, false},
		{false, nil, false, false},
	}
	for _, tc := range cases {
		getenv := func(k string) string { return tc.env[k] }
		if got := ColorAllowed(tc.terminal, getenv); got != tc.color {
			t.Errorf("terminal %v, %v: colour %v", tc.terminal, tc.env, got)
		}
		if got := LiveAllowed(tc.terminal, getenv); got != tc.redraw {
			t.Errorf("terminal %v, %v: redrawn %v", tc.terminal, tc.env, got)
		}
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it); got:\n%s", path, got)
	}
}
