package catalog

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/drivebench/drivebench/results"
)

// MetricsFormat is a text format WriteMetrics writes.
type MetricsFormat int

const (
	// OpenMetrics is OpenMetrics 1.0 text: units, verdicts as a StateSet,
	// "# EOF" at the end. Prometheus scrapes it.
	OpenMetrics MetricsFormat = iota
	// PrometheusText is the Prometheus text format 0.0.4, the one
	// node_exporter's textfile collector, the Pushgateway and promtool
	// read: the same series, with the verdict StateSet written as the
	// gauge Prometheus makes of it, and no UNIT or EOF lines.
	PrometheusText
)

// verdictStates are the states of a verdict's StateSet, one of which is
// 1; a status outside them (a newer drivebench's) is added after them.
var verdictStates = []string{results.VerdictPass, results.VerdictWarn, results.VerdictFail, results.VerdictError, results.VerdictSkip}

// WriteMetrics writes the export as OpenMetrics or Prometheus text. Every
// series is labelled by the run and the plan's drive name beside the
// drive's model, serial and firmware, so that two drives without a serial,
// or two runs, never make the same series; a figure adds its step and
// direction, a verdict what it judged and, as a hook's verdicts name no
// subject, its place among the step's verdicts of that name ("index").
// Each metric family is written whole, its metadata first.
func WriteMetrics(w io.Writer, e *Export, f MetricsFormat) error {
	m := &metricsWriter{om: f == OpenMetrics}
	m.runs(e)
	m.figures(e)
	m.latency(e)
	m.verdicts(e)
	if m.om {
		m.b.WriteString("# EOF\n")
	}
	_, err := io.WriteString(w, m.b.String())
	return err
}

// metricsWriter lays out families and samples in one of the formats.
type metricsWriter struct {
	b  strings.Builder
	om bool
}

// family writes a family's metadata. typ is an OpenMetrics type; the
// Prometheus text format has no stateset, so it gets "gauge".
func (m *metricsWriter) family(name, typ, unit, help string) {
	if typ == "stateset" && !m.om {
		typ = "gauge"
	}
	fmt.Fprintf(&m.b, "# TYPE %s %s\n", name, typ)
	if unit != "" && m.om {
		fmt.Fprintf(&m.b, "# UNIT %s %s\n", name, unit)
	}
	fmt.Fprintf(&m.b, "# HELP %s %s\n", name, help)
}

// sample writes one series; labels come in name, value pairs.
func (m *metricsWriter) sample(name string, labels []string, v float64) {
	m.b.WriteString(name)
	m.b.WriteByte('{')
	for i := 0; i+1 < len(labels); i += 2 {
		if i > 0 {
			m.b.WriteByte(',')
		}
		fmt.Fprintf(&m.b, `%s="%s"`, labels[i], escapeLabel(labels[i+1]))
	}
	m.b.WriteString("} ")
	m.b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	m.b.WriteByte('\n')
}

// driveLabels identify a drive of a run.
func driveLabels(d ExportDrive) []string {
	return []string{"run", d.RunID, "drive", d.Drive, "model", d.Model, "serial", d.Serial, "firmware", d.Firmware, "plan", d.Plan}
}

// figureLabels identify one direction of one step of a drive's run.
func figureLabels(d ExportDrive, f ExportFigure) []string {
	return append(driveLabels(d), "step", f.StepID, "profile", f.Profile, "point", f.Point, "direction", f.Direction)
}

func (m *metricsWriter) runs(e *Export) {
	m.family("drivebench_run_timestamp_seconds", "gauge", "seconds", "When the drive's latest run in the catalog was created.")
	for _, d := range e.Drives {
		if t, err := time.Parse(time.RFC3339, d.Created); err == nil {
			m.sample("drivebench_run_timestamp_seconds", driveLabels(d), float64(t.UnixMilli())/1000)
		}
	}
}

func (m *metricsWriter) figures(e *Export) {
	for _, g := range []struct {
		name, unit, help string
		value            func(ExportFigure) float64
	}{
		{"drivebench_iops", "", "I/O operations per second of a step of the drive's latest run.", func(f ExportFigure) float64 { return f.IOPS }},
		{"drivebench_bandwidth_bytes_per_second", "bytes_per_second", "Bandwidth of a step of the drive's latest run.", func(f ExportFigure) float64 { return f.BW }},
		{"drivebench_latency_mean_seconds", "seconds", "Mean completion latency of a step of the drive's latest run.", func(f ExportFigure) float64 { return f.MeanNs / 1e9 }},
	} {
		m.family(g.name, "gauge", g.unit, g.help)
		for _, d := range e.Drives {
			for _, f := range d.Figures {
				m.sample(g.name, figureLabels(d, f), g.value(f))
			}
		}
	}
}

// latency writes each step's completion latency as a summary: the
// percentiles read from its histogram, the count of its I/Os and the sum
// of their latencies.
func (m *metricsWriter) latency(e *Export) {
	const name = "drivebench_latency_seconds"
	m.family(name, "summary", "seconds", "Completion latency of a step of the drive's latest run, its quantiles read from its histogram.")
	for _, d := range e.Drives {
		for _, f := range d.Figures {
			labels := figureLabels(d, f)
			for _, p := range catalogPercentiles {
				if v := f.Pct[strconv.FormatFloat(p, 'f', -1, 64)]; v != nil {
					m.sample(name, append(labels, "quantile", strconv.FormatFloat(p/100, 'g', 10, 64)), float64(*v)/1e9)
				}
			}
			m.sample(name+"_count", labels, float64(f.IOs))
			m.sample(name+"_sum", labels, f.MeanNs*float64(f.IOs)/1e9)
		}
	}
}

// verdicts writes each verdict as a StateSet whose state is its status.
func (m *metricsWriter) verdicts(e *Export) {
	const name = "drivebench_verdict"
	m.family(name, "stateset", "", "A verdict of the drive's latest run: the state of its status is 1.")
	for _, d := range e.Drives {
		seen := map[[5]string]int{}
		for _, v := range d.Verdicts {
			key := [5]string{v.StepID, v.Kind, v.Name, v.Metric, v.Subject}
			seen[key]++
			labels := append(driveLabels(d), "step", v.StepID, "kind", v.Kind, "name", v.Name, "metric", v.Metric,
				"subject", v.Subject, "index", strconv.Itoa(seen[key]))
			states := verdictStates
			if !slices.Contains(states, v.Status) {
				states = append(slices.Clip(states), v.Status)
			}
			for _, s := range states {
				value := 0.0
				if s == v.Status {
					value = 1
				}
				m.sample(name, append(slices.Clip(labels), name, s), value)
			}
		}
	}
}

// escapeLabel escapes a label value as the text format asks: backslash,
// double quote and line feed.
func escapeLabel(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}
