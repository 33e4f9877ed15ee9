package catalog

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/drivebench/drivebench/internal/testenv"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The Grafana dashboard of examples/grafana, which reads a PostgreSQL
// catalog, and the schema it is checked against: Grafana itself is not
// installable here (it is no Debian package, and its Go module is
// AGPL), so its dashboard model is checked by the fields and types its
// dashboard kind requires, and every query by running it on a real
// catalog.
const (
	dashboardFile   = "../examples/grafana/drivebench-fleet.json"
	dashboardSchema = "testdata/grafana/dashboard.schema.json"
)

// dashboard is the part of a Grafana dashboard the tests read.
type dashboard struct {
	Templating struct {
		List []dashboardVariable `json:"list"`
	} `json:"templating"`
	Panels []dashboardPanel `json:"panels"`
}

type dashboardVariable struct {
	Type, Name string
	Query      any  `json:"query"`
	Multi      bool `json:"multi"`
	IncludeAll bool `json:"includeAll"`
}

type dashboardPanel struct {
	ID         int    `json:"id"`
	Type       string `json:"type"`
	Title      string `json:"title"`
	Datasource *struct {
		Type, UID string
	} `json:"datasource"`
	GridPos struct{ X, Y, W, H int } `json:"gridPos"`
	Targets []struct {
		RefID  string `json:"refId"`
		RawSQL string `json:"rawSql"`
		Format string `json:"format"`
	} `json:"targets"`
	Options struct {
		Legend *struct {
			ShowLegend bool `json:"showLegend"`
		} `json:"legend"`
	} `json:"options"`
}

func readDashboard(t *testing.T) (*dashboard, []byte) {
	t.Helper()
	data, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	return &d, data
}

// TestGrafanaDashboardModel checks the dashboard against the schema of
// Grafana's dashboard kind, and what the schema cannot say: panel ids
// are unique, panels do not overlap on the 24-column grid, every panel
// reads the catalog through the data source variable with an SQL query,
// and every chart with several series shows its legend.
func TestGrafanaDashboardModel(t *testing.T) {
	d, data := readDashboard(t)
	f, err := os.Open(dashboardSchema)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("dashboard.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("dashboard.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("%s does not follow Grafana's dashboard schema:\n%v", dashboardFile, err)
	}

	ids := map[int]bool{}
	cells := map[[2]int]string{}
	overlaps := map[[2]string]bool{}
	for _, p := range d.Panels {
		if ids[p.ID] {
			t.Errorf("panel id %d appears twice", p.ID)
		}
		ids[p.ID] = true
		for y := p.GridPos.Y; y < p.GridPos.Y+p.GridPos.H; y++ {
			for x := p.GridPos.X; x < p.GridPos.X+p.GridPos.W; x++ {
				if other, ok := cells[[2]int{x, y}]; ok && !overlaps[[2]string{other, p.Title}] {
					overlaps[[2]string{other, p.Title}] = true
					t.Errorf("panels %q and %q overlap at x=%d y=%d", other, p.Title, x, y)
				}
				cells[[2]int{x, y}] = p.Title
			}
		}
		if p.GridPos.X+p.GridPos.W > 24 {
			t.Errorf("panel %q runs past the grid's 24 columns", p.Title)
		}
		if p.Type == "row" {
			continue
		}
		if p.Datasource == nil || p.Datasource.Type != "grafana-postgresql-datasource" || p.Datasource.UID != "${datasource}" {
			t.Errorf("panel %q does not read the catalog through ${datasource}: %+v", p.Title, p.Datasource)
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			if tg.RefID == "" || strings.TrimSpace(tg.RawSQL) == "" || (tg.Format != "table" && tg.Format != "time_series") {
				t.Errorf("panel %q: a query without refId, SQL or format: %+v", p.Title, tg)
			}
		}
		if slices.Contains([]string{"timeseries", "barchart", "piechart"}, p.Type) && (p.Options.Legend == nil || !p.Options.Legend.ShowLegend) {
			t.Errorf("panel %q draws series without a legend", p.Title)
		}
	}
}

// grafanaRange is the time range the test gives $__timeFilter: the year
// the fleet's runs are in.
const grafanaFrom, grafanaTo = "2026-01-01T00:00:00Z", "2026-12-31T23:59:59Z"

// TestGrafanaDashboardQueries runs every query of the dashboard, its
// variables' and its panels', on a real PostgreSQL catalog holding the
// fleet the fleet tests use, with the variables and macros replaced as
// Grafana's PostgreSQL data source does: a single value as it is, a
// multi-value or All variable as a list of quoted values, $__timeFilter
// as a BETWEEN of the dashboard's time range. Each must run and return
// what the fleet holds.
func TestGrafanaDashboardQueries(t *testing.T) {
	dsn := os.Getenv(PostgresEnv)
	if dsn == "" {
		testenv.Require(t, "PostgreSQL", "%s is unset, so the Grafana dashboard's queries are not run (./test.sh starts a server and sets it)", PostgresEnv)
		return
	}
	runs, _ := fleetCatalog(t)
	ctx := context.Background()
	c, err := Open(ctx, freshPostgres(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	addAll(t, c, runs)
	d, _ := readDashboard(t)

	// The variables, in order, each query run with the values chosen so far.
	values := map[string][]string{}
	chosen := map[string]string{"profile": "random.randread", "point": "iodepth=32,numjobs=4", "direction": "read"}
	for _, v := range d.Templating.List {
		var options []string
		switch v.Type {
		case "datasource":
			continue
		case "custom":
			options = strings.Split(v.Query.(string), ",")
		case "query":
			options = firstColumn(t, c.db, "variable "+v.Name, interpolate(t, v.Query.(string), values))
		}
		switch {
		case v.Multi && v.IncludeAll:
			values[v.Name] = options
		case slices.Contains(options, chosen[v.Name]):
			values[v.Name] = []string{chosen[v.Name]}
		default:
			t.Fatalf("variable %s offers %q, not the fleet's %q", v.Name, options, chosen[v.Name])
		}
	}
	if got := values["model"]; !slices.Equal(got, []string{"ACME X1 3.84TB", "Globex G7"}) {
		t.Errorf("variable model offers %q, want the fleet's two models", got)
	}

	rows := map[string]int{}
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			query := interpolate(t, tg.RawSQL, values)
			n, first := runQuery(t, c.db, p.Title, query)
			rows[p.Title] = n
			if n == 0 {
				t.Errorf("panel %q: no rows\n%s", p.Title, query)
			}
			if p.Title == "Fleet percentiles per model" && n > 0 && fmt.Sprint(first[:2]) != "[ACME X1 3.84TB 14]" {
				t.Errorf("panel %q: first row %v, want ACME X1 3.84TB's 14 drives", p.Title, first)
			}
		}
	}
	for title, want := range map[string]int{
		"Fleet percentiles per model": 2, "p99 latency of each drive": 24, "Drives of the fleet": 24,
		"Median by model and firmware": 3,
	} {
		if rows[title] != want {
			t.Errorf("panel %q: %d rows, want %d", title, rows[title], want)
		}
	}
}

// variableRef is a variable or a macro in a query: $name, ${name} or
// $__macro(argument).
var variableRef = regexp.MustCompile(`\$__timeFilter\(([^()]*(?:\([^()]*\))?[^()]*)\)|\$\{(\w+)\}|\$(\w+)`)

// interpolate replaces the variables and macros of query as Grafana's
// PostgreSQL data source does; a name the dashboard does not define is
// an error, so no query runs with a reference left in it.
func interpolate(t *testing.T, query string, values map[string][]string) string {
	t.Helper()
	return variableRef.ReplaceAllStringFunc(query, func(ref string) string {
		m := variableRef.FindStringSubmatch(ref)
		if m[1] != "" {
			return fmt.Sprintf("%s BETWEEN '%s' AND '%s'", m[1], grafanaFrom, grafanaTo)
		}
		name := m[2] + m[3]
		vals, ok := values[name]
		if !ok {
			t.Fatalf("the query uses $%s, which no variable before it defines:\n%s", name, query)
		}
		if len(vals) == 1 {
			return vals[0]
		}
		quoted := make([]string, len(vals))
		for i, v := range vals {
			quoted[i] = "'" + strings.ReplaceAll(v, "'", "''") + "'"
		}
		return strings.Join(quoted, ",")
	})
}

// firstColumn runs query and returns its first column as text.
func firstColumn(t *testing.T, db *sql.DB, what, query string) []string {
	t.Helper()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatalf("%s: %v\n%s", what, err, query)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// runQuery runs query and returns how many rows it gave and the first.
func runQuery(t *testing.T, db *sql.DB, what, query string) (int, []any) {
	t.Helper()
	rows, err := db.Query(query)
	if err != nil {
		t.Errorf("panel %q: %v\n%s", what, err, query)
		return 0, nil
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	var first []any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			first = vals
		}
		n++
	}
	if err := rows.Err(); err != nil {
		t.Errorf("panel %q: %v", what, err)
	}
	return n, first
}
