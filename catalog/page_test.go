package catalog

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/browser"
	"github.com/drivebench/drivebench/internal/testenv"
)

func TestFleetPage(t *testing.T) {
	dirs, _ := fleetCatalog(t)
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		addAll(t, c, dirs)
		out := filepath.Join(browser.ArtifactsDir(t, "catalog"), c.Kind())
		path, err := c.WritePage(context.Background(), out, PageQuery{
			Point:  Point{Profile: "random.randread", Point: "iodepth=32,numjobs=4", Direction: "read"},
			Figure: "mean",
		})
		if err != nil {
			t.Fatal(err)
		}
		page, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(page)
		for _, want := range []string{
			"ACME X1 3.84TB", "Globex G7", `<tr class="outlier"><td>` + slowSerial + `</td>`,
			"Latency distribution per model", "ACME X1 3.84TB: mean over firmware", "Globex G7: mean over firmware", "qd1-latency", "<svg",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("the page lacks %q", want)
			}
		}
		if n := strings.Count(text, `class="outlier"`); n != 1 {
			t.Errorf("%d outlier rows, want 1", n)
		}
		if n := strings.Count(text, "over firmware</title>"); n != 2 {
			t.Errorf("%d trend charts, want one per model (2)", n)
		}
		// Each chart is beside the page as SVG and PNG, linked under it;
		// a chart file the page no longer draws is removed.
		stale := filepath.Join(out, "charts", "fleet-trend-9.png")
		if err := os.WriteFile(stale, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := c.WritePage(context.Background(), out, PageQuery{
			Point:  Point{Profile: "random.randread", Point: "iodepth=32,numjobs=4", Direction: "read"},
			Figure: "mean",
		}); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"fleet-distribution", "fleet-spread", "fleet-trend-1", "fleet-trend-2"} {
			for _, ext := range []string{".svg", ".png"} {
				if _, err := os.Stat(filepath.Join(out, "charts", name+ext)); err != nil {
					t.Errorf("no chart file beside the page: %v", err)
				}
				if !strings.Contains(text, `href="charts/`+name+ext+`"`) {
					t.Errorf("the page does not link charts/%s%s", name, ext)
				}
			}
		}
		if _, err := os.Stat(stale); !os.IsNotExist(err) {
			t.Errorf("a stale chart file stays: %v", err)
		}
		browser.CheckSelfContained(t, page)
		switch _, err := os.Stat(browser.Path); {
		case err != nil:
			testenv.RequirePart(t, "Chromium", "%s is absent (apt-get install chromium; ./test.sh installs it): the fleet page is not loaded in a browser", browser.Path)
		case c.Kind() == "sqlite":
			// The page is drawn by the same code on either database.
			browser.CheckPage(t, path)
			browser.CheckPrint(t, path)
			browser.CheckDark(t, path)
			browser.CheckNoCutTables(t, path)
			if n := browser.CheckLegends(t, page); n != 4 {
				t.Errorf("%d charts checked for their legends, want 4", n)
			}
		}
	})
}
