package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestCheckStatement(t *testing.T) {
	cases := []struct {
		query    string
		postgres bool
		want     string // "" for accepted, else a part of the error
	}{
		{"SELECT * FROM runs", false, ""},
		{"  -- the runs\n select 1 ;  /* done */ ", false, ""},
		{"WITH r AS (SELECT * FROM runs) SELECT count(*) FROM r;", false, ""},
		{"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c", true, ""},
		{"VALUES (1), (2)", false, ""},
		{"EXPLAIN QUERY PLAN SELECT * FROM steps", false, ""},
		{"EXPLAIN (ANALYZE, BUFFERS) SELECT 1", true, ""},
		{"PRAGMA table_info(runs)", false, ""},
		{"PRAGMA main.table_info('steps')", false, ""},
		{"pragma user_version", false, ""},
		{"SELECT 'a;b', \"c;d\", `e;f`, [g;h] FROM runs", false, ""},
		{"SELECT $$;$$, $x$ ; $x$, E'\\';' FROM runs", true, ""},
		{"SELECT 1 /* a /* nested ; */ comment */", true, ""},
		{"SELECT 1; DROP TABLE runs", false, `a second one starts at line 1, column 11 ("DROP")`},
		{"SELECT 1;\n\n  ATTACH 'x.db' AS x", false, `line 3, column 3 ("ATTACH")`},
		{"SELECT 1 /* a /* nested */ ; DELETE FROM runs */", false, `("DELETE")`},
		{"SELECT E'\\'; DELETE FROM runs; --'", false, `("DELETE")`},
		{"SELECT $$; DELETE FROM runs; $$", false, `("DELETE")`},
		{"SELECT '' ; VACUUM", true, `("VACUUM")`},
		{"ATTACH DATABASE 'x.db' AS x", false, "ATTACH is not a query"},
		{"attach 'x.db' as x", false, "ATTACH is not a query"},
		{"DETACH x", false, "DETACH is not a query"},
		{"VACUUM INTO '/tmp/copy.db'", false, "VACUUM is not a query"},
		{"DELETE FROM runs", false, "DELETE is not a query"},
		{"COPY runs TO '/tmp/runs.csv'", true, "COPY is not a query"},
		{"WITH r AS (SELECT 1) DELETE FROM runs", false, "WITH ... DELETE is not a query"},
		{"WITH r AS (SELECT 1) INSERT INTO runs SELECT * FROM r", true, "WITH ... INSERT is not a query"},
		{"EXPLAIN VACUUM", false, "EXPLAIN ... VACUUM is not a query"},
		{"PRAGMA user_version = 5", false, "PRAGMA user_version is not a read"},
		{"PRAGMA journal_mode=DELETE", false, "PRAGMA journal_mode is not a read"},
		{"PRAGMA wal_checkpoint(TRUNCATE)", false, "PRAGMA wal_checkpoint is not a read"},
		{"PRAGMA optimize", false, "PRAGMA optimize is not a read"},
		{"  ", false, "the query is empty"},
		{"-- nothing", false, "the query is empty"},
	}
	for _, tc := range cases {
		err := checkStatement(tc.query, tc.postgres)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: refused: %v", tc.query, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: got %v, want an error with %q", tc.query, err, tc.want)
		}
	}
}

// FuzzCheckStatement: the check never panics, each token is the text at
// its line and column, and what is accepted stays accepted with a comment
// after it and blanks before.
func FuzzCheckStatement(f *testing.F) {
	for _, s := range []string{"SELECT 1", "SELECT 'a;b' -- x", "SELECT $$x$$", "SELECT E'\\''", "/* /* */ */ SELECT", "PRAGMA table_info(runs)", "SELECT [a", "WITH x AS (SELECT 1) SELECT 2"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, query string, postgres bool) {
		stmt, rest := splitStatement(query, postgres)
		for _, tok := range append(stmt, rest...) {
			if !strings.HasPrefix(query[offset(query, tok.line, tok.col):], tok.text) {
				t.Fatalf("%q: token %q is not at line %d, column %d", query, tok.text, tok.line, tok.col)
			}
		}
		if checkStatement(query, postgres) != nil {
			return
		}
		if err := checkStatement("  "+query+"\n-- note\n", postgres); err != nil {
			t.Fatalf("%q accepted, but not with blanks and a comment: %v", query, err)
		}
	})
}

// offset is the byte offset of line and column (in characters) in s.
func offset(s string, line, col int) int {
	l, c := 1, 1
	for i, r := range s {
		if l == line && c == col {
			return i
		}
		if r == '\n' {
			l, c = l+1, 1
		} else {
			c++
		}
	}
	return len(s)
}

// countSink counts the rows it is handed and keeps none; after stopAt
// rows (if set) it ends the query with errStop or with cancel.
type countSink struct {
	rows   int
	stopAt int
	cancel context.CancelFunc
}

var errStop = errors.New("stop")

func (s *countSink) Start([]string) error { return nil }

func (s *countSink) Row([]any) error {
	s.rows++
	if s.stopAt > 0 && s.rows == s.stopAt {
		if s.cancel != nil {
			s.cancel()
			return nil
		}
		return errStop
	}
	return nil
}

// crossJoin returns the steps of the fleet's runs joined with themselves
// four times: far more rows than any limit here (about 10^10).
const crossJoin = `SELECT a.step_id, b.step_id, c.name, d.name FROM steps a, steps b, steps c, steps d`

// endless produces rows without end, in both dialects.
const endless = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c`

// TestQueryRowLimit: a cross join of billions of rows hands on exactly the
// limit and fails with ErrTooManyRows; without a limit, rows arrive as
// they come, long before the query could end.
func TestQueryRowLimit(t *testing.T) {
	runs, _ := fleetCatalog(t)
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		addAll(t, c, runs[:4])
		s := &countSink{}
		n, err := c.Stream(context.Background(), crossJoin, QueryLimits{MaxRows: 250}, s)
		if !errors.Is(err, ErrTooManyRows) || n != 250 || s.rows != 250 {
			t.Fatalf("got %d rows (sink %d), %v; want 250 and the row limit", n, s.rows, err)
		}
		if !strings.Contains(err.Error(), "more rows than the limit: 250 rows handed on, and the query returns more") {
			t.Errorf("error %q", err)
		}
		s = &countSink{stopAt: 5000}
		n, err = c.Stream(context.Background(), crossJoin, QueryLimits{MaxRows: -1}, s)
		if !errors.Is(err, errStop) || n != 4999 {
			t.Errorf("unlimited: %d rows, %v; want the sink's stop at row 5000", n, err)
		}
		if tab, err := c.Query(context.Background(), `SELECT COUNT(*) FROM steps`); err != nil || len(tab.Rows) != 1 {
			t.Errorf("a query within the limits: %v, %v", tab, err)
		}
	})
}

// TestQueryTimeout: a query that never ends stops at its time limit.
func TestQueryTimeout(t *testing.T) {
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		for _, q := range []string{endless, `SELECT COUNT(*) FROM (` + endless + `) e`} {
			_, err := c.Stream(context.Background(), q, QueryLimits{MaxRows: -1, Timeout: 300 * time.Millisecond}, &countSink{})
			if !errors.Is(err, ErrQueryTimeout) || !strings.Contains(err.Error(), "time limit reached: stopped after 300ms") {
				t.Errorf("%s: got %v, want the time limit", q, err)
			}
		}
	})
}

// TestQueryInterrupt: a canceled context ends a query at once, between
// rows and inside a statement that returns none yet; the connection
// serves the next query.
func TestQueryInterrupt(t *testing.T) {
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		ctx, cancel := context.WithCancel(context.Background())
		s := &countSink{stopAt: 100, cancel: cancel}
		n, err := c.Stream(ctx, endless, QueryLimits{MaxRows: -1, Timeout: time.Hour}, s)
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted after") || n > 101 {
			t.Errorf("canceled between rows: %d rows, %v", n, err)
		}
		ctx, cancel = context.WithCancel(context.Background())
		stop := time.AfterFunc(200*time.Millisecond, cancel)
		defer stop.Stop()
		_, err = c.Stream(ctx, `SELECT COUNT(*) FROM (`+endless+`) e`, QueryLimits{Timeout: time.Hour}, &countSink{})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("canceled inside the statement: %v", err)
		}
		if _, err := c.Query(context.Background(), `SELECT 1`); err != nil {
			t.Errorf("the query after: %v", err)
		}
	})
}

// TestQueryCreatesNoFile: ATTACH and VACUUM INTO, which SQLite runs on a
// read-only connection and which create the file they name, are refused
// by the statement check and, should it let them through, by the
// connection's authorizer; no file appears. PostgreSQL's COPY TO and
// writes are refused too.
func TestQueryCreatesNoFile(t *testing.T) {
	dir := t.TempDir()
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		// The statements SQLite parses, and PostgreSQL's own.
		queries := []string{
			`ATTACH DATABASE '` + filepath.Join(dir, "attached.db") + `' AS x`,
			`VACUUM INTO '` + filepath.Join(dir, "copy.db") + `'`,
			`SELECT 1; ATTACH DATABASE '` + filepath.Join(dir, "second.db") + `' AS y`,
			`CREATE TABLE made (x INTEGER)`,
			`PRAGMA user_version = 7`,
		}
		postgres := []string{
			`COPY runs TO '` + filepath.Join(dir, "runs.csv") + `'`,
			`SELECT 1 AS x INTO made`,
		}
		for _, q := range append(queries, postgres...) {
			if _, err := c.Query(context.Background(), q); err == nil {
				t.Errorf("%s: not refused", q)
			} else {
				t.Logf("%s: %v", q, err)
			}
		}
		if c.Kind() == "sqlite" {
			ro, err := c.readOnlyDB()
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range queries {
				rows, err := ro.Query(q)
				if err == nil {
					rows.Close()
				}
				if err == nil || !strings.Contains(err.Error(), "authorization denied") {
					t.Errorf("%s on the read-only connection: %v, want the authorizer's refusal", q, err)
				}
			}
			for _, q := range []string{`PRAGMA table_info(runs)`, `SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()`} {
				if _, err := c.Query(context.Background(), q); err != nil {
					t.Errorf("%s: %v", q, err)
				}
			}
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			t.Errorf("a query made %s", e.Name())
		}
		var version int
		if c.Kind() == "sqlite" {
			c.db.QueryRow(`PRAGMA user_version`).Scan(&version)
		}
		if version == 7 || tableExists(t, c, "made") {
			t.Error("a refused statement changed the catalog")
		}
	})
}

func tableExists(t *testing.T, c *Catalog, name string) bool {
	t.Helper()
	q := `SELECT COUNT(*) FROM sqlite_master WHERE name = $1`
	if c.Kind() == "postgresql" {
		q = `SELECT COUNT(*) FROM information_schema.tables WHERE table_name = $1`
	}
	var n int
	if err := c.db.QueryRow(q, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n > 0
}

// TestQueryValuesAlikeOnBothDatabases: a query's values are the same from
// SQLite and from PostgreSQL: numbers as numbers (PostgreSQL's NUMERIC,
// of AVG and SUM, comes as text), a histogram named by what it holds.
func TestQueryValuesAlikeOnBothDatabases(t *testing.T) {
	runs, _ := fleetCatalog(t)
	const q = `SELECT COUNT(*) AS n, SUM(ios) AS ios, AVG(iops) AS iops, AVG(ios) AS mean_ios, 1.5 AS x, histogram
		FROM step_latency WHERE histogram IS NOT NULL GROUP BY histogram ORDER BY SUM(ios) DESC, histogram LIMIT 1`
	var got [][]any
	forEachBackend(t, func(t *testing.T, c *Catalog) {
		addAll(t, c, runs[:2])
		tab, err := c.Query(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		row := tab.Rows[0]
		for i, want := range []string{"int64", "int64", "float64", "float64", "float64", "string"} {
			if typ := fmt.Sprintf("%T", row[i]); typ != want {
				t.Errorf("%s is a %s (%v), want a %s", tab.Columns[i], typ, row[i], want)
			}
		}
		if h, _ := row[5].(string); !regexp.MustCompile(`^<histogram of [0-9,]+ I/Os, [0-9]+ bytes>$`).MatchString(h) {
			t.Errorf("histogram %q", row[5])
		}
		got = append(got, row)
	})
	if len(got) == 2 && !reflect.DeepEqual(got[0], got[1]) {
		t.Errorf("SQLite gives %v, PostgreSQL %v", got[0], got[1])
	}
	if v := blobText("other", []byte{1, 2, 3}); v != "<blob 3 bytes>" {
		t.Errorf("a blob of no known meaning: %q", v)
	}
}
