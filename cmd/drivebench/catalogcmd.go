package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/drivebench/drivebench/catalog"
	"github.com/drivebench/drivebench/format"
)

// catalogCommands are the subcommands of drivebench catalog.
var catalogCommands = []command{
	{name: "init", summary: "create the catalog, or migrate an existing one to this version's schema", run: cmdCatalogInit},
	{name: "add", summary: "add results folders to the catalog; adding a run again keeps one copy", run: cmdCatalogAdd},
	{name: "ls", summary: "list the runs (or with -drives the drives) that match the filters", run: cmdCatalogLs},
	{name: "query", summary: "run read-only SQL on the catalog (docs/catalog.md has the schema)", run: cmdCatalogQuery},
	{name: "fleet", summary: "one profile point across drives: merged percentiles, spread, outliers", run: cmdCatalogFleet},
	{name: "rollup", summary: "pass, warn and fail per spec line per model and firmware, with the failing serials", run: cmdCatalogRollup},
	{name: "trend", summary: "a figure of one profile point over firmware versions or dates", run: cmdCatalogTrend},
	{name: "export", summary: "each drive's latest figures and verdicts as csv, json or openmetrics", run: cmdCatalogExport},
	{name: "report", summary: "write the HTML fleet page: distributions, trend and roll-up", run: cmdCatalogReport},
}

// cmdCatalog dispatches drivebench catalog SUBCOMMAND.
func cmdCatalog(ctx context.Context, args []string, io stdio) int {
	return dispatchSub(ctx, "catalog", catalogCommands, args, io,
		"Each takes -catalog PATH|DSN, else $"+catalog.EnvVar+", else the default file; docs/catalog.md explains the schema.")
}

// catalogFlags are the flags every catalog subcommand shares.
type catalogFlags struct {
	target, format string
	formats        []string
	filter         catalog.Filter
	since, until   string
	// create, for commands that write, makes a catalog that does not
	// exist (-create).
	create bool
}

func (cf *catalogFlags) register(fs *flagSet, formats ...string) {
	fs.StringVar(&cf.target, "catalog", "", "the catalog: an SQLite file or a postgres:// DSN (default $"+catalog.EnvVar+", else "+catalog.DefaultPath(fs.io.getenv)+")")
	if len(formats) > 0 {
		cf.formats = formats
		fs.StringVar(&cf.format, "format", formats[0], "output format: "+strings.Join(formats, ", "))
		fs.choose("format", false, formats...)
	}
}

func (cf *catalogFlags) registerFilter(fs *flagSet) {
	fs.StringVar(&cf.filter.Model, "model", "", "only drives of this model (a * matches any characters)")
	fs.StringVar(&cf.filter.Firmware, "firmware", "", "only drives running this firmware")
	fs.StringVar(&cf.filter.Serial, "serial", "", "only the drive of this serial number")
	fs.StringVar(&cf.filter.Plan, "plan", "", "only runs of this plan")
	fs.StringVar(&cf.filter.Testbed, "testbed", "", "only runs on this testbed")
	fs.StringVar(&cf.since, "since", "", "only runs created on or after this date (2026-03-01 or RFC 3339)")
	fs.StringVar(&cf.until, "until", "", "only runs created before this date")
}

// parseOpen reads the arguments of a command that takes no positional
// ones and opens the catalog to read it; ok is false, with the exit code,
// when the command must stop.
func (cf *catalogFlags) parseOpen(ctx context.Context, fs *flagSet, args []string) (c *catalog.Catalog, code int, ok bool) {
	if code, done := parseFlags(fs, args); done {
		return nil, code, false
	}
	if !noPositionals(fs) {
		return nil, exitUsage, false
	}
	if c, ok = cf.open(ctx, fs, catalog.Read); !ok {
		return nil, exitUsage, false
	}
	return c, exitOK, true
}

// registerCreate adds -create, for a command that writes the catalog.
func (cf *catalogFlags) registerCreate(fs *flagSet) {
	fs.BoolVar(&cf.create, "create", false, "create the catalog if it does not exist (as catalog init does); without it a catalog named by -catalog or $"+catalog.EnvVar+" must exist, so a mistyped path is not made into a new, empty one")
}

// open checks the flags and opens the catalog for access (catalog.Read
// or catalog.Write); ok is false after an error has been shown.
func (cf *catalogFlags) open(ctx context.Context, fs *flagSet, access catalog.Access) (*catalog.Catalog, bool) {
	for _, d := range []struct {
		text string
		dst  *time.Time
	}{{cf.since, &cf.filter.Since}, {cf.until, &cf.filter.Until}} {
		if d.text == "" {
			continue
		}
		t, err := catalog.ParseDate(d.text)
		if err != nil {
			fmt.Fprintf(fs.io.err, "drivebench %s: %v\n", fs.Name(), err)
			return nil, false
		}
		*d.dst = t
	}
	if len(cf.formats) > 0 && !slices.Contains(cf.formats, cf.format) {
		fmt.Fprintf(fs.io.err, "drivebench %s: unknown -format %q: use one of %s\n", fs.Name(), cf.format, strings.Join(cf.formats, ", "))
		return nil, false
	}
	c, err := openCatalog(ctx, cf.target, fs.io.getenv, access, cf.create)
	if err != nil {
		fmt.Fprintf(fs.io.err, "drivebench %s: %v\n", fs.Name(), err)
		return nil, false
	}
	return c, true
}

// openCatalog opens the catalog the flag, else $DRIVEBENCH_CATALOG, else
// the default file names, for access. A writer creates the default file
// when it is not there yet, and a named catalog only when create says so;
// a catalog that is not there is explained with what to do.
func openCatalog(ctx context.Context, flag string, getenv func(string) string, access catalog.Access, create bool) (*catalog.Catalog, error) {
	target := catalog.Resolve(flag, getenv)
	named := catalogConfigured(flag, getenv) != ""
	if access == catalog.Write && (create || !named) {
		access = catalog.Create
	}
	c, err := catalog.OpenFor(ctx, target, access)
	var none *catalog.NoCatalogError
	switch {
	case !errors.As(err, &none):
		return c, err
	case access == catalog.Read:
		return nil, fmt.Errorf("%w: name the catalog with -catalog or $%s; runs are added to one with drivebench catalog add (drivebench catalog init creates one)", err, catalog.EnvVar)
	}
	return nil, fmt.Errorf("%w: create it with drivebench catalog init -catalog %s, or give -create; a catalog that does not exist is not made on its own, so that a mistyped path does not become a new, empty catalog", err, target)
}

func cmdCatalogInit(ctx context.Context, args []string, io stdio) int {
	fs := newFlagSet("catalog init", "", "Create the catalog (an SQLite file with its folder, or the tables of a PostgreSQL database), or migrate an existing one to this version's schema, keeping its runs. "+
		"Commands that add runs then use it; a catalog named by -catalog or $"+catalog.EnvVar+" is not created on its own.", io)
	var cf catalogFlags
	cf.register(fs)
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if !noPositionals(fs) {
		return exitUsage
	}
	target := catalog.Resolve(cf.target, io.getenv)
	state := "ready"
	if c, err := catalog.OpenFor(ctx, target, catalog.Write); err == nil {
		c.Close()
	} else if errors.As(err, new(*catalog.NoCatalogError)) {
		state = "created"
	}
	c, err := catalog.OpenFor(ctx, target, catalog.Create)
	if err != nil {
		fmt.Fprintf(io.err, "drivebench %s: %v\n", fs.Name(), err)
		return exitUsage
	}
	defer c.Close()
	fmt.Fprintf(io.out, "Catalog %s: %s, %s, schema version %d\n", c.Where, state, c.Kind(), catalog.SchemaVersion)
	return exitOK
}

func cmdCatalogAdd(ctx context.Context, args []string, io stdio) int {
	fs := newFlagSet("catalog add", "DIR...", "Add the runs of results folders to the catalog, each in one transaction. A folder that does not parse is reported and skipped, and the exit code is 2.", io)
	var cf catalogFlags
	cf.register(fs)
	cf.registerCreate(fs)
	dirs, code, done := parseInterspersed(fs, args)
	if done {
		return code
	}
	if len(dirs) == 0 {
		fmt.Fprintln(io.err, "drivebench catalog add: name at least one results folder")
		return exitUsage
	}
	c, ok := cf.open(ctx, fs, catalog.Write)
	if !ok {
		return exitUsage
	}
	defer c.Close()
	failed := 0
	for _, d := range dirs {
		res, err := c.Add(ctx, d)
		if err != nil {
			fmt.Fprintf(io.err, "drivebench catalog add: skipped: %v\n", err)
			failed++
			continue
		}
		fmt.Fprintf(io.out, "%-9s %s  %s  %d steps  %s\n", res.Status, res.RunID, res.Plan, res.Steps, res.Dir)
	}
	if failed > 0 {
		fmt.Fprintf(io.err, "drivebench catalog add: %d of %d folders skipped; nothing of them was added\n", failed, len(dirs))
		return exitUsage
	}
	return exitOK
}

func cmdCatalogLs(ctx context.Context, args []string, io stdio) int {
	fs := newFlagSet("catalog ls", "", "List the drives of the runs in the catalog that match the filters, newest first; with -drives, the drives.", io)
	var cf catalogFlags
	cf.register(fs, "table", "csv", "json")
	cf.registerFilter(fs)
	drives := fs.Bool("drives", false, "list drives (model, serial, firmware of the latest run, number of runs) instead of runs")
	c, code, ok := cf.parseOpen(ctx, fs, args)
	if !ok {
		return code
	}
	defer c.Close()
	if *drives {
		rows, err := c.Drives(ctx, cf.filter)
		return show(fs, cf.format, rows, err, func(h bool) *catalog.Table { return catalog.DrivesTable(rows, h) })
	}
	rows, err := c.Runs(ctx, cf.filter)
	return show(fs, cf.format, rows, err, func(bool) *catalog.Table { return catalog.RunsTable(rows) })
}

func cmdCatalogQuery(ctx context.Context, args []string, io stdio) int {
	fs := newFlagSet("catalog query", "SQL", "Run one SQL statement that reads the catalog: SELECT, WITH ... SELECT, VALUES, EXPLAIN or a PRAGMA read. "+
		"Anything else (a write, ATTACH, VACUUM, a second statement) is refused. Rows are written as they come. docs/catalog.md describes the tables.", io)
	var cf catalogFlags
	cf.register(fs, "table", "csv", "json")
	limit := fs.Int("limit", catalog.DefaultQueryRows, "the most rows to write: a query that returns more fails after them, saying so; 0 for no limit")
	timeout := fs.Duration("timeout", catalog.DefaultQueryTimeout, "the most time the query may take, writing its rows included")
	pos, code, ok := parsePositionals(fs, args, "one SQL statement (quote it)")
	if !ok {
		return code
	}
	if *limit < 0 || *timeout <= 0 {
		fmt.Fprintf(io.err, "drivebench catalog query: -limit %d -timeout %s: give a limit of 0 (none) or more rows and a positive time, such as -timeout 5m\n", *limit, *timeout)
		return exitUsage
	}
	c, ok := cf.open(ctx, fs, catalog.Read)
	if !ok {
		return exitUsage
	}
	defer c.Close()
	maxRows := *limit
	if maxRows == 0 {
		maxRows = -1
	}
	w := newRowWriter(cf.format, io.out)
	_, err := c.Stream(ctx, pos[0], catalog.QueryLimits{MaxRows: maxRows, Timeout: *timeout}, w)
	if closeErr := w.Close(err == nil); err == nil {
		err = closeErr
	}
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, catalog.ErrTooManyRows):
		fmt.Fprintf(io.err, "drivebench catalog query: output cut after %s rows (-limit %d): the query returns more; "+
			"narrow it (WHERE, LIMIT, an aggregate), or give a larger -limit, or -limit 0 for every row\n", format.Count(float64(*limit)), *limit)
	case errors.Is(err, catalog.ErrQueryTimeout):
		fmt.Fprintf(io.err, "drivebench catalog query: %v; narrow the query, or give a longer -timeout\n", err)
	case ctx.Err() != nil:
		fmt.Fprintf(io.err, "drivebench catalog query: %v\n", err)
		return exitInterrupted
	default:
		fmt.Fprintf(io.err, "drivebench catalog query: %v\n", err)
	}
	return exitUsage
}

// pointFlags name one profile point and a figure of it.
type pointFlags struct {
	point  catalog.Point
	figure string
}

func (pf *pointFlags) register(fs *flagSet, figure string) {
	fs.StringVar(&pf.point.Profile, "profile", "", "the profile block's name, as the plan writes it (required)")
	fs.StringVar(&pf.point.Point, "point", "", "the sweep point, such as iodepth=32,numjobs=4 (omit for a profile without a sweep)")
	fs.StringVar(&pf.point.Direction, "dir", "read", "the direction of I/O: read or write")
	fs.choose("dir", false, "read", "write")
	fs.StringVar(&pf.figure, "figure", figure, "the figure: "+strings.Join(catalog.FigureNames(), ", "))
	fs.choose("figure", false, catalog.FigureNames()...)
}

// check reports a missing -profile, and notes a -figure given by its old
// name (p99.9), which it replaces by the figure registry's (p99_9).
func (pf *pointFlags) check(fs *flagSet) bool {
	if pf.point.Profile == "" {
		fmt.Fprintf(fs.io.err, "drivebench %s: -profile is required: name the profile block whose point to show\n", fs.Name())
		return false
	}
	if name, note, err := catalog.FigureNamed(pf.figure); err == nil {
		if note != "" {
			fmt.Fprintf(fs.io.err, "drivebench %s: -figure: warning: %s\n", fs.Name(), note)
		}
		pf.figure = name
	}
	return noPositionals(fs)
}

// pointCommand is the flags of the commands that show one profile point
// across the catalog (fleet, trend, report): where the catalog is, the
// filters, the point and its figure.
type pointCommand struct {
	cf catalogFlags
	pf pointFlags
}

func (p *pointCommand) register(fs *flagSet, formats ...string) {
	p.cf.register(fs, formats...)
	p.cf.registerFilter(fs)
	p.pf.register(fs, "p99")
}

// parse reads the arguments and checks the point; done is set, with the
// exit code, when the command must stop.
func (p *pointCommand) parse(fs *flagSet, args []string) (code int, done bool) {
	if code, done := parseFlags(fs, args); done {
		return code, true
	}
	if !p.pf.check(fs) {
		return exitUsage, true
	}
	return 0, false
}

// parseOpen reads the arguments and checks the point (parse), then opens
// the catalog to read; ok is false, with the exit code, when the command
// must stop.
func (p *pointCommand) parseOpen(ctx context.Context, fs *flagSet, args []string) (c *catalog.Catalog, code int, ok bool) {
	if code, done := p.parse(fs, args); done {
		return nil, code, false
	}
	if c, ok = p.cf.open(ctx, fs, catalog.Read); !ok {
		return nil, exitUsage, false
	}
	return c, exitOK, true
}

func cmdCatalogFleet(ctx context.Context, args []string, io stdio) int {
	fs := newFlagSet("catalog fleet", "-profile NAME [-point P]",
		"Show one profile point across the drives that match the filters (each drive's latest run), grouped by model or firmware: "+
			"percentiles read from each group's merged histogram, the spread of the drives' figure and the outliers beyond 3 median absolute deviations.", io)
	var p pointCommand
	p.register(fs, "table", "csv", "json")
	by := fs.String("by", "model", "group by model, or by model and firmware")
	fs.choose("by", false, "model", "firmware")
	c, code, ok := p.parseOpen(ctx, fs, args)
	if !ok {
		return code
	}
	defer c.Close()
	cf, pf := &p.cf, &p.pf
	f, err := c.Fleet(ctx, catalog.FleetQuery{Point: pf.point, Figure: pf.figure, GroupBy: *by, Filter: cf.filter})
	if err != nil || cf.format != "table" {
		return show(fs, cf.format, f, err, func(h bool) *catalog.Table { return catalog.FleetTable(f, h) })
	}
	writeFleet(io.out, f)
	return exitOK
}

// writeFleet shows a fleet for people: per group the merged percentiles,
// the spread and the outliers.
func writeFleet(w io.Writer, f *catalog.Fleet) {
	fmt.Fprintf(w, "%s %s, %s, %s across drives (each drive's latest run)\n", f.Profile, orNone(f.Point), f.Direction, f.Figure)
	if len(f.Groups) == 0 {
		fmt.Fprintln(w, "\nNo drive matches.")
		return
	}
	writeTableOf(w, catalog.FleetTable(f, true))
	for _, g := range f.Groups {
		if len(g.Outliers) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nOutliers of %s, beyond %g median absolute deviations of %s:\n", groupName(g), catalog.OutlierMADs, catalog.FormatFigure(f.Unit, g.Median))
		for _, o := range g.Outliers {
			fmt.Fprintf(w, "  %s  %s  %s  %+.1f MAD  run %s\n", o.Serial, o.Firmware, catalog.FormatFigure(f.Unit, o.Value), o.Deviations, o.RunID)
		}
	}
}

func groupName(g catalog.FleetGroup) string {
	if g.Firmware != "" {
		return g.Model + " " + g.Firmware
	}
	return g.Model
}

func orNone(s string) string {
	if s == "" {
		return "(no sweep)"
	}
	return s
}

func cmdCatalogRollup(ctx context.Context, args []string, io stdio) int {
	fs := newFlagSet("catalog rollup", "", "Count pass, warn and fail per spec line, check and expectation per model and firmware over the matching runs, with the serials that failed.", io)
	var cf catalogFlags
	cf.register(fs, "table", "csv", "json")
	cf.registerFilter(fs)
	c, code, ok := cf.parseOpen(ctx, fs, args)
	if !ok {
		return code
	}
	defer c.Close()
	rows, err := c.Rollup(ctx, cf.filter)
	return show(fs, cf.format, rows, err, func(bool) *catalog.Table { return catalog.RollupTable(rows) })
}

func cmdCatalogTrend(ctx context.Context, args []string, io stdio) int {
	fs := newFlagSet("catalog trend", "-profile NAME [-point P]", "Show how a figure of one profile point moved over firmware versions or dates, per model, over every matching run.", io)
	var p pointCommand
	p.register(fs, "table", "csv", "json")
	by := fs.String("by", "firmware", "firmware (in the order versions were first measured), day or month")
	fs.choose("by", false, "firmware", "day", "month")
	c, code, ok := p.parseOpen(ctx, fs, args)
	if !ok {
		return code
	}
	defer c.Close()
	cf, pf := &p.cf, &p.pf
	tr, err := c.Trend(ctx, catalog.TrendQuery{Point: pf.point, Figure: pf.figure, By: *by, Filter: cf.filter})
	return show(fs, cf.format, tr, err, func(h bool) *catalog.Table { return catalog.TrendTable(tr, h) })
}

func cmdCatalogExport(ctx context.Context, args []string, io stdio) int {
	fs := newFlagSet("catalog export", "", "Write each matching drive's latest run: every figure of every step and every verdict. "+
		"openmetrics is OpenMetrics 1.0, for Prometheus; prometheus is the Prometheus text format, for node_exporter's textfile collector or a Pushgateway.", io)
	var cf catalogFlags
	cf.register(fs, "csv", "json", "openmetrics", "prometheus")
	cf.registerFilter(fs)
	c, code, ok := cf.parseOpen(ctx, fs, args)
	if !ok {
		return code
	}
	defer c.Close()
	e, err := c.Export(ctx, cf.filter)
	text, ok := map[string]catalog.MetricsFormat{"openmetrics": catalog.OpenMetrics, "prometheus": catalog.PrometheusText}[cf.format]
	if err != nil || !ok {
		return show(fs, cf.format, e, err, func(bool) *catalog.Table { return catalog.ExportTable(e) })
	}
	if err := catalog.WriteMetrics(io.out, e, text); err != nil {
		fmt.Fprintf(io.err, "drivebench %s: %v\n", fs.Name(), err)
		return exitUsage
	}
	return exitOK
}

func cmdCatalogReport(ctx context.Context, args []string, io stdio) int {
	fs := newFlagSet("catalog report", "-out DIR -profile NAME [-point P]", "Write fleet.html, one self-contained page: the point's latency distribution per model, "+
		"the drives' spread and outliers, the trend over firmware and the roll-up of verdicts.", io)
	var p pointCommand
	p.register(fs)
	out := fs.String("out", "", "the folder to write fleet.html in (required)")
	if code, done := p.parse(fs, args); done {
		return code
	}
	cf, pf := &p.cf, &p.pf
	if *out == "" {
		fmt.Fprintln(io.err, "drivebench catalog report: -out is required: the folder to write fleet.html in")
		return exitUsage
	}
	c, ok := cf.open(ctx, fs, catalog.Read)
	if !ok {
		return exitUsage
	}
	defer c.Close()
	path, err := c.WritePage(ctx, *out, catalog.PageQuery{Point: pf.point, Figure: pf.figure, Filter: cf.filter})
	if err != nil {
		fmt.Fprintf(io.err, "drivebench %s: %v\n", fs.Name(), err)
		return exitUsage
	}
	fmt.Fprintln(io.out, path)
	return exitOK
}

// show writes v as JSON, or its table as CSV or aligned columns; or the
// error.
func show(fs *flagSet, outFormat string, v any, err error, table func(human bool) *catalog.Table) int {
	if err != nil {
		fmt.Fprintf(fs.io.err, "drivebench %s: %v\n", fs.Name(), err)
		return exitUsage
	}
	switch outFormat {
	case "json":
		err = writeJSON(fs.io.out, v)
	case "csv":
		err = writeCSV(fs.io.out, table(false))
	default:
		writeTableOf(fs.io.out, table(true))
	}
	if err != nil {
		fmt.Fprintf(fs.io.err, "drivebench %s: %v\n", fs.Name(), err)
		return exitUsage
	}
	return exitOK
}

func writeCSV(w io.Writer, t *catalog.Table) error {
	return writeRows(&csvRows{w: csv.NewWriter(w)}, t)
}

// writeTableOf writes a table in aligned columns for the terminal.
func writeTableOf(w io.Writer, t *catalog.Table) {
	writeRows(newTableRows(w), t)
}

// writeRows hands a table held whole to a rowWriter.
func writeRows(rw rowWriter, t *catalog.Table) error {
	if err := rw.Start(t.Columns); err != nil {
		return err
	}
	for _, r := range t.Rows {
		if err := rw.Row(r); err != nil {
			return err
		}
	}
	return rw.Close(true)
}

// rowWriter writes rows as a query hands them on, holding at most
// rowBlock of them: tables are aligned per block of rows.
type rowWriter interface {
	catalog.RowSink
	// Close writes what is left and ends the output; complete says
	// whether the rows handed on are all the query's.
	Close(complete bool) error
}

// rowBlock is how many rows a rowWriter holds before it writes them.
const rowBlock = 1000

func newRowWriter(outFormat string, w io.Writer) rowWriter {
	switch outFormat {
	case "csv":
		return &csvRows{w: csv.NewWriter(w)}
	case "json":
		return &jsonRows{w: bufio.NewWriter(w)}
	}
	return newTableRows(w)
}

// tableRows writes aligned columns for people, NULL as a dash.
type tableRows struct {
	w    io.Writer
	tw   *tabwriter.Writer
	rows int
}

func newTableRows(w io.Writer) *tableRows {
	return &tableRows{w: w, tw: tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)}
}

func (t *tableRows) Start(columns []string) error {
	_, err := fmt.Fprintln(t.tw, strings.Join(columns, "\t"))
	return err
}

func (t *tableRows) Row(values []any) error {
	cells := make([]string, len(values))
	for i, v := range values {
		cells[i] = cellText(v, true)
	}
	if _, err := fmt.Fprintln(t.tw, strings.Join(cells, "\t")); err != nil {
		return err
	}
	if t.rows++; t.rows%rowBlock == 0 {
		return t.tw.Flush()
	}
	return nil
}

func (t *tableRows) Close(complete bool) error {
	if err := t.tw.Flush(); err != nil {
		return err
	}
	if complete && t.rows == 0 {
		_, err := fmt.Fprintln(t.w, "(no rows)")
		return err
	}
	return nil
}

// csvRows writes CSV for programs: NULL as an empty field.
type csvRows struct {
	w    *csv.Writer
	rows int
}

func (c *csvRows) Start(columns []string) error {
	return c.w.Write(columns)
}

func (c *csvRows) Row(values []any) error {
	cells := make([]string, len(values))
	for i, v := range values {
		cells[i] = cellText(v, false)
	}
	if err := c.w.Write(cells); err != nil {
		return err
	}
	if c.rows++; c.rows%rowBlock == 0 {
		c.w.Flush()
	}
	return c.w.Error()
}

func (c *csvRows) Close(bool) error {
	c.w.Flush()
	return c.w.Error()
}

// jsonRows writes {"columns": [...], "rows": [[...], ...]}, a row a line.
type jsonRows struct {
	w       *bufio.Writer
	started bool
	rows    int
}

func (j *jsonRows) Start(columns []string) error {
	cols, err := json.Marshal(columns)
	if err != nil {
		return err
	}
	j.started = true
	_, err = fmt.Fprintf(j.w, "{\n  \"columns\": %s,\n  \"rows\": [", cols)
	return err
}

func (j *jsonRows) Row(values []any) error {
	row, err := json.Marshal(values)
	if err != nil {
		return err
	}
	sep := ","
	if j.rows == 0 {
		sep = ""
	}
	j.rows++
	_, err = fmt.Fprintf(j.w, "%s\n    %s", sep, row)
	return err
}

// Close ends the document, so that it parses also when the query failed
// after some rows (the exit code and the message say so).
func (j *jsonRows) Close(bool) error {
	if !j.started {
		return j.w.Flush()
	}
	end := "\n  ]\n}\n"
	if j.rows == 0 {
		end = "]\n}\n"
	}
	if _, err := j.w.WriteString(end); err != nil {
		return err
	}
	return j.w.Flush()
}

// cellText writes a value; for people, numbers are grouped and NULL is a
// dash.
func cellText(v any, human bool) string {
	switch x := v.(type) {
	case nil:
		if human {
			return format.Dash
		}
		return ""
	case float64:
		if human {
			return format.Plain(x)
		}
		// in full, never in exponent form (1.2e+06), which spreadsheets
		// and shell tools read as text
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// noPositionals refuses arguments a command does not take.
func noPositionals(fs *flagSet) bool {
	if fs.NArg() == 0 {
		return true
	}
	fmt.Fprintf(fs.io.err, "drivebench %s: unexpected argument %q; this command takes flags only\n\n", fs.Name(), fs.Arg(0))
	fs.printUsage()
	return false
}
