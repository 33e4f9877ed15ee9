package reports

import (
	"strings"
	"testing"
)

// steadyStateFixture is a SNIA-style search on the quickstart drive:
// IOPS settling over nine rounds, judged over rounds 5 to 9.
func steadyStateFixture() []SteadyState {
	values := []float64{412_000, 298_500, 241_200, 214_900, 203_100, 199_800, 201_400, 198_200, 200_300}
	ss := SteadyState{
		Drive: "nvme0", Profile: "4k-random-write", Variable: "iops",
		WindowFirst: 5, WindowLast: 9, Reached: true,
		Message: "max - min is 2.4% of the average (limit 20%); the best-fit line moves 1.4% (limit 10%).",
	}
	for i, v := range values {
		ss.Rounds = append(ss.Rounds, SteadyRound{Round: i + 1, Value: v})
	}
	ss.Average, ss.Slope, ss.Intercept = fitLine(ss.Rounds[4:])
	return []SteadyState{ss}
}

// fitLine is the least-squares line through rounds and their mean.
func fitLine(rounds []SteadyRound) (mean, slope, intercept float64) {
	n := float64(len(rounds))
	var sx, sy, sxx, sxy float64
	for _, r := range rounds {
		x := float64(r.Round)
		sx, sy, sxx, sxy = sx+x, sy+r.Value, sxx+x*x, sxy+x*r.Value
	}
	slope = (n*sxy - sx*sy) / (n*sxx - sx*sx)
	return sy / n, slope, (sy - slope*sx) / n
}

func acceptanceFixture() []AcceptanceRow {
	measured, ratio := 590_441.2, 0.590441
	return []AcceptanceRow{
		{
			Drive: "nvme0", Spec: "rand_read_4k", Metric: "iops", Claimed: 1_000_000,
			Measured: &measured, Ratio: &ratio, Verdict: "fail", StepID: "7c4f18e6a2b05d93",
			Conditions: []string{"measured at QD16, the spec states QD32", "measured after preconditioning, the spec states FOB"},
		},
		{
			Drive: "nvme0", Spec: "seq_write_128k", Metric: "bw", Claimed: 2_350_000_000,
			Verdict: "not_measured", Conditions: []string{},
		},
	}
}

func TestSteadyStateAndAcceptanceRendered(t *testing.T) {
	s := mustLoad(t, "quickstart")
	s.SteadyState, s.Acceptance = steadyStateFixture(), acceptanceFixture()
	s.arrange()
	if got := s.SteadyState[0].Chart; got != "charts/4k-random-write-steady-state-nvme0.svg" {
		t.Errorf("steady-state chart = %q", got)
	}
	_, md := renderSummary(t, s)
	for _, line := range []string{
		"## Steady state",
		"![4k-random-write on nvme0: steady-state rounds](charts/4k-random-write-steady-state-nvme0.svg)",
		"Steady state was reached in rounds 5 to 9: iops averaged 200,560, and the best-fit line changed by -1.4% across the window. max - min is 2.4% of the average (limit 20%); the best-fit line moves 1.4% (limit 10%).",
		"| nvme0 | rand_read_4k | 1,000,000 IOPS | 590,441 IOPS | 59.0% | ❌ fail | measured at QD16, the spec states QD32<br>measured after preconditioning, the spec states FOB |",
		"| nvme0 | seq_write_128k | 2,350 MB/s | — | — | ❓ not measured | — |",
	} {
		if !strings.Contains(md, line+"\n") {
			t.Errorf("report.md lacks the line\n%s\nin\n%s", line, md)
		}
	}
}

func TestSteadyStateNotReached(t *testing.T) {
	ss := SteadyState{Rounds: make([]SteadyRound, 25), Message: "max - min is 31% of the average (limit 20%)."}
	want := "Steady state was not reached in 25 rounds. max - min is 31% of the average (limit 20%)."
	if got := steadyStateSentence(ss); got != want {
		t.Errorf("sentence = %q, want %q", got, want)
	}
}
