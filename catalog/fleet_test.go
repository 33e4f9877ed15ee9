package catalog

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/drivebench/drivebench/metrics"
)

// fleetDrives is a batch of drives of two models, one of which is much
// slower than its group.
func fleetDrives() []drive {
	var out []drive
	for i := range 14 {
		fw := "1.0"
		if i >= 8 {
			fw = "1.1"
		}
		out = append(out, drive{"ACME X1 3.84TB", fmt.Sprintf("AX1-%03d", i), fw})
	}
	for i := range 10 {
		out = append(out, drive{"Globex G7", fmt.Sprintf("G7-%03d", i), "7.2"})
	}
	return out
}

const slowSerial = "AX1-005"

// latencyOf draws a drive's latencies: each model its own distribution,
// each drive slightly off its model's, and one drive far off.
func latencyOf(d drive, i int) func(r *rand.Rand) uint64 {
	base := 80_000.0
	if d.model == "Globex G7" {
		base = 120_000
	}
	base *= 1 + 0.1*float64(i%5)/4
	if d.serial == slowSerial {
		base *= 4
	}
	return func(r *rand.Rand) uint64 { return uint64(math.Exp(r.NormFloat64()*0.35) * base) }
}

var fleetCache struct {
	once sync.Once
	runs []memRun
	all  map[string]*metrics.Histogram
}

// fleetCatalog returns one run per drive of fleetDrives, held in memory
// (the reading of folders is Add's tests' business), and per model a
// histogram holding every I/O of the fleet point. They are made once for
// the package's tests.
func fleetCatalog(t *testing.T) ([]memRun, map[string]*metrics.Histogram) {
	fleetCache.once.Do(func() { fleetCache.runs, fleetCache.all = makeFleet(t) })
	if fleetCache.runs == nil {
		t.Fatal("the fleet's runs could not be made")
	}
	return fleetCache.runs, fleetCache.all
}

func makeFleet(t *testing.T) ([]memRun, map[string]*metrics.Histogram) {
	root := "/fleet"
	all := map[string]*metrics.Histogram{}
	var runs []memRun
	start := time.Date(2026, 2, 1, 8, 0, 0, 0, time.UTC)
	for i, d := range fleetDrives() {
		h := new(metrics.Histogram)
		all[d.model] = cmpHist(all[d.model], h)
		sink := func(profile, point string, ns uint64) {
			if profile == "random.randread" && point == "iodepth=32,numjobs=4" {
				all[d.model].Record(ns)
			}
		}
		runs = append(runs, makeRun(t, root, d, start.Add(time.Duration(i)*time.Hour), latencyOf(d, i), sink))
	}
	return runs, all
}

func cmpHist(h, fresh *metrics.Histogram) *metrics.Histogram {
	if h != nil {
		return h
	}
	return fresh
}

func addAll(t *testing.T, c *Catalog, runs []memRun) {
	t.Helper()
	for _, r := range runs {
		if _, err := c.AddRecords(context.Background(), r.dir, r.manifest, r.records, nil); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFleetMergesHistogramsExactly(t *testing.T) {
	dirs, want := fleetCatalog(t)
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		addAll(t, c, dirs)
		f, err := c.Fleet(context.Background(), FleetQuery{
			Point:  Point{Profile: "random.randread", Point: "numjobs=4 iodepth=32", Direction: "read"},
			Figure: "mean", GroupBy: "model",
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Groups) != 2 {
			t.Fatalf("%d groups, want 2: %+v", len(f.Groups), f.Groups)
		}
		for _, g := range f.Groups {
			ref := want[g.Model]
			if g.IOs != ref.Count() {
				t.Errorf("%s: merged histogram holds %d I/Os, the fleet did %d", g.Model, g.IOs, ref.Count())
			}
			for i, p := range g.Merged {
				if exact := ref.Percentile(FleetPercentiles[i]); p.Ns != exact {
					t.Errorf("%s: merged p%g = %d ns, one histogram of every I/O gives %d ns", g.Model, p.P, p.Ns, exact)
				}
			}
			if g.Drives != g.HistogramDrives || len(g.Members) != g.Drives {
				t.Errorf("%s: %d drives, %d with histograms, %d members", g.Model, g.Drives, g.HistogramDrives, len(g.Members))
			}
			var outliers []string
			for _, o := range g.Outliers {
				outliers = append(outliers, o.Serial)
			}
			wantOut := []string(nil)
			if g.Model == "ACME X1 3.84TB" {
				wantOut = []string{slowSerial}
			}
			if !slices.Equal(outliers, wantOut) {
				t.Errorf("%s: outliers %v, want %v (median %.0f, MAD %.0f)", g.Model, outliers, wantOut, g.Median, g.MAD)
			}
		}
		if f.Groups[0].Model != "ACME X1 3.84TB" || f.Groups[0].Drives != 14 || f.Groups[1].Drives != 10 {
			t.Errorf("groups: %s %d, %s %d", f.Groups[0].Model, f.Groups[0].Drives, f.Groups[1].Model, f.Groups[1].Drives)
		}
		byFW, err := c.Fleet(context.Background(), FleetQuery{
			Point:  Point{Profile: "random.randread", Point: "iodepth=32,numjobs=4", Direction: "read"},
			Figure: "iops", GroupBy: "firmware", Filter: Filter{Model: "ACME*"},
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(byFW.Groups) != 2 || byFW.Groups[0].Firmware != "1.0" || byFW.Groups[0].Drives != 8 || byFW.Groups[1].Drives != 6 {
			t.Errorf("by firmware: %+v", byFW.Groups)
		}
	})
}

func TestFleetExplainsAMissingPoint(t *testing.T) {
	dirs, _ := fleetCatalog(t)
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		addAll(t, c, dirs[:1])
		for _, q := range []Point{
			{Profile: "random.randread", Point: "iodepth=3", Direction: "read"},
			{Profile: "random.randread", Direction: "read"},
			{Profile: "no-such-profile", Direction: "read"},
		} {
			_, err := c.Fleet(context.Background(), FleetQuery{Point: q, Figure: "p99", GroupBy: "model"})
			if err == nil {
				t.Errorf("%+v: no error", q)
				continue
			}
			t.Log(err)
		}
	})
}

func TestRollupCountsAndFailingSerials(t *testing.T) {
	dirs, _ := fleetCatalog(t)
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		addAll(t, c, dirs)
		rows, err := c.Rollup(context.Background(), Filter{})
		if err != nil {
			t.Fatal(err)
		}
		var expect, warn *RollupRow
		for i, r := range rows {
			if r.Model == "Globex G7" && r.Kind == "expect" && r.Name == "qd1-latency" {
				expect = &rows[i]
			}
			if r.Model == "ACME X1 3.84TB" && r.Firmware == "1.1" && r.Kind == "acceptance" && r.Warn > 0 && warn == nil {
				warn = &rows[i]
			}
		}
		if expect == nil || expect.Fail != 10 || len(expect.FailingSerials) != 10 || expect.FailingSerials[0] != "G7-000" {
			t.Errorf("the failed expectation on Globex G7: %+v", expect)
		}
		if warn == nil || warn.Warn != 6 || len(warn.FailingSerials) != 0 {
			t.Errorf("an acceptance warning on ACME 1.1: %+v", warn)
		}
		only, err := c.Rollup(context.Background(), Filter{Serial: "G7-003"})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range only {
			if r.Model != "Globex G7" || r.Pass+r.Warn+r.Fail+r.Other != 1 {
				t.Errorf("one drive's rollup: %+v", r)
			}
		}
	})
}

func TestTrendOverFirmware(t *testing.T) {
	dirs, _ := fleetCatalog(t)
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		addAll(t, c, dirs)
		tr, err := c.Trend(context.Background(), TrendQuery{
			Point:  Point{Profile: "random.randread", Point: "iodepth=32,numjobs=4", Direction: "read"},
			Figure: "p99", By: "firmware", Filter: Filter{Model: "ACME X1 3.84TB"},
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Rows) != 2 || tr.Rows[0].X != "1.0" || tr.Rows[0].Runs != 8 || tr.Rows[1].X != "1.1" || tr.Rows[1].Runs != 6 {
			t.Fatalf("trend: %+v", tr.Rows)
		}
		for _, r := range tr.Rows {
			if r.Merged == nil || *r.Merged < r.Min || r.Min > r.Median || r.Median > r.Max {
				t.Errorf("row %+v", r)
			}
		}
		byDay, err := c.Trend(context.Background(), TrendQuery{
			Point:  Point{Profile: "random.randread", Point: "iodepth=32,numjobs=4", Direction: "read"},
			Figure: "iops", By: "day",
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(byDay.Rows) != 3 || byDay.Rows[0].X != "2026-02-01" || byDay.Rows[2].X != "2026-02-02" || byDay.Rows[0].Merged != nil {
			t.Errorf("by day: %+v", byDay.Rows)
		}
	})
}

// TestOutliersNeedMoreThanABucket: latencies one histogram bucket apart
// in a group whose drives agree to the nanosecond are not outliers; a
// drive many buckets off is, and IOPS figures have no such floor.
func TestOutliersNeedMoreThanABucket(t *testing.T) {
	for _, tc := range []struct {
		name    string
		values  []float64
		latency bool
		want    int
	}{
		{"one bucket apart", []float64{3264, 3264, 3264, 3264, 3328}, true, 0},
		{"many buckets apart", []float64{3264, 3264, 3264, 3264, 5120}, true, 1},
		{"iops", []float64{1000, 1010, 990, 1000, 1100}, false, 1},
		{"all alike", []float64{7, 7, 7}, false, 0},
	} {
		g := &FleetGroup{}
		for i, v := range tc.values {
			g.Members = append(g.Members, FleetDrive{Serial: fmt.Sprint(i), Value: v})
		}
		spread(g, !tc.latency, tc.latency)
		if len(g.Outliers) != tc.want {
			t.Errorf("%s: %d outliers, want %d (median %g, MAD %g)", tc.name, len(g.Outliers), tc.want, g.Median, g.MAD)
		}
	}
}

// TestUnidentifiedDrivesAreNamedByRun: drives without a model or serial
// (fio's outputs imported without -model) are each named by their run in
// every view, never grouped together under an empty name.
func TestUnidentifiedDrivesAreNamedByRun(t *testing.T) {
	fleet, _ := fleetCatalog(t)
	runs := append([]memRun(nil), fleet[0], fleet[len(fleet)-1])
	start := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	for i := range 2 {
		runs = append(runs, makeRun(t, "/anonymous", drive{}, start.Add(time.Duration(i)*time.Hour), latencyOf(drive{}, i), nil))
	}
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		ctx := context.Background()
		addAll(t, c, runs)
		list, err := c.Runs(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, r := range list {
			if r.Model == "" {
				want = append(want, "(unidentified drive, run "+r.RunID+")")
			}
		}
		slices.Sort(want)
		if len(want) != 2 {
			t.Fatalf("runs %+v", list)
		}
		point := Point{Profile: "random.randread", Point: "iodepth=32,numjobs=4", Direction: "read"}
		f, err := c.Fleet(ctx, FleetQuery{Point: point, Figure: "p99", GroupBy: "model"})
		if err != nil {
			t.Fatal(err)
		}
		var groups []string
		for _, g := range f.Groups {
			if g.Model[0] == '(' {
				groups = append(groups, g.Model)
				if g.Drives != 1 || g.Members[0].Serial != "(no serial, run "+g.Members[0].RunID+")" {
					t.Errorf("group %+v", g)
				}
			}
		}
		if !slices.Equal(groups, want) || len(f.Groups) != 4 {
			t.Errorf("fleet groups %q of %d, want %q and the two models", groups, len(f.Groups), want)
		}
		tr, err := c.Trend(ctx, TrendQuery{Point: point, Figure: "p99", By: "firmware"})
		if err != nil {
			t.Fatal(err)
		}
		drives, err := c.Drives(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		rollup, err := c.Rollup(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		named := map[string]bool{}
		for _, r := range tr.Rows {
			named[r.Model] = true
		}
		for _, d := range drives {
			named[d.Model] = true
		}
		for _, r := range rollup {
			named[r.Model] = true
			if slices.Contains(r.FailingSerials, "") {
				t.Errorf("rollup row %+v lists a blank serial", r)
			}
		}
		for _, w := range append(want, "") {
			if named[w] != (w != "") {
				t.Errorf("trend, drives and rollup name %q: %v (all: %v)", w, named[w], named)
			}
		}
	})
}
