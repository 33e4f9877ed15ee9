package figure

import (
	"fmt"
	"strings"

	"github.com/drivebench/drivebench/metrics"
)

// Place is a place that names figures; a Place value with several bits
// set is a set of places (Figure.In).
type Place uint

// The places that name figures.
const (
	// Expect: result.<direction>.<key> in a profile's expect, latencies
	// in µs (result.read.p99_us).
	Expect Place = 1 << iota
	// Spec: a key of a drive's spec_sheet entry, latencies in µs.
	Spec
	// Hook: p.read.<key> of a point a hook receives, latencies in ns.
	Hook
	// Report: a figure of a profile row in report.json, latencies in ns.
	Report
	// Column: a column of the catalog's step_latency table.
	Column
	// Steady: the metric of a steady_state block.
	Steady
	// Option: the command-line flags compare -threshold and catalog
	// -figure.
	Option
	// Dataloader: result.dataloader.<key> in a dataloader step's expect,
	// latencies in µs (result.dataloader.batch_wait_p99_us).
	Dataloader
	// Replay: result.replay.<key> in a trace replay's expect, latencies
	// in µs (result.replay.lag_p99_us).
	Replay
	// Interval: a figure of one interval of a step's series (a second of
	// its measured phase, both directions together), as a record's
	// series, a run's interval events and hooks' series name it
	// (p99_ns), in ns.
	Interval
	// SeriesColumn: a column of series/<step>.csv, latencies in µs
	// (lat_p99_us).
	SeriesColumn
	// Stop: the stat of a rate curve's stop condition (stop = { stat =
	// "p99", above = "2ms" }), a completion latency over both directions.
	Stop
	// Event: a direction's figure in a step_finished event of run
	// -events, latencies in ns (lat_p99_ns).
	Event
	// Files: result.files.<key> in the expect of a profile on a file set,
	// latencies in µs (result.files.open_p99_us).
	Files
	// Checkpoint: result.checkpoint.<phase>.<key> in a checkpoint's
	// expect, a phase of each pass (result.checkpoint.write.slowest_job_s).
	Checkpoint
	// KindColumn: a column of the catalog's table of a kind of step, beside
	// step_latency: step_files, step_dataloader and step_replay, latencies
	// in ns (lag_p99_ns).
	KindColumn
)

// places are the places in the order docs/figures.md lists them, with
// their names for people.
var places = []struct {
	place Place
	name  string
}{
	{Expect, "expectation"}, {Spec, "spec sheet"}, {Hook, "hook"}, {Report, "report.json"},
	{Column, "catalog column"}, {Steady, "steady_state metric"}, {Option, "command-line flag"},
	{Dataloader, "dataloader expectation"}, {Replay, "replay expectation"},
	{Interval, "interval series"}, {SeriesColumn, "series CSV column"},
	{Stop, "rate_curve stop stat"}, {Event, "step_finished event"}, {Files, "file set expectation"},
	{Checkpoint, "checkpoint expectation"}, {KindColumn, "catalog column of a step kind"},
}

// String names a place for people: "steady_state metric".
func (p Place) String() string {
	var names []string
	for _, q := range places {
		if p&q.place != 0 {
			names = append(names, q.name)
		}
	}
	return strings.Join(names, ", ")
}

// Key is the figure's name in place p: the one a published format fixed
// (Keys), else its name with the unit the place writes it in: p99_us in
// an expectation or a spec sheet, p99_ns in a hook, report.json and the
// catalog, bw_bytes there for bandwidth, lat_p99_us as a series CSV
// column, lat_p99_ns in a step_finished event, and the bare name in a steady_state block and the commands'
// flags.
func (f *Figure) Key(p Place) string {
	if k, ok := f.Keys[p]; ok {
		return k
	}
	if p == SeriesColumn && f.Unit == Nanoseconds {
		return "lat_" + strings.ReplaceAll(f.Name, "_", "") + "_us"
	}
	if p == Event && f.Unit == Nanoseconds {
		return "lat_" + f.Name + "_ns"
	}
	return f.Name + suffix(f.Unit, p)
}

// suffix is the unit a place writes a figure of unit u in.
func suffix(u Unit, p Place) string {
	switch {
	case u == Nanoseconds && p&(Expect|Spec|Dataloader|Replay|Files) != 0:
		return "_us"
	case u == Nanoseconds && p&(Hook|Report|Column|KindColumn|Interval) != 0:
		return "_ns"
	case u == BytesPerSec && p&(Hook|Report|Column|KindColumn|Interval|Event) != 0:
		return "_bytes"
	}
	return ""
}

// Scale is what place p multiplies a value in Unit by: latencies are in
// µs in expectations, spec sheets and the series CSV.
func (f *Figure) Scale(p Place) float64 {
	if f.Unit == Nanoseconds && p&(Expect|Spec|Dataloader|Replay|SeriesColumn|Files) != 0 {
		return 1e-3
	}
	return 1
}

// Value reads the figure from d in place p's unit.
func (f *Figure) Value(p Place, d *metrics.DirStats) float64 {
	return f.Read(d) * f.Scale(p)
}

// IntervalValue reads the figure of one interval of a series in place
// p's unit; 0 for a figure the interval did not measure (a percentile
// of an engine that keeps no histogram per interval).
func (f *Figure) IntervalValue(p Place, s *metrics.Sample) float64 {
	return f.ReadInterval(s) * f.Scale(p)
}

// DataloaderValue reads a dataloader figure from d in place p's unit.
func (f *Figure) DataloaderValue(p Place, d *metrics.Dataloader) float64 {
	return f.ReadDataloader(d) * f.Scale(p)
}

// FilesValue reads a file set's figure from f in place p's unit.
func (f *Figure) FilesValue(p Place, s *metrics.FileSetStats) float64 {
	return f.ReadFiles(s) * f.Scale(p)
}

// ReplayValue reads a replay figure from r in place p's unit.
func (f *Figure) ReplayValue(p Place, r *metrics.ReplayStats) float64 {
	return f.ReadReplay(r) * f.Scale(p)
}

// Lookup returns the figure of canonical name name, nil when there is
// none.
func Lookup(name string) *Figure {
	for i := range Figures {
		if Figures[i].Name == name {
			return &Figures[i]
		}
	}
	return nil
}

// In lists the figures place p knows, in table order.
func In(p Place) []*Figure {
	var out []*Figure
	for i := range Figures {
		if Figures[i].In&p != 0 {
			out = append(out, &Figures[i])
		}
	}
	return out
}

// Keys lists the names of the figures place p knows, in table order.
func Keys(p Place) []string {
	var out []string
	for _, f := range In(p) {
		out = append(out, f.Key(p))
	}
	return out
}

// Resolve finds the figure that name stands for in place p: its key
// there, or one of its old names, for which old is true: the caller then
// notes where the old name was written with Deprecation. f is nil for a
// name place p does not know.
func Resolve(p Place, name string) (f *Figure, old bool) {
	for _, f := range In(p) {
		if f.Key(p) == name {
			return f, false
		}
	}
	for i := range Figures {
		for _, o := range Figures[i].Old[p] {
			if o == name {
				return &Figures[i], true
			}
		}
	}
	return nil, false
}

// Deprecation says that old, an old name of f in place p, has a new one:
// `"lat_p99", the old steady_state metric name of the p99 latency, is
// deprecated: write "p99" ...`.
func (f *Figure) Deprecation(p Place, old string) string {
	return fmt.Sprintf("%q, the old %s name of the %s, is deprecated: write %q, its name in the figure registry (drivebench help figures); the old name will stop working in a later release", old, p, f.Title, f.Key(p))
}

// SpecFigure finds the figure a spec sheet key claims: a figure's key, or
// any other latency percentile as metrics.LatencyPercentile names them
// (p9995_us), read as that percentile. ok is false for a figure
// drivebench does not measure (endurance, power).
func SpecFigure(key string) (*Figure, bool) {
	if f, _ := Resolve(Spec, key); f != nil {
		return f, true
	}
	p, ok := metrics.LatencyPercentile(key)
	if !ok {
		return nil, false
	}
	f := percentile(p, strings.TrimSuffix(key, "_us"), Spec, nil, "")
	f.Keys = map[Place]string{Spec: key}
	return &f, true
}

// UnitIn is the unit place p writes the figure in: "µs" for a latency
// in an expectation or a spec sheet, Unit otherwise.
func (f *Figure) UnitIn(p Place) string {
	if f.Scale(p) == 1e-3 {
		return "µs"
	}
	return string(f.Unit)
}
