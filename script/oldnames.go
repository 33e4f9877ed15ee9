package script

import (
	"fmt"
	"os"
	"slices"

	"go.starlark.net/syntax"

	"github.com/drivebench/drivebench/figure"
)

// Hooks received a direction's latencies as lat_ns (lat_ns.p["99"],
// lat_ns.mean) before the figure registry named them (p99_ns, mean_ns).
// lat_ns is still there; validating a plan says where a hook reads it and
// what to write instead, found by reading the hook's source.

// oldSeriesNames are the names a series' interval gave figures in hooks
// before the figure registry (s.mean_lat_ns, where a point's directions
// say mean_ns), each an old hook name of its row: a series still has
// them (IntervalFields), and validating a plan notes where a hook reads
// one.
var oldSeriesNames = []string{"mean_lat_ns"}

// OldFigureNames finds, without running it, where a hook file names a
// figure by its old name (.lat_ns.p["99"], .lat_ns.mean): one note each,
// at its place, with the name to write: `checks/latency.star:12:14:
// lat_ns.p["99"] is the old name of the p99 latency: write .p99_ns ...`.
// A file that cannot be read or parsed has none: running the hook
// reports that. Files the hook loads are not read.
func (r *Runtime) OldFigureNames(file string) []string {
	root, err := resolveRoot(r.Root)
	if err != nil {
		return nil
	}
	path, err := root.resolve(file, root.abs)
	if err != nil {
		return nil
	}
	src, err := os.ReadFile(path.real)
	if err != nil {
		return nil
	}
	f, err := fileOptions.Parse(path.name, src, 0)
	if err != nil {
		return nil
	}
	var notes []string
	syntax.Walk(f, func(n syntax.Node) bool {
		if note, found := oldSeriesName(n); found {
			notes = append(notes, note)
			return false
		}
		old, at, found := oldLatencyName(n)
		if !found {
			return true
		}
		if fig, _ := figure.Resolve(figure.Hook, old); fig != nil {
			notes = append(notes, fmt.Sprintf("%s: %s is the old name of the %s: write .%s, its name in the figure registry (drivebench help figures); lat_ns will stop working in a later release",
				at, old, fig.Title, fig.Key(figure.Hook)))
		}
		return false
	})
	return notes
}

// oldLatencyName reads an old name from n, an expression such as
// p.read.lat_ns.p["99"] or p.read.lat_ns.mean: the name from lat_ns on,
// and where lat_ns is written.
func oldLatencyName(n syntax.Node) (old string, at syntax.Position, found bool) {
	if ix, ok := n.(*syntax.IndexExpr); ok {
		lit, isString := ix.Y.(*syntax.Literal)
		if lat, ok := latField(ix.X, "p"); ok && isString && lit.Token == syntax.STRING {
			return `lat_ns.p["` + lit.Value.(string) + `"]`, lat.Name.NamePos, true
		}
		return "", at, false
	}
	dot, ok := n.(*syntax.DotExpr)
	if !ok {
		return "", at, false
	}
	if lat, ok := latField(dot, dot.Name.Name); ok && dot.Name.Name != "p" {
		return "lat_ns." + dot.Name.Name, lat.Name.NamePos, true
	}
	return "", at, false
}

// latField reports whether e is <x>.lat_ns.<field>, and returns the
// lat_ns part.
func latField(e syntax.Expr, field string) (*syntax.DotExpr, bool) {
	dot, ok := e.(*syntax.DotExpr)
	if !ok || dot.Name.Name != field {
		return nil, false
	}
	lat, ok := dot.X.(*syntax.DotExpr)
	return lat, ok && lat.Name.Name == "lat_ns"
}

// oldSeriesName notes n when it reads an interval's figure by its old
// name: s.mean_lat_ns in a check, s["mean_lat_ns"] in a summary hook.
func oldSeriesName(n syntax.Node) (note string, found bool) {
	var name, write string
	var at syntax.Position
	switch e := n.(type) {
	case *syntax.DotExpr:
		name, at = e.Name.Name, e.Name.NamePos
		write = "."
	case *syntax.IndexExpr:
		lit, ok := e.Y.(*syntax.Literal)
		if !ok || lit.Token != syntax.STRING {
			return "", false
		}
		name, at = lit.Value.(string), lit.TokenPos
		write = "["
	}
	if !slices.Contains(oldSeriesNames, name) {
		return "", false
	}
	f, _ := figure.Resolve(figure.Hook, name)
	if write == "[" {
		write = fmt.Sprintf("[%q]", f.Key(figure.Hook))
	} else {
		write += f.Key(figure.Hook)
	}
	return fmt.Sprintf("%s: %s is the old name of the %s in a step's series: write %s, its name in the figure registry (drivebench help figures); %s will stop working in a later release",
		at, name, f.Title, write, name), true
}
