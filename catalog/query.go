package catalog

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"

	"github.com/drivebench/drivebench/format"
	"github.com/drivebench/drivebench/metrics"
)

// A query's result is handed on row by row as the database produces it and
// never held whole, so a cross join of the catalog's largest tables costs
// no more memory than its widest row. It is bounded in rows and in time,
// and ends when its context does: SQLite's statement is interrupted, and
// PostgreSQL is sent a cancel request.

// Defaults of QueryLimits.
const (
	DefaultQueryRows    = 10_000
	DefaultQueryTimeout = 60 * time.Second
)

// QueryLimits bound one query.
type QueryLimits struct {
	// MaxRows is the most rows handed on; a query that returns more fails
	// with ErrTooManyRows after them. Negative for no limit, zero for
	// DefaultQueryRows.
	MaxRows int
	// Timeout is the most time the query may take, its rows handed on
	// included; it then fails with ErrQueryTimeout. Zero for
	// DefaultQueryTimeout.
	Timeout time.Duration
}

func (l QueryLimits) withDefaults() QueryLimits {
	if l.MaxRows == 0 {
		l.MaxRows = DefaultQueryRows
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultQueryTimeout
	}
	return l
}

// Errors a query ends with, as the cause of the error Stream returns.
var (
	ErrTooManyRows  = errors.New("more rows than the limit")
	ErrQueryTimeout = errors.New("time limit reached")
)

// RowSink receives a query's result: its column names, then each row, of
// values as Table holds them. An error from it ends the query.
type RowSink interface {
	Start(columns []string) error
	Row(values []any) error
}

// Table is the result of a query held whole: column names and rows of
// values (string, int64, float64, bool, nil). It is a RowSink.
type Table struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
}

// Start sets the table's columns.
func (t *Table) Start(columns []string) error {
	t.Columns, t.Rows = columns, [][]any{}
	return nil
}

// Row appends a row.
func (t *Table) Row(values []any) error {
	t.Rows = append(t.Rows, values)
	return nil
}

// Query runs one read-only statement (see Stream) within the default
// limits and returns its rows.
func (c *Catalog) Query(ctx context.Context, query string, args ...any) (*Table, error) {
	t := &Table{}
	if _, err := c.Stream(ctx, query, QueryLimits{}, t, args...); err != nil {
		return nil, err
	}
	return t, nil
}

// Stream runs one SQL statement that reads, handing its rows to sink as
// they come, and returns how many it handed on. A query of more than one
// statement, or of a kind that does not only read (ATTACH, VACUUM, a
// PRAGMA that sets, any write), is refused before the database sees it.
// SQLite runs it on a connection that opened the file read-only, with
// query_only set and an authorizer that allows reads only; PostgreSQL in
// a READ ONLY transaction with statement_timeout set, rolled back.
func (c *Catalog) Stream(ctx context.Context, query string, limits QueryLimits, sink RowSink, args ...any) (int, error) {
	if err := checkStatement(query, c.postgres); err != nil {
		return 0, fmt.Errorf("query on catalog %s: %w", c.Where, err)
	}
	limits = limits.withDefaults()
	qctx, cancel := context.WithTimeoutCause(ctx, limits.Timeout, ErrQueryTimeout)
	defer cancel()
	n, err := c.stream(qctx, cancel, query, limits, sink, args)
	if err == nil {
		return n, nil
	}
	switch {
	case errors.Is(err, ErrTooManyRows):
		return n, fmt.Errorf("query on catalog %s: %w: %d rows handed on, and the query returns more", c.Where, err, limits.MaxRows)
	case ctx.Err() != nil:
		return n, fmt.Errorf("query on catalog %s: interrupted after %d rows: %w", c.Where, n, context.Cause(ctx))
	case context.Cause(qctx) == ErrQueryTimeout || postgresTimeout(err):
		return n, fmt.Errorf("query on catalog %s: %w: stopped after %s and %d rows", c.Where, ErrQueryTimeout, limits.Timeout, n)
	}
	return n, fmt.Errorf("query on catalog %s: %w", c.Where, err)
}

// stream runs the query and hands its rows on; cancel ends the query
// before its rows are closed, so that PostgreSQL stops sending them.
func (c *Catalog) stream(ctx context.Context, cancel context.CancelFunc, query string, limits QueryLimits, sink RowSink, args []any) (int, error) {
	rows, done, err := c.readOnly(ctx, query, limits.Timeout, args...)
	if err != nil {
		return 0, err
	}
	defer done()
	defer rows.Close()
	defer cancel()
	types, err := rows.ColumnTypes()
	if err != nil {
		return 0, err
	}
	cols := make([]string, len(types))
	for i, t := range types {
		cols[i] = t.Name()
	}
	if err := sink.Start(cols); err != nil {
		return 0, err
	}
	n := 0
	for rows.Next() {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		if limits.MaxRows >= 0 && n == limits.MaxRows {
			return n, ErrTooManyRows
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		for i, v := range vals {
			vals[i] = plainValue(v, types[i])
		}
		if err := sink.Row(vals); err != nil {
			return n, err
		}
		n++
	}
	return n, rows.Err()
}

// postgresTimeout says whether err is PostgreSQL's statement_timeout.
func postgresTimeout(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg) && pg.Code == "57014" && strings.Contains(pg.Message, "statement timeout")
}

func (c *Catalog) readOnly(ctx context.Context, query string, timeout time.Duration, args ...any) (*sql.Rows, func(), error) {
	if c.postgres {
		tx, err := c.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return nil, nil, err
		}
		// The server's own bound, for a client that is gone before it
		// could cancel.
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("SET LOCAL statement_timeout = %d", timeout.Milliseconds())); err != nil {
			tx.Rollback()
			return nil, nil, err
		}
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			tx.Rollback()
			return nil, nil, err
		}
		return rows, func() { tx.Rollback() }, nil
	}
	ro, err := c.readOnlyDB()
	if err != nil {
		return nil, nil, err
	}
	rows, err := ro.QueryContext(ctx, query, args...)
	return rows, func() {}, err
}

// readOnlyDB opens the SQLite file a second time, read-only, for queries:
// mode=ro and query_only keep the catalog as it is, and readAuthorizer
// refuses what a read-only connection still runs (ATTACH creates the file
// it names).
func (c *Catalog) readOnlyDB() (*sql.DB, error) {
	c.roOnce.Do(func() {
		base, err := sqlite.NewConnector(readOnlyDSN(c.Where))
		if err != nil {
			c.roErr = err
			return
		}
		c.ro = sql.OpenDB(authorized{base})
	})
	return c.ro, c.roErr
}

// authorized opens connections with readAuthorizer installed.
type authorized struct{ driver.Connector }

func (a authorized) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := a.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	r, ok := conn.(sqlite.AuthorizerRegisterer)
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("the SQLite driver's connection (%T) takes no authorizer", conn)
	}
	if err := r.RegisterAuthorizer(readAuthorizer); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// readAuthorizer allows reading tables, calling functions and reading
// the pragmas of readPragma; SQLite refuses everything else the statement
// would do with "not authorized".
func readAuthorizer(action sqlite.AuthorizerActionCode, arg1, arg2, _, _ string) sqlite.AuthorizerReturnCode {
	switch action {
	case sqlite.AuthSelect, sqlite.AuthRead, sqlite.AuthFunction, sqlite.AuthRecursive:
		return sqlite.AuthorizerOK
	case sqlite.AuthPragma:
		if readPragma(arg1, arg2) {
			return sqlite.AuthorizerOK
		}
	}
	return sqlite.AuthorizerDeny
}

// plainValue turns what a driver scanned into a value for tables, CSV and
// JSON, the same from both databases: text as string, numbers as int64 or
// float64 (PostgreSQL's NUMERIC, of AVG and SUM, comes as text:
// "1234.5000000000000000", where SQLite's is a number), binary as a
// description (blobText), times as RFC 3339.
func plainValue(v any, col *sql.ColumnType) any {
	switch x := v.(type) {
	case []byte:
		if blobType(col.DatabaseTypeName()) || !utf8.Valid(x) {
			return blobText(col.Name(), x)
		}
		return string(x)
	case string:
		if col.DatabaseTypeName() == "NUMERIC" {
			return numericValue(x)
		}
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case int32:
		return int64(x)
	case int16:
		return int64(x)
	case float32:
		return float64(x)
	}
	return v
}

func blobType(name string) bool { return name == "BLOB" || name == "BYTEA" }

// numericValue is PostgreSQL's NUMERIC text as a number: int64 when whole
// and written without a fraction (SUM, COUNT over numerics), else
// float64, as SQLite gives it; the text itself when it is neither (NaN).
func numericValue(text string) any {
	if !strings.ContainsAny(text, ".eE") {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return n
		}
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil {
		return f
	}
	return text
}

// blobText describes a binary value by what it holds. The catalog's one
// binary column is step_latency.histogram, the metrics package's form of
// a latency histogram: "<histogram of 2,000 I/Os, 907 bytes>"; anything
// else is "<blob 907 bytes>". Percentiles of histograms are what fleet
// and export read from them.
func blobText(column string, b []byte) string {
	if column == "histogram" {
		var h metrics.Histogram
		if h.UnmarshalBinary(b) == nil {
			return fmt.Sprintf("<histogram of %s I/Os, %d bytes>", format.Count(float64(h.Count())), len(b))
		}
	}
	return fmt.Sprintf("<blob %d bytes>", len(b))
}
