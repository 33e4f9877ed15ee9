package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/results"
)

// docApplications shows each application: its command, how each run
// ended and the metrics its parse hook read, one row per run.
func docApplications(d *document, s *Summary) {
	if len(s.Applications) == 0 {
		return
	}
	d.heading(2, plain("Application workloads"))
	d.para(plain("Commands the plan ran on its drives, in plan order, with the metrics their parse hooks read from the output. " +
		"The last lines of a failed command's output are under Problems."))
	for _, app := range s.Applications {
		d.heading(3, plain(orDash(app.Name)+" on "+orDash(app.Drive)))
		if len(app.Runs) == 1 {
			d.para(commandText(app.Runs[0])...)
		}
		d.richTable(applicationColumns(app), applicationRows(s, app))
		if len(app.Runs) > 1 {
			commandsTable(d, app)
		}
	}
}

// commandText says what a run ran, where and as whom: "Command: `sysbench
// fileio prepare`, in `/mnt/bench`, as postgres."
func commandText(r ApplicationRun) []span {
	if len(r.Command) == 0 {
		return spans("The step has no record of its command.")
	}
	text := []span{plain("Command: "), mono(strings.Join(r.Command, " "))}
	if r.Dir != "" {
		text = append(text, plain(", in "), mono(r.Dir))
	}
	if r.User != "" {
		text = append(text, plain(", as "+r.User))
	}
	return append(text, plain("."))
}

func applicationColumns(app Application) []column {
	cols := []column{{title: "Run"}, {title: "Status"}, {"Exit code", true}, {"Duration", true}}
	for _, m := range app.Metrics {
		cols = append(cols, column{metricLabel(m), true})
	}
	return cols
}

func applicationRows(s *Summary, app Application) [][][]span {
	var rows [][][]span
	for _, r := range app.Runs {
		row := [][]span{
			spans(runLabel(app, r) + s.revisionMarker(r.PlanHash)),
			spans(runStatus(r)),
			spans(exitCodeText(r)),
			spans(format.Duration(r.DurationNs)),
		}
		for _, m := range app.Metrics {
			cell := format.Dash
			if v, ok := r.Metrics[m]; ok {
				cell = metricValue(v)
			}
			row = append(row, spans(cell))
		}
		rows = append(rows, row)
	}
	return rows
}

// runLabel names a run within its application: the instance's key
// ("rndrw-1t" of "fileio.rndrw-1t"), or its name when it is the only run.
func runLabel(app Application, r ApplicationRun) string {
	if key, ok := strings.CutPrefix(r.Name, app.Name+"."); ok && key != "" {
		return key
	}
	return orDash(r.Name)
}

func runStatus(r ApplicationRun) string {
	if r.TimedOut {
		return statusText(r.Status) + ", timed out"
	}
	return statusText(r.Status)
}

// exitCodeText is a run's exit status; a format.Dash when the command did not
// run to its end.
func exitCodeText(r ApplicationRun) string {
	if r.ExitCode < 0 {
		return format.Dash
	}
	return fmt.Sprint(r.ExitCode)
}

// commandsTable lists the command of each run of an application, folded
// away on a page.
func commandsTable(d *document, app Application) {
	var rows [][][]span
	for _, r := range app.Runs {
		cmd := spans(format.Dash)
		if len(r.Command) > 0 {
			cmd = []span{mono(strings.Join(r.Command, " "))}
		}
		rows = append(rows, [][]span{spans(runLabel(app, r)), cmd})
	}
	dir := ""
	if r := app.Runs[0]; r.Dir != "" {
		dir = ", in " + r.Dir
	}
	d.details(spans("The command of each run"+dir+"."), []column{{title: "Run"}, {title: "Command"}}, rows)
}

// applicationConclusionRows are the conclusion's rows of the application
// runs that measured something: their headline metrics, mean latency and
// highest latency percentile, padded to width cells.
func applicationConclusionRows(s *Summary, width int) [][]string {
	var rows [][]string
	for _, app := range s.Applications {
		for _, r := range app.Runs {
			if r.Status != results.StatusOK || len(r.Metrics) == 0 {
				continue
			}
			mean, tail, pct := runLatencies(r.Metrics)
			tailText := format.Dash
			if tail != nil {
				tailText = format.Latency(*tail)
				if pct != 99 {
					tailText += " (p" + format.Plain(pct) + ")"
				}
			}
			row := []string{r.Name, app.Drive, headlineMetrics(app, r), format.Dash, latencyText(mean), tailText}
			for len(row) < width {
				row = append(row, "")
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// maxQuoted is how many metrics the conclusion quotes of a run.
const maxQuoted = 2

// headlineMetrics quotes a run's first non-zero rates, "192.5 TPS, 3,849.95
// QPS", or, when the application has no rate, its first metrics that are
// not latencies.
func headlineMetrics(app Application, r ApplicationRun) string {
	names := app.Headline
	if len(names) == 0 {
		names = slices.DeleteFunc(slices.Clone(app.Metrics), func(m string) bool {
			_, latency := parseLatencyMetric(m)
			return latency
		})
	}
	var quoted []string
	for _, name := range names {
		if v, ok := r.Metrics[name]; ok && v != 0 && len(quoted) < maxQuoted {
			quoted = append(quoted, metricValue(v)+" "+metricLabel(name))
		}
	}
	return orDash(strings.Join(quoted, ", "))
}

// outputBlocks shows the last lines of the outputs of the failed
// commands among the problems.
func outputBlocks(d *document, problems []Problem) {
	for _, p := range problems {
		for _, o := range p.Output {
			text := []span{plain(fmt.Sprintf("Output of %s (%s, last %s", orDash(cmp.Or(p.Name, p.StepID)), o.Stream, format.Counted(len(o.Lines), "line")))}
			if o.File != "" {
				text = append(text, plain("; the whole of it is in "), mono(o.File))
			}
			d.para(append(text, plain("):"))...)
			d.code(o.Lines)
		}
	}
}
