package catalog

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"time"
	"unicode/utf8"
)

// Table is the result of a query: column names and rows of values
// (string, int64, float64, bool, nil).
type Table struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
}

// Query runs one SQL statement read-only: on SQLite through a connection
// that opened the file read-only, on PostgreSQL in a READ ONLY
// transaction that is rolled back. A statement that would write fails.
func (c *Catalog) Query(ctx context.Context, query string, args ...any) (*Table, error) {
	rows, done, err := c.readOnly(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("query on catalog %s: %w", c.Where, err)
	}
	defer done()
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	t := &Table{Columns: cols, Rows: [][]any{}}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		for i, v := range vals {
			vals[i] = plainValue(v)
		}
		t.Rows = append(t.Rows, vals)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("query on catalog %s: %w", c.Where, err)
	}
	return t, nil
}

func (c *Catalog) readOnly(ctx context.Context, query string, args ...any) (*sql.Rows, func(), error) {
	if c.postgres {
		tx, err := c.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
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

// readOnlyDB opens the SQLite file a second time, read-only, for queries.
func (c *Catalog) readOnlyDB() (*sql.DB, error) {
	c.roOnce.Do(func() {
		q := url.Values{}
		q.Add("mode", "ro")
		q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
		q.Add("_pragma", "query_only(1)")
		c.ro, c.roErr = sql.Open("sqlite", "file:"+c.Where+"?"+q.Encode())
	})
	return c.ro, c.roErr
}

// plainValue turns what a driver scanned into a value for tables, CSV and
// JSON: text as string, binary as a note of its size, times as RFC 3339.
func plainValue(v any) any {
	switch x := v.(type) {
	case []byte:
		if utf8.Valid(x) {
			return string(x)
		}
		return fmt.Sprintf("(%d bytes)", len(x))
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
