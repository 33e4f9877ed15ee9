package main

import (
	"bytes"
	"path/filepath"
	"testing"
)

// TestPrintReportPaths: the HTML report's path is printed as a file://
// URL, an OSC 8 hyperlink on a terminal and plain text elsewhere, and
// not at all when the formats leave HTML out.
func TestPrintReportPaths(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run 1")
	escaped := "file://" + filepath.ToSlash(filepath.Dir(dir)) + "/run%201/report.html"
	tests := []struct {
		name    string
		formats []string
		tty     bool
		want    string
	}{
		{"pipe", nil, false, "Report:  " + dir + "/report.md\nReport:  " + dir + "/report.json\nReport:  " + dir + "/report.html\nOpen:    " + escaped + "\n"},
		{"terminal", []string{"html"}, true, "Report:  " + dir + "/report.html\nOpen:    \x1b]8;;" + escaped + "\x1b\\" + escaped + "\x1b]8;;\x1b\\\n"},
		{"no html", []string{"markdown", "json"}, true, "Report:  " + dir + "/report.md\nReport:  " + dir + "/report.json\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			printReportPaths(stdio{out: &out, tty: tt.tty}, dir, tt.formats)
			if out.String() != tt.want {
				t.Errorf("got\n%q\nwant\n%q", out.String(), tt.want)
			}
		})
	}
}
