package reports

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// chromiumPath is where Debian's chromium package installs the browser.
const chromiumPath = "/usr/bin/chromium"

// browserCases are the golden cases opened in a browser: the review
// fixture; qemu, with folded rounds tables and drive health;
// vendor-acceptance, with the acceptance tables and a summary hook's
// chart; sysbench-fileio, with wide metric tables and command output.
var browserCases = []string{"review", "qemu", "vendor-acceptance", "sysbench-fileio"}

// TestHTMLInChromium opens the HTML reports of browserCases in a real
// headless Chromium at a phone's and a desktop's size: each page must
// load with no console message and give a screenshot of that size. The
// screenshots are kept in $DRIVEBENCH_ARTIFACTS when it is set.
func TestHTMLInChromium(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("%s is absent (apt-get install chromium): the HTML report is not checked in a browser", chromiumPath)
	}
	for _, gc := range goldenCases {
		if !slices.Contains(browserCases, gc.name) {
			continue
		}
		t.Run(gc.name, func(t *testing.T) {
			dir := filepath.Join(artifactsDir(t), gc.name)
			files, err := Render(gc.summary(t), []string{FormatHTML})
			if err != nil {
				t.Fatal(err)
			}
			if err := WriteFiles(dir, files); err != nil {
				t.Fatal(err)
			}
			checkSelfContained(t, files[0].Data)
			checkInChromium(t, filepath.Join(dir, "report.html"))
		})
	}
}

// checkInChromium loads page at a phone's and a desktop's size.
func checkInChromium(t *testing.T, page string) {
	for _, size := range []struct {
		name          string
		width, height int
	}{{"phone", 390, 844}, {"desktop", 1280, 900}} {
		t.Run(size.name, func(t *testing.T) {
			shot := filepath.Join(filepath.Dir(page), "report-"+size.name+".png")
			log := openInChromium(t, page, shot, size.width, size.height)
			if msgs := consoleMessages(log); len(msgs) > 0 {
				t.Errorf("the page logged to the console:\n%s", strings.Join(msgs, "\n"))
			}
			checkScreenshot(t, shot, size.width, size.height)
			t.Logf("screenshot: %s", shot)
		})
	}
}

// TestConsoleCheckSeesErrors makes sure the console check is not blind:
// a page whose script fails must be caught.
func TestConsoleCheckSeesErrors(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("%s is absent: the console check is not exercised", chromiumPath)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "broken.html")
	html := `<!DOCTYPE html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>` +
		`<body><p>broken</p><script>notDefined();</script></body></html>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	log := openInChromium(t, page, filepath.Join(dir, "broken.png"), 390, 844)
	if msgs := consoleMessages(log); len(msgs) == 0 || !strings.Contains(msgs[0], "notDefined") {
		t.Errorf("the failing script went unnoticed; console messages: %q", msgs)
	}
}

// artifactsDir is $DRIVEBENCH_ARTIFACTS/reports when set, where CI keeps
// files for people to look at, or a temporary folder.
func artifactsDir(t *testing.T) string {
	root := os.Getenv("DRIVEBENCH_ARTIFACTS")
	if root == "" {
		return t.TempDir()
	}
	dir := filepath.Join(root, "reports")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// openInChromium loads page in headless Chromium, writes a screenshot of
// the given size to shot and returns the browser's log.
func openInChromium(t *testing.T, page, shot string, width, height int) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromiumPath,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--enable-logging=stderr", "--v=0",
		"--user-data-dir="+t.TempDir(), "--screenshot="+shot,
		"--window-size="+strconv.Itoa(width)+","+strconv.Itoa(height),
		"file://"+page)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, log.String())
	}
	return log.String()
}

// consoleLine matches what Chromium logs for a console message or an
// uncaught exception of the page.
var consoleLine = regexp.MustCompile(`:CONSOLE[(:]|Uncaught`)

func consoleMessages(log string) []string {
	var msgs []string
	for _, line := range strings.Split(log, "\n") {
		if consoleLine.MatchString(line) {
			msgs = append(msgs, line)
		}
	}
	return msgs
}

// checkSelfContained fails when the page could load anything from
// elsewhere or run a script.
func checkSelfContained(t *testing.T, page []byte) {
	t.Helper()
	text := string(page)
	if strings.Contains(text, "<script") {
		t.Error("the HTML report holds a script")
	}
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(text, -1) {
		if !strings.HasPrefix(m[1], "data:") && !strings.HasPrefix(m[1], "#") {
			t.Errorf("the HTML report refers to %q", m[1])
		}
	}
	if strings.Contains(text, "url(") || strings.Contains(text, "@import") {
		t.Error("the style sheet loads something")
	}
}

// checkScreenshot fails unless shot is a PNG of the given size with a
// page drawn on it (more than a handful of colours).
func checkScreenshot(t *testing.T, shot string, width, height int) {
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
