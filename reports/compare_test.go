package reports

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// quickstart builds the Summary of the quickstart fixture; each call gives
// a Summary of its own to change.
func quickstart(t *testing.T) *Summary {
	t.Helper()
	s, err := Load(filepath.Join("testdata", "quickstart"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// scaleRow multiplies the IOPS and bandwidth of a row by rate and its
// latencies by lat.
func scaleRow(r *Row, rate, lat float64) {
	f := r.Total
	f.IOPS *= rate
	f.BWBytes *= rate
	if f.MeanLatNs != nil {
		v := *f.MeanLatNs * lat
		f.MeanLatNs = &v
	}
	for _, p := range []**uint64{&f.P50Ns, &f.P99Ns, &f.P999Ns} {
		if *p != nil {
			v := uint64(float64(**p) * lat)
			*p = &v
		}
	}
}

func TestCompare(t *testing.T) {
	const qd16 = 2 // the iodepth=16 row of the 4k-random-read table
	tests := []struct {
		name      string
		change    func(s *Summary)
		regressed bool
		counts    map[string]int
		verdicts  map[string]string // figure at iodepth=16 -> verdict
	}{
		{
			name:     "identical runs",
			change:   func(*Summary) {},
			counts:   map[string]int{Unchanged: 18},
			verdicts: map[string]string{"iops": Unchanged, "p99_ns": Unchanged},
		},
		{
			name:      "injected 10% regression",
			change:    func(s *Summary) { scaleRow(&s.Results[0].Rows[qd16], 0.90, 1) },
			regressed: true,
			counts:    map[string]int{Regressed: 2, Unchanged: 16},
			verdicts:  map[string]string{"iops": Regressed, "bw_bytes": Regressed, "mean_lat_ns": Unchanged},
		},
		{
			name: "noise under the threshold",
			change: func(s *Summary) {
				for i := range s.Results[0].Rows {
					scaleRow(&s.Results[0].Rows[i], 0.97, 1.04)
				}
			},
			counts:   map[string]int{Noise: 18},
			verdicts: map[string]string{"iops": Noise, "p99_9_ns": Noise},
		},
		{
			name:      "slower latency regresses, faster improves",
			change:    func(s *Summary) { scaleRow(&s.Results[0].Rows[qd16], 1.2, 1.1) },
			regressed: true,
			counts:    map[string]int{Improved: 2, Regressed: 4, Unchanged: 12},
			verdicts:  map[string]string{"iops": Improved, "p99_ns": Regressed},
		},
		{
			name: "a point the new run did not finish is lost",
			change: func(s *Summary) {
				s.Results[0].Rows[qd16].Status, s.Results[0].Rows[qd16].Total = "failed", nil
			},
			regressed: true,
			counts:    map[string]int{Lost: 1, Unchanged: 12},
			verdicts:  map[string]string{"iops": Lost},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next := quickstart(t)
			tt.change(next)
			c := Compare(quickstart(t), next, Thresholds{Default: 5})
			if c.Regressed() != tt.regressed {
				t.Errorf("Regressed() = %v, want %v", c.Regressed(), tt.regressed)
			}
			for _, verdict := range []string{Regressed, Improved, Noise, Unchanged, Lost} {
				if c.Counts[verdict] != tt.counts[verdict] {
					t.Errorf("%s: %d figures, want %d", verdict, c.Counts[verdict], tt.counts[verdict])
				}
			}
			for figure, want := range tt.verdicts {
				if got := verdictOf(c, "iodepth=16", figure); got != want {
					t.Errorf("%s at iodepth=16: %q, want %q", figure, got, want)
				}
			}
		})
	}
}

func verdictOf(c *Comparison, point, figure string) string {
	for _, ch := range c.Changes {
		if ch.Point == point && ch.Figure == figure {
			return ch.Verdict
		}
	}
	return "absent"
}

func TestJudge(t *testing.T) {
	tests := []struct {
		pct          float64
		higherBetter bool
		want         string
	}{
		{-10, true, Regressed},
		{-5, true, Noise}, // at the threshold is not beyond it
		{-5.01, true, Regressed},
		{4.9, true, Noise},
		{6, true, Improved},
		{10, false, Regressed},
		{-10, false, Improved},
		{0, false, Unchanged},
	}
	for _, tt := range tests {
		if got := judge(tt.pct, 5, tt.higherBetter); got != tt.want {
			t.Errorf("judge(%v%%, higher better %v) = %s, want %s", tt.pct, tt.higherBetter, got, tt.want)
		}
	}
}

func TestCompareUnmatchedPoints(t *testing.T) {
	next := quickstart(t)
	next.Results[0].Rows[0].Point = "iodepth=2"
	c := Compare(quickstart(t), next, Thresholds{Default: 5})
	if len(c.OnlyInBase) != 1 || c.OnlyInBase[0] != "nvme0 / 4k-random-read / iodepth=1" {
		t.Errorf("only in base = %q", c.OnlyInBase)
	}
	if len(c.OnlyInNew) != 1 || c.OnlyInNew[0] != "nvme0 / 4k-random-read / iodepth=2" {
		t.Errorf("only in new = %q", c.OnlyInNew)
	}
}

func TestWriteComparison(t *testing.T) {
	next := quickstart(t)
	scaleRow(&next.Results[0].Rows[2], 0.9, 1.02)
	var out bytes.Buffer
	if err := WriteComparison(&out, Compare(quickstart(t), next, Thresholds{Default: 5})); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"nvme0 / 4k-random-read / iodepth=16  IOPS           590,441       531,397       -10.0%  —      regressed",
		"nvme0 / 4k-random-read / iodepth=16  p99 latency    241.7 µs      246.5 µs      +2.0%   —      noise",
		"18 figures compared at a 5% threshold, and beyond the runs' noise: 2 regressed, 0 improved, 4 noise, 12 unchanged, 0 lost",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("comparison lacks\n%s\nin\n%s", want, text)
		}
	}
	if strings.Contains(text, "iodepth=4 ") {
		t.Errorf("unchanged figures are listed:\n%s", text)
	}
}

// TestCompareCountsNoise: a change beyond the threshold but within the
// noise of the two runs' interval series is noise, not a regression; the
// same change between steady runs regresses.
func TestCompareCountsNoise(t *testing.T) {
	run := func(iops, cv float64) *Summary {
		return &Summary{Results: []ProfileResult{{Profile: "p", Drive: "d", Rows: []Row{{
			Point: "iodepth=1", Status: "ok", Total: &Figures{IOPS: iops, BWBytes: iops * 4096},
			Intervals: &Spread{N: 4, Mean: iops, CVPct: cv},
		}}}}}
	}
	tests := []struct {
		cv      float64
		verdict string
		noise   float64
	}{
		{cv: 10, verdict: Noise, noise: 13.859}, // 1.96 * sqrt(5² + 5²)
		{cv: 1, verdict: Regressed, noise: 1.386},
	}
	for _, tt := range tests {
		c := Compare(run(1000, tt.cv), run(900, tt.cv), Thresholds{Default: 5})
		ch := c.Changes[0]
		if ch.Name != "IOPS" || ch.Verdict != tt.verdict || ch.NoisePct == nil || math.Abs(*ch.NoisePct-tt.noise) > 0.001 {
			t.Errorf("CV %g%%: %+v (noise %v), want %s at ±%.3f%%", tt.cv, ch, ch.NoisePct, tt.verdict, tt.noise)
		}
	}
}

// TestCompareLatencyNoise: a p99 that moved beyond the threshold but
// within the noise of the two runs' per-interval p99 is noise; the same
// move between steady runs regresses, and p99.9, which no interval
// measures, is judged by the threshold alone.
func TestCompareLatencyNoise(t *testing.T) {
	run := func(p99 uint64, cv float64) *Summary {
		return &Summary{Results: []ProfileResult{{Profile: "p", Drive: "d", Rows: []Row{{
			Point: "iodepth=1", Status: "ok", Total: &Figures{IOPS: 1000, P99Ns: &p99, P999Ns: &p99},
			LatencyIntervals: map[string]*Spread{"p99_ns": {N: 4, Mean: float64(p99), CVPct: cv}},
		}}}}}
	}
	tests := []struct {
		cv             float64
		p99, p999      string
		wantNoiseOfP99 bool
	}{
		{cv: 10, p99: Noise, p999: Regressed, wantNoiseOfP99: true},
		{cv: 1, p99: Regressed, p999: Regressed, wantNoiseOfP99: true},
	}
	for _, tt := range tests {
		c := Compare(run(100_000, tt.cv), run(110_000, tt.cv), Thresholds{Default: 5})
		got := map[string]Change{}
		for _, ch := range c.Changes {
			got[ch.Figure] = ch
		}
		p99, p999 := got["p99_ns"], got["p99_9_ns"]
		if p99.Verdict != tt.p99 || (p99.NoisePct != nil) != tt.wantNoiseOfP99 || p999.Verdict != tt.p999 || p999.NoisePct != nil {
			t.Errorf("CV %g%%: p99 %+v (noise %v), p99.9 %+v; want %s and %s", tt.cv, p99, p99.NoisePct, p999, tt.p99, tt.p999)
		}
	}
}
