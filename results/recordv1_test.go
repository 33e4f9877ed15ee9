package results

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/metrics"
)

// readV1 stores content as the record of step x and reads it back.
func readV1(t *testing.T, content string) *Record {
	t.Helper()
	return readV1With(t, newFolder(t, "x"), content)
}

// readV1With stores content as the record of step x in f and reads it
// back.
func readV1With(t *testing.T, f *Folder, content string) *Record {
	t.Helper()
	if err := os.WriteFile(f.RecordPath("x"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := f.ReadRecord("x")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestReadV1Verdicts: a version 1 record's verdicts get the code and
// subject version 2 writes, and an acceptance verdict its row's figures:
// what each kind of verdict judged, from the record's own data.
func TestReadV1Verdicts(t *testing.T) {
	tests := []struct {
		name, record  string
		codes, subjts []string
	}{
		{"expectations", `{"schema": "drivebench/record/v1", "kind": "profile", "name": "dut / qd1 / iodepth=1", "drive": "dut", "verdicts": [
			{"check": "expect qd1", "status": "fail", "message": "qd1 / iodepth=1: result.read.lat.p99_us < 500 does not hold (result.read.lat.p99_us = 921.6)"},
			{"check": "expect qd1", "status": "pass", "message": "qd1 / iodepth=1: result.read.iops > 0 (result.read.iops = 81234)"},
			{"check": "expect qd1", "status": "pass", "message": "qd1 / iodepth=1: true"},
			{"check": "expect qd1", "status": "error", "message": "qd1 / iodepth=1: result.write.iops > 0 cannot be judged: the step did no writes"},
			{"check": "expect qd1", "status": "pass", "message": "a message of another form", "subject": "recorded"}]}`,
			[]string{"does_not_hold", "holds", "holds", "cannot_judge", "holds"},
			[]string{"qd1 / iodepth=1: result.read.lat.p99_us < 500", "qd1 / iodepth=1: result.read.iops > 0", "qd1 / iodepth=1: true",
				"qd1 / iodepth=1: result.write.iops > 0", "recorded"}},
		{"a check's hook", `{"schema": "drivebench/record/v1", "kind": "check", "name": "nvme0 / p99-under-limit", "drive": "nvme0", "verdicts": [
			{"check": "p99-under-limit", "status": "warn", "message": "iodepth=4: p99 152.6 µs is within 25% of the limit"},
			{"check": "p99-under-limit", "status": "error", "message": "key \"99.99\" not in dict", "where": "checks/latency.star:14:27"}]}`,
			[]string{"hook", "hook_error"}, []string{"p99-under-limit", "p99-under-limit"}},
		{"an adaptive search", `{"schema": "drivebench/record/v1", "kind": "adaptive", "name": "dut / qos", "drive": "dut", "verdicts": [
			{"check": "adaptive qos", "status": "warn", "message": "stopped after max_points = 8 points while next_point still asked for more"},
			{"check": "adaptive qos", "status": "error", "message": "next_point asked for a point that cannot run: iodepth 0"},
			{"check": "adaptive qos", "status": "error", "message": "division by zero", "where": "search.star:3:9"}]}`,
			[]string{"max_points", "bad_point", "hook_error"}, []string{"qos", "qos", "qos"}},
	}
	for _, tt := range tests {
		r := readV1(t, tt.record)
		var codes, subjects []string
		for _, v := range r.Verdicts {
			codes, subjects = append(codes, v.Code), append(subjects, v.Subject)
		}
		if !reflect.DeepEqual(codes, tt.codes) || !reflect.DeepEqual(subjects, tt.subjts) {
			t.Errorf("%s: codes %q, subjects %q\nwant %q, %q", tt.name, codes, subjects, tt.codes, tt.subjts)
		}
	}
}

// TestReadV1Acceptance: each row gets its code from its verdict and
// figures, and each verdict, in order, the row it stands for; a skipped
// row whose cause only its reason gives keeps no code.
func TestReadV1Acceptance(t *testing.T) {
	r := readV1(t, `{"schema": "drivebench/record/v1", "kind": "acceptance", "name": "dut / sheet", "drive": "dut",
		"acceptance": [
			{"spec": "seq_read", "metric": "bw", "unit": "B/s", "better": "higher", "claimed": 6.2e9, "measured": 1.867e9, "ratio": 0.301, "tolerance_pct": 5, "verdict": "warn", "reason": "…", "conditions": ["the spec does not state a block size"]},
			{"spec": "rand_read_4k", "metric": "iops", "unit": "IOPS", "better": "higher", "claimed": 1e6, "tolerance_pct": 5, "verdict": "skip", "reason": "the figure is for a PCIe Gen 3 link"},
			{"spec": "rand_read_4k", "metric": "dwpd", "claimed": 1, "tolerance_pct": 5, "verdict": "skip", "reason": "drivebench does not measure dwpd"},
			{"spec": "qd1", "metric": "p99_us", "unit": "µs", "better": "lower", "claimed": 80, "measured": 120, "ratio": 1.5, "tolerance_pct": 5, "verdict": "fail", "reason": "…"},
			{"spec": "qd1", "metric": "iops", "unit": "IOPS", "better": "higher", "claimed": 1e4, "measured": 2e4, "ratio": 2, "tolerance_pct": 5, "verdict": "pass", "reason": "…"},
			{"spec": "seq_write", "metric": "bw", "unit": "B/s", "better": "higher", "claimed": 4e9, "tolerance_pct": 5, "verdict": "warn", "reason": "not measured: …"}],
		"verdicts": [
			{"check": "sheet", "drive": "dut", "status": "warn", "message": "seq_read bw: …"},
			{"check": "sheet", "drive": "dut", "status": "fail", "message": "qd1 p99_us: …"},
			{"check": "sheet", "drive": "dut", "status": "pass", "message": "qd1 iops: …"},
			{"check": "sheet", "drive": "dut", "status": "warn", "message": "seq_write bw: …"}]}`)
	var rows []string
	for _, a := range r.Acceptance {
		rows = append(rows, a.Code)
	}
	if want := []string{"conditions_differ", "", "not_measurable", "over", "within", "not_measured"}; !reflect.DeepEqual(rows, want) {
		t.Errorf("row codes %q, want %q", rows, want)
	}
	var verdicts []string
	for _, v := range r.Verdicts {
		verdicts = append(verdicts, v.Subject+" "+v.Code)
	}
	if want := []string{"seq_read bw conditions_differ", "qd1 p99_us over", "qd1 iops within", "seq_write bw not_measured"}; !reflect.DeepEqual(verdicts, want) {
		t.Errorf("verdicts %q, want %q", verdicts, want)
	}
	if f := r.Verdicts[0].Figure; f == nil || f.Metric != "bw" || f.Claimed != 6.2e9 || *f.Measured != 1.867e9 ||
		len(f.Conditions) != 1 || f.Conditions[0] != (Condition{Text: "the spec does not state a block size"}) {
		t.Errorf("figure of the first verdict %+v", f)
	}
}

// TestReadV1SkippedRows: a skipped row's cause, from the spec entry the
// manifest holds: no rw, no claim, or else another link.
func TestReadV1SkippedRows(t *testing.T) {
	m := &Manifest{Plan: "p", Drives: []Drive{{Name: "dut", Spec: []SpecEntry{
		{Name: "gen3", RW: "randread", PCIeGen: 3}, {Name: "no_rw"}, {Name: "zero", RW: "read"}, {Name: "zero_gen3", RW: "read", PCIeGen: 3}}}}}
	f, err := Create(t.TempDir()+"/run", m)
	if err != nil {
		t.Fatal(err)
	}
	r := readV1With(t, f, `{"schema": "drivebench/record/v1", "kind": "acceptance", "drive": "dut", "acceptance": [
		{"spec": "gen3", "metric": "iops", "claimed": 1e6, "verdict": "skip"},
		{"spec": "no_rw", "metric": "iops", "claimed": 1e6, "verdict": "skip"},
		{"spec": "zero", "metric": "iops", "claimed": 0, "verdict": "skip"},
		{"spec": "zero_gen3", "metric": "iops", "claimed": 0, "verdict": "skip"},
		{"spec": "unknown", "metric": "iops", "claimed": 1, "verdict": "skip"}]}`)
	var got []string
	for _, a := range r.Acceptance {
		got = append(got, a.Code)
	}
	if want := []string{"other_link", "no_pattern", "no_claim", "", ""}; !reflect.DeepEqual(got, want) {
		t.Errorf("codes %q, want %q", got, want)
	}
}

// TestReadV1ThermalAndRounds: the thermal summary is made from the
// record's readings, and an aggregate's rounds from its log.
func TestReadV1ThermalAndRounds(t *testing.T) {
	r := readV1(t, `{"schema": "drivebench/record/v1", "kind": "profile", "result": {"thermal": [
		{"t": 0, "temp_c": 60, "tmt1_transitions": 4, "tmt1_seconds": 100, "warning_temp_minutes": 7},
		{"t": 5, "temp_c": 78},
		{"t": 10, "temp_c": 83, "tmt1_transitions": 6, "tmt1_seconds": 130, "tmt2_transitions": 1, "tmt2_seconds": 5, "warning_temp_minutes": 9}]},
		"log": ["drive temperature 60 to 83 °C over 3 readings; THROTTLED: …"]}`)
	want := metrics.ThermalSummary{Readings: 3, MinC: 60, MaxC: 83, Throttle1: 2, Throttle1Sec: 30, Throttle2: 1, Throttle2Sec: 5, WarningMin: 2}
	if r.Thermal == nil || *r.Thermal != want || !r.Thermal.Throttled() {
		t.Errorf("thermal %+v, want %+v", r.Thermal, want)
	}
	agg := readV1(t, `{"schema": "drivebench/record/v1", "kind": "aggregate", "log": ["uses round d / rep / round 2/3", "uses round d / rep / round 3/3"]}`)
	if want := []string{"d / rep / round 2/3", "d / rep / round 3/3"}; !reflect.DeepEqual(agg.Uses, want) {
		t.Errorf("uses %q, want %q", agg.Uses, want)
	}
}

// TestReadV1SearchEnd: why an adaptive search stopped, from the line its
// version 1 record logged last; nothing when that line does not say.
func TestReadV1SearchEnd(t *testing.T) {
	tests := []struct {
		last string
		want *SearchEnd
	}{
		{"next_point returned None after 10 points", &SearchEnd{Code: SearchNone, Points: 10}},
		{"stopped after max_points = 8 points while next_point still asked for more; raise max_points if the search needs them", &SearchEnd{Code: SearchMaxPoints, Points: 8}},
		{"next_point asked again for iodepth=4, measured already: the search has converged", &SearchEnd{Code: SearchConverged, Points: 2, Point: "iodepth=4"}},
		{"a line the hook printed", nil},
	}
	for _, tt := range tests {
		body, _ := json.Marshal(map[string]any{"schema": RecordSchemaV1, "kind": "adaptive", "points": []string{"a", "b"}, "log": []string{"first", tt.last}})
		r := readV1(t, string(body))
		if !reflect.DeepEqual(r.Search, tt.want) {
			t.Errorf("%q: search %+v, want %+v", tt.last, r.Search, tt.want)
		}
		if r.Search != nil && r.Search.Text() != strings.SplitN(tt.last, ";", 2)[0] && r.Search.Text() != tt.last {
			t.Errorf("%q: said again as %q", tt.last, r.Search.Text())
		}
	}
}

// TestReadV1SteadyState: a version 1 judgement gets its code from its
// fields; one of SNIA's rule recorded before its window's range and
// limits were gets none, so its message stands as written.
func TestReadV1SteadyState(t *testing.T) {
	tests := []struct{ judgement, want string }{
		{`{"rule": "snia", "reached": true, "window_first": 2, "range_limit_pct": 20}`, SteadyReached},
		{`{"rule": "snia", "exhausted": true, "window_first": 2, "range_limit_pct": 20}`, SteadyNotReached},
		{`{"rule": "snia", "rounds": [1], "range_limit_pct": 20}`, SteadyTooFewRounds},
		{`{"rule": "snia", "window_first": 1, "range_limit_pct": 20}`, SteadyNotYet},
		{`{"rule": "snia", "reached": true, "message": "steady state reached over rounds 2-6 (average 1.054e+04 iops)"}`, ""},
		{`{"rule": "hook s.star:f", "message": "the steady-state hook failed, so no round can be judged"}`, SteadyHookError},
		{`{"rule": "hook s.star:f", "message": "not steady after round 2"}`, SteadyNotYet},
	}
	for _, tt := range tests {
		r := readV1(t, `{"schema": "drivebench/record/v1", "kind": "profile", "steady_state": `+tt.judgement+`}`)
		if r.SteadyState.Code != tt.want {
			t.Errorf("%s: code %q, want %q", tt.judgement, r.SteadyState.Code, tt.want)
		}
	}
}

// TestReadV1Skipped: why a step was not run, from its error.
func TestReadV1Skipped(t *testing.T) {
	r := readV1(t, `{"schema": "drivebench/record/v1", "status": "skipped", "error": "not run: steady state reached over rounds 2-6"}`)
	if r.Skipped != "steady state reached over rounds 2-6" {
		t.Errorf("skipped %q", r.Skipped)
	}
}

// TestConditionRoundTrip: a version 2 condition is read back whole.
func TestConditionRoundTrip(t *testing.T) {
	c := Condition{Kind: ConditionQueueDepth, Unstated: true, Text: "the spec does not state a queue depth"}
	b, _ := json.Marshal(c)
	var back Condition
	if err := json.Unmarshal(b, &back); err != nil || back != c {
		t.Errorf("%s read back as %+v, %v", b, back, err)
	}
}

// FuzzReadV1: any version 1 record that parses as JSON is read without
// a panic, every verdict with a subject and a code.
func FuzzReadV1(f *testing.F) {
	f.Add(`{"kind": "acceptance", "acceptance": [{"spec": "a", "metric": "iops", "verdict": "pass"}], "verdicts": [{"status": "pass"}, {"status": "fail"}]}`)
	f.Add(`{"kind": "profile", "name": "d / p", "drive": "d", "verdicts": [{"check": "expect p", "status": "error", "message": "p: x cannot be judged: y"}]}`)
	f.Add(`{"kind": "aggregate", "log": ["uses round "], "result": {"thermal": [{"temp_c": 1}, {"temp_c": -3, "tmt1_transitions": 1}]}}`)
	f.Fuzz(func(t *testing.T, body string) {
		var r Record
		if json.Unmarshal([]byte(body), &r) != nil {
			return
		}
		r.fromV1(nil)
		named := StepWithin(r.Name, r.Drive) != ""
		for _, v := range r.Verdicts {
			if v.Code == "" || v.Subject == "" && named {
				t.Errorf("verdict %+v of %q: no code or subject", v, r.Name)
			}
		}
	})
}
