package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/metrics"
)

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
	if started < 0 || beat < started || finished < beat || !regexp.MustCompile(`step 1/2 \d+%, plan \d+% ETA \d\d:\d\d`).MatchString(out.String()) {
		t.Errorf("no heartbeat with the step's and the plan's progress between started and finished:\n%s", out.String())
	}
}

// TestRunOnTerminal: on a terminal a run is redrawn in place, the
// verdicts coloured, unless NO_COLOR is set; a dumb terminal gets the
// log lines; with -json the view is on stderr when that is a terminal.
func TestRunOnTerminal(t *testing.T) {
	cases := []struct {
		name        string
		env         map[string]string
		json        bool
		redraw, red bool
	}{
		{"colour", map[string]string{"TERM": "xterm"}, false, true, true},
		{"NO_COLOR", map[string]string{"TERM": "xterm", "NO_COLOR": "1"}, false, true, false},
		{"dumb", map[string]string{"TERM": "dumb"}, false, false, false},
		{"json", map[string]string{"TERM": "xterm"}, true, true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			io := stdio{out: &out, err: &errb, tty: !tc.json, errTTY: tc.json, getenv: func(k string) string { return tc.env[k] },
				size: func() (int, int) { return 100, 40 }, errSize: func() (int, int) { return 100, 40 }}
			args := []string{"run", "-out", filepath.Join(t.TempDir(), "out"), "testdata/junit.hcl"}
			if tc.json {
				args = append(args[:1], append([]string{"-json"}, args[1:]...)...)
			}
			if code := dispatch(context.Background(), args, io); code != exitCheckFailed {
				t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
			}
			view := out.String()
			if tc.json {
				view = errb.String()
			}
			if got := regexp.MustCompile(`\x1b\[\d+A\r\x1b\[2K`).MatchString(view); got != tc.redraw {
				t.Errorf("redrawn in place: %v, want %v\n%q", got, tc.redraw, view)
			}
			if got := strings.Contains(view, "\x1b[31m1 fail\x1b[0m"); got != tc.red {
				t.Errorf("a failed verdict in red: %v, want %v\n%q", got, tc.red, view)
			}
			if !tc.red && strings.Contains(view, "m") && regexp.MustCompile(`\x1b\[[0-9;]*m`).MatchString(view) {
				t.Errorf("colour where there should be none:\n%q", view)
			}
			if !tc.redraw && !strings.Contains(view, "read / iodepth=1: started") {
				t.Errorf("no log lines:\n%s", view)
			}
			if !regexp.MustCompile(`(?m)^step +status +IOPS +MB/s +p50 +p99 +verdicts +warnings$`).MatchString(view) ||
				!regexp.MustCompile(`scratch / read / iodepth=2 +ok +[\d,]+ +[\d,.]+ .*1 pass, .*1 fail`).MatchString(view) {
				t.Errorf("no closing table:\n%s", view)
			}
		})
	}
}

func TestRunJSONEvents(t *testing.T) {
	code, out, errOut := runCLI(t, "run", "-json", "-out", filepath.Join(t.TempDir(), "out"), "testdata/junit.hcl")
	if code != exitCheckFailed {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var types, finishedRead []string
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
		if read, ok := ev["read"].(map[string]any); ok && ev["type"] == "step_finished" {
			finishedRead = slices.Sorted(maps.Keys(read))
		}
	}
	count := map[string]int{}
	for _, ty := range types {
		count[ty]++
	}
	if count["step_started"] != 3 || count["step_finished"] != 3 || count["verdict"] != 4 || count["interval"] < 2 {
		t.Errorf("events %v", count)
	}
	if want := []string{"bw_bytes", "iops", "lat_mean_ns", "lat_p99_ns"}; !slices.Equal(finishedRead, want) {
		t.Errorf("a step_finished event's read has %v, want %v (the figure registry's step_finished event names)", finishedRead, want)
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
	for _, typ := range []reflect.Type{reflect.TypeFor[runEvent](), reflect.TypeFor[metrics.Sample]()} {
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name != "" && !strings.Contains(string(doc), "`"+name+"`") {
				t.Errorf("docs/run-events.md does not describe %s's field %q", typ.Name(), name)
			}
		}
	}
	for _, name := range figure.Keys(figure.Event) {
		if !strings.Contains(string(doc), "`"+name+"`") {
			t.Errorf("docs/run-events.md does not describe a step_finished direction's figure %q", name)
		}
	}
}
