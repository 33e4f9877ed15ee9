package reports

import (
	"strings"
	"testing"
)

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

func TestAcceptanceRendered(t *testing.T) {
	s := mustLoad(t, "quickstart")
	s.Acceptance = acceptanceFixture()
	_, md := renderSummary(t, s)
	for _, line := range []string{
		"| nvme0 | rand_read_4k | 1,000,000 IOPS | 590,441 IOPS | 59.0% | ❌ fail | measured at QD16, the spec states QD32<br>measured after preconditioning, the spec states FOB |",
		"| nvme0 | seq_write_128k | 2,350 MB/s | — | — | ❓ not measured | — |",
	} {
		if !strings.Contains(md, line+"\n") {
			t.Errorf("report.md lacks the line\n%s\nin\n%s", line, md)
		}
	}
}
