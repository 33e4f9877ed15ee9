package script

import (
	"context"
	"reflect"
	"strconv"
	"testing"

	"github.com/drivebench/drivebench/results"
)

// The quickstart's check, examples/checks/latency.star, judged against a
// synthetic run shaped like the one the engine passes. It quotes its
// figures as the report's tables write them (fmt.latency).

func latencyRun(args map[string]any, points ...any) Struct {
	return Struct{
		"check":   "read_p99",
		"profile": "qd_sweep",
		"drive": Struct{
			"name": "nvme0",
			"path": "/dev/nvme0n1",
			"size": int64(1 << 40),
			"spec": map[string]any{
				"rand_read_4k": map[string]any{"iops": 1e6, "bs": 4096, "iodepth": 32},
			},
		},
		"args":   args,
		"points": points,
	}
}

func latencyPoint(iodepth int, status string, read any) Struct {
	return Struct{
		"name":   "iodepth=" + strconv.Itoa(iodepth),
		"params": map[string]any{"iodepth": iodepth},
		"status": status,
		"read":   read,
		"write":  nil,
	}
}

// readStats describes reads whose latencies are samples (ns).
func readStats(samples ...float64) Struct {
	return Struct{
		"ios": len(samples), "bytes": 4096 * len(samples), "iops": 1e5, "bw_bytes": 4096e5,
		"lat_ns": Struct{
			"min": samples[0], "max": samples[len(samples)-1], "mean": samples[0], "stddev": 0,
			"p": map[string]any{"99": samples[len(samples)-1]},
		},
		"quantile": quantileOf(samples...),
	}
}

func TestLatencyExample(t *testing.T) {
	want := []Verdict{
		{results.VerdictPass, "iodepth=1: p99 812.3 µs < 5.00 ms"},
		{results.VerdictFail, "iodepth=16: p99 6.12 ms >= 5.00 ms"},
		{results.VerdictFail, "iodepth=32: the run failed, so its latency is unknown"},
		{results.VerdictWarn, "iodepth=64: no reads, so no read latency to judge"},
	}
	r := New("../examples", Limits{})
	// The plan may hand the limit over as an int or as a float.
	for _, limit := range []any{5000, 5000.0} {
		run := latencyRun(map[string]any{"limit_us": limit},
			latencyPoint(1, "ok", readStats(90_000, 120_000, 812_300)),
			latencyPoint(16, "ok", readStats(300_000, 6_123_400)),
			latencyPoint(32, "failed", nil),
			latencyPoint(64, "ok", nil),
		)
		got, prints, err := r.Check(context.Background(), "checks/latency.star", "p99_under", run)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) || len(prints) != 0 {
			t.Errorf("limit %#v: got %q (prints %q),\nwant %q", limit, got, prints, want)
		}
	}
}

func TestLatencyExampleNeedsLimit(t *testing.T) {
	run := latencyRun(map[string]any{"limit": 5000}, latencyPoint(1, "ok", readStats(1000)))
	_, _, err := New("../examples", Limits{}).Check(context.Background(), "checks/latency.star", "p99_under", run)
	wantError(t, err, "checks/latency.star:", `^fail: p99_under needs a latency limit in microseconds`)
}
