package catalog

import (
	"context"
	"testing"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/metrics"
)

// replayRun is the results folder of examples/vdi-replay at speed 10: a
// fill, then the boot and login traces replayed.
const replayRun = "../reports/testdata/replay"

// TestAddKeepsReplays adds the replay run: each replay's counts against
// its trace's and its lag, read by the figure registry's replay rows,
// with the lag histogram; and catalog query selects them.
func TestAddKeepsReplays(t *testing.T) {
	recs := records(t, replayRun)
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		ctx := context.Background()
		if _, err := c.Add(ctx, replayRun); err != nil {
			t.Fatal(err)
		}
		rows, err := c.db.Query(`SELECT r.step_id, s.source, r.trace_ios, r.trace_bytes, r.issued_ios, r.issued_bytes, r.speed, r.iodepth,
			r.slot_waits, r.lag_mean_ns, r.lag_p50_ns, r.lag_p99_ns, r.lag_max_ns, r.lag_histogram
			FROM step_replay r JOIN steps s ON s.run_id = r.run_id AND s.step_id = r.step_id ORDER BY s.source`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var sources []string
		for rows.Next() {
			var step, source string
			var traceIOs, traceBytes, issuedIOs, issuedBytes, waits int64
			var iodepth int
			var speed, mean, p50, p99, maxNs float64
			var blob []byte
			if err := rows.Scan(&step, &source, &traceIOs, &traceBytes, &issuedIOs, &issuedBytes, &speed, &iodepth, &waits, &mean, &p50, &p99, &maxNs, &blob); err != nil {
				t.Fatal(err)
			}
			sources = append(sources, source)
			r := recs[step].Result.Replay
			if traceIOs != r.TraceIOs || traceBytes != r.TraceBytes || issuedIOs != r.IssuedIOs || issuedBytes != r.IssuedBytes || traceIOs == 0 {
				t.Errorf("%s: %d I/Os and %d bytes of %d and %d, the record %d and %d of %d and %d", source, issuedIOs, issuedBytes, traceIOs, traceBytes,
					r.IssuedIOs, r.IssuedBytes, r.TraceIOs, r.TraceBytes)
			}
			if speed != 10 || iodepth != 32 || waits != r.SlotWaits {
				t.Errorf("%s: speed %g, iodepth %d, %d slot waits; the record %g, %d, %d", source, speed, iodepth, waits, r.Speed, r.IODepth, r.SlotWaits)
			}
			for name, got := range map[string]float64{"lag_mean": mean, "lag_p50": p50, "lag_p99": p99, "lag_max": maxNs} {
				if want := figure.Lookup(name).ReadReplay(r); !near(got, want) {
					t.Errorf("%s: %s = %g, the registry reads %g", source, name, got, want)
				}
			}
			if maxNs == 0 || p99 > maxNs {
				t.Errorf("%s: lag p99 %g ns, max %g ns: a replay at speed 10 has a lag, no larger than its maximum", source, p99, maxNs)
			}
			// The lag is of every request issued, the flushes too.
			var h metrics.Histogram
			if err := h.UnmarshalBinary(blob); err != nil || int64(h.Count()) != r.IssuedIOs+r.Flushes || h.Max() != r.Lag.Max {
				t.Errorf("%s: lag histogram of %d requests up to %d ns (%v), want %d up to %d", source, h.Count(), h.Max(), err, r.IssuedIOs+r.Flushes, r.Lag.Max)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if len(sources) != 2 || sources[0] != "boot" || sources[1] != "login" {
			t.Errorf("replay steps: %v, want boot and login", sources)
		}
		// catalog query reads them as any other table.
		tab, err := c.Query(ctx, `SELECT s.source, r.lag_p99_ns FROM step_replay r JOIN steps s USING (run_id, step_id) ORDER BY s.source`)
		if err != nil {
			t.Fatal(err)
		}
		if len(tab.Rows) != 2 || tab.Rows[0][0] != "boot" {
			t.Errorf("catalog query: %v", tab.Rows)
		}
	})
}
