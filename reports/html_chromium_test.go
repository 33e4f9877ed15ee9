package reports

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/browser"
)

// browserCases are the golden cases opened in a browser: the quickstart,
// the first report a user sees; the review fixture; qemu, with folded
// rounds tables, steady state and drive health; vendor-acceptance, with
// the acceptance tables and a summary hook's chart; sysbench-fileio, with
// wide metric tables and command output.
var browserCases = []string{"quickstart", "review", "qemu", "vendor-acceptance", "sysbench-fileio"}

// TestHTMLInChromium opens the HTML reports of browserCases in a real
// headless Chromium as a reviewer would: at a phone's and a desktop's
// size, printed on A4 and in dark mode (where its ground must be dark),
// each page must load with no console message and
// give a screenshot of that size; at a desktop's width and printed, no
// table may be wider than the page (cut, or to be scrolled); and every
// line of every chart must have its legend entry. The screenshots are
// kept in $DRIVEBENCH_ARTIFACTS when it is set.
func TestHTMLInChromium(t *testing.T) {
	browser.Require(t, "the HTML report is not checked in a browser")
	for _, gc := range goldenCases {
		if !slices.Contains(browserCases, gc.name) {
			continue
		}
		t.Run(gc.name, func(t *testing.T) {
			dir := filepath.Join(browser.ArtifactsDir(t, "reports"), gc.name)
			files, err := Render(gc.summary(t), []string{FormatHTML})
			if err != nil {
				t.Fatal(err)
			}
			if err := WriteFiles(dir, files); err != nil {
				t.Fatal(err)
			}
			browser.CheckSelfContained(t, files[0].Data)
			browser.CheckLegends(t, files[0].Data)
			page := filepath.Join(dir, "report.html")
			browser.CheckPage(t, page)
			browser.CheckPrint(t, page)
			browser.CheckDark(t, page)
			// Printed, each section starts a page.
			if sections, pages := strings.Count(string(files[0].Data), "<h2 "), browser.PrintedPages(t, page); pages < sections {
				t.Errorf("printed on %d pages, fewer than its %d sections", pages, sections)
			}
			browser.CheckNoCutTables(t, page)
		})
	}
}

// TestConsoleCheckSeesErrors makes sure the console check is not blind:
// a page whose script fails must be caught.
func TestConsoleCheckSeesErrors(t *testing.T) {
	browser.Require(t, "the console check is not exercised")
	dir := t.TempDir()
	page := filepath.Join(dir, "broken.html")
	html := `<!DOCTYPE html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>` +
		`<body><p>broken</p><script>notDefined();</script></body></html>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	log := browser.Open(t, page, filepath.Join(dir, "broken.png"), 390, 844)
	if msgs := browser.ConsoleMessages(log); len(msgs) == 0 || !strings.Contains(msgs[0], "notDefined") {
		t.Errorf("the failing script went unnoticed; console messages: %q", msgs)
	}
}
