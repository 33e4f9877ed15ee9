package reports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/golden"
)

// goldenFiles are the files a case's goldens hold: the rendered files,
// but report.json, which is checked against the schema whole and held in
// parts (golden.SplitJSON), and the PNG charts.
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
		path := filepath.Join(dir, filepath.FromSlash(f.Name))
		if *update {
			if err := golden.Write(path, f.Data); err != nil {
				t.Fatal(err)
			}
		} else if msg := golden.Diff(path, f.Data); msg != "" {
			t.Error(msg)
		}
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
