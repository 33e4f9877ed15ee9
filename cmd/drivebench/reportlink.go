package main

import (
	"fmt"
	"net/url"
	"path/filepath"
	"slices"

	"github.com/drivebench/drivebench/reports"
)

// printReportPaths prints where a results folder's reports are, one
// "Report:" line per file the formats wrote, and, when the HTML report is
// among them, an "Open:" line with its file:// URL, which a terminal or an
// editor opens with a click: the first thing to look at after a run.
func printReportPaths(io stdio, dir string, formats []string) {
	for _, f := range reportFiles(formats) {
		fmt.Fprintf(io.out, "Report:  %s\n", filepath.Join(dir, f))
	}
	if len(formats) == 0 {
		formats = defaultFormats
	}
	if !slices.Contains(formats, reports.FormatHTML) {
		return
	}
	if link, err := fileURL(filepath.Join(dir, reports.FileName(reports.FormatHTML))); err == nil {
		fmt.Fprintf(io.out, "Open:    %s\n", hyperlink(link, io.tty))
	}
}

// fileURL is the file:// URL of path, made absolute.
func fileURL(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(), nil
}

// hyperlink writes a URL as itself, marked on a terminal as an OSC 8
// hyperlink (the escape sequence most terminals make clickable and the
// others ignore); elsewhere (a pipe, a CI log) it is the plain URL.
func hyperlink(link string, tty bool) string {
	if !tty {
		return link
	}
	return "\x1b]8;;" + link + "\x1b\\" + link + "\x1b]8;;\x1b\\"
}
