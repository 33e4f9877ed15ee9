package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/drivebench/drivebench/catalog"
)

// catalogConfigured is the catalog a run adds itself to: the -catalog
// flag, else $DRIVEBENCH_CATALOG; "" when neither is set (a run does not
// create the default catalog on its own).
func catalogConfigured(flag string, getenv func(string) string) string {
	if flag != "" {
		return flag
	}
	return getenv(catalog.EnvVar)
}

// expandComparables replaces each "catalog:FILTER" entry of a report's
// comparables with the folders of the matching drives' latest runs,
// leaving out self, the report's own folder. Folders pass as they are.
func expandComparables(ctx context.Context, entries []string, target, self string, getenv func(string) string) ([]string, error) {
	var out []string
	var c *catalog.Catalog
	defer func() {
		if c != nil {
			c.Close()
		}
	}()
	for _, e := range entries {
		text, ok := strings.CutPrefix(e, catalog.ComparablePrefix)
		if !ok {
			out = append(out, e)
			continue
		}
		f, err := catalog.ParseFilter(text)
		if err != nil {
			return nil, fmt.Errorf("comparable %q: %w", e, err)
		}
		if c == nil {
			if c, err = openCatalog(ctx, target, getenv, catalog.Read, false); err != nil {
				return nil, fmt.Errorf("comparable %q: %w", e, err)
			}
		}
		dirs, err := c.Comparables(ctx, f, self)
		if err != nil {
			return nil, fmt.Errorf("comparable %q: %w", e, err)
		}
		if len(dirs) == 0 {
			return nil, fmt.Errorf("comparable %q: no run in catalog %s matches", e, c.Where)
		}
		out = append(out, dirs...)
	}
	return out, nil
}

// checkRunCatalog refuses, before a run starts, a catalog it could not
// add itself to when it ends: hours later is too late to learn that a
// mistyped -catalog names no catalog.
func checkRunCatalog(ctx context.Context, io stdio, target string) bool {
	if target == "" {
		return true
	}
	c, err := openCatalog(ctx, target, io.getenv, catalog.Write, false)
	if err != nil {
		fmt.Fprintf(io.err, "drivebench run: -catalog: %v\n", err)
		return false
	}
	c.Close()
	return true
}

// addRunToCatalog adds a finished (or stopped) run's folder to the
// configured catalog. A failure is reported but changes nothing of the
// run: its results are safe in the folder, to be added later.
func addRunToCatalog(ctx context.Context, io stdio, target, dir string) {
	if target == "" {
		return
	}
	// The run's own context may be cancelled (an interrupted run); the
	// add is short and should still happen.
	ctx = context.WithoutCancel(ctx)
	c, err := openCatalog(ctx, target, io.getenv, catalog.Write, false)
	if err == nil {
		var res catalog.AddResult
		res, err = c.Add(ctx, dir)
		c.Close()
		if err == nil {
			fmt.Fprintf(io.out, "Catalog: %s run %s in %s\n", res.Status, res.RunID, c.Where)
			return
		}
	}
	fmt.Fprintf(io.err, "drivebench: the run was not added to the catalog: %v\n  add it later with: drivebench catalog add %s\n", err, dir)
}
