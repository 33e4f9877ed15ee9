// Command catalogbench fills a catalog with generated runs and times what
// users do with it: it adds RUNS runs of STEPS steps, made from the real
// records of a results folder (their histograms rescaled per drive, so
// that drives differ), one run at a time as drivebench run would, then
// runs the fleet, roll-up and trend queries. It prints the ingest time per
// run, the catalog's size and each query's time as Markdown.
//
//	catalogbench -catalog /tmp/bench.db -runs 10000 -steps 50
//	catalogbench -catalog postgres://postgres@127.0.0.1:5432/bench -runs 10000
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"slices"
	"syscall"
	"time"

	"github.com/drivebench/drivebench/catalog"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/results"
	"github.com/drivebench/drivebench/workload"
)

func main() {
	target := flag.String("catalog", "", "the catalog to fill: an SQLite file or a postgres:// DSN (it should be empty)")
	fixture := flag.String("fixture", "reports/testdata/vendor-acceptance", "a results folder whose records the runs are made from")
	runs := flag.Int("runs", 10000, "runs to add")
	steps := flag.Int("steps", 50, "steps per run")
	drives := flag.Int("drives", 2500, "distinct drives; each is run runs/drives times, on a newer firmware each time")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the whole benchmark to this file")
	flag.Parse()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "catalogbench:", err)
			os.Exit(2)
		}
		defer pprof.StopCPUProfile()
	}
	if *target == "" {
		fmt.Fprintln(os.Stderr, "catalogbench: -catalog is required")
		os.Exit(2)
	}
	if err := bench(context.Background(), *target, *fixture, *runs, *steps, *drives); err != nil {
		fmt.Fprintln(os.Stderr, "catalogbench:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

func bench(ctx context.Context, target, fixture string, runs, steps, drives int) error {
	g, err := newGenerator(fixture, steps, drives)
	if err != nil {
		return err
	}
	c, err := catalog.Open(ctx, target)
	if err != nil {
		return err
	}
	defer c.Close()
	durations := make([]time.Duration, 0, runs)
	var ingestCPU time.Duration
	start := time.Now()
	for i := range runs {
		m, recs := g.run(i)
		t0, c0 := time.Now(), cpuTime()
		res, err := c.AddRecords(ctx, fmt.Sprintf("/bench/run-%05d", i), m, recs, nil)
		ingestCPU += cpuTime() - c0
		if err != nil {
			return err
		}
		if res.Status != catalog.Added {
			return fmt.Errorf("run %d: %s, not added: two generated runs share an identity", i, res.Status)
		}
		durations = append(durations, time.Since(t0))
		if (i+1)%1000 == 0 {
			fmt.Fprintf(os.Stderr, "%d runs added, %.0f s\n", i+1, time.Since(start).Seconds())
		}
	}
	total := time.Since(start)
	size, err := catalogSize(ctx, c)
	if err != nil {
		return err
	}
	fmt.Printf("## %s: %d runs x %d steps (%d drives, %d models)\n\n", c.Kind(), runs, steps, drives, len(models))
	slices.Sort(durations)
	fmt.Printf("| ingest per run | mean %s | p50 %s | p99 %s | max %s | %.0f runs/s, %.0f steps/s; %.0f s in all with generation, %s CPU of this process per run |\n",
		ms(mean(durations)), ms(durations[len(durations)/2]), ms(durations[len(durations)*99/100]), ms(durations[len(durations)-1]),
		float64(runs)/sum(durations).Seconds(), float64(runs*steps)/sum(durations).Seconds(), total.Seconds(), ms(ingestCPU/time.Duration(runs)))
	fmt.Printf("| catalog size | %.1f MiB | %.1f KiB per run | | | |\n\n", float64(size)/(1<<20), float64(size)/1024/float64(runs))
	return queries(ctx, c, g)
}

// queries times each query three times.
func queries(ctx context.Context, c *catalog.Catalog, g *generator) error {
	point := catalog.Point{Profile: g.fleetProfile, Point: g.fleetPoint, Direction: "read"}
	cases := []struct {
		name string
		run  func() (string, error)
	}{
		{"fleet p99 by model", func() (string, error) {
			f, err := c.Fleet(ctx, catalog.FleetQuery{Point: point, Figure: "p99", GroupBy: "model"})
			return fleetSummary(f), err
		}},
		{"fleet p99 by firmware", func() (string, error) {
			f, err := c.Fleet(ctx, catalog.FleetQuery{Point: point, Figure: "p99", GroupBy: "firmware"})
			return fleetSummary(f), err
		}},
		{"rollup", func() (string, error) {
			r, err := c.Rollup(ctx, catalog.Filter{})
			return fmt.Sprintf("%d lines", len(r)), err
		}},
		{"trend p99 by firmware", func() (string, error) {
			t, err := c.Trend(ctx, catalog.TrendQuery{Point: point, Figure: "p99", By: "firmware"})
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("%d rows", len(t.Rows)), nil
		}},
		{"ls -serial", func() (string, error) {
			r, err := c.Runs(ctx, catalog.Filter{Serial: serialOf(7)})
			return fmt.Sprintf("%d runs", len(r)), err
		}},
	}
	fmt.Println("Wall time, then in brackets the CPU time this process spent (user + system; a PostgreSQL")
	fmt.Println("server's own work is not in it). On a loaded machine the wall time is mostly waiting for a core.")
	fmt.Println()
	fmt.Println("| query | 1st | 2nd | 3rd | result |")
	fmt.Println("|---|---|---|---|---|")
	for _, q := range cases {
		var times []string
		var what string
		for range 3 {
			t0, c0 := time.Now(), cpuTime()
			w, err := q.run()
			if err != nil {
				return fmt.Errorf("%s: %w", q.name, err)
			}
			times, what = append(times, fmt.Sprintf("%s (%s)", ms(time.Since(t0)), ms(cpuTime()-c0))), w
		}
		fmt.Printf("| %s | %s | %s | %s | %s |\n", q.name, times[0], times[1], times[2], what)
	}
	return nil
}

// cpuTime is the processor time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func fleetSummary(f *catalog.Fleet) string {
	if f == nil {
		return ""
	}
	drives, outliers := 0, 0
	var ios uint64
	for _, g := range f.Groups {
		drives += g.Drives
		outliers += len(g.Outliers)
		ios += g.IOs
	}
	return fmt.Sprintf("%d groups, %d drives, %d outliers, %d I/Os merged", len(f.Groups), drives, outliers, ios)
}

func catalogSize(ctx context.Context, c *catalog.Catalog) (int64, error) {
	q := `SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()`
	if c.Kind() == "postgresql" {
		q = `SELECT pg_database_size(current_database())`
	}
	t, err := c.Query(ctx, q)
	if err != nil {
		return 0, err
	}
	n, ok := t.Rows[0][0].(int64)
	if !ok {
		return 0, fmt.Errorf("size: %v", t.Rows[0][0])
	}
	return n, nil
}

// models of the generated fleet: a latency scale and firmware versions,
// one per round of runs.
var models = []struct {
	name      string
	scale     float64
	firmwares []string
}{
	{"KIOXIA KCD6XLUL3T84", 1.0, []string{"0105", "0106", "0107", "0108"}},
	{"Samsung PM9A3 3.84TB", 0.9, []string{"GDC5302Q", "GDC5602Q", "GDC5A02Q", "GDC5C02Q"}},
	{"Micron 7450 PRO 3.84TB", 1.1, []string{"E2MU200", "E2MU210", "E2MU220", "E2MU230"}},
	{"Solidigm D7-P5520 3.84TB", 0.95, []string{"9CV10200", "9CV10210", "9CV10300", "9CV10330"}},
	{"WD Ultrastar DC SN655 3.84TB", 1.05, []string{"R2000000", "R2110000", "R2120000", "R2140000"}},
}

func serialOf(drive int) string { return fmt.Sprintf("BENCH%07d", drive) }

// generator makes runs from the fixture's records.
type generator struct {
	manifest     *results.Manifest
	pre, accept  []*results.Record
	profiles     []*results.Record
	steps        int
	drives       int
	factor       []float64
	fleetProfile string
	fleetPoint   string
	t0           time.Time
}

func newGenerator(fixture string, steps, drives int) (*generator, error) {
	f, err := results.Open(fixture)
	if err != nil {
		return nil, err
	}
	recs, err := f.Records()
	if err != nil {
		return nil, err
	}
	g := &generator{manifest: f.Manifest, steps: steps, drives: drives, t0: time.Date(2025, 1, 6, 8, 0, 0, 0, time.UTC)}
	for _, r := range recs {
		switch {
		case r.Kind == "profile" && r.Result != nil && (hist(r.Result.Read) || hist(r.Result.Write)):
			g.profiles = append(g.profiles, r)
		case r.Kind == "acceptance":
			g.accept = append(g.accept, r)
		case r.Kind == "precondition":
			g.pre = append(g.pre, r)
		}
	}
	if len(g.profiles) == 0 || steps <= len(g.pre)+len(g.accept) {
		return nil, fmt.Errorf("%s has %d profile records with histograms; -steps must exceed its %d other records", fixture, len(g.profiles), len(g.pre)+len(g.accept))
	}
	r := rand.New(rand.NewPCG(17, 42))
	g.factor = make([]float64, drives)
	for d := range g.factor {
		// Drives of a model differ by a few per cent; one in a hundred is
		// three times slower.
		g.factor[d] = models[d%len(models)].scale * math.Exp(r.NormFloat64()*0.05)
		if r.IntN(100) == 0 {
			g.factor[d] *= 3
		}
	}
	for _, p := range g.profiles {
		if p.Result.Read != nil && hist(p.Result.Read) {
			g.fleetProfile, g.fleetPoint = p.Source, append(slices.Clone(p.Point), workload.Param{Name: "round", Value: 0}).Key()
			break
		}
	}
	return g, nil
}

func hist(d *metrics.DirStats) bool { return d != nil && d.Hist != nil }

// run makes run i: drive i mod drives, on the firmware of its round.
func (g *generator) run(i int) (*results.Manifest, []*results.Record) {
	drive, round := i%g.drives, i/g.drives
	model := models[drive%len(models)]
	m := *g.manifest
	m.Created = g.t0.Add(time.Duration(i) * time.Minute)
	m.Testbed.Detected = map[string]string{"hostname": fmt.Sprintf("bench-host-%d", i%8)}
	m.Drives = slices.Clone(m.Drives)
	m.Drives[0].Declared = map[string]string{"model": model.name, "serial": serialOf(drive), "firmware": model.firmwares[round%len(model.firmwares)]}
	// A newer firmware is a little faster.
	f := g.factor[drive] * (1 - 0.03*float64(round%len(model.firmwares)))
	var recs []*results.Record
	add := func(base *results.Record, point []workload.Param, result *metrics.Result) {
		r := *base
		r.StepID = fmt.Sprintf("%06x%06x", i, len(recs))
		r.Point = point
		r.Result = result
		r.Started = m.Created.Add(time.Duration(len(recs)) * time.Second)
		r.Finished = r.Started.Add(time.Second)
		recs = append(recs, &r)
	}
	for _, p := range g.pre {
		add(p, p.Point, p.Result)
	}
	for _, a := range g.accept {
		add(a, a.Point, a.Result)
	}
	for j := 0; len(recs) < g.steps; j++ {
		base := g.profiles[j%len(g.profiles)]
		point := append(slices.Clone(base.Point), workload.Param{Name: "round", Value: j / len(g.profiles)})
		add(base, point, scaled(base.Result, f))
	}
	return &m, recs
}

// scaled is a result whose latencies are f times the base's, bucket by
// bucket, and whose rates are 1/f times.
func scaled(base *metrics.Result, f float64) *metrics.Result {
	r := *base
	r.Series = nil
	r.Read, r.Write = scaledDir(base.Read, f), scaledDir(base.Write, f)
	return &r
}

func scaledDir(d *metrics.DirStats, f float64) *metrics.DirStats {
	if d == nil {
		return nil
	}
	out := *d
	out.IOPS, out.BW = d.IOPS/f, d.BW/f
	if d.Hist != nil {
		h := new(metrics.Histogram)
		d.Hist.Buckets(func(v, c uint64) { h.AddBucket(uint64(float64(v)*f), c) })
		out.Hist = h
		out.Lat = h.Summary(metrics.DefaultPercentiles)
	}
	return &out
}

func mean(ds []time.Duration) time.Duration { return sum(ds) / time.Duration(len(ds)) }

func sum(ds []time.Duration) time.Duration {
	var s time.Duration
	for _, d := range ds {
		s += d
	}
	return s
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
