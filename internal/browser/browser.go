// Package browser loads HTML pages in a real headless Chromium for tests:
// the pages drivebench writes (run reports, the catalog's fleet page) must
// load with no console message and draw something at a phone's and a
// desktop's size, and must be self-contained. It is for tests only.
package browser

import (
	"bytes"
	"context"
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
func Open(t *testing.T, page, shot string, width, height int) string {
	t.Helper()
	log, err := launch(t, page, shot, width, height)
	if err != nil {
		t.Logf("chromium failed, trying once more: %v\n%s", err, log)
		log, err = launch(t, page, shot, width, height)
	}
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, log)
	}
	return log
}

// launch runs Chromium once on page.
func launch(t *testing.T, page, shot string, width, height int) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, Path,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-crash-reporter", "--enable-logging=stderr", "--v=0",
		"--user-data-dir="+t.TempDir(), "--screenshot="+shot,
		"--window-size="+strconv.Itoa(width)+","+strconv.Itoa(height),
		"file://"+page)
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
// elsewhere or run a script.
func CheckSelfContained(t *testing.T, page []byte) {
	t.Helper()
	text := string(page)
	if strings.Contains(text, "<script") {
		t.Error("the page holds a script")
	}
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(text, -1) {
		if !strings.HasPrefix(m[1], "data:") && !strings.HasPrefix(m[1], "#") {
			t.Errorf("the page refers to %q", m[1])
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
