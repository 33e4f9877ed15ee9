package judging

import (
	"testing"

	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
)

// TestAverageRounds combines rounds: rates averaged, latency from the
// merged histograms (every percentile and the max of all their I/Os),
// and, for rounds that kept no histogram, the mean weighted by I/Os, the
// largest max and no percentiles.
func TestAverageRounds(t *testing.T) {
	bare := func(iops float64, ios uint64, mean float64, minNs, maxNs uint64) *results.Record {
		d := &metrics.DirStats{IOs: ios, IOPS: iops, Lat: metrics.LatencySummary{Min: minNs, Max: maxNs, Mean: mean,
			Percentiles: []metrics.Percentile{{P: 99, Ns: maxNs}}}}
		return &results.Record{Status: results.StatusOK, Result: &metrics.Result{Read: d}}
	}
	tests := []struct {
		name        string
		rounds      []*results.Record
		iops, mean  float64
		p99, maxNs  uint64
		percentiles bool
	}{
		{"histograms", []*results.Record{okRecord("r1", 1000, 100, 100, 100), okRecord("r2", 3000, 100, 9000)},
			2000, (300 + 9100) / 5.0, 9000, 9000, true},
		{"no histograms", []*results.Record{bare(1000, 1000, 100, 50, 500), bare(3000, 3000, 200, 60, 900)},
			2000, (100_000 + 600_000) / 4000.0, 0, 900, false},
		{"one round without", []*results.Record{okRecord("r1", 1000, 100, 100), bare(3000, 3000, 200, 60, 900)},
			2000, (200 + 600_000) / 3002.0, 0, 900, false},
	}
	for _, tt := range tests {
		d := AverageRounds(tt.rounds).Read
		if d == nil {
			t.Errorf("%s: no reads", tt.name)
			continue
		}
		if d.IOPS != tt.iops || d.Lat.Mean != tt.mean || d.Lat.Max != tt.maxNs || (len(d.Lat.Percentiles) > 0) != tt.percentiles {
			t.Errorf("%s: %.0f IOPS, mean %g, max %d, percentiles %v; want %.0f, %g, %d, %v",
				tt.name, d.IOPS, d.Lat.Mean, d.Lat.Max, d.Lat.Percentiles, tt.iops, tt.mean, tt.maxNs, tt.percentiles)
		}
		if tt.percentiles && d.Quantile(99) != tt.p99 {
			t.Errorf("%s: p99 %d, want %d", tt.name, d.Quantile(99), tt.p99)
		}
	}
}
