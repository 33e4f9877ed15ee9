package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/plan"
	"github.com/drivebench/drivebench/reports"
)

// compareFormats are the outputs of compare -format.
var compareFormats = []string{"text", "markdown", "json", "junit"}

// cmdCompare compares two results folders figure by figure, such as one
// drive before and after a firmware update, and exits 1 when a figure
// regressed beyond the threshold or a point the base measured was lost.
func cmdCompare(_ context.Context, args []string, io stdio) int {
	fs := newFlagSet("compare", "BASE NEW",
		"Compare the results in folder NEW with those in BASE, point by point (drive, profile, sweep point).\n"+
			"Lists every figure that moved; exits 1 when one regressed beyond the threshold.\n"+
			"Exits 2 when the runs share no point, or when points they share ran different workloads (unless -allow-workload-change).", io)
	threshold := fs.String("threshold", "5%", "change beyond which a figure regressed or improved, in percent of the base value: 5% for all, or per figure, iops=5%,p99=10% ("+strings.Join(reports.ThresholdKeys(), ", ")+"); IOPS and bandwidth must also move beyond the runs' noise")
	asJSON := fs.Bool("json", false, "print the comparison as JSON (as -format json)")
	outFormat := fs.String("format", "text", "output: text, markdown, json or junit")
	fs.choose("format", false, compareFormats...)
	allowChange := fs.Bool("allow-workload-change", false, "compare points whose workload differs between the runs (transfer size, pattern, queue depth, engine...), marking them, instead of refusing")
	units := fs.String("units", "", "bandwidth unit of the output, "+strings.Join(plan.BandwidthUnits, " or ")+"; default the base run's (its plan's report units)")
	fs.choose("units", false, plan.BandwidthUnits...)
	dirs, code, done := parseInterspersed(fs, args)
	if done {
		return code
	}
	if len(dirs) != 2 {
		fmt.Fprintf(io.err, "drivebench compare: expected two results folders, BASE and NEW, got %d arguments\n\n", len(dirs))
		fs.printUsage()
		return exitUsage
	}
	th, notes, err := parseThresholds(*threshold)
	if err != nil {
		fmt.Fprintln(io.err, "drivebench compare: -threshold:", err)
		return exitUsage
	}
	for _, note := range notes {
		fmt.Fprintln(io.err, "drivebench compare: -threshold: warning:", note)
	}
	if *asJSON {
		*outFormat = "json"
	}
	if !slices.Contains(compareFormats, *outFormat) {
		fmt.Fprintf(io.err, "drivebench compare: -format %q: use text, markdown, json or junit\n", *outFormat)
		return exitUsage
	}
	if *units != "" && !slices.Contains(plan.BandwidthUnits, *units) {
		fmt.Fprintf(io.err, "drivebench compare: -units %q: use %s\n", *units, strings.Join(plan.BandwidthUnits, " or "))
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
	c := reports.Compare(base, next, th)
	if err := c.Refusal(*allowChange); err != nil {
		fmt.Fprintf(io.err, "drivebench compare: %s and %s: %v\n", dirs[0], dirs[1], err)
		return exitUsage
	}
	if *units != "" {
		c.Units = *units
	}
	if err := printComparison(io, dirs, base, next, c, *outFormat); err != nil {
		fmt.Fprintln(io.err, "drivebench compare:", err)
		return exitUsage
	}
	if c.Regressed() {
		return exitCheckFailed
	}
	return exitOK
}

func printComparison(io stdio, dirs []string, base, next *reports.Summary, c *reports.Comparison, outFormat string) error {
	switch outFormat {
	case "json":
		enc := json.NewEncoder(io.out)
		enc.SetIndent("", "  ")
		return enc.Encode(c)
	case "junit":
		data, err := reports.ComparisonJUnit(c, "compare "+next.Plan.Name)
		if err == nil {
			_, err = io.out.Write(data)
		}
		return err
	case "markdown":
		fmt.Fprintf(io.out, "Base: `%s` (%s); new: `%s` (%s).\n\n", dirs[0], runLabel(base), dirs[1], runLabel(next))
		return reports.WriteComparisonMarkdown(io.out, c)
	}
	fmt.Fprintf(io.out, "base: %s (%s)\nnew:  %s (%s)\n\n", dirs[0], runLabel(base), dirs[1], runLabel(next))
	return reports.WriteComparison(io.out, c)
}

// parseThresholds reads -threshold: a percentage for every figure, and
// name=percentage pairs for single figures, separated by commas, each
// named as the figure registry names it. notes holds a deprecation note
// for each figure named by its old name (p99.9).
func parseThresholds(s string) (th reports.Thresholds, notes []string, err error) {
	th = reports.Thresholds{Default: 5, ByFigure: map[string]float64{}}
	for part := range strings.SplitSeq(s, ",") {
		name, value, named := strings.Cut(part, "=")
		if !named {
			if th.Default, err = parseThreshold(part); err != nil {
				return th, nil, err
			}
			continue
		}
		name = strings.TrimSpace(name)
		f, old := reports.ThresholdFigure(name)
		if f == nil {
			return th, nil, fmt.Errorf("%q is not a figure; use one of %s", name, strings.Join(reports.ThresholdKeys(), ", "))
		}
		if old {
			notes = append(notes, f.Deprecation(figure.Option, name))
		}
		if th.ByFigure[f.Name], err = parseThreshold(value); err != nil {
			return th, nil, err
		}
	}
	return th, notes, nil
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
