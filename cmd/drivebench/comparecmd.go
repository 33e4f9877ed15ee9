package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/reports"
)

// cmdCompare compares two results folders figure by figure, such as one
// drive before and after a firmware update, and exits 1 when a figure
// regressed beyond the threshold or a point the base measured was lost.
func cmdCompare(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("compare", "BASE NEW",
		"Compare the results in folder NEW with those in BASE, point by point (drive, profile, sweep point).\n"+
			"Lists every figure that moved; exits 1 when one regressed beyond the threshold.", io)
	threshold := fs.String("threshold", "5%", "change beyond which a figure regressed or improved, in percent of the base value")
	asJSON := fs.Bool("json", false, "print the comparison as JSON")
	dirs, code, done := parseInterspersed(fs, args)
	if done {
		return code
	}
	if len(dirs) != 2 {
		fmt.Fprintf(io.err, "drivebench compare: expected two results folders, BASE and NEW, got %d arguments\n\n", len(dirs))
		fs.printUsage()
		return exitUsage
	}
	pct, err := parseThreshold(*threshold)
	if err != nil {
		fmt.Fprintln(io.err, "drivebench compare: -threshold:", err)
		return exitUsage
	}
	base, err := reports.Load(dirs[0])
	if err != nil {
		fmt.Fprintln(io.err, "drivebench compare: base:", err)
		return exitUsage
	}
	next, err := reports.Load(dirs[1])
	if err != nil {
		fmt.Fprintln(io.err, "drivebench compare: new:", err)
		return exitUsage
	}
	c := reports.Compare(base, next, pct)
	if err := printComparison(io, dirs, base, next, c, *asJSON); err != nil {
		fmt.Fprintln(io.err, "drivebench compare:", err)
		return exitUsage
	}
	if c.Regressed() {
		return exitCheckFailed
	}
	return exitOK
}

func printComparison(io stdio, dirs []string, base, next *reports.Summary, c *reports.Comparison, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(io.out)
		enc.SetIndent("", "  ")
		return enc.Encode(c)
	}
	fmt.Fprintf(io.out, "base: %s (%s)\nnew:  %s (%s)\n\n", dirs[0], runLabel(base), dirs[1], runLabel(next))
	return reports.WriteComparison(io.out, c)
}

// runLabel names a run for people: "plan quickstart, 2026-03-14 09:32 UTC".
func runLabel(s *reports.Summary) string {
	return "plan " + s.Plan.Name + ", " + s.GeneratedAt.UTC().Format("2006-01-02 15:04 UTC")
}

// parseThreshold reads a percentage: "5%", "2.5%" or a bare "5".
func parseThreshold(s string) (float64, error) {
	text := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%"))
	pct, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(pct) || math.IsInf(pct, 0) || pct < 0 {
		return 0, fmt.Errorf("%q is not a percentage; write it like 5%% or 2.5%%", s)
	}
	return pct, nil
}
