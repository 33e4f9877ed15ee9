package script

import (
	"fmt"
	"maps"
	"math"
	"strconv"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/metrics"
)

// Direction is one direction's statistics (reads or writes) as hooks
// see them, under the names the hook documentation gives:
//
//	ios, bytes
//	iops, bw_bytes, mean_ns, p99_ns ...            the figures, named as the
//	                                               figure registry names them
//	                                               in a hook (figure.Hook)
//	lat_ns.min, .max, .mean, .stddev, .p["99.9"]   the old names of the
//	                                               latencies, in ns
//	quantile(q)                                    latency (ns) below which
//	                                               q percent of I/Os completed
//
// The engine fills it from a measured point; hook tests from a list of
// sample latencies. Defining the shape once keeps the two alike.
type Direction struct {
	// Stats are the direction's statistics, whose figures the hook reads
	// through the figure registry.
	Stats *metrics.DirStats
	// Quantile returns the latency in ns below which q percent of the I/Os
	// completed, for 0 < q <= 100; nil reads it from Stats.
	Quantile func(q float64) float64
}

// value is what a hook receives for d: a struct, or None for a direction
// without I/O.
func (d *Direction) value() any {
	if d == nil {
		return nil
	}
	s := d.Stats
	if s == nil {
		s = &metrics.DirStats{}
	}
	quantile := d.Quantile
	if quantile == nil {
		quantile = func(q float64) float64 { return float64(s.Quantile(q)) }
	}
	pcts := make(map[string]any, len(s.Lat.Percentiles))
	for _, p := range s.Lat.Percentiles {
		pcts[strconv.FormatFloat(p.P, 'f', -1, 64)] = p.Ns
	}
	v := Struct{
		"ios": s.IOs, "bytes": s.Bytes,
		"lat_ns":   Struct{"min": s.Lat.Min, "max": s.Lat.Max, "mean": s.Lat.Mean, "stddev": s.Lat.Stddev, "p": pcts},
		"quantile": quantileFunc(quantile),
	}
	for _, f := range figure.In(figure.Hook) {
		v[f.Key(figure.Hook)] = hookFigure(f, f.Read(s))
	}
	return v
}

// hookFigure is a figure's value as a hook receives it: an int for a
// figure that is a whole number (figure.Whole), a float otherwise.
func hookFigure(f *figure.Figure, v float64) any {
	if f.Whole {
		return int64(math.Round(v))
	}
	return v
}

// quantileFunc wraps a quantile for hooks, refusing percentiles outside
// (0, 100].
func quantileFunc(q func(float64) float64) Func {
	if q == nil {
		return nil
	}
	return func(args ...float64) (float64, error) {
		if len(args) != 1 || args[0] <= 0 || args[0] > 100 {
			return 0, fmt.Errorf("quantile takes one percentile in (0, 100], such as quantile(99.9)")
		}
		return q(args[0]), nil
	}
}

// Point is one measured step as hooks see it: what a check receives in
// run.points, an adaptive sweep in its history, a steady-state rule in its
// rounds.
type Point struct {
	// Name is the sweep point, such as "iodepth=4,numjobs=2"; "" for a
	// step without one.
	Name string
	// Params holds the point's parameters by name: int64 for counts and
	// sizes (bytes), string for rw.
	Params map[string]any
	// Status is the step's status: "ok", "failed", "interrupted".
	Status string
	// Read and Write are nil when the step did no I/O that way.
	Read, Write *Direction
	// Metrics are the named figures of an exec step.
	Metrics map[string]float64
	// Series is the step's time series, one sample per interval.
	Series []metrics.Sample
}

// IntervalFields is one interval of a step's series as hooks see it, a
// check's point and the summary hook's steps alike: t (the end of the
// interval in seconds since measuring began), read_iops, write_iops,
// bytes_written, and the interval's figures (figure.Interval) under the
// names a point's directions give them (figure.Hook: bw_bytes, mean_ns,
// p50_ns, p99_ns, p99_99_ns), a whole latency as an int; and under the
// old names a series gave them before the registry (oldSeriesNames).
func IntervalFields(s *metrics.Sample) map[string]any {
	out := map[string]any{"t": s.T, "read_iops": s.ReadIOPS, "write_iops": s.WriteIOPS, "bytes_written": s.BytesWritten}
	for _, f := range figure.In(figure.Interval) {
		out[f.Key(figure.Hook)] = hookFigure(f, f.ReadInterval(s))
	}
	for _, old := range oldSeriesNames {
		f, _ := figure.Resolve(figure.Hook, old)
		out[old] = out[f.Key(figure.Hook)]
	}
	return out
}

// Value is the struct a hook receives for p, with the fields name,
// params, status, read, write and metrics.
func (p Point) Value() Struct {
	params := p.Params
	if params == nil {
		params = map[string]any{}
	}
	metrics := map[string]float64{}
	maps.Copy(metrics, p.Metrics)
	series := make([]any, len(p.Series))
	for i := range p.Series {
		series[i] = Struct(IntervalFields(&p.Series[i]))
	}
	return Struct{
		"name": p.Name, "params": params, "status": p.Status,
		"read": p.Read.value(), "write": p.Write.value(), "metrics": metrics, "series": series,
	}
}

// Round is what a steady_state hook receives for one round: the tracked
// point's fields, with round (1-based) and value, the tracked figure.
func (p Point) Round(round int, value float64) Struct {
	v := p.Value()
	v["round"], v["value"] = round, value
	return v
}

// Drive is a drive under test as hooks see it.
type Drive struct {
	Name, Path string
	// Size is the capacity used, in bytes.
	Size int64
	// Spec holds the drive's spec entries by name: figures and stated
	// conditions by key.
	Spec map[string]map[string]any
	// Facts are what drivebench detected: model, serial, firmware, block
	// sizes.
	Facts map[string]string
	// Health is the drive's NVMe identity and SMART snapshots as plain
	// values ({"before": ..., "after": ...}); nil for other drives.
	Health any
}

// Value is the struct a hook receives for d: name, path, size, spec,
// facts and smart.
func (d Drive) Value() Struct {
	spec := map[string]any{}
	for k, v := range d.Spec {
		spec[k] = v
	}
	facts := map[string]any{}
	for k, v := range d.Facts {
		facts[k] = v
	}
	return Struct{"name": d.Name, "path": d.Path, "size": d.Size, "spec": spec, "facts": facts, "smart": d.Health}
}

// CheckInput is the one argument of a check: run.check, run.profile,
// run.drive, run.args, run.vars (the plan's variables) and run.points.
func CheckInput(check, profile string, drive Drive, args, vars map[string]any, points []Point) Struct {
	values := make([]any, len(points))
	for i, p := range points {
		values[i] = p.Value()
	}
	if args == nil {
		args = map[string]any{}
	}
	if vars == nil {
		vars = map[string]any{}
	}
	return Struct{"check": check, "profile": profile, "drive": drive.Value(), "args": args, "vars": vars, "points": values}
}
