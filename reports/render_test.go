package reports

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/plot"
)

func TestRenderFormats(t *testing.T) {
	s := mustLoad(t, "quickstart")
	files, err := Render(s, []string{"json"})
	if err != nil || len(files) != 1 || files[0].Name != "report.json" {
		t.Errorf("Render(json) = %d files, %v; want report.json alone", len(files), err)
	}
	files, _ = Render(s, []string{"html", "markdown"})
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	want := []string{"report.md", "report.html",
		"charts/4k-random-read-sweep-iops.svg", "charts/4k-random-read-sweep-iops.png",
		"charts/4k-random-read-sweep-latency.svg", "charts/4k-random-read-sweep-latency.png",
		"charts/4k-random-read-percentiles.svg", "charts/4k-random-read-percentiles.png"}
	if !slices.Equal(names, want) {
		t.Errorf("files = %v, want %v", names, want)
	}
	if files, _ = Render(s, []string{"html"}); len(files) != 7 {
		t.Errorf("Render(html) = %d files, want report.html and its charts, 7", len(files))
	}
	if _, err := Render(s, []string{"markdown", "pdf"}); err == nil || !strings.Contains(err.Error(), `"pdf" is not supported; use one of markdown, json, html`) {
		t.Errorf("unknown format: %v", err)
	}
}

// TestWriteFilesRemovesStaleCharts rewrites a report from fewer results:
// the charts it no longer has must go, other files stay.
func TestWriteFilesRemovesStaleCharts(t *testing.T) {
	dir := t.TempDir()
	review := mustLoad(t, "review")
	files, _ := Render(review, Formats)
	if err := WriteFiles(dir, files); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(dir, "charts", "notes.txt")
	if err := os.WriteFile(keep, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, _ = Render(mustLoad(t, "quickstart"), Formats)
	if err := WriteFiles(dir, files); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{"svg", "png"} {
		charts, _ := filepath.Glob(filepath.Join(dir, "charts", "*."+ext))
		if len(charts) != 3 {
			t.Errorf("charts after the rewrite: %v, want the quickstart's 3", charts)
		}
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("a file that is not a chart was removed: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Name)))
		if err != nil || string(data) != string(f.Data) {
			t.Errorf("%s was not written as rendered (%v)", f.Name, err)
		}
	}
}

func TestAddComparable(t *testing.T) {
	s := mustLoad(t, "review")
	s.AddComparable("", mustLoad(t, "review-cd6"))
	s.AddComparable("", mustLoad(t, "review"))
	if got := []string{s.Comparables[0].Name, s.Comparables[1].Name}; !slices.Equal(got, []string{"review", "review 2"}) {
		t.Errorf("comparable names = %v, want the plan's name, numbered", got)
	}
	other, same := s.Comparables[0], s.Comparables[1]
	if other.SameTestbed || !same.SameTestbed || len(same.Differences) != 0 {
		t.Errorf("same testbed: cd6 %v, review %v %v", other.SameTestbed, same.SameTestbed, same.Differences)
	}
	wantDiffs := []string{
		"testbed lab-sr635 (this run: lab-r760)",
		"cpu: 1x AMD EPYC 7452 (this run: 2x Intel Xeon Gold 6430)",
		"memory: 512 GB DDR4-3200 (this run: 1 TB DDR5-4400)",
		"server: Lenovo ThinkSystem SR635 (this run: Dell PowerEdge R760)",
	}
	if !slices.Equal(other.Differences, wantDiffs) {
		t.Errorf("differences = %q\nwant %q", other.Differences, wantDiffs)
	}
	sec := s.Sections[0]
	var order []string
	for _, r := range sec.Ranking {
		order = append(order, rankLabel(r))
	}
	// Beside other runs' drives, each is named by who it is.
	cm9, cd6 := "cm9 (KIOXIA KCM9XRJE15T3, S/N X4E0A01ZT1A8, FW 0102", "cd6 (KIOXIA KCD6XLUL7T68, FW GPK6"
	if want := []string{cm9 + ")", cm9 + "; review 2)", cd6 + "; review) †"}; !slices.Equal(order, want) {
		t.Errorf("ranking = %v, want %v", order, want)
	}
	if want := cm9 + ") leads the 3 drives by peak IOPS, 0.0% ahead of " + cm9 + "; review 2)."; sec.Highlight != want {
		t.Errorf("highlight = %q, want %q", sec.Highlight, want)
	}
	_, md := renderSummary(t, s)
	if !strings.Contains(md, "| 4k-random-read | "+cm9+") | 1,973,400 IOPS | rate=max | 129.7 µs | 311.3 µs | 1 of 3 |\n") {
		t.Errorf("the conclusion lacks the ranked headline:\n%s", md)
	}
}

func TestRankingSentenceBehind(t *testing.T) {
	ranks := []Rank{
		{Rank: 1, Drive: "cd6", Run: "old", Total: Figures{IOPS: 1200}, OtherTestbed: true},
		{Rank: 2, Drive: "nvme0", Total: Figures{IOPS: 1000}},
	}
	want := "nvme0 ranks 2nd of 2 by peak IOPS, 16.7% behind cd6 (old) †."
	if got := rankingSentence(ranks, headlineIOPS); got != want {
		t.Errorf("sentence = %q, want %q", got, want)
	}
	if got := rankingSentence(ranks[:1], headlineIOPS); got != "" {
		t.Errorf("one drive gave %q", got)
	}
}

// TestChartPNGs: every chart written as SVG has its PNG beside it, twice
// its size, which the HTML report links with its SVG.
func TestChartPNGs(t *testing.T) {
	svgWidth := regexp.MustCompile(`^<svg [^>]*width="(\d+)" height="([\d.]+)"`)
	for _, gc := range goldenCases {
		t.Run(gc.name, func(t *testing.T) {
			files, err := Render(gc.summary(t), []string{FormatHTML})
			if err != nil {
				t.Fatal(err)
			}
			page := string(files[0].Data)
			written := map[string][]byte{}
			for _, f := range files[1:] {
				written[f.Name] = f.Data
			}
			svgs := 0
			for name, data := range written {
				if !strings.HasSuffix(name, ".svg") {
					continue
				}
				svgs++
				img, err := png.Decode(bytes.NewReader(written[pngFile(name)]))
				if err != nil {
					t.Errorf("%s: no PNG beside it: %v", name, err)
					continue
				}
				m := svgWidth.FindSubmatch(data)
				w, _ := strconv.Atoi(string(m[1]))
				h, _ := strconv.ParseFloat(string(m[2]), 64)
				if b := img.Bounds(); b.Dx() != w*plot.PNGScale || b.Dy() != int(math.Ceil(h*plot.PNGScale)) {
					t.Errorf("%s is %dx%d, want twice the SVG's %sx%s", pngFile(name), b.Dx(), b.Dy(), m[1], m[2])
				}
				for _, link := range []string{`<a href="` + pngFile(name) + `">PNG</a>`, `<a href="` + name + `">SVG</a>`} {
					if !strings.Contains(page, link) {
						t.Errorf("report.html lacks %s", link)
					}
				}
			}
			if svgs == 0 && strings.Contains(page, "<figure>") {
				t.Error("report.html has figures but no chart file was written")
			}
		})
	}
}
