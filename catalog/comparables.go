package catalog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// Comparables returns the results folders of each matching drive's latest
// run, for a report to show beside its own run, leaving out the folder
// exclude (the report's own). A folder the catalog knows but that is no
// longer on disk is an error: the report cannot be drawn from the catalog
// alone.
func (c *Catalog) Comparables(ctx context.Context, f Filter, exclude string) ([]string, error) {
	cond, args := f.where(1)
	rows, err := c.db.QueryContext(ctx, `SELECT l.run_id, r.source_dir FROM (`+latestRuns(cond)+`) l JOIN runs r ON r.run_id = l.run_id
		ORDER BY l.model, l.serial, l.run_id`, args...)
	if err != nil {
		return nil, c.queryError(err)
	}
	defer rows.Close()
	if abs, err := filepath.Abs(exclude); err == nil {
		exclude = abs
	}
	var dirs []string
	seen := map[string]bool{}
	for rows.Next() {
		var run, dir string
		if err := rows.Scan(&run, &dir); err != nil {
			return nil, err
		}
		if dir == exclude || seen[dir] {
			continue
		}
		seen[dir] = true
		if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
			return nil, fmt.Errorf("run %s of catalog %s was added from %s, which is no longer a results folder: move it back or add its new place with drivebench catalog add", run, c.Where, dir)
		}
		dirs = append(dirs, dir)
	}
	return dirs, rows.Err()
}
