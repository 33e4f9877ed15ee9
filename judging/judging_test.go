package judging

import (
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/results"
)

// okRecord is a finished step whose reads all took latNs and ran at iops.
func okRecord(name string, iops float64, latNs ...uint64) *results.Record {
	var h metrics.Histogram
	for _, l := range latNs {
		h.Record(l)
	}
	d := metrics.Summarize(&h, uint64(len(latNs))*4096, time.Second)
	d.IOPS = iops
	return &results.Record{Name: name, Kind: string(plan.KindProfile), Status: results.StatusOK, Result: &metrics.Result{Read: d, RuntimeNs: int64(time.Second)}}
}

func TestStopReason(t *testing.T) {
	rec := okRecord("curve / 80%", 1000, 100_000, 100_000, 100_000, 5_000_000)
	cases := []struct {
		stop *plan.StopCondition
		want string
	}{
		{nil, ""},
		{&plan.StopCondition{Stat: "mean", LimitNs: 2_000_000}, ""},
		{&plan.StopCondition{Stat: "mean", LimitNs: 1_000_000}, "mean latency 1325.0 µs at curve / 80% exceeded the curve's limit of 1000.0 µs"},
		{&plan.StopCondition{Stat: "p99", LimitNs: 10_000_000}, ""},
		{&plan.StopCondition{Stat: "p99", LimitNs: 1_000_000}, "p99 latency"},
		{&plan.StopCondition{Stat: "p50", LimitNs: 1_000_000}, ""},
		{&plan.StopCondition{Stat: "p99_9", LimitNs: 4_000_000}, "p99.9 latency"},
	}
	for _, tc := range cases {
		got := StopReason(tc.stop, rec)
		if (tc.want == "") != (got == "") || !strings.HasPrefix(got, tc.want) {
			t.Errorf("stop %+v: %q, want %q", tc.stop, got, tc.want)
		}
	}
	failed := &results.Record{Status: results.StatusFailed}
	if got := StopReason(&plan.StopCondition{Stat: "mean", LimitNs: 1}, failed); got != "" {
		t.Errorf("a failed point stopped the curve: %q", got)
	}
}
