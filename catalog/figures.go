package catalog

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/drivebench/drivebench/figure"
	"github.com/drivebench/drivebench/metrics"
	"github.com/drivebench/drivebench/workload"
)

// figures are the figures a fleet, trend or export can be about: those
// of the figure registry that -figure names and the step_latency table
// has a column for (figure.Column), in the registry's order. Latency
// percentiles are read from histograms when groups are merged.
var figures = func() []*figure.Figure {
	var out []*figure.Figure
	for _, f := range figure.In(figure.Option) {
		if f.In&figure.Column != 0 {
			out = append(out, f)
		}
	}
	return out
}()

// FigureNames lists the figures, for usage messages.
func FigureNames() []string {
	var out []string
	for _, f := range figures {
		out = append(out, f.Key(figure.Option))
	}
	return out
}

// FigureNamed finds the figure -figure names: its name in the figure
// registry, which it returns, or an old name (p99.9), which still works
// and for which note says the name to write.
func FigureNamed(name string) (canonical, note string, err error) {
	i, err := figureIndex(name)
	if err != nil {
		return "", "", err
	}
	f := figures[i]
	if _, old := figure.Resolve(figure.Option, name); old {
		note = f.Deprecation(figure.Option, name)
	}
	return f.Key(figure.Option), note, nil
}

// figureIndex is the index in figures of the figure name stands for, by
// its registry name or an old one.
func figureIndex(name string) (int, error) {
	f, _ := figure.Resolve(figure.Option, name)
	if i := slices.Index(figures, f); f != nil && i >= 0 {
		return i, nil
	}
	return 0, fmt.Errorf("unknown figure %q: use one of %s", name, strings.Join(FigureNames(), ", "))
}

// column is a figure's column of step_latency in the catalog's queries.
func column(f *figure.Figure) string { return "l." + f.Key(figure.Column) }

// Point names one point of one profile on one direction of I/O.
type Point struct {
	Profile string
	// Point is the sweep point as name=value pairs ("iodepth=32,numjobs=4",
	// in any order, commas or spaces between, sizes in bytes or as a plan
	// writes them: bs=4KiB); "" for a profile without a sweep.
	Point string
	// Direction is "read" or "write".
	Direction string
}

// measurement is one drive's measurement of a point in one run.
type measurement struct {
	driveID, model, serial, firmware, runID, created string
	value                                            float64
	valid                                            bool
	// histogram is the stored histogram, nil when not asked for or absent.
	histogram []byte
}

// histogramMerger adds stored histograms to merged ones, decoding each
// into one scratch histogram.
type histogramMerger struct {
	scratch metrics.Histogram
	where   string
}

// add merges s's histogram into dst; it says whether s had one.
func (m *histogramMerger) add(dst *metrics.Histogram, s measurement) (bool, error) {
	if len(s.histogram) == 0 {
		return false, nil
	}
	if err := m.scratch.UnmarshalBinary(s.histogram); err != nil {
		return false, fmt.Errorf("catalog %s: histogram of run %s, drive %s: %w", m.where, s.runID, s.serial, err)
	}
	dst.Merge(&m.scratch)
	return true, nil
}

// resolvePoint finds the stored form of p.Point among the points the
// profile was measured at, whatever the order of its pairs.
func (c *Catalog) resolvePoint(ctx context.Context, p Point) (string, error) {
	rows, err := c.db.QueryContext(ctx, `SELECT DISTINCT point FROM steps WHERE source = $1 ORDER BY point`, p.Profile)
	if err != nil {
		return "", c.queryError(err)
	}
	defer rows.Close()
	var points []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return "", err
		}
		points = append(points, s)
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	if len(points) == 0 {
		return "", fmt.Errorf("no profile named %q is in catalog %s: give the name of a profile block as the plan writes it", p.Profile, c.Where)
	}
	want := pointSet(p.Point)
	for _, s := range points {
		if slices.Equal(pointSet(s), want) {
			return s, nil
		}
	}
	if p.Point == "" {
		return "", fmt.Errorf("profile %q was measured at %d points: choose one with -point, one of %s", p.Profile, len(points), quoteAll(points))
	}
	return "", fmt.Errorf("profile %q was never measured at %q: its points are %s", p.Profile, p.Point, quoteAll(points))
}

// pointSet is a point's pairs in their stored form, sorted.
func pointSet(s string) []string {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	for i, p := range parts {
		parts[i] = workload.KeyPair(p)
	}
	slices.Sort(parts)
	return parts
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// samples loads every successful measurement of the point by runs that
// match f, sorted by drive and newest run first; with latest, only each
// drive's newest. With hist, the histograms come too. The histograms are
// the bulk of the data, so they are read only for the rows kept.
func (c *Catalog) samples(ctx context.Context, p Point, fig int, f Filter, hist, latest bool) ([]measurement, error) {
	point, err := c.resolvePoint(ctx, p)
	if err != nil {
		return nil, err
	}
	if p.Direction != "read" && p.Direction != "write" {
		return nil, fmt.Errorf("direction %q: use read or write", p.Direction)
	}
	cond, args := f.where(4)
	histCol := "NULL"
	if hist {
		histCol = "l.histogram"
	}
	keep := ""
	if latest {
		keep = "WHERE m.n = 1"
	}
	q := `WITH m AS (
			SELECT d.drive_id, d.model, d.serial, rd.firmware, r.run_id, r.created, s.step_id,
				ROW_NUMBER() OVER (PARTITION BY d.drive_id ORDER BY r.created DESC, r.run_id DESC, s.step_id DESC) AS n
			FROM ` + runDrives + `
			JOIN steps s ON s.run_id = r.run_id AND s.drive = rd.drive
			JOIN step_latency k ON k.run_id = s.run_id AND k.step_id = s.step_id AND k.direction = $3
			WHERE s.source = $1 AND s.point = $2 AND s.status = 'ok' AND ` + cond + `)
		SELECT m.drive_id, m.model, m.serial, m.firmware, m.run_id, m.created, ` + column(figures[fig]) + `, ` + histCol + `
		FROM m JOIN step_latency l ON l.run_id = m.run_id AND l.step_id = m.step_id AND l.direction = $3
		` + keep + `
		ORDER BY m.drive_id, m.n`
	rows, err := c.db.QueryContext(ctx, q, append([]any{p.Profile, point, p.Direction}, args...)...)
	if err != nil {
		return nil, c.queryError(err)
	}
	defer rows.Close()
	var out []measurement
	for rows.Next() {
		var s measurement
		var v *float64
		var blob []byte
		if err := rows.Scan(&s.driveID, &s.model, &s.serial, &s.firmware, &s.runID, &s.created, &v, &blob); err != nil {
			return nil, err
		}
		if v != nil {
			s.value, s.valid = *v, true
		}
		s.model, s.serial = modelLabel(s.model, s.runID), serialLabel(s.serial, s.runID)
		s.histogram = blob
		out = append(out, s)
	}
	return out, rows.Err()
}
