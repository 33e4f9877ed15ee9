// Package browser loads HTML pages in a real headless Chromium for tests:
// the pages drivebench writes (run reports, the catalog's fleet page) must
// load with no console message and draw something at a phone's and a
// desktop's size, printed and in dark mode, and must be self-contained.
// It looks at them as a reviewer would: a script measures, at a desktop's
// width and printed, that no table is wider than the page (cut, or to be
// scrolled), and every line of every chart must have its legend entry.
// Chromium is driven by its command line (--screenshot, --dump-dom), with
// no protocol client to depend on. It is for tests only.
package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/drivebench/drivebench/internal/testenv"
)

// Path is where Debian's chromium package installs the browser.
const Path = "/usr/bin/chromium"

// Require ends the test when Chromium is absent (testenv.Require): what
// says what then goes unchecked.
func Require(t *testing.T, what string) {
	t.Helper()
	if _, err := os.Stat(Path); err != nil {
		testenv.Require(t, "Chromium", "%s is absent (apt-get install chromium; ./test.sh installs it): %s", Path, what)
	}
}

// CheckPage loads page at a phone's and a desktop's size: it must load
// with no console message and give a screenshot of that size, kept beside
// the page as <name>-phone.png and <name>-desktop.png.
func CheckPage(t *testing.T, page string) {
	t.Helper()
	base := strings.TrimSuffix(filepath.Base(page), filepath.Ext(page))
	for _, size := range []struct {
		name          string
		width, height int
	}{{"phone", 390, 844}, {"desktop", 1280, 900}} {
		t.Run(size.name, func(t *testing.T) {
			shot := filepath.Join(filepath.Dir(page), base+"-"+size.name+".png")
			log := Open(t, page, shot, size.width, size.height)
			if msgs := ConsoleMessages(log); len(msgs) > 0 {
				t.Errorf("the page logged to the console:\n%s", strings.Join(msgs, "\n"))
			}
			CheckScreenshot(t, shot, size.width, size.height)
			t.Logf("screenshot: %s", shot)
		})
	}
}

// Open loads page in headless Chromium, writes a screenshot of the given
// size to shot and returns the browser's log. A browser that fails to run
// at all (it has crashed on a loaded machine before drawing anything) gets
// one more try; the page's own messages are judged from the log either way.
func Open(t *testing.T, page, shot string, width, height int, flags ...string) string {
	t.Helper()
	log, err := launch(t, page, shot, width, height, flags)
	if err != nil {
		t.Logf("chromium failed, trying once more: %v\n%s", err, log)
		log, err = launch(t, page, shot, width, height, flags)
	}
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, log)
	}
	return log
}

// launch runs Chromium once on page.
func launch(t *testing.T, page, shot string, width, height int, flags []string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, Path,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-crash-reporter", "--enable-logging=stderr", "--v=0",
		"--user-data-dir="+t.TempDir(), "--screenshot="+shot,
		"--window-size="+strconv.Itoa(width)+","+strconv.Itoa(height))
	cmd.Args = append(append(cmd.Args, flags...), "file://"+page)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	err := cmd.Run()
	return log.String(), err
}

// consoleLine matches what Chromium logs for a console message or an
// uncaught exception of the page.
var consoleLine = regexp.MustCompile(`:CONSOLE[(:]|Uncaught`)

// ConsoleMessages picks the page's console messages out of the log.
func ConsoleMessages(log string) []string {
	var msgs []string
	for _, line := range strings.Split(log, "\n") {
		if consoleLine.MatchString(line) {
			msgs = append(msgs, line)
		}
	}
	return msgs
}

// CheckSelfContained fails when the page could load anything from
// elsewhere or run a script. A link the reader may follow to a file
// beside the page (<a href="charts/x.png">) loads nothing and is allowed;
// one to another site is not.
func CheckSelfContained(t *testing.T, page []byte) {
	t.Helper()
	text := string(page)
	if strings.Contains(text, "<script") {
		t.Error("the page holds a script")
	}
	for _, m := range regexp.MustCompile(`<(\w+)[^>]*?\s(?:src|href)="([^"]*)"`).FindAllStringSubmatch(text, -1) {
		tag, ref := m[1], m[2]
		switch {
		case strings.HasPrefix(ref, "data:"), strings.HasPrefix(ref, "#"):
		case tag == "a" && !strings.Contains(ref, ":") && !strings.HasPrefix(ref, "/"):
		default:
			t.Errorf("the page refers to %q", ref)
		}
	}
	if strings.Contains(text, "url(") || strings.Contains(text, "@import") {
		t.Error("the style sheet loads something")
	}
}

// CheckScreenshot fails unless shot is a PNG of the given size with a
// page drawn on it (more than a handful of colours).
func CheckScreenshot(t *testing.T, shot string, width, height int) {
	t.Helper()
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != width || b.Dy() != height {
		t.Errorf("screenshot is %dx%d, want %dx%d", b.Dx(), b.Dy(), width, height)
	}
	colours := map[[3]uint32]bool{}
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y += 4 {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x += 4 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r, g, b}] = true
		}
	}
	if len(colours) < 8 {
		t.Errorf("the screenshot is nearly blank: %d colours", len(colours))
	}
}

// ArtifactsDir is $DRIVEBENCH_ARTIFACTS/<sub> when that is set, where CI
// keeps files for people to look at, or a temporary folder.
func ArtifactsDir(t *testing.T, sub string) string {
	t.Helper()
	root := os.Getenv("DRIVEBENCH_ARTIFACTS")
	if root == "" {
		return t.TempDir()
	}
	dir := filepath.Join(root, sub)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// layoutScript measures the page as it is laid out: every table wider
// than the box it sits in (a table cut at the right, or one that must be
// scrolled to be read whole), named by the heading above it and by how
// many pixels it overflows. It writes what it found into the page, for
// --dump-dom to carry out.
const layoutScript = `<script>
(function () {
  var page = document.documentElement.clientWidth, out = [];
  document.querySelectorAll("table").forEach(function (t, i) {
    var box = t.parentElement, heading = "", el = t;
    while (el && !heading) {
      for (var p = el.previousElementSibling; p && !heading; p = p.previousElementSibling) {
        if (/^H[1-6]$/.test(p.tagName)) heading = p.textContent.trim();
      }
      el = el.parentElement;
    }
    var over = Math.max(box.scrollWidth - box.clientWidth, Math.ceil(t.getBoundingClientRect().right) - page);
    if (over > 1) out.push("table " + (i + 1) + " under \"" + heading + "\": " + over + " px wider than its box");
  });
  var pre = document.createElement("pre");
  pre.id = "drivebench-layout";
  pre.textContent = JSON.stringify({tables: document.querySelectorAll("table").length, cut: out});
  document.body.appendChild(pre);
})();
</script>`

// Layout is what layoutScript measured of a page.
type Layout struct {
	Tables int      `json:"tables"`
	Cut    []string `json:"cut"`
}

// MeasureLayout loads a copy of page in headless Chromium at the given
// width and measures its tables. With print set, the page's print style
// sheet is applied as a printer would (its @media print rules made to
// hold on screen), at the width of an A4 page's printable area.
func MeasureLayout(t *testing.T, page string, width int, print bool) Layout {
	t.Helper()
	copyPath := pageCopy(t, page, print, layoutScript)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, Path,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-crash-reporter", "--user-data-dir="+t.TempDir(),
		"--window-size="+strconv.Itoa(width)+",900", "--dump-dom", "file://"+copyPath)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v\n%s", err, stderr.String())
	}
	m := regexp.MustCompile(`<pre id="drivebench-layout">([^<]*)</pre>`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the layout script left no result in the page; chromium said:\n%s", stderr.String())
	}
	var l Layout
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &l); err != nil {
		t.Fatalf("the layout script's result %q: %v", m[1], err)
	}
	return l
}

// pageCopy writes a copy of page into a temporary folder, with its print
// style sheet applied on screen when print is set (its @media print rules
// made to hold everywhere, after the screen's as in print) and script
// added at the end of its body, and returns the copy's path.
func pageCopy(t *testing.T, page string, print bool, script string) string {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if print {
		text = strings.ReplaceAll(text, "@media print", "@media all")
	}
	text = strings.Replace(text, "</body>", script+"</body>", 1)
	copyPath := filepath.Join(t.TempDir(), filepath.Base(page))
	if err := os.WriteFile(copyPath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return copyPath
}

// CheckPrint takes a screenshot of page as printed on A4 (PrintWidth
// wide, its print style sheet applied), kept beside it as
// <name>-print.png, which must show a page.
func CheckPrint(t *testing.T, page string) {
	t.Helper()
	base := strings.TrimSuffix(filepath.Base(page), filepath.Ext(page))
	shot := filepath.Join(filepath.Dir(page), base+"-print.png")
	const height = 1400
	Open(t, pageCopy(t, page, true, ""), shot, PrintWidth, height)
	CheckScreenshot(t, shot, PrintWidth, height)
	t.Logf("print screenshot: %s", shot)
}

// pdfPage is a page object of the PDF Chromium prints.
var pdfPage = regexp.MustCompile(`/Type /Page\b[^s]`)

// PrintedPages prints page to PDF with Chromium, on A4 with the page's
// own print style sheet, kept beside it as <name>.pdf, and returns how
// many pages it printed on.
func PrintedPages(t *testing.T, page string) int {
	t.Helper()
	pdf := strings.TrimSuffix(page, filepath.Ext(page)) + ".pdf"
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, Path,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-crash-reporter", "--user-data-dir="+t.TempDir(),
		"--no-pdf-header-footer", "--print-to-pdf="+pdf, "file://"+page)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium --print-to-pdf: %v\n%s", err, out)
	}
	data, err := os.ReadFile(pdf)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("printed: %s", pdf)
	return len(pdfPage.FindAll(data, -1))
}

// CheckDark takes a screenshot of page with the reader's system in dark
// mode, kept beside it as <name>-dark.png: the page's ground must be dark
// and it must show a page.
func CheckDark(t *testing.T, page string) {
	t.Helper()
	base := strings.TrimSuffix(filepath.Base(page), filepath.Ext(page))
	shot := filepath.Join(filepath.Dir(page), base+"-dark.png")
	const width, height = 1280, 900
	Open(t, page, shot, width, height, "--force-dark-mode", "--blink-settings=preferredColorScheme=0")
	CheckScreenshot(t, shot, width, height)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if r, g, b, _ := img.At(4, height-4).RGBA(); r>>8+g>>8+b>>8 > 3*64 {
		t.Errorf("in dark mode the page's ground is #%02x%02x%02x, not dark", r>>8, g>>8, b>>8)
	}
	t.Logf("dark screenshot: %s", shot)
}

// PrintWidth is the width in CSS pixels of an A4 page's printable area
// with the margins of the pages' print style sheets (210 mm less 2 x 12 mm).
const PrintWidth = 703

// CheckNoCutTables fails when a table of page is wider than its box at
// a desktop's width (1280) or printed, and when the page has no table.
func CheckNoCutTables(t *testing.T, page string) {
	t.Helper()
	for _, c := range []struct {
		name  string
		width int
		print bool
	}{{"desktop", 1280, false}, {"print", PrintWidth, true}} {
		l := MeasureLayout(t, page, c.width, c.print)
		if l.Tables == 0 {
			t.Errorf("%s: the page has no table to measure", c.name)
		}
		for _, cut := range l.Cut {
			t.Errorf("%s (%d px): %s", c.name, c.width, cut)
		}
	}
}

// svgChart, polyline, legendLine and barRect pick the charts of a page,
// their lines, their legends' line keys and their bars (package plot's
// SVG).
var (
	svgChart   = regexp.MustCompile(`(?s)<svg .*?</svg>`)
	polyline   = regexp.MustCompile(`<polyline [^>]*stroke="([^"]+)"[^>]*?( stroke-dasharray="[^"]*")?/>`)
	legendLine = regexp.MustCompile(`<line [^>]*stroke="([^"]+)" stroke-width="2"( stroke-dasharray="[^"]*")?/>`)
	chartTitle = regexp.MustCompile(`<title>([^<]*)</title>`)
)

// CheckLegends fails when a chart of page draws a line whose colour and
// dash no legend entry of that chart shows, so a reader cannot tell what
// the line is; it returns how many charts it checked.
func CheckLegends(t *testing.T, page []byte) int {
	t.Helper()
	charts := svgChart.FindAll(page, -1)
	for _, svg := range charts {
		keys := map[string]bool{}
		for _, m := range legendLine.FindAllSubmatch(svg, -1) {
			keys[string(m[1])+string(m[2])] = true
		}
		title := ""
		if m := chartTitle.FindSubmatch(svg); m != nil {
			title = string(m[1])
		}
		for _, m := range polyline.FindAllSubmatch(svg, -1) {
			if !keys[string(m[1])+string(m[2])] {
				t.Errorf("chart %q: a line drawn in %s%s has no legend entry", title, m[1], m[2])
			}
		}
	}
	return len(charts)
}
