package termview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/reports"
	"github.com/drivebench/drivebench/results"
)

// The closing table is every step's headline once the run is over, as
// fio's and k6's end-of-test summaries: its status, IOPS, bandwidth, p50
// and p99 over both directions, its verdicts and the words of its
// warnings, so the results are on screen without opening the report.

// cell is one table cell: its text and the colour it is painted in.
type cell struct {
	text, color string
}

// Table writes the closing table of the run's records.
func (v *View) Table(recs []*results.Record) {
	if len(recs) == 0 {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	unit := "MB/s"
	if v.opt.Units == "MiB/s" {
		unit = "MiB/s"
	}
	recs = v.inPlanOrder(recs)
	rows := [][]cell{{{"step", ""}, {"status", ""}, {"IOPS", ""}, {unit, ""}, {"p50", ""}, {"p99", ""}, {"verdicts", ""}, {"warnings", ""}}}
	for _, r := range recs {
		rows = append(rows, v.tableRow(r))
	}
	v.cutNames(rows)
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], len([]rune(c.text)))
		}
	}
	var b strings.Builder
	b.WriteString("\n")
	for n, row := range rows {
		b.WriteString(strings.TrimRight(v.tableLine(row, widths), " ") + "\n")
		if n == 0 {
			b.WriteString(strings.Repeat("─", lineWidth(widths)) + "\n")
		}
	}
	v.w.Write([]byte(b.String()))
}

// inPlanOrder sorts records by their steps' places in the plan: lanes
// in parallel finish in any order, the table reads as the plan.
func (v *View) inPlanOrder(recs []*results.Record) []*results.Record {
	place := map[string]int{}
	for i, n := range v.opt.Graph.Nodes {
		place[n.ID] = i
	}
	sorted := slices.Clone(recs)
	slices.SortStableFunc(sorted, func(a, b *results.Record) int { return place[a.StepID] - place[b.StepID] })
	return sorted
}

// numeric are the columns aligned right.
var numeric = []int{2, 3, 4, 5}

func (v *View) tableLine(row []cell, widths []int) string {
	var b strings.Builder
	for i, c := range row {
		pad := strings.Repeat(" ", widths[i]-len([]rune(c.text)))
		if slices.Contains(numeric, i) {
			b.WriteString(pad + v.paint(c.color, c.text))
		} else {
			b.WriteString(v.paint(c.color, c.text) + pad)
		}
		if i < len(row)-1 {
			b.WriteString("  ")
		}
	}
	return b.String()
}

func lineWidth(widths []int) int {
	n := 2 * (len(widths) - 1)
	for _, w := range widths {
		n += w
	}
	return n
}

// cutNames shortens, on a terminal, the step names (keeping at least 24
// columns of them), then the warnings, the last column, so a row fits
// the width; a log keeps them whole.
func (v *View) cutNames(rows [][]cell) {
	if !v.opt.Live {
		return
	}
	last := len(rows[0]) - 1
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], len([]rune(c.text)))
		}
	}
	others := 2 * last
	for _, w := range widths[1:last] {
		others += w
	}
	room := max(v.width()-1-others-min(widths[last], len("warnings")), 24)
	for _, row := range rows {
		row[0].text = cutMiddle(row[0].text, room)
	}
	room = max(v.width()-1-others-min(widths[0], room), len("warnings"))
	for _, row := range rows {
		row[last].text = cut(row[last].text, room+1)
	}
}

// tableRow is a record's row.
func (v *View) tableRow(r *results.Record) []cell {
	status := cell{r.Status, ""}
	if r.Status == results.StatusFailed || r.Status == results.StatusInterrupted {
		status.color = red
	}
	row := []cell{{r.Name, ""}, status}
	h := headline{}
	if r.Result != nil {
		h = headlineOf(r.Result)
	}
	if h.ios == 0 {
		row = append(row, cell{format.Dash, ""}, cell{format.Dash, ""}, cell{format.Dash, ""}, cell{format.Dash, ""})
	} else {
		p50, p99 := format.Dash, format.Dash
		if h.p99 > 0 {
			p50, p99 = format.Latency(h.p50), format.Latency(h.p99)
		}
		bw := format.MBps(h.bw)
		if v.opt.Units == "MiB/s" {
			bw = format.MiBps(h.bw)
		}
		row = append(row, cell{format.Count(h.iops), ""}, cell{bw, ""}, cell{p50, ""}, cell{p99, ""})
	}
	return append(row, verdictCell(r.Verdicts), warningCell(r.Warnings))
}

// verdictCell counts the verdicts, painted by the worst: "2 pass, 1
// fail".
func verdictCell(vs []results.Verdict) cell {
	var c cell
	for _, p := range verdictParts(vs) {
		c.text = strings.TrimPrefix(c.text+", "+p.text, ", ")
		c.color = p.color
	}
	return c
}

// verdictParts count the verdicts by status, best to worst, each in its
// colour.
func verdictParts(vs []results.Verdict) []cell {
	n := map[string]int{}
	for _, vd := range vs {
		n[vd.Status]++
	}
	var parts []cell
	for _, st := range []string{results.VerdictPass, results.VerdictWarn, results.VerdictFail, results.VerdictError} {
		if n[st] > 0 {
			parts = append(parts, cell{fmt.Sprintf("%d %s", n[st], st), verdictColor[st]})
		}
	}
	return parts
}

// warningCell names the kinds of a step's warnings in the report's words.
func warningCell(ws []results.Warning) cell {
	var words []string
	for _, w := range ws {
		if s := reports.WarningWords(w.Kind); !slices.Contains(words, s) {
			words = append(words, s)
		}
	}
	if len(words) == 0 {
		return cell{}
	}
	return cell{"⚠ " + strings.Join(words, ", "), yellow}
}

// cutMiddle shortens a step's name to width columns in its middle,
// "scratch / 4k-ran…iodepth=16": its drive and its point, at the ends,
// tell the rows apart.
func cutMiddle(s string, width int) string {
	r := []rune(s)
	if len(r) <= width {
		return s
	}
	tail := (width - 1) * 3 / 5
	return string(r[:width-1-tail]) + "…" + string(r[len(r)-tail:])
}
