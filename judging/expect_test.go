package judging

import (
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// readNode returns a point of the profile "read" of the plan language's
// judging fixture, whose expectations read the drive's spec and a
// variable, with that drive's spec.
func readNode(t *testing.T) (*plan.Node, []*plan.SpecEntry) {
	t.Helper()
	const file = "../plan/testdata/valid/judging.hcl"
	p, _, diags := plan.Load(file, plan.LoadOptions{})
	if diags.HasErrors() {
		t.Fatalf("loading %s: %v", file, diags)
	}
	i := slices.IndexFunc(p.Profiles, func(pr *plan.Profile) bool { return pr.Name == "read" })
	n := &plan.Node{Name: "ssd / read / iodepth=1", Drive: "ssd", Source: "read", Expect: p.Profiles[i].Expect}
	return n, p.Drives[0].Spec
}

func TestExpect(t *testing.T) {
	n, spec := readNode(t)
	writes := okRecord("w", 0, 100_000)
	writes.Result.Read, writes.Result.Write = nil, writes.Result.Read
	tests := []struct {
		name     string
		rec      *results.Record
		statuses []string
		message  string
	}{
		{"both hold", okRecord("r", 95000, 100_000), []string{"pass", "pass"},
			"read / iodepth=1: result.read.iops >= 0.9 * spec.rand_read_4k.iops (result.read.iops = 95000, spec.rand_read_4k.iops = 100000)"},
		{"too few IOPS", okRecord("r", 80000, 100_000), []string{"fail", "pass"},
			"read / iodepth=1: result.read.iops >= 0.9 * spec.rand_read_4k.iops does not hold (result.read.iops = 80000, spec.rand_read_4k.iops = 100000)"},
		{"no reads", writes, []string{"error", "error"},
			"read / iodepth=1: result.read.iops >= 0.9 * spec.rand_read_4k.iops cannot be judged: result.read is not set: the step did no reads"},
		{"failed step", &results.Record{Status: results.StatusFailed, Result: &metrics.Result{}}, nil, ""},
		{"no result", &results.Record{Status: results.StatusOK}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Expect(n, tt.rec, spec)
			checkExpectVerdicts(t, got, expectVerdict{check: "expect read", drive: "ssd", subject: "read / iodepth=1: result.read.", where: "judging.hcl:"}, tt.statuses)
			if len(got) > 0 && got[0].Message != tt.message {
				t.Errorf("message %q\nwant    %q", got[0].Message, tt.message)
			}
		})
	}
}

// expectVerdict is what every verdict of one expectation block shares: its
// check and drive, and how its subject and its place in the plan begin.
type expectVerdict struct {
	check, drive, subject, where string
}

// checkExpectVerdicts fails the test unless got are verdicts of an
// expect, each as want says with the code of its status, of the statuses
// given in order.
func checkExpectVerdicts(t *testing.T, got []results.Verdict, want expectVerdict, statuses []string) {
	t.Helper()
	var have []string
	for _, v := range got {
		have = append(have, v.Status)
		if v.Check != want.check || v.Drive != want.drive || !strings.HasPrefix(v.Subject, want.subject) || !strings.HasPrefix(v.Where, want.where) || !IsExpectVerdict(v) {
			t.Errorf("verdict %+v", v)
		}
		if code := map[string]string{"pass": results.CodeHolds, "fail": results.CodeDoesNotHold, "error": results.CodeCannotJudge}[v.Status]; v.Code != code {
			t.Errorf("%s verdict with code %s", v.Status, v.Code)
		}
	}
	if strings.Join(have, " ") != strings.Join(statuses, " ") {
		t.Fatalf("statuses %q, want %q", have, statuses)
	}
}
