package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/drivebench/drivebench/reports"
	"github.com/drivebench/drivebench/results"
)

// renderers maps a report format to its file and writer.
var renderers = map[string]struct {
	file  string
	write func(io.Writer, *reports.Summary) error
}{
	"markdown": {"report.md", reports.WriteMarkdown},
	"json":     {"report.json", reports.WriteJSON},
}

// reportFormats are written when the plan does not choose.
var reportFormats = []string{"markdown", "json"}

func reportFiles(formats []string) []string {
	if len(formats) == 0 {
		formats = reportFormats
	}
	var files []string
	for _, f := range formats {
		if r, ok := renderers[f]; ok {
			files = append(files, r.file)
		}
	}
	return files
}

// writeReports renders the reports of a results folder from its records.
func writeReports(dir string, formats []string) error {
	folder, err := results.Open(dir)
	if err != nil {
		return err
	}
	recs, err := folder.Records()
	if err != nil {
		return err
	}
	summary := reports.Build(folder.Manifest, recs)
	if len(formats) == 0 {
		formats = reportFormats
	}
	for _, f := range formats {
		r, ok := renderers[f]
		if !ok {
			return fmt.Errorf("report format %q is not supported; use one of markdown, json", f)
		}
		var buf bytes.Buffer
		if err := r.write(&buf, summary); err != nil {
			return fmt.Errorf("render %s: %w", r.file, err)
		}
		if err := results.WriteFileAtomic(filepath.Join(dir, r.file), buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

func cmdReport(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("report", "DIR", "Rewrite the reports of a results folder from its records alone; the drive is not needed.", io)
	formats := fs.String("format", strings.Join(reportFormats, ","), "comma-separated report formats: markdown, json")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	dir, ok := onePositional(fs, "results folder")
	if !ok {
		return exitUsage
	}
	list := strings.Split(*formats, ",")
	if err := writeReports(dir, list); err != nil {
		fmt.Fprintln(io.err, "drivebench report:", err)
		return exitUsage
	}
	for _, f := range reportFiles(list) {
		fmt.Fprintln(io.out, filepath.Join(dir, f))
	}
	return exitOK
}
