package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/script"
)

// runJudging runs a plan of testdata/judging and returns its outcome and
// results folder.
func runJudging(t *testing.T, plan string, vars map[string]string, limits script.Limits) (*Outcome, string) {
	t.Helper()
	p, g := load(t, filepath.Join("testdata", "judging", plan), vars)
	dir := filepath.Join(t.TempDir(), "out")
	out, err := Run(context.Background(), p, g, Options{Dir: dir, HookLimits: limits})
	if err != nil {
		t.Fatal(err)
	}
	folder, err := results.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := folder.ReadableRecords()
	if err != nil {
		t.Fatal(err)
	}
	s, err := Summarize(context.Background(), p, dir, limits, SummaryInput{Manifest: folder.Manifest, Records: recs})
	if err != nil {
		t.Fatal(err)
	}
	if s != nil && s.Error != "" {
		out.SummaryFailed(s)
	}
	return out, dir
}

// recordNamed returns the outcome's record of the step with the name.
func recordNamed(t *testing.T, out *Outcome, name string) *results.Record {
	t.Helper()
	for _, r := range out.Records {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no record named %q", name)
	return nil
}

// TestHookLoopingForeverIsStopped: a check that never returns is stopped
// at its step limit with a message naming the limit, its verdict is an
// error at the hook's line, and the steps after it still run.
func TestHookLoopingForeverIsStopped(t *testing.T) {
	out, _ := runJudging(t, "spin.hcl", nil, script.Limits{MaxSteps: 100_000, Timeout: time.Hour})
	check := recordNamed(t, out, "d / spins")
	if check.Status != results.StatusFailed || len(check.Verdicts) != 1 {
		t.Fatalf("check record: %s, %+v", check.Status, check.Verdicts)
	}
	v := check.Verdicts[0]
	if v.Status != "error" || !regexp.MustCompile(`^hooks\.star:\d+:\d+$`).MatchString(v.Where) ||
		!strings.Contains(v.Message, "hook stopped: it exceeded the step limit of 100000 Starlark steps") {
		t.Errorf("verdict %+v", v)
	}
	if after := recordNamed(t, out, "d / after"); after.Status != results.StatusOK || after.Result == nil {
		t.Errorf("the step after the looping hook: %s %s", after.Status, after.Error)
	}
}

func TestExpectations(t *testing.T) {
	out, _ := runJudging(t, "expect.hcl", nil, script.Limits{})
	var got []string
	for _, v := range out.Verdicts {
		got = append(got, v.Status+" "+v.Message)
		if v.Check != "expect read" || v.Where == "" || !strings.HasPrefix(v.Where, "expect.hcl:") {
			t.Errorf("verdict %+v", v)
		}
	}
	if len(got) != 4 {
		t.Fatalf("verdicts %q", got)
	}
	for i, want := range []string{
		"pass read / iodepth=1: result.read.iops >= spec.tiny.iops (result.read.iops = ",
		"fail read / iodepth=1: result.read.lat.p99_us < 0.001 does not hold (result.read.lat.p99_us = ",
		"pass read / iodepth=2: ",
		"fail read / iodepth=2: ",
	} {
		if !strings.HasPrefix(got[i], want) {
			t.Errorf("verdict %d = %q, want it to start with %q", i, got[i], want)
		}
	}
	if !strings.Contains(got[0], "spec.tiny.iops = 1)") {
		t.Errorf("the verdict does not show the spec's value: %q", got[0])
	}
}

func TestAdaptiveSearch(t *testing.T) {
	out, dir := runJudging(t, "adaptive.hcl", nil, script.Limits{})
	parent := recordNamed(t, out, "d / search")
	if parent.Status != results.StatusOK || len(parent.Points) != 3 || parent.Kind != "adaptive" {
		t.Fatalf("adaptive record: %s %s, points %v", parent.Status, parent.Error, parent.Points)
	}
	for i, name := range []string{"d / search / iodepth=1", "d / search / iodepth=2", "d / search / iodepth=4"} {
		p := recordNamed(t, out, name)
		if p.StepID != parent.Points[i] || p.Parent != parent.StepID || p.Status != results.StatusOK || p.Result.Read == nil {
			t.Errorf("%s: id %s, parent %s, %s", name, p.StepID, p.Parent, p.Status)
		}
		if len(p.Verdicts) != 1 || p.Verdicts[0].Status != "pass" {
			t.Errorf("%s: verdicts %+v", name, p.Verdicts)
		}
	}
	check := recordNamed(t, out, "d / sees-points")
	if len(check.Verdicts) != 1 || check.Verdicts[0].Message != "3 points: iodepth=1, iodepth=2, iodepth=4" {
		t.Errorf("the check saw %+v", check.Verdicts)
	}
	if e := parent.Search; e == nil || *e != (results.SearchEnd{Code: results.SearchNone, Points: 3}) {
		t.Errorf("search ended %+v, want next_point's None after 3 points", e)
	}

	// The same plan in the same folder keeps every point.
	p, g := load(t, filepath.Join("testdata", "judging", "adaptive.hcl"), nil)
	reused := 0
	again, err := Run(context.Background(), p, g, Options{Dir: dir, Observe: func(e Event) {
		if e.Kind == StepReused {
			reused++
		}
	}})
	if err != nil || reused != 4 {
		t.Errorf("resumed run: %v, %d steps reused, want the search and its 3 points", err, reused)
	}
	if check := recordNamed(t, again, "d / sees-points"); check.Verdicts[0].Message != "3 points: iodepth=1, iodepth=2, iodepth=4" {
		t.Errorf("after resuming, the check saw %+v", check.Verdicts)
	}
}

func TestAdaptiveSearchEnds(t *testing.T) {
	tests := []struct {
		function string
		points   int
		status   string
		verdict  string // status and start of the search's verdict, "" for none
		end      *results.SearchEnd
	}{
		{"forever", 3, results.StatusOK, "warn stopped after max_points = 3 points while next_point still asked for more",
			&results.SearchEnd{Code: results.SearchMaxPoints, Points: 3}},
		{"again", 1, results.StatusOK, "", &results.SearchEnd{Code: results.SearchConverged, Points: 1, Point: "d / search / iodepth=2"}},
		{"bad_point", 0, results.StatusFailed, "error next_point asked for a point that cannot run: iodepth = 0: must be a whole number from 1 to 65536", nil},
	}
	for _, tt := range tests {
		t.Run(tt.function, func(t *testing.T) {
			out, _ := runJudging(t, "adaptive.hcl", map[string]string{"function": tt.function, "max_points": "3"}, script.Limits{})
			rec := recordNamed(t, out, "d / search")
			if rec.Status != tt.status || len(rec.Points) != tt.points {
				t.Fatalf("%s %s, %d points", rec.Status, rec.Error, len(rec.Points))
			}
			switch {
			case tt.verdict == "" && len(rec.Verdicts) > 0:
				t.Errorf("verdicts %+v", rec.Verdicts)
			case tt.verdict != "" && (len(rec.Verdicts) != 1 || !strings.HasPrefix(rec.Verdicts[0].Status+" "+rec.Verdicts[0].Message, tt.verdict)):
				t.Errorf("verdicts %+v, want %q", rec.Verdicts, tt.verdict)
			}
			if !reflect.DeepEqual(rec.Search, tt.end) {
				t.Errorf("search ended %+v, want %+v", rec.Search, tt.end)
			}
		})
	}
}

// TestSteadyStateHook: the plan's own rule says steady after round 3, so
// rounds 4 and 5 are skipped, and expectations judge round 3 only.
func TestSteadyStateHook(t *testing.T) {
	out, _ := runJudging(t, "steady.hcl", nil, script.Limits{})
	var last *results.SteadyState
	for _, rec := range out.Records {
		round := 0
		for i := 1; i <= 5; i++ {
			if strings.Contains(rec.Name, "round "+string(rune('0'+i))+"/5") {
				round = i
			}
		}
		if (round > 3) != (rec.Status == results.StatusSkipped) {
			t.Errorf("%s: %s", rec.Name, rec.Status)
		}
		if round > 3 && !strings.HasPrefix(rec.Skipped, "steady state reached after round 3") {
			t.Errorf("%s: skipped because %q", rec.Name, rec.Skipped)
		}
		if (round == 3) != (len(rec.Verdicts) == 1) {
			t.Errorf("%s: verdicts %+v", rec.Name, rec.Verdicts)
		}
		if rec.SteadyState != nil {
			last = rec.SteadyState
		}
	}
	if last == nil || !last.Reached || last.Code != results.SteadyReached || len(last.Rounds) != 3 || last.Rule != "hook hooks.star:steady_after" ||
		!strings.HasPrefix(last.Message, "steady state reached after round 3: 3 rounds, the last at ") {
		t.Errorf("judgement %+v", last)
	}
}

func TestExecSteps(t *testing.T) {
	out, dir := runJudging(t, "exec.hcl", nil, script.Limits{})
	ok := recordNamed(t, out, "d / metrics")
	if ok.Status != results.StatusOK || ok.Result.Metrics["tps"] != 41.5 || ok.Command.ExitCode != 0 {
		t.Fatalf("metrics step: %s %s, %+v", ok.Status, ok.Error, ok.Result)
	}
	if ok.Host == nil || ok.Host.CPUs < 1 {
		t.Errorf("the command's step has no host load, as every I/O step has: %+v", ok.Host)
	}
	work := filepath.Join(dir, "work-d")
	if len(ok.Command.StderrTail) != 1 || ok.Command.StderrTail[0] != "dir="+work || ok.Command.Dir != work {
		t.Errorf("the command ran in %s and said %q", ok.Command.Dir, ok.Command.StderrTail)
	}
	if got := []string{ok.Verdicts[0].Status, ok.Verdicts[1].Status}; got[0] != "pass" || got[1] != "fail" {
		t.Errorf("expectations %+v", ok.Verdicts)
	}
	if _, err := os.Stat(work); !os.IsNotExist(err) {
		t.Errorf("the scratch drive's working folder is left behind: %v", err)
	}

	fails := recordNamed(t, out, "d / fails")
	stdout, _ := os.ReadFile(filepath.Join(dir, fails.Command.StdoutFile))
	if fails.Status != results.StatusFailed || fails.Command.ExitCode != 3 || string(stdout) != "partial\n" ||
		!strings.HasPrefix(fails.Error, "sh exited with status 3: disk on fire (the whole output is in steps/") {
		t.Errorf("failing command: %s %q, exit %d, stdout %q", fails.Status, fails.Error, fails.Command.ExitCode, stdout)
	}
	slow := recordNamed(t, out, "d / slow")
	if slow.Status != results.StatusFailed || !slow.Command.TimedOut || !strings.Contains(slow.Error, "longer than its timeout of 200ms") {
		t.Errorf("slow command: %s %q", slow.Status, slow.Error)
	}
	bad := recordNamed(t, out, "d / unparsable")
	if bad.Status != results.StatusFailed || len(bad.Verdicts) != 1 || bad.Verdicts[0].Check != "parse unparsable" ||
		!strings.Contains(bad.Verdicts[0].Message, "no name=value line") || !strings.HasPrefix(bad.Verdicts[0].Where, "hooks.star:") {
		t.Errorf("unparsable output: %s, %+v", bad.Status, bad.Verdicts)
	}

	var s results.Summary
	raw, err := os.ReadFile(filepath.Join(dir, results.SummaryFile))
	if err != nil || json.Unmarshal(raw, &s) != nil {
		t.Fatalf("summary.json: %v", err)
	}
	table := s.Sections[0].Table
	if s.Error != "" || len(table.Rows) != 4 || table.Rows[0][0] != "d / metrics" || table.Rows[0][1] != "41.5" || table.Rows[1][1] != "" {
		t.Errorf("summary %+v", s)
	}
}

func TestAcceptance(t *testing.T) {
	out, _ := runJudging(t, "accept.hcl", nil, script.Limits{})
	rec := recordNamed(t, out, "d / sheet")
	rows := map[string]results.AcceptanceRow{}
	for _, row := range rec.Acceptance {
		rows[row.Spec+" "+row.Metric] = row
		if strings.Contains(row.Step, "capped") {
			t.Errorf("%s %s compared with the rate-limited step", row.Spec, row.Metric)
		}
	}
	if len(rec.Acceptance) != 12 {
		t.Errorf("%d rows, want one per figure: 12", len(rec.Acceptance))
	}
	tests := []struct {
		row, verdict, reason, condition string
	}{
		{"easy_read iops", "pass", "IOPS measured against 1 IOPS claimed", ""},
		{"huge_read iops", "fail", "under the spec's own conditions", ""},
		{"deep_read iops", "warn", "not like with like", "spec at QD64 x 8 jobs (512 outstanding I/Os), beyond this plan's deepest point, QD2 x 2 jobs (4)"},
		{"any_depth iops", "", "", "the spec does not state a queue depth, so its own conditions are unknown; compared with the best point, QD"},
		{"slow_latency lat_us", "pass", "within the 5% tolerance", ""},
		{"slow_latency p99_us", "pass", "within the 5% tolerance", ""},
		{"other_size iops", "warn", "", "spec at 64KiB blocks, measured at 4KiB: no step ran rw = randread at 64KiB"},
		{"writes iops", "warn", "not measured: no profile of this plan ran rw = randwrite on drive d", ""},
		{"gen3 iops", "skip", "the figure is for a PCIe Gen 3 link, and the drive under test is on Gen 4", ""},
		{"steady_writes iops", "warn", "", "spec in steady state; this step ran without a steady-state search"},
		{"endurance dwpd", "skip", "drivebench does not measure dwpd", ""},
		{"no_pattern iops", "skip", "the spec entry states no rw", ""},
	}
	for _, tt := range tests {
		row, ok := rows[tt.row]
		if !ok {
			t.Errorf("no row %s", tt.row)
			continue
		}
		if tt.verdict != "" && row.Verdict != tt.verdict || !strings.Contains(row.Reason, tt.reason) ||
			tt.condition != "" && !strings.Contains(strings.Join(results.ConditionTexts(row.Conditions), "\n"), tt.condition) {
			t.Errorf("%s: %s %q %q", tt.row, row.Verdict, row.Reason, results.ConditionTexts(row.Conditions))
		}
		if row.Verdict != "skip" && row.Verdict != "warn" || row.Measured != nil {
			if row.Measured == nil || row.Ratio == nil || *row.Ratio != *row.Measured/row.Claimed || row.StepID == "" {
				t.Errorf("%s: measured %v, ratio %v, step %q", tt.row, row.Measured, row.Ratio, row.StepID)
			}
		}
	}
	if r := rows["huge_read iops"]; r.Step != "d / reads / iodepth=2, numjobs=1" || len(r.Conditions) != 0 {
		t.Errorf("huge_read compared with %s under %q, want the exact point QD2 x 1 job", r.Step, results.ConditionTexts(r.Conditions))
	}
	verdicts := 0
	for _, v := range rec.Verdicts {
		if v.Check == "sheet" {
			verdicts++
		}
	}
	if verdicts != 9 {
		t.Errorf("%d verdicts, want one per row that is not skipped: 9", verdicts)
	}
}

func TestSummaryHookFails(t *testing.T) {
	out, dir := runJudging(t, "accept.hcl", map[string]string{"summary": "broken_summary"}, script.Limits{})
	var s results.Summary
	raw, _ := os.ReadFile(filepath.Join(dir, results.SummaryFile))
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.Error, `key "no such key" not in dict`) || !strings.HasPrefix(s.Where, "hooks.star:") || len(s.Sections) != 0 {
		t.Errorf("summary %+v", s)
	}
	if out.Failed != 1 || out.Verdicts[len(out.Verdicts)-1].Check != "summary" {
		t.Errorf("outcome: %d failed, last verdict %+v", out.Failed, out.Verdicts[len(out.Verdicts)-1])
	}
}
