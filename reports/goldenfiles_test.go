package reports

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/golden"
)

// styleGolden is the style sheet every report.html embeds, held once for
// all cases so that a change to it is one diff: the golden pages hold
// styleMarker in its place.
var styleGolden = filepath.Join("testdata", "golden", "style.css")

const styleMarker = "/* testdata/golden/style.css */\n"

// goldenFiles are the files a case's goldens hold: the rendered files,
// but report.json, which is checked against the schema whole and held in
// parts (golden.SplitJSON), report.html, whose style sheet is checked
// against styleGolden and held as styleMarker, and the PNG charts.
func goldenFiles(t *testing.T, files []File) []golden.File {
	t.Helper()
	var out []golden.File
	for _, f := range files {
		switch {
		case strings.HasSuffix(f.Name, ".png"):
			// checked by its properties (TestChartPNGs), not its bytes
		case f.Name == "report.json":
			validateReport(t, f.Data)
			parts, err := golden.SplitJSON("report", f.Data)
			if err != nil {
				t.Fatalf("report.json: %v", err)
			}
			out = append(out, parts...)
		case f.Name == "report.html":
			page, style, ok := cutStyle(f.Data)
			if !ok {
				t.Fatal("report.html has no <style> element to hold as " + styleGolden)
			}
			checkGolden(t, styleGolden, style)
			out = append(out, golden.File{Name: f.Name, Data: page})
		default:
			out = append(out, golden.File{Name: f.Name, Data: f.Data})
		}
	}
	return out
}

// checkGoldenDir compares files with the golden files under dir: a file
// that differs, one missing and one no longer written fail the test;
// -update rewrites the goldens and removes those no longer written.
func checkGoldenDir(t *testing.T, dir string, files []golden.File) {
	t.Helper()
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
		checkGolden(t, filepath.Join(dir, filepath.FromSlash(f.Name)), f.Data)
	}
	stale, err := golden.Stale(dir, names)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range stale {
		if *update {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s is no longer written (run go test -update to remove it)", path)
	}
}

// checkGolden compares data with the golden file at path, or rewrites it
// under -update.
func checkGolden(t *testing.T, path string, data []byte) {
	t.Helper()
	if *update {
		if err := golden.Write(path, data); err != nil {
			t.Fatal(err)
		}
	} else if msg := golden.Diff(path, data); msg != "" {
		t.Error(msg)
	}
}

// cutStyle takes the style sheet out of a page: the page with styleMarker
// as its <style> element's content, and that content.
func cutStyle(page []byte) (marked, style []byte, ok bool) {
	head, rest, ok := bytes.Cut(page, []byte("<style>\n"))
	if !ok {
		return nil, nil, false
	}
	style, tail, ok := bytes.Cut(rest, []byte("</style>"))
	if !ok {
		return nil, nil, false
	}
	marked = slices.Concat(head, []byte("<style>\n"+styleMarker+"</style>"), tail)
	return marked, style, true
}
