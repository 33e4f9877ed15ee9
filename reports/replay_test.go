package reports

import (
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/plot"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

// TestReplayFidelity checks the replay figures a row carries and the
// sentence that says whether the replay was faithful and kept up.
func TestReplayFidelity(t *testing.T) {
	w := &workload.Workload{IODepth: 8, Replay: &workload.Replay{File: "boot.iolog", Speed: 1}}
	lag := metrics.LatencySummary{Max: 900_000, Percentiles: []metrics.Percentile{{P: 50, Ns: 20_000}, {P: 99, Ns: 400_000}}}
	cases := []struct {
		name  string
		stats metrics.ReplayStats
		want  string
	}{
		{"faithful", metrics.ReplayStats{TraceIOs: 2000, TraceBytes: 8192000, IssuedIOs: 2000, IssuedBytes: 8192000, Lag: lag},
			"The replay issued the trace's 2,000 I/Os and 8,192,000 bytes, exactly; the drive kept up: every I/O found a free slot at its scheduled time."},
		{"short", metrics.ReplayStats{TraceIOs: 2000, TraceBytes: 8192000, IssuedIOs: 1990, IssuedBytes: 8151040, SlotWaits: 12, Lag: lag},
			"The replay issued 1,990 I/Os and 8,151,040 bytes where the trace holds 2,000 and 8,192,000: 10 I/Os and 40,960 bytes not replayed; the drive did not keep up: 12 I/Os were due while all 8 slots were busy."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := replayOf(w, &metrics.Result{Replay: &c.stats})
			if r.Faithful != (c.name == "faithful") || r.LagP50Ns != 20_000 || r.LagP99Ns != 400_000 || r.LagMaxNs != 900_000 || r.Writes != "replay" {
				t.Errorf("got %+v", r)
			}
			if got := replaySentence(r, nil); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
	short := replayOf(w, &metrics.Result{Replay: &metrics.ReplayStats{TraceIOs: 10, TraceBytes: 40960, IssuedIOs: 10, IssuedBytes: 40960, SlotWaits: 1}})
	if got, want := replaySentence(short, []string{results.WarnHostCPU}), "the drive did not keep up (⚠ host-bound): 1 I/O was due"; !strings.Contains(got, want) {
		t.Errorf("a replay that fell behind on a busy host: %q, want the flag: %q", got, want)
	}
	if replayOf(&workload.Workload{}, &metrics.Result{}) != nil {
		t.Error("a step that replayed nothing has replay figures")
	}
}

// TestReplayTraceChart: a replay that skipped 30 s into its trace and
// ran its window three times at speed 0 is drawn over the trace's own
// time from 30 s on, IOPS per second of trace time, the starts of loops
// 2 and 3 circled, and no lag line (speed 0 has no schedule).
func TestReplayTraceChart(t *testing.T) {
	var bins []metrics.TraceBin
	for i := range 30 {
		b := metrics.TraceBin{T: 30 + 0.5*float64(i), Loop: 1 + i/10, Due: int64(i % 4), Reads: int64(i % 4), P99Ns: 200_000}
		if b.Reads == 0 {
			b.P99Ns = 0
		}
		bins = append(bins, b)
	}
	rp := &Replay{TraceBinNs: 500_000_000, TraceSeries: bins, Loops: 3}
	e := entry{label: "vdi", table: &ProfileResult{Rows: []Row{{Replay: rp}}}}
	c := replayTraceChart("login", []entry{e})
	if c.Title != "login: IOPS, p99 latency and lag over trace time" {
		t.Errorf("title %q", c.Title)
	}
	var names []string
	for _, l := range c.Lines {
		names = append(names, l.Name)
	}
	if !slices.Equal(names, []string{"vdi IOPS", "vdi p99"}) {
		t.Errorf("lines %q, want IOPS and p99 without lag at speed 0", names)
	}
	if p := c.Lines[0].Points; len(p) != 30 || p[0].X != 30 || p[3] != (plot.Point{X: 31.5, Y: 6}) {
		t.Errorf("IOPS points %v: want 30 from 30 s of trace time, 3 I/Os in half a second of it at 31.5 s drawn as 6 IOPS", p)
	}
	var marks []string
	for _, m := range c.Marks {
		marks = append(marks, format.Trim(m.At.X)+" s: "+m.Label)
	}
	if !slices.Equal(marks, []string{"35 s: loop 2", "40 s: loop 3"}) {
		t.Errorf("marks %q", marks)
	}
	xTick := func(v string) string { return `text-anchor="middle" fill="#444">` + v + "</text>" }
	if svg := string(c.SVG()); !strings.Contains(svg, ">Trace time (s)</text>") || !strings.Contains(svg, xTick("30")) || strings.Contains(svg, xTick("0")) {
		t.Errorf("the x axis is not trace time from 30 s:\n%s", svg)
	}
}

// TestPercentileTitle: the percentile chart of a table of one run is not
// "at the peak", which it has none of among points (a replay's boot
// burst would read as that peak); a sweep's is at its peak or, leading
// with latency, at its lowest-latency point, whichever drive's table has
// the points.
func TestPercentileTitle(t *testing.T) {
	one := entry{table: &ProfileResult{Rows: []Row{{Point: ""}}}}
	sweep := entry{table: &ProfileResult{Rows: []Row{{Point: "iodepth=1"}, {Point: "iodepth=4"}}}}
	cases := []struct {
		entries  []entry
		headline string
		want     string
	}{
		{[]entry{one}, headlineIOPS, "boot: latency percentiles"},
		{[]entry{one, one}, headlineLat, "boot: latency percentiles"},
		{[]entry{sweep}, headlineIOPS, "boot: latency percentiles at the peak"},
		{[]entry{one, sweep}, headlineLat, "boot: latency percentiles at the lowest-latency point"},
	}
	for _, tc := range cases {
		if got := percentileTitle("boot", tc.headline, tc.entries); got != tc.want {
			t.Errorf("%d entries, headline %s: %q, want %q", len(tc.entries), tc.headline, got, tc.want)
		}
	}
}
