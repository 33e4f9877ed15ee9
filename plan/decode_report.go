package plan

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// reportBlockSchema is the body of the report block.
var reportBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "formats"},
		{Name: "summary"},
		{Name: "compare"},
		{Name: "units"},
		{Name: "percentiles"},
		{Name: "fio_logs"},
	},
}

// reportFormats are the report formats that can be written.
var reportFormats = []string{"markdown", "json", "html"}

// defaultReportFormats are written when the plan does not say.
var defaultReportFormats = []string{"markdown", "json", "html"}

// BandwidthUnits are the units reports can give bandwidth in: decimal
// megabytes per second (the default, as most reviews) or mebibytes.
var BandwidthUnits = []string{"MB/s", "MiB/s"}

// decodeReports decodes the plan's report block, of which there may be at
// most one.
func (l *loader) decodeReports(blocks hcl.Blocks) Report {
	if len(blocks) == 0 {
		return Report{Formats: append([]string(nil), defaultReportFormats...)}
	}
	for _, extra := range blocks[1:] {
		l.blockError(extra, "Duplicate Report Block",
			"A plan may have one report block. Put all formats in the first one and remove this one.")
	}
	return l.decodeReportBlock(blocks[0])
}

// decodeReportBlock decodes one report block.
func (l *loader) decodeReportBlock(block *hcl.Block) Report {
	content, diags := l.content(block.Body, reportBlockSchema)
	l.diags = append(l.diags, diags...)
	r := Report{Formats: append([]string(nil), defaultReportFormats...)}
	if attr := content.Attributes["summary"]; attr != nil {
		r.Summary = l.hookAttr(attr, `{ script = "report/summary.star", function = "summary" }`)
	}
	r.Compare = l.comparables(content.Attributes["compare"])
	if attr := content.Attributes["units"]; l.stringAttr(attr, &r.Units) && !l.oneOf(r.Units, BandwidthUnits, attrSite(attr), "Unknown Bandwidth Unit") {
		r.Units = ""
	}
	r.Percentiles = l.percentileColumns(content.Attributes["percentiles"])
	l.boolAttr(content.Attributes["fio_logs"], &r.FioLogs)
	attr := content.Attributes["formats"]
	formats, sites, ok := l.stringList(attr)
	if !ok {
		return r
	}
	if len(formats) == 0 {
		l.errorAt(attrSite(attr), "No Report Format",
			"formats = [] writes no report. List at least one of "+quotedList(reportFormats)+", or remove formats to get markdown, json and html.")
		return r
	}
	for i, f := range formats {
		l.oneOf(f, reportFormats, sites[i], "Unknown Report Format")
	}
	r.Formats = formats
	return r
}

// catalogComparable starts a comparable named by a catalog filter
// ("catalog:model=KIOXIA*,plan=review") instead of a folder.
const catalogComparable = "catalog:"

// percentileColumns decodes report.percentiles: percentages between 0
// and 100, or "max", each once and in ascending order.
func (l *loader) percentileColumns(attr *hcl.Attribute) []float64 {
	if attr == nil {
		return nil
	}
	items, sites, ok := l.stringList(attr)
	if !ok {
		return nil
	}
	if len(items) == 0 {
		l.errorAt(attrSite(attr), "No Percentile Columns",
			`percentiles = [] leaves the tables without latency columns. List some, such as [50, 99, 99.9, 99.99, "max"], or remove the attribute for the default columns.`)
		return nil
	}
	var out []float64
	for i, item := range items {
		p, err := strconv.ParseFloat(item, 64)
		switch {
		case item == "max":
			p = 100
		case err != nil || p <= 0 || p >= 100:
			l.errorAt(sites[i], "Invalid Percentile", fmt.Sprintf(
				`%q is not a percentile column. Give a number above 0 and below 100 (99.99), or "max" for the slowest I/O.`, item))
			return nil
		}
		if len(out) > 0 && p <= out[len(out)-1] {
			l.errorAt(sites[i], "Percentiles Out Of Order", fmt.Sprintf(
				`%s comes after %s; list the percentile columns from the lowest to the highest, with "max" last.`, item, items[i-1]))
			return nil
		}
		out = append(out, p)
	}
	return out
}

// comparables decodes report.compare: results folders of other drives or
// runs, relative to the plan's folder, or catalog filters. Each folder
// must already hold a run's manifest, so a typo is found now and not when
// the report is written after hours of measurement.
func (l *loader) comparables(attr *hcl.Attribute) []string {
	if attr == nil {
		return nil
	}
	dirs, sites, ok := l.stringList(attr)
	if !ok {
		return nil
	}
	var out []string
	for i, d := range dirs {
		if strings.HasPrefix(d, catalogComparable) {
			// Comparables chosen by a catalog filter are found when the
			// report is written; drivebench run checks the filter first.
			out = append(out, d)
			continue
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(l.sc.dir, d)
		}
		if _, err := os.Stat(filepath.Join(d, "manifest.json")); err != nil {
			l.errorAt(sites[i], "Comparable Results Not Found", fmt.Sprintf(
				"%q is not a results folder (no manifest.json). Name the folder a drivebench run wrote, relative to the plan's folder %q, or choose runs from the catalog with \"catalog:model=...,plan=...\".", dirs[i], l.sc.dir))
			continue
		}
		out = append(out, d)
	}
	return out
}
