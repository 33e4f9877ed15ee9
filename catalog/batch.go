package catalog

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
)

// maxBatchParams keeps a multi-row INSERT under SQLite's limit of bound
// parameters (32766) and PostgreSQL's (65535).
const maxBatchParams = 30000

// batch collects the rows of one table and inserts them. On PostgreSQL
// it uses as few statements as the parameter limit allows, so a run's
// hundreds of rows go in a handful of round trips to the server; SQLite
// has no round trips, and there one prepared single-row statement is
// faster than parsing a long one.
type batch struct {
	table string
	cols  []string
	rows  [][]any
}

func newBatch(table string, cols ...string) *batch {
	return &batch{table: table, cols: cols}
}

func (b *batch) add(vals ...any) {
	if len(vals) != len(b.cols) {
		panic("catalog: batch " + b.table + " got " + strconv.Itoa(len(vals)) + " values for " + strconv.Itoa(len(b.cols)) + " columns")
	}
	b.rows = append(b.rows, vals)
}

func (b *batch) exec(ctx context.Context, tx *sql.Tx, multiRow bool) error {
	if len(b.rows) == 0 {
		return nil
	}
	if !multiRow {
		return b.execEach(ctx, tx)
	}
	per := max(maxBatchParams/len(b.cols), 1)
	for start := 0; start < len(b.rows); start += per {
		rows := b.rows[start:min(start+per, len(b.rows))]
		var q strings.Builder
		q.WriteString("INSERT INTO " + b.table + " (" + strings.Join(b.cols, ", ") + ") VALUES ")
		args := make([]any, 0, len(rows)*len(b.cols))
		for i, r := range rows {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteByte('(')
			for j := range r {
				if j > 0 {
					q.WriteString(", ")
				}
				q.WriteString("$" + strconv.Itoa(len(args)+j+1))
			}
			q.WriteByte(')')
			args = append(args, r...)
		}
		if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
			return err
		}
	}
	return nil
}

func (b *batch) execEach(ctx context.Context, tx *sql.Tx) error {
	marks := make([]string, len(b.cols))
	for i := range marks {
		marks[i] = "$" + strconv.Itoa(i+1)
	}
	stmt, err := tx.PrepareContext(ctx, "INSERT INTO "+b.table+" ("+strings.Join(b.cols, ", ")+") VALUES ("+strings.Join(marks, ", ")+")")
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, r := range b.rows {
		if _, err := stmt.ExecContext(ctx, r...); err != nil {
			return err
		}
	}
	return nil
}
