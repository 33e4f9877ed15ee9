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
		var sources []string
		eachRow(t, c.db, `SELECT r.step_id, s.source, r.trace_ios, r.trace_bytes, r.issued_ios, r.issued_bytes, r.speed, r.iodepth,
			r.slot_waits, r.lag_mean_ns, r.lag_p50_ns, r.lag_p99_ns, r.lag_max_ns, r.lag_histogram
			FROM step_replay r JOIN steps s ON s.run_id = r.run_id AND s.step_id = r.step_id ORDER BY s.source`, func(scan func(...any)) {
			var step string
			var row replayRow
			scan(&step, &row.source, &row.traceIOs, &row.traceBytes, &row.issuedIOs, &row.issuedBytes, &row.speed, &row.iodepth,
				&row.waits, &row.mean, &row.p50, &row.p99, &row.maxNs, &row.blob)
			sources = append(sources, row.source)
			row.check(t, recs[step].Result.Replay)
		})
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

// replayRow is a row of step_replay, with its step's source.
type replayRow struct {
	source                                              string
	traceIOs, traceBytes, issuedIOs, issuedBytes, waits int64
	iodepth                                             int
	speed, mean, p50, p99, maxNs                        float64
	blob                                                []byte
}

// check fails unless the row holds what the replay's record r says, its
// lag figures as the registry reads them from r.
func (row replayRow) check(t *testing.T, r *metrics.ReplayStats) {
	t.Helper()
	source := row.source
	if row.traceIOs != r.TraceIOs || row.traceBytes != r.TraceBytes || row.issuedIOs != r.IssuedIOs || row.issuedBytes != r.IssuedBytes || row.traceIOs == 0 {
		t.Errorf("%s: %d I/Os and %d bytes of %d and %d, the record %d and %d of %d and %d", source, row.issuedIOs, row.issuedBytes, row.traceIOs, row.traceBytes,
			r.IssuedIOs, r.IssuedBytes, r.TraceIOs, r.TraceBytes)
	}
	if row.speed != 10 || row.iodepth != 32 || row.waits != r.SlotWaits {
		t.Errorf("%s: speed %g, iodepth %d, %d slot waits; the record %g, %d, %d", source, row.speed, row.iodepth, row.waits, r.Speed, r.IODepth, r.SlotWaits)
	}
	for name, got := range map[string]float64{"lag_mean": row.mean, "lag_p50": row.p50, "lag_p99": row.p99, "lag_max": row.maxNs} {
		if want := figure.Lookup(name).ReadReplay(r); !near(got, want) {
			t.Errorf("%s: %s = %g, the registry reads %g", source, name, got, want)
		}
	}
	if row.maxNs == 0 || row.p99 > row.maxNs {
		t.Errorf("%s: lag p99 %g ns, max %g ns: a replay at speed 10 has a lag, no larger than its maximum", source, row.p99, row.maxNs)
	}
	// The lag is of every request issued, the flushes too.
	var h metrics.Histogram
	if err := h.UnmarshalBinary(row.blob); err != nil || int64(h.Count()) != r.IssuedIOs+r.Flushes || h.Max() != r.Lag.Max {
		t.Errorf("%s: lag histogram of %d requests up to %d ns (%v), want %d up to %d", source, h.Count(), h.Max(), err, r.IssuedIOs+r.Flushes, r.Lag.Max)
	}
}
