package reports

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/results"
)

// Report formats, as plans and the command line name them.
const (
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
	FormatHTML     = "html"
)

// Formats lists the formats Render can write, in the order it writes them.
var Formats = []string{FormatMarkdown, FormatJSON, FormatHTML}

// File is one file of a report: its path relative to the results folder
// and its content.
type File struct {
	Name string
	Data []byte
}

// formatFiles maps a format to the report file it writes.
var formatFiles = map[string]struct {
	name  string
	write func(io.Writer, *Summary) error
}{
	FormatMarkdown: {"report.md", WriteMarkdown},
	FormatJSON:     {"report.json", WriteJSON},
	FormatHTML:     {"report.html", WriteHTML},
}

// FileName is the name of the main file a format writes ("report.md"),
// or "" for an unknown format.
func FileName(format string) string { return formatFiles[format].name }

// Render makes the files of a report in the given formats: report.md,
// report.json and report.html, and with Markdown or HTML the chart files
// (charts/<name>.svg, which report.md shows, and charts/<name>.png beside
// each, which both link, for a page or a post that takes no SVG). HTML
// carries its charts inline and needs no other file to be read. Files
// come in a fixed order; the same Summary gives the same bytes. An
// unknown format is an error that lists the known ones.
func Render(s *Summary, formats []string) ([]File, error) {
	var files []File
	for _, f := range Formats {
		if !slices.Contains(formats, f) {
			continue
		}
		out := formatFiles[f]
		var buf bytes.Buffer
		if err := out.write(&buf, s); err != nil {
			return nil, err
		}
		files = append(files, File{Name: out.name, Data: buf.Bytes()})
	}
	if slices.Contains(formats, FormatMarkdown) || slices.Contains(formats, FormatHTML) {
		charts, err := ChartFiles(s)
		if err != nil {
			return nil, err
		}
		files = append(files, charts...)
	}
	for _, f := range formats {
		if !slices.Contains(Formats, f) {
			return nil, fmt.Errorf("report format %q is not supported; use one of %s", f, strings.Join(Formats, ", "))
		}
	}
	return files, nil
}

// ChartFiles draws every chart of the report as an SVG file,
// charts/<name>.svg, and as a PNG beside it, charts/<name>.png, in report
// order.
func ChartFiles(s *Summary) ([]File, error) {
	var files []File
	for _, pc := range planCharts(s) {
		c := pc.draw()
		img, err := c.PNG()
		if err != nil {
			return nil, err
		}
		files = append(files, File{Name: pc.ref.File, Data: c.SVG()}, File{Name: pngFile(pc.ref.File), Data: img})
	}
	return files, nil
}

// pngFile is the name of the PNG beside a chart's SVG file.
func pngFile(svg string) string { return strings.TrimSuffix(svg, ".svg") + ".png" }

// WriteFiles writes report files under dir, each atomically. When they
// include report.md or report.html, which come with their charts, it
// also removes the SVG and PNG files of charts/ that the
// new report does not have, so a report rewritten from fewer results keeps
// no stale chart.
func WriteFiles(dir string, files []File) error {
	keep := map[string]bool{}
	for _, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("write report: %w", err)
		}
		if err := results.WriteFileAtomic(path, f.Data); err != nil {
			return fmt.Errorf("write report: %w", err)
		}
		keep[path] = true
	}
	if !slices.ContainsFunc(files, func(f File) bool {
		return f.Name == formatFiles[FormatMarkdown].name || f.Name == formatFiles[FormatHTML].name
	}) {
		return nil
	}
	var stale []string
	for _, pattern := range []string{"*.svg", "*.png"} {
		found, err := filepath.Glob(filepath.Join(dir, chartsDir, pattern))
		if err != nil {
			return err
		}
		stale = append(stale, found...)
	}
	for _, path := range stale {
		if !keep[path] {
			if err := os.Remove(path); err != nil {
				return fmt.Errorf("remove stale chart: %w", err)
			}
		}
	}
	return nil
}

// Load reads the results folder dir and builds its Summary, with the
// drives' health documents and the sections of the plan's summary hook
// (summary.json). A record, health document or summary.json that cannot
// be read is left out of the report, with a note that says why; it does
// not stop the report.
func Load(dir string) (*Summary, error) {
	folder, err := results.Open(dir)
	if err != nil {
		return nil, err
	}
	recs, unreadable, err := folder.ReadableRecords()
	if err != nil {
		return nil, err
	}
	s := Build(folder.Manifest, append(recs, unreadableSteps(folder, unreadable)...))
	s.manifest, s.records = folder.Manifest, recs
	s.UnreadableRecords = unreadableRecords(folder, unreadable)
	if history, err := folder.History(); err != nil {
		s.Notes = append(s.Notes, "the run history is left out: "+err.Error())
	} else {
		s.setRuns(history, folder.Manifest, recs)
	}
	if aside, err := folder.SetAsideRecords(); err != nil || len(aside) > 0 {
		s.Notes = append(s.Notes, setAsideNote(aside, err))
	}
	if health, err := folder.Health(); err != nil {
		s.Notes = append(s.Notes, "drive health is left out: "+err.Error())
	} else {
		s.SetHealth(health)
	}
	if hook, err := results.ReadSummary(dir); err != nil {
		s.Notes = append(s.Notes, "the summary hook's sections are left out: "+err.Error())
	} else if hook != nil {
		s.SetSummaryHook(hook)
	}
	return s, nil
}
