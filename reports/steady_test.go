package reports

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/judging"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/steady"
	"github.com/drivebench/drivebench/workload"
)

// steadyRun is a steady-state profile "ss" on drive d, its points swept
// over iodepth, expanded round by round as the plan does: step
// "r<round>q<iodepth>".
func steadyRun(rounds int, depths ...int) *results.Manifest {
	m := &results.Manifest{Plan: "steady", PlanHash: "h", Created: t0, Drives: []results.Drive{{Name: "d"}}}
	for r := 1; r <= rounds; r++ {
		for _, qd := range depths {
			m.Steps = append(m.Steps, results.StepInfo{
				ID: fmt.Sprintf("r%dq%d", r, qd), Kind: "profile", Drive: "d", Source: "ss",
				Name:  fmt.Sprintf("d / ss / round %d/%d / iodepth=%d", r, rounds, qd),
				Point: []workload.Param{{Name: "iodepth", Value: float64(qd)}},
			})
		}
	}
	return m
}

// roundRecord is the record of round r at iodepth qd with iops; tracked
// rounds carry the judgement j.
func roundRecord(r, qd int, iops float64, j *results.SteadyState) *results.Record {
	rec := record(fmt.Sprintf("r%dq%d", r, qd), results.StatusOK, t0.Add(time.Duration(r)*time.Minute), &metrics.Result{Write: dir(iops, 1e6/iops*16, uint64(iops*60))})
	rec.PlanHash, rec.SteadyState = "h", j
	return rec
}

func skippedRecord(id, reason string) *results.Record {
	return &results.Record{StepID: id, PlanHash: "h", Status: results.StatusSkipped, Error: "not run: " + reason, Skipped: reason}
}

func TestSteadyStateFromRecords(t *testing.T) {
	judged := func(values []float64, first, last int, reached, exhausted bool, msg string) *results.SteadyState {
		return &results.SteadyState{Variable: "iops", Rounds: slices.Clone(values), WindowFirst: first, WindowLast: last,
			Average: 1000, Slope: -5, Intercept: 1020, Reached: reached, Exhausted: exhausted, Message: msg}
	}
	values := []float64{1500, 1010, 1000, 995}
	tests := []struct {
		name     string
		m        *results.Manifest
		recs     []*results.Record
		want     SteadyState
		rows     []string // each row: point, round shown, used rounds
		sentence string
	}{
		{
			name: "reached, the rest skipped",
			m:    steadyRun(5, 1, 8),
			recs: []*results.Record{
				roundRecord(1, 1, 500, nil), roundRecord(1, 8, values[0], judged(values[:1], 0, 0, false, false, "1 rounds so far; a window needs more")),
				roundRecord(2, 1, 480, nil), roundRecord(2, 8, values[1], judged(values[:2], 0, 0, false, false, "2 rounds so far; a window needs more")),
				roundRecord(3, 1, 470, nil), roundRecord(3, 8, values[2], judged(values[:3], 1, 3, false, false, "not steady yet over rounds 1-3")),
				roundRecord(4, 1, 469, nil), roundRecord(4, 8, values[3], judged(values[:4], 2, 4, true, false, "steady state reached over rounds 2-4 (average 1002 iops)")),
				skippedRecord("r5q1", "steady state reached over rounds 2-4"), skippedRecord("r5q8", "steady state reached over rounds 2-4"),
			},
			want:     SteadyState{Drive: "d", Profile: "ss", Variable: "iops", WindowFirst: 2, WindowLast: 4, Reached: true, StepID: "r4q8"},
			rows:     []string{"iodepth=1 round 4 used [2 3 4]", "iodepth=8 round 4 used [2 3 4]"},
			sentence: "Steady state was reached in rounds 2 to 4: IOPS averaged 1,000, and the best-fit line changed by -1.0% across the window.",
		},
		{
			name: "exhausted",
			m:    steadyRun(2, 8),
			recs: []*results.Record{
				roundRecord(1, 8, values[0], judged(values[:1], 0, 0, false, false, "1 rounds so far; a window needs more")),
				roundRecord(2, 8, values[1], judged(values[:2], 1, 2, false, true, "steady state not reached in 2 rounds")),
			},
			want:     SteadyState{Drive: "d", Profile: "ss", Variable: "iops", WindowFirst: 1, WindowLast: 2, Exhausted: true, StepID: "r2q8"},
			rows:     []string{"iodepth=8 round 2 used [1 2]"},
			sentence: "Steady state not reached in 2 rounds: the search ran every round it was allowed.",
		},
		{
			name: "ended by a failed round",
			m:    steadyRun(3, 8),
			recs: []*results.Record{
				roundRecord(1, 8, values[0], judged(values[:1], 0, 0, false, false, "1 rounds so far; a window needs more")),
				{StepID: "r2q8", PlanHash: "h", Status: results.StatusFailed, Error: "native: write: input/output error"},
				skippedRecord("r3q8", "round 2 of the steady-state search failed"),
			},
			want:     SteadyState{Drive: "d", Profile: "ss", Variable: "iops", StepID: "r1q8"},
			rows:     []string{"iodepth=8 round 2 used []"},
			sentence: "The search ended after 1 round without reaching steady state. 1 rounds so far; a window needs more.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, md := render(t, tt.m, tt.recs)
			if len(s.SteadyState) != 1 {
				t.Fatalf("steady state = %+v", s.SteadyState)
			}
			got := s.SteadyState[0]
			if got.Drive != tt.want.Drive || got.Profile != tt.want.Profile || got.Variable != tt.want.Variable ||
				got.WindowFirst != tt.want.WindowFirst || got.WindowLast != tt.want.WindowLast ||
				got.Reached != tt.want.Reached || got.Exhausted != tt.want.Exhausted || got.StepID != tt.want.StepID {
				t.Errorf("steady state = %+v\nwant %+v", got, tt.want)
			}
			if last := tt.recs[len(tt.recs)-1]; last.SteadyState != nil && len(got.Rounds) != len(last.SteadyState.Rounds) {
				t.Errorf("rounds = %v, want the last judgement's %v", got.Rounds, last.SteadyState.Rounds)
			}
			if got.Chart != "charts/ss-steady-state-d.svg" {
				t.Errorf("chart = %q", got.Chart)
			}
			var rows []string
			for _, r := range s.Results[0].Rows {
				var used []int
				for _, round := range r.Rounds {
					if round.Used {
						used = append(used, round.Round)
					}
				}
				rows = append(rows, fmt.Sprintf("%s round %d used %v", r.Point, r.Round, used))
			}
			if !slices.Equal(rows, tt.rows) {
				t.Errorf("rows = %q, want %q", rows, tt.rows)
			}
			if !strings.Contains(md, "\n"+tt.sentence+"\n") {
				t.Errorf("report.md lacks the paragraph\n%s\nin\n%s", tt.sentence, md)
			}
		})
	}
}

func TestVariableText(t *testing.T) {
	tests := []struct {
		variable string
		value    float64
		unit     bwUnit
		want     string
	}{
		{"iops", 10_540.4, unitMBps, "10,540"},
		{"bw", 1.2e9, unitMBps, "1,200.0 MB/s"},
		{"bw", 1.2e9, unitMiBps, "1,144.4 MiB/s"},
		{"lat_mean", 1_550_000, unitMiBps, "1.55 ms"},
		{"lat_p99", 420_000, unitMBps, "420.0 µs"},
		{"mean", 1_550_000, unitMiBps, "1.55 ms"},
		{"p99", 420_000, unitMBps, "420.0 µs"},
		{"queue", 3.25, unitMBps, "3.25"},
	}
	for _, tt := range tests {
		if got := variableText(tt.variable, tt.value, tt.unit); got != tt.want {
			t.Errorf("variableText(%q, %v, %s) = %q, want %q", tt.variable, tt.value, tt.unit, got, tt.want)
		}
	}
	for v, want := range map[string]string{"lat_mean": "Mean latency", "mean": "Mean latency", "p99": "p99 latency", "p99_9": "p99.9 latency", "bw": "Bandwidth", "iops": "IOPS", "": "value"} {
		if got := variableTitle(v); got != want {
			t.Errorf("title of %q = %q, want %q", v, got, want)
		}
	}
	for v, want := range map[string]string{"lat_p99": "p99 latency", "p99": "p99 latency", "iops": "IOPS", "": "—"} {
		if got := variableName(v); got != want {
			t.Errorf("name of %q = %q, want %q", v, got, want)
		}
	}
}

// TestSteadyStateRule checks the sentence of a search judged by a plan's
// own rule, which gives no window, against one judged by SNIA's.
func TestSteadyStateRule(t *testing.T) {
	rounds := []SteadyRound{{Round: 1, Value: 900}, {Round: 2, Value: 1010}, {Round: 3, Value: 1000}}
	tests := []struct {
		ss   SteadyState
		want string
	}{
		{SteadyState{Rule: "hook hooks/steady.star:within_band", Rounds: rounds, Reached: true, Message: "last 3 rounds within 11% of their mean"},
			"Steady state was reached after 3 rounds. Last 3 rounds within 11% of their mean. The plan's own rule, hooks/steady.star:within_band, judged the rounds in place of SNIA's."},
		{SteadyState{Rule: "hook hooks/steady.star:within_band", Rounds: rounds[:2], Message: "2 of 3 rounds"},
			"The search ended after 2 rounds without reaching steady state. 2 of 3 rounds. The plan's own rule, hooks/steady.star:within_band, judged the rounds in place of SNIA's."},
		{SteadyState{Rule: "snia", Variable: "iops", Rounds: rounds, Reached: true, WindowFirst: 1, WindowLast: 3, Average: 970, Slope: 5},
			"Steady state was reached in rounds 1 to 3: IOPS averaged 970, and the best-fit line changed by 1.0% across the window."},
		{SteadyState{Variable: "iops", Rounds: rounds, Exhausted: true, WindowFirst: 1, WindowLast: 3, RangePct: 11.34, RangeLimitPct: 20, SlopePct: 10.5, SlopeLimitPct: 12.5},
			"Steady state not reached in 3 rounds: in the last window, rounds 1 to 3, the range was 11.3% of the mean (limit 20%) and the best-fit line changed by 10.5% (limit 12.5%)."},
	}
	for _, tt := range tests {
		if got := steadyStateSentence(tt.ss, unitMBps); got != tt.want {
			t.Errorf("steadyStateSentence(%+v)\n got %q\nwant %q", tt.ss, got, tt.want)
		}
	}
	s := mustLoad(t, "latency-qos")
	if len(s.SteadyState) != 1 || s.SteadyState[0].Rule != "hook hooks/steady.star:within_band" {
		t.Errorf("steady state of latency-qos = %+v", s.SteadyState)
	}
}

// TestSteadyStateMiBps: in a MiB/s report, the judgements of SNIA's rule
// give a bandwidth's average in MiB/s, said again from the record's
// figures, where the record says MB/s.
func TestSteadyStateMiBps(t *testing.T) {
	m := steadyRun(2, 8)
	m.Units = "MiB/s"
	judged := func(rounds int, v steady.Verdict) *results.SteadyState {
		return judging.SteadyRecord("bw", []float64{2.7e9, 2.724e9}[:rounds], v, steady.Rule{Window: 2, ExcursionPct: 20, SlopePct: 10})
	}
	reached := judged(2, steady.Verdict{Steady: true, Window: &steady.Window{First: 1, Last: 2, Average: 2.724e9}})
	if !strings.Contains(reached.Message, "(average 2,724.0 MB/s)") {
		t.Fatalf("the record says %q", reached.Message)
	}
	recs := []*results.Record{roundRecord(1, 8, 1000, judged(1, steady.Verdict{})), roundRecord(2, 8, 1000, reached)}
	s, md := render(t, m, recs)
	if got := s.SteadyState[0].Message; !strings.Contains(got, "(average 2,597.8 MiB/s)") {
		t.Errorf("steady_state message %q, want its average in MiB/s", got)
	}
	if strings.Contains(md, "2,724.0 MB/s") {
		t.Errorf("report.md gives the average in MB/s:\n%s", md)
	}
}
