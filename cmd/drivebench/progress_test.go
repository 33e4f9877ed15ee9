package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/engine"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
)

// fakeClock is a clock the test moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestHeartbeatAndLiveLine(t *testing.T) {
	node := &plan.Node{ID: "abc", Name: "nvme0 / 4k-mixed / iodepth=32", Estimate: 50 * time.Second}
	g := &plan.Graph{Nodes: []*plan.Node{node}}
	sample := metrics.Sample{T: 19, ReadIOPS: 9000, WriteIOPS: 3000, BW: 48e6, P99Ns: 210_000}
	cases := []struct {
		tty   bool
		units string
		want  string
	}{
		{false, "", "[1/1] nvme0 / 4k-mixed / iodepth=32: running 00:20, 12,000 IOPS (read 9,000, write 3,000), 48.0 MB/s, p99 210.0 µs, 40% done\n"},
		{true, "", "[1/1] nvme0 / 4k-mixed / iodepth=32  00:20  ETA 00:30  12,000 IOPS (read 9,000, write 3,000)  48.0 MB/s  p99 210.0 µs  40% done"},
		{false, "MiB/s", "[1/1] nvme0 / 4k-mixed / iodepth=32: running 00:20, 12,000 IOPS (read 9,000, write 3,000), 45.8 MiB/s, p99 210.0 µs, 40% done\n"},
	}
	for _, tc := range cases {
		var out bytes.Buffer
		clk := &fakeClock{t: time.Unix(1000, 0)}
		p := newProgress(stdio{out: &out, tty: tc.tty}, g, tc.units, 0)
		p.now = clk.now
		p.observe(engine.Event{Kind: engine.StepStarted, Total: 1, Node: node})
		clk.t = clk.t.Add(20 * time.Second)
		out.Reset()
		p.observe(engine.Event{Kind: engine.StepLive, Total: 1, Node: node, Sample: sample})
		if !tc.tty {
			if out.Len() != 0 {
				t.Errorf("a live sample printed %q without a terminal", out.String())
			}
			p.heartbeat()
		}
		got := strings.TrimLeft(strings.TrimRight(out.String(), " "), "\r")
		if got != tc.want {
			t.Errorf("tty %v:\n got %q\nwant %q", tc.tty, got, tc.want)
		}
		p.finish()
	}
}

// TestHeartbeatInRun: without a terminal, a running step prints
// heartbeat lines between started and its result.
func TestHeartbeatInRun(t *testing.T) {
	var out, errb bytes.Buffer
	io := stdio{out: &out, err: &errb, getenv: func(string) string { return "" }, heartbeat: 100 * time.Millisecond}
	code := dispatch(context.Background(), []string{"run", "-out", filepath.Join(t.TempDir(), "out"), "testdata/heartbeat.hcl"}, io)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	started := strings.Index(out.String(), "read: started")
	beat := strings.Index(out.String(), "read: running ")
	finished := strings.LastIndex(out.String(), "scratch / read: ")
	if started < 0 || beat < started || finished < beat || !strings.Contains(out.String(), "% done") {
		t.Errorf("no heartbeat between started and finished:\n%s", out.String())
	}
}

func TestRunJSONEvents(t *testing.T) {
	code, out, errOut := runCLI(t, "run", "-json", "-out", filepath.Join(t.TempDir(), "out"), "testdata/junit.hcl")
	if code != exitCheckFailed {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var types []string
	var last map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		if ev["time"] == nil {
			t.Errorf("event without time: %s", sc.Text())
		}
		if len(types) == 0 && (ev["type"] != "plan_loaded" || ev["events_version"] != eventsVersion || ev["steps"] != 3.0) {
			t.Errorf("first event %s", sc.Text())
		}
		types = append(types, ev["type"].(string))
		last = ev
	}
	count := map[string]int{}
	for _, ty := range types {
		count[ty]++
	}
	if count["step_started"] != 3 || count["step_finished"] != 3 || count["verdict"] != 4 || count["interval"] < 2 {
		t.Errorf("events %v", count)
	}
	counts, _ := last["counts"].(map[string]any)
	if last["type"] != "run_finished" || last["exit_code"] != 1.0 || last["status"] != "check_failed" || counts["verdicts_fail"] != 2.0 {
		t.Errorf("last event %v", last)
	}
	if !strings.Contains(errOut, "Results:") {
		t.Errorf("the summary for people is not on stderr:\n%s", errOut)
	}

	code, out, _ = runCLI(t, "run", "-json", "testdata/three-mistakes.hcl")
	if code != exitUsage || strings.Count(out, `"type":"diagnostic"`) != 3 || !strings.Contains(out, `"type":"run_finished"`) {
		t.Errorf("plan error: exit %d\n%s", code, out)
	}
}

// TestRunEventsDocumented: every field of an event is in
// docs/run-events.md.
func TestRunEventsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/run-events.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[runEvent](), reflect.TypeFor[dirFigures](), reflect.TypeFor[metrics.Sample]()} {
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name != "" && !strings.Contains(string(doc), "`"+name+"`") {
				t.Errorf("docs/run-events.md does not describe %s's field %q", typ.Name(), name)
			}
		}
	}
}
