package judging

import (
	"testing"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// TestReplayFidelity: a replay that issued the trace's I/Os and bytes
// passes, one that issued fewer or more fails saying by how much, and a
// step that did not complete or replayed nothing is not judged.
func TestReplayFidelity(t *testing.T) {
	cases := []struct {
		name           string
		status         string
		stats          *metrics.ReplayStats
		verdict, words string
	}{
		{"exact", results.StatusOK, &metrics.ReplayStats{TraceIOs: 2000, TraceBytes: 8192000, IssuedIOs: 2000, IssuedBytes: 8192000},
			results.VerdictPass, "the replay issued the trace's 2,000 I/Os and 8,192,000 bytes, exactly"},
		{"short", results.StatusOK, &metrics.ReplayStats{TraceIOs: 2000, TraceBytes: 8192000, IssuedIOs: 1999, IssuedBytes: 8187904},
			results.VerdictFail, "the replay issued 1,999 I/Os and 8,187,904 bytes where the trace holds 2,000 and 8,192,000: 1 I/O and 4,096 bytes not replayed"},
		{"more", results.StatusOK, &metrics.ReplayStats{TraceIOs: 10, TraceBytes: 40960, IssuedIOs: 11, IssuedBytes: 45056},
			results.VerdictFail, "the replay issued 11 I/Os and 45,056 bytes where the trace holds 10 and 40,960: 1 I/O and 4,096 bytes more than the trace holds"},
		{"interrupted", results.StatusInterrupted, &metrics.ReplayStats{TraceIOs: 10, IssuedIOs: 3}, "", ""},
		{"no replay", results.StatusOK, nil, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := &results.Record{Name: "d / boot", Drive: "d", Status: c.status, Result: &metrics.Result{Replay: c.stats}}
			vs := ReplayFidelity(rec)
			if c.verdict == "" {
				if len(vs) != 0 {
					t.Errorf("got %+v, want no verdict", vs)
				}
				return
			}
			if len(vs) != 1 || vs[0].Status != c.verdict || vs[0].Message != c.words || vs[0].Check != ReplayCheck || vs[0].Subject != "boot" {
				t.Errorf("got %+v\nwant %s: %q", vs, c.verdict, c.words)
			}
		})
	}
}
