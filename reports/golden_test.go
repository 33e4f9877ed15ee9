package reports

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/results"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// loadRun reads a results folder the way the report command does.
func loadRun(t testing.TB, dir string) (*results.Manifest, []*results.Record) {
	t.Helper()
	f, err := results.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := f.Records()
	if err != nil {
		t.Fatal(err)
	}
	return f.Manifest, recs
}

var renderers = []struct {
	ext   string
	write func(io.Writer, *Summary) error
}{
	{"md", WriteMarkdown},
	{"json", WriteJSON},
}

// TestGolden renders the fixture runs under testdata/ and compares them
// with testdata/<run>.report.md and .json; -update rewrites those files.
func TestGolden(t *testing.T) {
	for _, run := range []string{"quickstart"} {
		m, recs := loadRun(t, filepath.Join("testdata", run))
		s := Build(m, recs)
		for _, r := range renderers {
			t.Run(run+"."+r.ext, func(t *testing.T) {
				var got bytes.Buffer
				if err := r.write(&got, s); err != nil {
					t.Fatal(err)
				}
				compareGolden(t, filepath.Join("testdata", run+".report."+r.ext), got.Bytes())
			})
		}
	}
}

func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gotLines, wantLines := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gotLines), len(wantLines)) {
		g, w := lineAt(gotLines, i), lineAt(wantLines, i)
		if g != w {
			t.Fatalf("%s differs at line %d (run go test -update if the change is intended):\ngot:  %q\nwant: %q", path, i+1, g, w)
		}
	}
}

func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "<end of file>"
}

// TestBuildIgnoresRecordOrder checks that the manifest, not the order the
// records arrive in, orders the report.
func TestBuildIgnoresRecordOrder(t *testing.T) {
	m, recs := loadRun(t, filepath.Join("testdata", "quickstart"))
	var inOrder, reversed bytes.Buffer
	if err := WriteJSON(&inOrder, Build(m, recs)); err != nil {
		t.Fatal(err)
	}
	slices.Reverse(recs)
	if err := WriteJSON(&reversed, Build(m, recs)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(inOrder.Bytes(), reversed.Bytes()) {
		t.Error("the report changed when the records came in reverse order")
	}
}
