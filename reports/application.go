package reports

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/results"
)

// buildApplications gathers the exec steps, one Application per exec
// block and drive, in the order their first steps appear. The instances
// of a block with for_each ("fileio.rndrw-1t", "fileio.seqrd-1t") are
// the runs of one application named by the part they share.
func buildApplications(steps []step, rev *revisions) []Application {
	var execs []step
	for _, s := range steps {
		if s.is(kindExec) {
			execs = append(execs, s)
		}
	}
	names := applicationNames(execs)
	out := []Application{}
	index := map[[2]string]int{}
	for _, s := range execs {
		key := [2]string{s.info.Drive, names[s.info.ID]}
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, Application{Name: key[1], Drive: key[0], Runs: []ApplicationRun{}})
		}
		out[i].Runs = append(out[i].Runs, applicationRun(s, rev))
	}
	for i := range out {
		out[i].Metrics, out[i].Headline = metricColumns(out[i].Runs)
	}
	return out
}

// applicationNames names the application of each exec step: the part
// before the first dot of its source when other sources on the drive
// share that part (the instances of a for_each), its source otherwise.
func applicationNames(execs []step) map[string]string {
	sources := map[[2]string][]string{}
	for _, s := range execs {
		key := [2]string{s.info.Drive, instanceBase(s.source())}
		if !slices.Contains(sources[key], s.source()) {
			sources[key] = append(sources[key], s.source())
		}
	}
	names := map[string]string{}
	for _, s := range execs {
		names[s.info.ID] = s.source()
		if base := instanceBase(s.source()); len(sources[[2]string{s.info.Drive, base}]) > 1 {
			names[s.info.ID] = base
		}
	}
	return names
}

// instanceBase is the block name of a for_each instance's name, the part
// before its first dot.
func instanceBase(source string) string {
	base, _, _ := strings.Cut(source, ".")
	return base
}

func applicationRun(s step, rev *revisions) ApplicationRun {
	run := ApplicationRun{
		StepID: s.info.ID, Name: s.source(), Status: s.status(), ExitCode: -1,
		Command: []string{}, Metrics: map[string]float64{}, PlanHash: rev.earlier(s.rec),
	}
	if s.rec == nil {
		return run
	}
	run.Error = s.rec.Error
	if c := s.rec.Command; c != nil {
		run.Command = append(run.Command, c.Args...)
		run.Dir, run.User, run.ExitCode = c.Dir, c.User, c.ExitCode
		run.DurationNs, run.TimedOut = c.DurationNs, c.TimedOut
		run.StdoutFile, run.StderrFile = c.StdoutFile, c.StderrFile
	}
	if res := s.rec.Result; res != nil {
		for name, v := range res.Metrics {
			run.Metrics[name] = finite(v)
		}
	}
	return run
}

// wellKnownRates are the rates the conclusion quotes first, in this
// order, when a parse hook returns them.
var wellKnownRates = []string{
	"tps", "qps", "iops", "ops_per_s", "reads_per_s", "writes_per_s", "read_mib_s", "written_mib_s",
}

// isRate reports whether a metric's name says it is a rate: a well-known
// one, or a name ending in _per_s, _mib_s or _mb_s.
func isRate(name string) bool {
	return slices.Contains(wellKnownRates, name) || strings.HasSuffix(name, "_per_s") ||
		strings.HasSuffix(name, "_mib_s") || strings.HasSuffix(name, "_mb_s")
}

// metricColumns orders the metrics of the runs: the well-known rates, the
// other rates by name, the latencies from the lowest statistic to the
// highest, then the rest by name. headline is the rates.
func metricColumns(runs []ApplicationRun) (all, headline []string) {
	set := map[string]bool{}
	for _, r := range runs {
		for name := range r.Metrics {
			set[name] = true
		}
	}
	all = append([]string{}, slices.SortedFunc(maps.Keys(set), func(a, b string) int {
		ka, kb := metricRank(a), metricRank(b)
		return cmp.Or(cmp.Compare(ka.group, kb.group), cmp.Compare(ka.order, kb.order), cmp.Compare(a, b))
	})...)
	headline = []string{}
	for _, name := range all {
		if isRate(name) {
			headline = append(headline, name)
		}
	}
	return all, headline
}

// columnPlace places a metric among the columns: by group, then by order
// within the group, then by name.
type columnPlace struct {
	group int
	order float64
}

func metricRank(name string) columnPlace {
	if i := slices.Index(wellKnownRates, name); i >= 0 {
		return columnPlace{0, float64(i)}
	}
	if isRate(name) {
		return columnPlace{1, 0}
	}
	if l, ok := parseLatencyMetric(name); ok {
		return columnPlace{2, l.order}
	}
	return columnPlace{3, 0}
}

// latencyMetric is a metric named latency_<statistic>_<unit>, such as
// latency_avg_ms or latency_p99_us.
type latencyMetric struct {
	// stat is min, avg, mean, max or p<digits>; pct the percentile of a
	// p statistic (p999 is 99.9).
	stat string
	pct  float64
	// toNs converts the metric's unit to nanoseconds.
	toNs float64
	// order sorts statistics: min, the mean, percentiles, max.
	order float64
}

// latencyUnitNs maps the unit suffix of a latency metric to nanoseconds.
var latencyUnitNs = map[string]float64{"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}

func parseLatencyMetric(name string) (latencyMetric, bool) {
	rest, ok := strings.CutPrefix(name, "latency_")
	cut := strings.LastIndexByte(rest, '_')
	if !ok || cut <= 0 {
		return latencyMetric{}, false
	}
	stat, unitName := rest[:cut], rest[cut+1:]
	toNs, ok := latencyUnitNs[unitName]
	if !ok {
		return latencyMetric{}, false
	}
	l := latencyMetric{stat: stat, toNs: toNs}
	switch stat {
	case "min":
		l.order = -2
	case "avg", "mean":
		l.order = -1
	case "max":
		l.order = 1000
	default:
		pct, ok := percentileOf(stat)
		if !ok {
			return latencyMetric{}, false
		}
		l.pct, l.order = pct, pct
	}
	return l, true
}

// percentileOf reads a percentile statistic's name as expectations and
// spec sheets do: p followed by two digits or more, the first two whole
// percent and the rest decimals (p95 is 95, p999 is 99.9, p9999 is
// 99.99).
func percentileOf(stat string) (float64, bool) {
	digits, ok := strings.CutPrefix(stat, "p")
	if !ok || len(digits) < 2 || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	pct, err := strconv.ParseFloat(digits[:2]+"."+digits[2:], 64)
	return pct, err == nil && pct > 0
}

// runLatencies finds a run's mean latency and its highest latency
// percentile in nanoseconds; pct is 0 when it has no percentile.
func runLatencies(metrics map[string]float64) (mean *float64, tail *float64, pct float64) {
	for _, name := range slices.Sorted(maps.Keys(metrics)) {
		l, ok := parseLatencyMetric(name)
		if !ok {
			continue
		}
		ns := metrics[name] * l.toNs
		switch {
		case l.stat == "avg" || l.stat == "mean":
			mean = &ns
		case l.pct > pct:
			tail, pct = &ns, l.pct
		}
	}
	return mean, tail, pct
}

// metricLabel names a metric for people, with its unit: reads_per_s as
// "reads/s", read_mib_s as "read MiB/s", latency_avg_ms as "latency avg
// (ms)", tps as "TPS".
func metricLabel(name string) string {
	words := func(s string) string { return strings.ReplaceAll(s, "_", " ") }
	switch {
	case name == "tps" || name == "qps" || name == "iops":
		return strings.ToUpper(name)
	case strings.HasSuffix(name, "_per_s"):
		return words(strings.TrimSuffix(name, "_per_s")) + "/s"
	case strings.HasSuffix(name, "_mib_s"):
		return words(strings.TrimSuffix(name, "_mib_s")) + " MiB/s"
	case strings.HasSuffix(name, "_mb_s"):
		return words(strings.TrimSuffix(name, "_mb_s")) + " MB/s"
	}
	for _, u := range []struct{ suffix, unit string }{{"_ms", "ms"}, {"_us", "µs"}, {"_ns", "ns"}, {"_s", "s"}} {
		if base, ok := strings.CutSuffix(name, u.suffix); ok && base != "" {
			return words(base) + " (" + u.unit + ")"
		}
	}
	return words(name)
}

// metricValue writes a metric's value: "3,849.95", "0.91".
func metricValue(v float64) string { return format.Plain(v) }

// outputTails are the last lines of a command's outputs that have any,
// stdout first; [] without a command.
func outputTails(c *results.Command) []OutputTail {
	out := []OutputTail{}
	if c == nil {
		return out
	}
	for _, o := range []OutputTail{
		{Stream: "stdout", File: c.StdoutFile, Lines: c.StdoutTail},
		{Stream: "stderr", File: c.StderrFile, Lines: c.StderrTail},
	} {
		if slices.ContainsFunc(o.Lines, func(l string) bool { return strings.TrimSpace(l) != "" }) {
			o.Lines = append([]string{}, o.Lines...)
			out = append(out, o)
		}
	}
	return out
}
