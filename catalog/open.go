package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	// The two database drivers, pure Go both.
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/stdlib"
	"golang.org/x/sys/unix"
	_ "modernc.org/sqlite"
)

// EnvVar names the environment variable that chooses the catalog when no
// -catalog flag is given.
const EnvVar = "DRIVEBENCH_CATALOG"

// busyTimeout is how long an SQLite writer waits for another one before
// giving up; several local runs may add at once.
const busyTimeout = 30 * time.Second

// Catalog is an open catalog database.
type Catalog struct {
	db *sql.DB
	// Where names the catalog for messages: the file, or the DSN without
	// its password.
	Where    string
	postgres bool
	// reading says the catalog was opened to Read: adding to it is refused.
	reading bool
	// ro is a second, read-only handle on an SQLite file, for queries.
	ro     *sql.DB
	roErr  error
	roOnce sync.Once
}

// DefaultPath is where the catalog lives when neither -catalog nor
// DRIVEBENCH_CATALOG names one: $XDG_DATA_HOME/drivebench/catalog.db,
// else ~/.local/share/drivebench/catalog.db.
func DefaultPath(getenv func(string) string) string {
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "drivebench", "catalog.db")
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".local", "share", "drivebench", "catalog.db")
}

// Resolve picks the catalog: the flag's value, else the environment
// variable, else the default file.
func Resolve(flag string, getenv func(string) string) string {
	if flag != "" {
		return flag
	}
	if v := getenv(EnvVar); v != "" {
		return v
	}
	return DefaultPath(getenv)
}

// IsPostgres says whether target is a PostgreSQL DSN rather than a file.
func IsPostgres(target string) bool {
	return strings.HasPrefix(target, "postgres://") || strings.HasPrefix(target, "postgresql://")
}

// Access is what a command does with the catalog it opens. A mistyped
// -catalog path must not become a new, empty catalog that a run is
// silently added to, nor may listing a catalog need the right to write
// it: only Create makes a catalog, and Read never writes one.
type Access int

const (
	// Read opens an existing catalog read-only (an SQLite file with
	// mode=ro, without migrating it), so a user who may only read the
	// file and its folder can list and query it.
	Read Access = iota
	// Write opens an existing catalog to add runs, migrating its schema
	// to this version's.
	Write
	// Create opens the catalog to add runs, creating it (an SQLite file
	// and its folder, or the tables in a PostgreSQL database) when there
	// is none.
	Create
)

// NoCatalogError is returned by a Read or Write open of a target that
// holds no catalog: a file that does not exist, or a database without
// the catalog's tables.
type NoCatalogError struct{ Where string }

func (e *NoCatalogError) Error() string {
	return fmt.Sprintf("there is no catalog at %s", e.Where)
}

// Open opens the catalog at target (a file path or a postgres:// DSN),
// creating it when there is none (Create).
func Open(ctx context.Context, target string) (*Catalog, error) {
	return OpenFor(ctx, target, Create)
}

// OpenFor opens the catalog at target for access: Read checks its schema
// version and changes nothing; Write and Create migrate it to this
// version's schema, and Create first makes it when there is none.
func OpenFor(ctx context.Context, target string, access Access) (*Catalog, error) {
	if !IsPostgres(target) && access != Create && target != "" {
		if _, err := os.Stat(target); errors.Is(err, fs.ErrNotExist) {
			return nil, &NoCatalogError{Where: target}
		}
	}
	c, err := connect(target, access == Read)
	if err != nil {
		return nil, err
	}
	if access != Create {
		err = c.checkVersion(ctx, access == Read)
	}
	if err == nil && access != Read {
		err = c.migrate(ctx)
	}
	if err != nil {
		c.db.Close()
		return nil, err
	}
	return c, nil
}

// checkVersion refuses a target without the catalog's tables, one of a
// newer schema, and for reading one of an older schema, which only a
// writer may migrate.
func (c *Catalog) checkVersion(ctx context.Context, reading bool) error {
	var v int
	if err := c.db.QueryRowContext(ctx, `SELECT version FROM catalog_schema WHERE id = 1`).Scan(&v); err != nil {
		if missingTable(err) || errors.Is(err, sql.ErrNoRows) {
			return &NoCatalogError{Where: c.Where}
		}
		return c.openError(err)
	}
	switch {
	case v > SchemaVersion:
		return &NewerSchemaError{Where: c.Where, Version: v, Know: SchemaVersion}
	case reading && v < SchemaVersion:
		return fmt.Errorf("catalog %s has schema version %d, and this drivebench reads version %d: "+
			"migrate it with drivebench catalog init (its runs are kept), as someone who may write it", c.Where, v, SchemaVersion)
	}
	return nil
}

// missingTable says whether err is the database's "no such table".
func missingTable(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg) && pg.Code == "42P01" || strings.Contains(err.Error(), "no such table")
}

func connect(target string, readOnly bool) (*Catalog, error) {
	if IsPostgres(target) {
		cfg, err := pgx.ParseConfig(target)
		if err != nil {
			return nil, fmt.Errorf("catalog %s: %w", redact(target), err)
		}
		// A canceled context (Ctrl-C, a query's time limit) sends the
		// server a cancel request, so that it stops the statement, instead
		// of only closing the connection while the server goes on.
		cfg.BuildContextWatcherHandler = func(conn *pgconn.PgConn) ctxwatch.Handler {
			return &pgconn.CancelRequestContextWatcherHandler{Conn: conn, DeadlineDelay: 5 * time.Second}
		}
		db := stdlib.OpenDB(*cfg)
		db.SetMaxOpenConns(8)
		return &Catalog{db: db, Where: redact(target), postgres: true}, nil
	}
	if target == "" {
		return nil, errors.New("no catalog named: give -catalog PATH or set " + EnvVar)
	}
	if readOnly {
		db, err := sql.Open("sqlite", readOnlyDSN(target))
		if err != nil {
			return nil, fmt.Errorf("catalog %s: %w", target, err)
		}
		return &Catalog{db: db, Where: target, reading: true}, nil
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return nil, fmt.Errorf("catalog %s: %w", target, err)
	}
	// WAL lets readers run while a run is being added; the busy timeout
	// makes concurrent writers wait for each other instead of failing;
	// foreign keys make a delete of a run take its rows with it.
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+target+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("catalog %s: %w", target, err)
	}
	return &Catalog{db: db, Where: target}, nil
}

// readOnlyDSN opens an SQLite catalog without writing anything: mode=ro,
// query_only, and no pragma that sets (journal_mode is one). A catalog in
// WAL mode needs its -shm file, which SQLite creates beside it; in a
// folder the reader may not write, with no writer at work (no -wal file
// there), the file is opened immutable instead, which needs none.
func readOnlyDSN(target string) string {
	q := url.Values{}
	q.Add("mode", "ro")
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "query_only(1)")
	if _, err := os.Stat(target + "-wal"); errors.Is(err, fs.ErrNotExist) && unix.Access(filepath.Dir(target), unix.W_OK) != nil {
		q.Add("immutable", "1")
	}
	return "file:" + target + "?" + q.Encode()
}

// redact removes the password from a DSN shown in messages.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// Close closes the database.
func (c *Catalog) Close() error {
	if c.ro != nil {
		c.ro.Close()
	}
	return c.db.Close()
}

// Kind is "sqlite" or "postgresql".
func (c *Catalog) Kind() string {
	if c.postgres {
		return "postgresql"
	}
	return "sqlite"
}
